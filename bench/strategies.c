// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench strategies: every strategy routine, in user space.
 *
 * --pattern faults (the default): in the patterns the kernel's paths clear
 * in, beside the kernel's own way (patterns.c).
 * --pattern contiguous: on a buffer that is hot (cleared once untimed, then
 * timed while its lines are cached) or cold (every line flushed from every
 * cache level before each timed pass), at each size, page after page in
 * address order. Median, min and max of the passes, in ns per 4 KiB page
 * and GB/s. Hardware prefetch makes this rank strategies differently from
 * faults: it is kept to show that, not to choose by.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "patterns.h"

#define MAX_SIZES 16

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: clearpage-bench strategies [--pattern faults|contiguous] [--runs N]\n"
		"                                 [--strategies LIST|all] [--cpu C] [--node N]\n"
		"                                 [--chunks LIST] [--pool SIZE] [--no-gigantic]\n"
		"                                 [--sizes LIST] [--burst-only] [--load CPU]\n"
		"                                 [--out DIR]\n"
		"  --pattern     faults (default): single cold pages at random addresses,\n"
		"                hot pages, 2 MiB and 1 GiB folios cleared as the module's\n"
		"                huge backend clears them, each beside the kernel's way;\n"
		"                contiguous: buffers of --sizes cleared in address order\n"
		"  --chunks      range sizes of the folio arms (default 64K,2M)\n"
		"  --pool        the pool single cold pages come from (default 1G)\n"
		"  --no-gigantic leave out the 1 GiB folio\n"
		"  --burst-only  only the burst regime (-cold patterns: flushed, memory\n"
		"                idle), not the sustained one (back to back through --pool)\n"
		"  --load        the loaded regime too: the sustained clears with a\n"
		"                memory-bandwidth load on this CPU (needs --cpu, another)\n"
		"  --sizes       contiguous buffer sizes (default 16K,256K,8M,64M,512M,4G)\n"
		"  --runs        timed passes per point, median reported (default 5)\n"
		"  --strategies  user-space routines to time (default all)\n"
		"  --cpu, --node run on CPU C, with memory on node N\n"
		"  --out         directory for strategies.{json,csv,svg}\n"
		"                (default bench-results)\n");
}

static double pass_ns(int strategy, char *buf, uint64_t bytes)
{
	uint64_t t0 = bench_now_ns();

	for (uint64_t off = 0; off < bytes; off += BENCH_PAGE)
		bench_clear(strategy, buf + off);
	return (double)(bench_now_ns() - t0);
}

static const char plot[] =
	"set title 'clearpage-bench strategies: ns per 4 KiB page'\n"
	"set logscale x 2\nset logscale y\nset xlabel 'buffer size (KiB)'\n"
	"set ylabel 'ns per 4 KiB (median)'\nset key outside right\n"
	"set grid\n"
	"strategies = system(\"awk -F, 'NR > 1 { print $1 }' \" . csv . \" | sort -u | tr '\\n' ' '\")\n"
	"series(s, m) = sprintf(\"< awk -F, '$1 == \\\"%s\\\" && $3 == \\\"%s\\\"' %s\", s, m, csv)\n"
	"plot for [s in strategies] for [m in 'hot cold'] series(s, m) using "
	"($2 / 1024):4 with linespoints title s . ' ' . m\n";

/* One strategies run: what the command line asked for. */
struct strategies {
	const char *size_list, *chunk_list, *pool;
	bool contiguous, sizes_given;
	uint64_t sizes[MAX_SIZES];
	int nr_sizes;
	unsigned int mask;
	struct patterns_options po;
	struct bench_args args;
};

/* One of strategies' own options (bench_parse()). */
static int strategies_option(int opt, const char *arg, void *ctx)
{
	struct strategies *st = ctx;

	switch (opt) {
	case 's': st->size_list = arg; st->sizes_given = true; return 0;
	case 'p':
		if (strcmp(arg, "faults") && strcmp(arg, "contiguous")) {
			bench_error("--pattern: '%s' is not faults or contiguous", arg);
			return 2;
		}
		st->contiguous = !strcmp(arg, "contiguous");
		return 0;
	case 'C': st->chunk_list = arg; return 0;
	case 'P': st->pool = arg; return 0;
	case 'G': st->po.gigantic = false; return 0;
	case 'B': st->po.sustained = false; return 0;
	case 'S': return bench_parse_strategies(arg, &st->mask) ? 2 : 0;
	}
	return BENCH_GO_ON;
}

/* The command line into @st; BENCH_GO_ON, or the exit status. */
static int strategies_parse(int argc, char **argv, struct strategies *st)
{
	static const struct option options[] = {
		{ "sizes", required_argument, NULL, 's' },
		{ "strategies", required_argument, NULL, 'S' },
		{ "pattern", required_argument, NULL, 'p' },
		{ "chunks", required_argument, NULL, 'C' },
		{ "pool", required_argument, NULL, 'P' },
		{ "no-gigantic", no_argument, NULL, 'G' },
		{ "burst-only", no_argument, NULL, 'B' },
		BENCH_OPTION_RUNS, BENCH_OPTION_CPU, BENCH_OPTION_NODE,
		BENCH_OPTION_LOAD, BENCH_OPTION_OUT, BENCH_OPTION_HELP,
		{}
	};
	struct patterns_options *po = &st->po;
	int err;

	if (bench_parse_strategies("all", &st->mask))
		return 2;
	err = bench_parse(argc, argv, options, &st->args, usage,
			  strategies_option, st);
	if (err != BENCH_GO_ON)
		return err;
	po->load_cpu = st->args.load_cpu == ~0UL ? -1 : (int)st->args.load_cpu;
	if (st->sizes_given && !st->contiguous) {
		bench_error("--sizes is for --pattern contiguous");
		return 2;
	}
	st->nr_sizes = bench_parse_sizes(st->size_list, st->sizes, MAX_SIZES);
	po->nr_chunks = bench_parse_sizes(st->chunk_list, po->chunks, 8);
	if (po->nr_chunks < 0 ||
	    (st->pool && bench_parse_sizes(st->pool, &po->pool_bytes, 1) != 1)) {
		bench_error("--chunks/--pool: '%s' is not a list of sizes that are multiples of 4K (e.g. 64K,2M)",
			    po->nr_chunks < 0 ? st->chunk_list : st->pool);
		return 2;
	}
	for (int i = 0; i < po->nr_chunks; i++)
		if (po->chunks[i] > BENCH_HUGE) {
			bench_error("--chunks: %llu bytes is more than a 2 MiB folio",
				    (unsigned long long)po->chunks[i]);
			return 2;
		}
	if (po->pool_bytes < 16 * BENCH_PAGE) {
		bench_error("--pool: at least 64K");
		return 2;
	}
	if (st->nr_sizes < 0) {
		bench_error("--sizes: '%s' is not a list of sizes that are multiples of 4K (e.g. 16K,8M,4G)",
			    st->size_list);
		return 2;
	}
	st->mask &= ~1U;	/* the kernel's routine does not run in user space */
	for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if ((st->mask & (1U << s)) && !bench_strategy_usable(s)) {
			bench_error("%s is not available on this CPU", policy_strategy_name(s));
			return 2;
		}
	return BENCH_GO_ON;
}

/* One strategy on one buffer, hot then cold: CSV and JSON; the medians and GB/s. */
static int strategies_measure(const struct strategies *st, struct bench_out *out,
			      json_object *results, int s, char *buf,
			      uint64_t size, const char *size_name,
			      double med[2], double gbs[2])
{
	unsigned long runs = st->args.runs;

	for (int cold = 0; cold < 2; cold++) {
		double *v = calloc(runs, sizeof(*v)), lo, hi;
		double pages = (double)size / BENCH_PAGE;
		json_object *o;

		if (!v)
			return -ENOMEM;
		bench_progress("strategies: %s %s %s", policy_strategy_name(s),
			       size_name, cold ? "cold" : "hot");
		if (!cold)
			pass_ns(s, buf, size);
		for (unsigned long r = 0; r < runs; r++) {
			if (cold)
				bench_flush(buf, size);
			v[r] = pass_ns(s, buf, size) / pages;
		}
		bench_summary(v, runs, &med[cold], &lo, &hi);
		free(v);
		gbs[cold] = BENCH_PAGE / med[cold];	/* bytes/ns = GB/s */
		bench_out_csv(out, "%s,%llu,%s,%.1f,%.1f,%.1f,%.2f",
			      policy_strategy_name(s), (unsigned long long)size,
			      cold ? "cold" : "hot", med[cold], lo, hi, gbs[cold]);
		o = json_object_new_object();
		json_object_object_add(o, "strategy",
				       json_object_new_string(policy_strategy_name(s)));
		json_object_object_add(o, "size_bytes",
				       json_object_new_int64((int64_t)size));
		json_object_object_add(o, "mode",
				       json_object_new_string(cold ? "cold" : "hot"));
		json_object_object_add(o, "runs", json_object_new_int((int)runs));
		json_object_object_add(o, "ns_per_4k_median", json_object_new_double(med[cold]));
		json_object_object_add(o, "ns_per_4k_min", json_object_new_double(lo));
		json_object_object_add(o, "ns_per_4k_max", json_object_new_double(hi));
		json_object_object_add(o, "gb_per_s", json_object_new_double(gbs[cold]));
		json_object_array_add(results, o);
	}
	return 0;
}

/* --pattern contiguous: every strategy over buffers of each size. */
static int strategies_contiguous(const struct strategies *st, int argc,
				 char **argv)
{
	int node = st->args.node == ~0UL ? -1 : (int)st->args.node;
	struct bench_out out;
	json_object *results;

	if (bench_out_open(&out, st->args.out, "strategies", argc, argv,
			   "strategy,size_bytes,mode,ns_per_4k_median,ns_per_4k_min,ns_per_4k_max,gb_per_s"))
		return 1;
	results = json_object_new_array();
	json_object_object_add(out.root, "results", results);
	printf("%-10s %8s  %14s %14s %10s %10s\n", "strategy", "size",
	       "hot ns/4K", "cold ns/4K", "hot GB/s", "cold GB/s");
	for (int i = 0; i < st->nr_sizes; i++) {
		char *buf = bench_map(st->sizes[i], node, true, false);
		char size_name[32];

		if (!buf) {
			bench_out_close(&out);
			return 1;
		}
		bench_format_size(st->sizes[i], size_name, sizeof(size_name));
		for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
			double med[2], gbs[2];

			if (!(st->mask & (1U << s)))
				continue;
			if (strategies_measure(st, &out, results, s, buf,
					       st->sizes[i], size_name, med, gbs)) {
				bench_unmap(buf, st->sizes[i]);
				bench_out_close(&out);
				return 1;
			}
			bench_progress_done();
			printf("%-10s %8s  %14.1f %14.1f %10.2f %10.2f\n",
			       policy_strategy_name(s), size_name, med[0], med[1],
			       gbs[0], gbs[1]);
			fflush(stdout);
		}
		bench_unmap(buf, st->sizes[i]);
	}
	bench_out_plot(&out, plot);
	return bench_out_close(&out) ? 1 : 0;
}

int bench_strategies(int argc, char **argv)
{
	static struct strategies st;
	struct bench_out out;
	int err;

	st = (struct strategies){
		.size_list = "16K,256K,8M,64M,512M,4G", .chunk_list = "64K,2M",
		.po = { .gigantic = true, .pool_bytes = 1ULL << 30,
			.sustained = true, .load_cpu = -1 },
		.args = BENCH_ARGS(5),
	};
	err = strategies_parse(argc, argv, &st);
	if (err != BENCH_GO_ON)
		return err;
	if (st.args.cpu != ~0UL && bench_bind_cpu((int)st.args.cpu))
		return 1;
	if (st.contiguous)
		return strategies_contiguous(&st, argc, argv);
	/* The fault-like patterns (patterns.c). */
	st.po.mask = st.mask;
	st.po.runs = st.args.runs;
	st.po.node = st.args.node == ~0UL ? -1 : (int)st.args.node;
	if (bench_out_open(&out, st.args.out, "strategies", argc, argv,
			   PATTERNS_CSV_HEADER))
		return 1;
	err = bench_patterns(&out, &st.po);
	err = bench_out_close(&out) || err;
	return err ? 1 : 0;
}
