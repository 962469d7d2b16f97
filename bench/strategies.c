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

int bench_strategies(int argc, char **argv)
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
	uint64_t sizes[MAX_SIZES];
	const char *size_list = "16K,256K,8M,64M,512M,4G", *dir = "bench-results";
	unsigned long runs = 5, cpu = ~0UL, node = ~0UL;
	unsigned int mask;
	int nr_sizes, opt, s, i, err;
	struct bench_out out;
	json_object *results;
	struct patterns_options po = { .gigantic = true, .pool_bytes = 1ULL << 30,
				       .sustained = true, .load_cpu = -1 };
	unsigned long load_cpu = ~0UL;
	const char *chunk_list = "64K,2M", *pool = NULL;
	bool contiguous = false, sizes_given = false;
	struct bench_args args = BENCH_ARGS(5);

	if (bench_parse_strategies("all", &mask))
		return 2;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 's': size_list = optarg; sizes_given = true; break;
		case 'p':
			if (strcmp(optarg, "faults") && strcmp(optarg, "contiguous")) {
				bench_error("--pattern: '%s' is not faults or contiguous", optarg);
				return 2;
			}
			contiguous = !strcmp(optarg, "contiguous");
			break;
		case 'C': chunk_list = optarg; break;
		case 'P': pool = optarg; break;
		case 'G': po.gigantic = false; break;
		case 'B': po.sustained = false; break;
		case 'S':
			if (bench_parse_strategies(optarg, &mask))
				return 2;
			break;
		default:
			err = bench_common_option(opt, optarg, &args, usage);
			if (err != BENCH_GO_ON)
				return err;
		}
	}
	err = bench_common_done(argc, &args, usage);
	if (err != BENCH_GO_ON)
		return err;
	runs = args.runs;
	cpu = args.cpu;
	node = args.node;
	load_cpu = args.load_cpu;
	dir = args.out;
	po.load_cpu = load_cpu == ~0UL ? -1 : (int)load_cpu;
	if (sizes_given && !contiguous) {
		bench_error("--sizes is for --pattern contiguous");
		return 2;
	}
	nr_sizes = bench_parse_sizes(size_list, sizes, MAX_SIZES);
	po.nr_chunks = bench_parse_sizes(chunk_list, po.chunks, 8);
	if (po.nr_chunks < 0 || (pool && bench_parse_sizes(pool, &po.pool_bytes, 1) != 1)) {
		bench_error("--chunks/--pool: '%s' is not a list of sizes that are multiples of 4K (e.g. 64K,2M)",
			    po.nr_chunks < 0 ? chunk_list : pool);
		return 2;
	}
	for (i = 0; i < po.nr_chunks; i++)
		if (po.chunks[i] > BENCH_HUGE) {
			bench_error("--chunks: %llu bytes is more than a 2 MiB folio",
				    (unsigned long long)po.chunks[i]);
			return 2;
		}
	if (po.pool_bytes < 16 * BENCH_PAGE) {
		bench_error("--pool: at least 64K");
		return 2;
	}
	if (nr_sizes < 0) {
		bench_error("--sizes: '%s' is not a list of sizes that are multiples of 4K (e.g. 16K,8M,4G)",
			    size_list);
		return 2;
	}
	mask &= ~1U;	/* the kernel's routine does not run in user space */
	for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if ((mask & (1U << s)) && !bench_strategy_usable(s)) {
			bench_error("%s is not available on this CPU", policy_strategy_name(s));
			return 2;
		}
	if (cpu != ~0UL && bench_bind_cpu((int)cpu))
		return 1;
	if (!contiguous) {
		po.mask = mask;
		po.runs = runs;
		po.node = node == ~0UL ? -1 : (int)node;
		if (bench_out_open(&out, dir, "strategies", argc, argv,
				   PATTERNS_CSV_HEADER))
			return 1;
		err = bench_patterns(&out, &po);
		err = bench_out_close(&out) || err;
		return err ? 1 : 0;
	}
	if (bench_out_open(&out, dir, "strategies", argc, argv,
			   "strategy,size_bytes,mode,ns_per_4k_median,ns_per_4k_min,ns_per_4k_max,gb_per_s"))
		return 1;
	results = json_object_new_array();
	json_object_object_add(out.root, "results", results);
	printf("%-10s %8s  %14s %14s %10s %10s\n", "strategy", "size",
	       "hot ns/4K", "cold ns/4K", "hot GB/s", "cold GB/s");
	for (i = 0; i < nr_sizes; i++) {
		char *buf = bench_map(sizes[i], node == ~0UL ? -1 : (int)node,
				      true, false);
		char size_name[32];

		if (!buf) {
			bench_out_close(&out);
			return 1;
		}
		bench_format_size(sizes[i], size_name, sizeof(size_name));
		for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
			double med[2], gbs[2];

			if (!(mask & (1U << s)))
				continue;
			for (int cold = 0; cold < 2; cold++) {
				double *v = calloc(runs, sizeof(*v)), lo, hi;
				double pages = (double)sizes[i] / BENCH_PAGE;
				json_object *o;

				if (!v)
					return 1;
				bench_progress("strategies: %s %s %s", policy_strategy_name(s),
					       size_name, cold ? "cold" : "hot");
				if (!cold)
					pass_ns(s, buf, sizes[i]);
				for (unsigned long r = 0; r < runs; r++) {
					if (cold)
						bench_flush(buf, sizes[i]);
					v[r] = pass_ns(s, buf, sizes[i]) / pages;
				}
				bench_summary(v, runs, &med[cold], &lo, &hi);
				gbs[cold] = BENCH_PAGE / med[cold];	/* bytes/ns = GB/s */
				bench_out_csv(&out, "%s,%llu,%s,%.1f,%.1f,%.1f,%.2f",
					      policy_strategy_name(s),
					      (unsigned long long)sizes[i],
					      cold ? "cold" : "hot", med[cold], lo,
					      hi, gbs[cold]);
				o = json_object_new_object();
				json_object_object_add(o, "strategy",
						       json_object_new_string(policy_strategy_name(s)));
				json_object_object_add(o, "size_bytes",
						       json_object_new_int64((int64_t)sizes[i]));
				json_object_object_add(o, "mode",
						       json_object_new_string(cold ? "cold" : "hot"));
				json_object_object_add(o, "runs", json_object_new_int((int)runs));
				json_object_object_add(o, "ns_per_4k_median", json_object_new_double(med[cold]));
				json_object_object_add(o, "ns_per_4k_min", json_object_new_double(lo));
				json_object_object_add(o, "ns_per_4k_max", json_object_new_double(hi));
				json_object_object_add(o, "gb_per_s", json_object_new_double(gbs[cold]));
				json_object_array_add(results, o);
				free(v);
			}
			bench_progress_done();
			printf("%-10s %8s  %14.1f %14.1f %10.2f %10.2f\n",
			       policy_strategy_name(s), size_name, med[0], med[1],
			       gbs[0], gbs[1]);
			fflush(stdout);
		}
		bench_unmap(buf, sizes[i]);
	}
	bench_out_plot(&out, plot);
	err = bench_out_close(&out);
	return err ? 1 : 0;
}
