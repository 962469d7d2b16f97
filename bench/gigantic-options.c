// SPDX-License-Identifier: GPL-2.0
/* clearpage-bench gigantic's options, and the CPUs of its node. */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "gigantic.h"
#include "pmu.h"

const char *const gigantic_regimes[REGIMES] = { "burst", "sustained", "loaded" };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: clearpage-bench gigantic [--threads LIST] [--strategies LIST|all]\n"
		"                                [--chunk SIZE] [--regime LIST] [--runs N]\n"
		"                                [--cpu C] [--node N] [--load CPU] [--out DIR]\n"
		"A 1 GiB folio cleared as clearpage.ko clears one with the node's gigantic\n"
		"helpers, by 1, 2, 4 ... threads on the node's CPUs, beside the running\n"
		"kernel's own clear on one CPU.\n"
		"  --threads     thread counts (default 1, 2, 4 ... up to the node's CPUs)\n"
		"  --strategies  user-space routines to time (default all)\n"
		"  --chunk       the range each thread takes at a time (default 2M, as\n"
		"                huge_chunk_kb)\n"
		"  --regime      burst, sustained, loaded, comma separated (default\n"
		"                burst,sustained; loaded needs --load)\n"
		"  --runs        timed clears per point, median reported (default 5)\n"
		"  --cpu         the faulting thread's CPU (default: the node's first)\n"
		"  --node        memory and CPUs of node N (default 0)\n"
		"  --load        the loaded regime's bandwidth load on this CPU\n"
		"  --out         directory for gigantic.{json,csv,svg} (default bench-results)\n");
}

int gigantic_threads(struct gigantic *g)
{
	const char *p = g->thread_list;
	unsigned long v;
	char item[16];

	g->nr_threads = 0;
	if (!p) {
		for (int t = 1; t < g->nr_cpus && g->nr_threads < MAX_THREADS; t *= 2)
			g->threads[g->nr_threads++] = t;
		g->threads[g->nr_threads++] = g->nr_cpus;
		return 0;
	}
	while (*p && g->nr_threads < MAX_THREADS) {
		size_t n = strcspn(p, ",");

		snprintf(item, sizeof(item), "%.*s", (int)(n < 15 ? n : 15), p);
		if (bench_parse_range(item, "--threads", 1, g->nr_cpus, &v))
			return -EINVAL;
		g->threads[g->nr_threads++] = (int)v;
		p += n + (p[n] == ',');
	}
	return 0;
}

static int gigantic_option(int opt, const char *arg, void *ctx)
{
	struct gigantic *g = ctx;
	uint64_t size;

	switch (opt) {
	case 't': g->thread_list = arg; return 0;
	case 'S': return bench_parse_strategies(arg, &g->mask) ? 2 : 0;
	case 'c':
		if (bench_parse_sizes(arg, &size, 1) != 1 || size < BENCH_PAGE ||
		    size % BENCH_PAGE || size > GIGANTIC / 4) {
			bench_error("--chunk: '%s' is not a size of whole 4 KiB pages up to 256M", arg);
			return 2;
		}
		g->chunk_pages = size / BENCH_PAGE;
		return 0;
	case 'r':
		memset(g->regime, 0, sizeof(g->regime));
		for (const char *p = arg; *p;) {
			size_t n = strcspn(p, ",");
			int r;

			for (r = 0; r < REGIMES; r++)
				if (strlen(gigantic_regimes[r]) == n &&
				    !strncmp(p, gigantic_regimes[r], n))
					break;
			if (r == REGIMES) {
				bench_error("--regime: '%.*s' is not burst, sustained or loaded", (int)n, p);
				return 2;
			}
			g->regime[r] = true;
			p += n + (p[n] == ',');
		}
		return 0;
	}
	return BENCH_GO_ON;
}

/* The node's CPUs this process may run on, @first first, never @skip. */
int gigantic_node_cpus(int node, int first, int skip, int *cpus)
{
	char path[64], list[1024];
	int all[1024], n, count = 0;
	cpu_set_t set;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist",
		 node);
	f = fopen(path, "r");
	if (!f || !fgets(list, sizeof(list), f))
		snprintf(list, sizeof(list), "0-%d", CPU_SETSIZE - 1);
	if (f)
		fclose(f);
	n = pmu_parse_cpulist(list, all, 1024);
	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	if (first >= 0 && first != skip && CPU_ISSET(first, &set))
		cpus[count++] = first;
	for (int i = 0; i < n && count < MAX_THREADS; i++)
		if (all[i] != first && all[i] != skip && all[i] < CPU_SETSIZE &&
		    CPU_ISSET(all[i], &set))
			cpus[count++] = all[i];
	return count;
}

int gigantic_parse(int argc, char **argv, struct gigantic *g)
{
	static const struct option options[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "strategies", required_argument, NULL, 'S' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "regime", required_argument, NULL, 'r' },
		BENCH_OPTION_RUNS, BENCH_OPTION_CPU, BENCH_OPTION_NODE,
		BENCH_OPTION_LOAD, BENCH_OPTION_OUT, BENCH_OPTION_HELP,
		{}
	};
	int err, node;

	*g = (struct gigantic){ .chunk_pages = BENCH_HUGE / BENCH_PAGE,
				.regime = { true, true, false },
				.args = BENCH_ARGS(5) };
	bench_parse_strategies("all", &g->mask);
	err = bench_parse(argc, argv, options, &g->args, usage,
			  gigantic_option, g);
	if (err != BENCH_GO_ON)
		return err;
	if (g->args.load_cpu != ~0UL)
		g->regime[2] = true;
	else if (g->regime[2]) {
		bench_error("--regime loaded needs --load CPU (and --cpu, another)");
		return 2;
	}
	node = g->args.node != ~0UL ? (int)g->args.node : 0;
	g->nr_cpus = gigantic_node_cpus(node,
					g->args.cpu != ~0UL ? (int)g->args.cpu : -1,
					g->args.load_cpu != ~0UL ?
					(int)g->args.load_cpu : -1, g->cpus);
	if (!g->nr_cpus) {
		bench_error("--node %d: none of its CPUs is one this process may run on", node);
		return 2;
	}
	return gigantic_threads(g) ? 2 : BENCH_GO_ON;
}
