/* SPDX-License-Identifier: GPL-2.0 */
/* clearpage-bench strategies --pattern faults; see patterns.c. */
#ifndef CLEARPAGE_BENCH_PATTERNS_H
#define CLEARPAGE_BENCH_PATTERNS_H

#include "bench.h"

#define PATTERNS_CSV_HEADER \
	"pattern,arm,chunk_bytes,chunk,touch,ns_per_4k_median,ns_per_4k_min,ns_per_4k_max,ratio_to_kernel"

struct patterns_options {
	unsigned int mask;		/* strategies besides the kernel arm */
	unsigned long runs;
	int node;			/* -1: local */
	uint64_t pool_bytes;		/* 4k-cold pool */
	uint64_t chunks[8];		/* range sizes of the folio arms */
	int nr_chunks;
	bool gigantic;			/* measure 1g-cold */
};

/* Measure, print the table, fill out->root "results", CSV and SVG. */
int bench_patterns(struct bench_out *out, const struct patterns_options *o);

#endif /* CLEARPAGE_BENCH_PATTERNS_H */
