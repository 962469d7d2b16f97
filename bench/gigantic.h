/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clearpage-bench gigantic: what its measuring (gigantic.c) and its
 * options (gigantic-options.c) share.
 */
#ifndef CLEARPAGE_BENCH_GIGANTIC_H
#define CLEARPAGE_BENCH_GIGANTIC_H

#include <stdbool.h>

#include "bench.h"

#define GIGANTIC (1UL << 30)
#define GIGANTIC_PAGES (GIGANTIC / BENCH_PAGE)
#define MAX_THREADS 32
#define REGIMES 3
#define ENOUGH 1.10	/* a step of threads must be 10% faster */

extern const char *const gigantic_regimes[REGIMES];

struct gigantic {
	unsigned int mask;		/* strategies */
	unsigned long chunk_pages;
	int cpus[MAX_THREADS];		/* the node's, the first one first */
	int nr_cpus;
	int threads[MAX_THREADS];	/* counts to measure */
	int nr_threads;
	const char *thread_list;	/* --threads, or NULL: 1, 2, 4 ... */
	bool regime[REGIMES];
	struct bench_args args;
};

/* The node's CPUs this process may run on, @first first, never @skip. */
int gigantic_node_cpus(int node, int first, int skip, int *cpus);
/* @g's thread counts: --threads, or 1, 2, 4 ... up to its CPUs. */
int gigantic_threads(struct gigantic *g);

/*
 * Parse clearpage-bench gigantic's options into @g, with the node's CPUs
 * it may use; BENCH_GO_ON, or an exit status (usage printed).
 */
int gigantic_parse(int argc, char **argv, struct gigantic *g);

#endif /* CLEARPAGE_BENCH_GIGANTIC_H */
