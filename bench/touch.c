// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench touch: the touch probe of clearpage.ko (the module's own
 * line pick, clearpage_touch_offset(), its seed, clearpage_touch_seed(),
 * and its load, clearpage_timed_load(), all from probe.h) in user
 * space, against what the application really read.
 *
 * A pool of 4 KiB pages (four times the last-level cache, at least 1 GiB),
 * each cleared once per run with movnti as a 4 KiB fault on a node on
 * movnti would be, its first line read at once (the faulting line), and
 * the whole page read for a share of the pages (--read, at random). As
 * the module's one slot per CPU does, one clear in --every is held while
 * the slot is free, and its line is loaded --delay clears later: cached
 * means the application read it. The pages come in address order
 * (sequential: a fresh process on an unfragmented node gets physically
 * sequential pages) or in a random order, and the seed is the module's
 * hash (hashed) or the clear's number itself (linear, what the module
 * did before: a constant step between lines, which a stride prefetcher
 * follows). Each case reports the probe's cached share beside the share
 * of probed lines the application read; the two should agree.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum { SEQUENTIAL, RANDOM, ORDERS };
enum { HASHED, LINEAR, SEEDS };

static const char *const order_names[ORDERS] = { "sequential", "random" };
static const char *const seed_names[SEEDS] = { "hashed", "linear" };

#define MAX_READS 8

struct touch_bench {
	struct bench_args args;
	uint64_t pool_bytes;
	unsigned long every, delay;
	unsigned long read[MAX_READS];	/* % of pages read whole */
	int nr_reads;
	bool order[ORDERS], seed[SEEDS];
	unsigned long threshold;
	int strategy;			/* the non-temporal clear */
};

struct touch_case {
	int order, seed;
	unsigned long read;
	unsigned long probed, cached, truth, runs;
	double cached_min, cached_max;	/* per run, shares */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: clearpage-bench touch [--runs N] [--pool SIZE] [--every N] [--delay N]\n"
		"                             [--read LIST] [--order LIST] [--seed LIST]\n"
		"                             [--cpu C] [--node N] [--out DIR]\n"
		"  The touch probe in user space: the share of its loads that read cached\n"
		"  beside the share of probed lines the application read, with pages in\n"
		"  address order and at random.\n"
		"  --read    shares (%%) of pages the application reads whole after their\n"
		"            clear (default 0,50,100; every page's first line is read)\n"
		"  --order   sequential, random or both (default both)\n"
		"  --seed    hashed (the module's), linear (the clear's number) or both\n"
		"            (default both)\n"
		"  --every   one clear in N held while the slot is free (default 16, the\n"
		"            module's touch_shift 4)\n"
		"  --delay   clears between a page's hold and its load (default 16)\n"
		"  --pool    the pool pages come from (default 4 x the last-level cache, at least 1G)\n"
		"  --runs    runs per case (default 3)\n"
		"  --cpu, --node  run on CPU C, with memory on node N\n"
		"  --out     directory for touch.{json,csv,svg} (default bench-results)\n");
}

/* A permutation of [0, n): the identity, or shuffled (Fisher-Yates). */
static void fill_order(unsigned long *index, unsigned long n, bool shuffle,
		       unsigned int *rng)
{
	for (unsigned long i = 0; i < n; i++)
		index[i] = i;
	for (unsigned long i = n - 1; shuffle && i > 0; i--) {
		unsigned long j = (((unsigned long)rand_r(rng) << 16) ^
				   (unsigned long)rand_r(rng)) % (i + 1);
		unsigned long t = index[i];

		index[i] = index[j];
		index[j] = t;
	}
}

/* One run of case @c over @pool in the order @index. */
static void touch_run(const struct touch_bench *tb, char *pool,
		      const unsigned long *index, unsigned long pages,
		      struct touch_case *c, unsigned int *rng)
{
	unsigned long probed = 0, cached = 0, held_at = 0;
	const char *held = NULL;
	bool held_truth = false;
	uint64_t sink = 0;
	double s;

	for (unsigned long k = 0; k < pages; k++) {
		char *page = pool + index[k] * BENCH_PAGE;
		bool whole = (unsigned long)rand_r(rng) % 100 < c->read;

		bench_clear(tb->strategy, page);
		/* The application: its faulting line at once, maybe the rest. */
		sink += whole ? bench_read_lines(page, BENCH_PAGE) :
				*(volatile uint64_t *)page;
		if (held && k - held_at >= tb->delay) {
			probed++;
			cached += clearpage_timed_load(held) < tb->threshold;
			c->truth += held_truth;
			held = NULL;
		}
		if (held || k % tb->every)
			continue;
		held = page + clearpage_touch_offset(1, 0, c->seed == HASHED ?
						     clearpage_touch_seed(k) : k);
		held_at = k;
		held_truth = whole;
	}
	c->probed += probed;
	c->cached += cached;
	s = probed ? (double)cached / probed : 0;
	if (!c->runs++ || s < c->cached_min)
		c->cached_min = s;
	if (c->runs == 1 || s > c->cached_max)
		c->cached_max = s;
	/* Keep the application's reads. */
	if (sink == 1)
		fputc('\0', stderr);
}

static double share(unsigned long part, unsigned long whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static void report(struct bench_out *out, json_object *results,
		   const struct touch_case *c)
{
	json_object *o = json_object_new_object();
	double cached = share(c->cached, c->probed);
	double truth = share(c->truth, c->probed);

	printf("%-11s %-7s %5lu%% %8lu %8.1f%% %8.1f%% %+8.1f   %.1f-%.1f%%\n",
	       order_names[c->order], seed_names[c->seed], c->read, c->probed,
	       cached, truth, cached - truth, 100 * c->cached_min,
	       100 * c->cached_max);
	fflush(stdout);
	bench_out_csv(out, "%s,%s,%lu,%lu,%lu,%lu", order_names[c->order],
		      seed_names[c->seed], c->read, c->probed, c->cached,
		      c->truth);
	json_object_object_add(o, "order", json_object_new_string(order_names[c->order]));
	json_object_object_add(o, "seed", json_object_new_string(seed_names[c->seed]));
	json_object_object_add(o, "read_pct", json_object_new_int64((int64_t)c->read));
	json_object_object_add(o, "probed", json_object_new_int64((int64_t)c->probed));
	json_object_object_add(o, "cached", json_object_new_int64((int64_t)c->cached));
	json_object_object_add(o, "read", json_object_new_int64((int64_t)c->truth));
	json_object_object_add(o, "cached_share", json_object_new_double(cached / 100));
	json_object_object_add(o, "read_share", json_object_new_double(truth / 100));
	json_object_object_add(o, "points_off", json_object_new_double(cached - truth));
	json_object_object_add(o, "cached_share_min", json_object_new_double(c->cached_min));
	json_object_object_add(o, "cached_share_max", json_object_new_double(c->cached_max));
	json_object_array_add(results, o);
}

/* "a,b" of @names into @on; 2 after one error line. */
static int parse_names(const char *arg, const char *what,
		       const char *const *names, int n, bool *on)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	int i, err = 0;

	if (!copy)
		return 2;
	memset(on, 0, n * sizeof(*on));
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "both")) {
			for (i = 0; i < n; i++)
				on[i] = true;
			continue;
		}
		for (i = 0; i < n && strcmp(tok, names[i]); i++)
			;
		if (i == n) {
			bench_error("%s: '%s' is not %s, %s or both", what, tok,
				    names[0], names[1]);
			err = 2;
		} else {
			on[i] = true;
		}
	}
	free(copy);
	return err;
}

static int parse_reads(struct touch_bench *tb, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	int err = 0;

	if (!copy)
		return 2;
	tb->nr_reads = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		if (tb->nr_reads == MAX_READS) {
			bench_error("--read: at most %d shares", MAX_READS);
			err = 2;
		} else if (bench_parse_uint(tok, "--read", 100,
					    &tb->read[tb->nr_reads++])) {
			err = 2;
		}
	}
	if (!err && !tb->nr_reads) {
		bench_error("--read: give at least one share, 0 to 100");
		err = 2;
	}
	free(copy);
	return err;
}

static int touch_option(int opt, const char *arg, void *ctx)
{
	struct touch_bench *tb = ctx;

	switch (opt) {
	case 'r':
		return parse_reads(tb, arg);
	case 'o':
		return parse_names(arg, "--order", order_names, ORDERS, tb->order);
	case 's':
		return parse_names(arg, "--seed", seed_names, SEEDS, tb->seed);
	case 'e':
		return bench_parse_range(arg, "--every", 1, 1UL << 16, &tb->every) ? 2 : 0;
	case 'd':
		return bench_parse_range(arg, "--delay", 1, 1UL << 20, &tb->delay) ? 2 : 0;
	case 'P':
		if (bench_parse_sizes(arg, &tb->pool_bytes, 1) != 1 ||
		    tb->pool_bytes < 2 * BENCH_HUGE) {
			bench_error("--pool: '%s' is not a size of at least 4M, a multiple of 4K", arg);
			return 2;
		}
		return 0;
	}
	return BENCH_GO_ON;
}

static const char plot[] =
	"set terminal svg size 800,400; set output svg\n"
	"set datafile separator ','\n"
	"set ylabel 'probe cached - application read (points)'\n"
	"set style data histograms; set style fill solid\n"
	"plot csv using (100.0 * ($5 - $6) / ($4 > 0 ? $4 : 1)):xtic(sprintf('%s %s %s', strcol(1), strcol(2), strcol(3))) title 'touch probe'\n";

int bench_touch(int argc, char **argv)
{
	static const struct option options[] = {
		{ "pool", required_argument, NULL, 'P' },
		{ "every", required_argument, NULL, 'e' },
		{ "delay", required_argument, NULL, 'd' },
		{ "read", required_argument, NULL, 'r' },
		{ "order", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		BENCH_OPTION_RUNS, BENCH_OPTION_CPU, BENCH_OPTION_NODE,
		BENCH_OPTION_OUT, BENCH_OPTION_HELP,
		{}
	};
	struct touch_bench tb = {
		.args = BENCH_ARGS(3), .every = 16, .delay = 16,
		.read = { 0, 50, 100 }, .nr_reads = 3,
		.order = { true, true }, .seed = { true, true },
	};
	unsigned long *index = NULL, pages;
	unsigned int rng = 12345;
	struct bench_out out;
	json_object *results, *cal;
	double hot, cold;
	char *pool;
	int node, err;

	err = bench_parse(argc, argv, options, &tb.args, usage, touch_option, &tb);
	if (err != BENCH_GO_ON)
		return err;
	tb.strategy = bench_strategy_usable(CLEARPAGE_STRATEGY_MOVNTI) ?
		      CLEARPAGE_STRATEGY_MOVNTI : -1;
	if (tb.strategy < 0) {
		bench_error("touch: this CPU has no movnti (SSE2) for the non-temporal clear");
		return 1;
	}
	if (!tb.pool_bytes)
		tb.pool_bytes = 4 * bench_llc_bytes() > (1ULL << 30) ?
				4 * bench_llc_bytes() : 1ULL << 30;
	tb.pool_bytes -= tb.pool_bytes % BENCH_HUGE;
	pages = tb.pool_bytes / BENCH_PAGE;
	if (tb.args.cpu != ~0UL && bench_bind_cpu((int)tb.args.cpu))
		return 1;
	node = tb.args.node == ~0UL ? -1 : (int)tb.args.node;
	pool = bench_map(tb.pool_bytes, node, true, true);
	if (!pool)
		return 1;
	index = malloc(pages * sizeof(*index));
	if (!index) {
		bench_error("touch: no memory for the order of %lu pages", pages);
		bench_unmap(pool, tb.pool_bytes);
		return 1;
	}
	memset(pool, 1, tb.pool_bytes);
	tb.threshold = bench_probe_calibrate(pool, &hot, &cold);
	printf("probe calibration: a cached line %.0f ticks, a line from memory %.0f, threshold %lu%s\n",
	       hot, cold, tb.threshold,
	       tb.threshold ? "" : " (cannot tell them apart: the module refuses the probe here)");
	if (bench_out_open(&out, tb.args.out, "touch", argc, argv,
			   "order,seed,read_pct,probed,cached,read")) {
		free(index);
		bench_unmap(pool, tb.pool_bytes);
		return 1;
	}
	cal = json_object_new_object();
	json_object_object_add(cal, "hot_ticks", json_object_new_double(hot));
	json_object_object_add(cal, "cold_ticks", json_object_new_double(cold));
	json_object_object_add(cal, "threshold_ticks",
			       json_object_new_int64((int64_t)tb.threshold));
	json_object_object_add(out.root, "calibration", cal);
	json_object_object_add(out.root, "pages", json_object_new_int64((int64_t)pages));
	json_object_object_add(out.root, "every", json_object_new_int64((int64_t)tb.every));
	json_object_object_add(out.root, "delay", json_object_new_int64((int64_t)tb.delay));
	results = json_object_new_array();
	json_object_object_add(out.root, "results", results);
	if (!tb.threshold)
		goto done;
	printf("%-11s %-7s %6s %8s %9s %9s %8s   %s\n", "order", "seed", "read",
	       "probed", "cached", "read", "points", "cached per run");
	for (int o = 0; o < ORDERS; o++) {
		if (!tb.order[o])
			continue;
		for (int s = 0; s < SEEDS; s++) {
			if (!tb.seed[s])
				continue;
			for (int r = 0; r < tb.nr_reads; r++) {
				struct touch_case c = { .order = o, .seed = s,
							.read = tb.read[r] };

				for (unsigned long run = 0; run < tb.args.runs; run++) {
					bench_progress("touch: %s %s read %lu%%, run %lu",
						       order_names[o], seed_names[s],
						       tb.read[r], run + 1);
					fill_order(index, pages, o == RANDOM, &rng);
					touch_run(&tb, pool, index, pages, &c, &rng);
				}
				bench_progress_done();
				report(&out, results, &c);
			}
		}
	}
	printf("points: the probe's cached share minus the share of probed lines the application\n"
	       "read; one clear in %lu held, loaded %lu clears later, %lu pages. CPU %s family %u model %u.\n",
	       tb.every, tb.delay, pages, bench_cpu.vendor, bench_cpu.family,
	       bench_cpu.model);
done:
	free(index);
	bench_unmap(pool, tb.pool_bytes);
	bench_out_plot(&out, plot);
	return bench_out_close(&out) ? 1 : 0;
}
