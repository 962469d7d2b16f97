/* SPDX-License-Identifier: GPL-2.0 */
/* clearpage-bench strategies --pattern faults; see patterns.c. */
#ifndef CLEARPAGE_BENCH_PATTERNS_H
#define CLEARPAGE_BENCH_PATTERNS_H

#include "bench.h"

#define PATTERNS_CSV_HEADER \
	"pattern,arm,chunk_bytes,chunk,touch,ns_per_4k_median,ns_per_4k_min,ns_per_4k_max,ratio_to_kernel,ratio_to_kernel_7x"

/* One measured point, for callers that decide on the figures (advise). */
struct pattern_result {
	const char *pattern;		/* "4k-cold", "2m-hot", ... */
	int strategy;			/* or a kernel arm (bench.h) */
	uint64_t chunk;			/* bytes per range; 0: pages / walk */
	const char *touch;		/* "none", "line", "fault-page", ... */
	double median;			/* ns per 4 KiB */
	/*
	 * To the kernel arm of the same pattern and touch: [0] the 6.x one,
	 * [1] the 7.x one (the same for single pages).
	 */
	double ratio[2];
};

struct patterns_options {
	unsigned int mask;		/* strategies besides the kernel arm */
	unsigned long runs;
	int node;			/* -1: local */
	uint64_t pool_bytes;		/* 4k-cold pool */
	uint64_t chunks[8];		/* range sizes of the folio arms */
	int nr_chunks;
	bool gigantic;			/* measure 1g-cold */
	bool sustained;			/* the sustained regime too */
	int load_cpu;			/* the loaded regime, a load there; -1: none */
	/* Optional: every point's figures, up to max_results of them. */
	struct pattern_result *results;
	int max_results;
	int nr_results;			/* out */
};

/* Measure, print the table, fill out->root "results", CSV and SVG. */
int bench_patterns(struct bench_out *out, struct patterns_options *o);

#endif /* CLEARPAGE_BENCH_PATTERNS_H */
