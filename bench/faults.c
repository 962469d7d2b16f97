// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench faults: page-fault latency on the running kernel. Each run
 * maps SIZE bytes of private anonymous memory bound to the node and writes
 * one byte per 4 KiB page (or per 2 MiB with --thp), so every write is a
 * fault whose biggest cost is zeroing the page. With clearpage.ko loaded
 * (and root), the run is repeated with each strategy set on the node's
 * backend that clears those pages (4k, or huge with --thp); the node's
 * strategies and pins are restored afterwards.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clearpage-client.h"
#include "pmu.h"
#include "bench.h"

#define MAX_SIZES 16
#define MAX_NODES 64
#define CURRENT (-1)

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: clearpage-bench faults [--sizes LIST] [--runs N] [--node N|all]\n"
		"                              [--thp] [--strategies LIST|all|current]\n"
		"                              [--out DIR]\n"
		"  --sizes       mapping sizes (default 8M,64M,512M,4G)\n"
		"  --runs        runs per point, median reported (default 5)\n"
		"  --node        node(s) to bind the memory to (default all)\n"
		"  --thp         fault 2 MiB transparent huge pages (MADV_HUGEPAGE)\n"
		"  --strategies  module strategies to set in turn (default: all when\n"
		"                clearpage.ko is loaded and we are root, else current)\n"
		"  --out         directory for faults.{json,csv,svg} (default bench-results)\n");
}

/* AnonHugePages of this process, in bytes. */
static uint64_t anon_huge_bytes(void)
{
	char line[256];
	uint64_t kb = 0, v;
	FILE *f = fopen("/proc/self/smaps_rollup", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %lu kB", &v) == 1)
			kb = v;
	if (f)
		fclose(f);
	return kb << 10;
}

/* One run: ns per fault, and the share of the memory that was THP. */
static int fault_run(uint64_t bytes, int node, bool thp, double *ns,
		     double *thp_share)
{
	uint64_t step = thp ? BENCH_HUGE : BENCH_PAGE, t0, before, after;
	char *p = bench_map(bytes, node, false, thp);

	if (!p)
		return -ENOMEM;
	before = anon_huge_bytes();
	t0 = bench_now_ns();
	for (uint64_t off = 0; off < bytes; off += step)
		((volatile char *)p)[off] = 1;
	*ns = (double)(bench_now_ns() - t0) / (double)(bytes / step);
	after = anon_huge_bytes();
	*thp_share = after > before ? (double)(after - before) / bytes : 0;
	bench_unmap(p, bytes);
	return 0;
}

static int online_nodes(int *nodes, int max)
{
	char text[256] = "0";
	FILE *f = fopen("/sys/devices/system/node/online", "re");

	if (f) {
		if (!fgets(text, sizeof(text), f))
			strcpy(text, "0");
		fclose(f);
	}
	return pmu_parse_cpulist(text, nodes, max);
}

static const char plot[] =
	"set title 'clearpage-bench faults: ns per fault'\n"
	"set logscale x 2\nset xlabel 'mapping size (MiB)'\n"
	"set ylabel 'ns per fault (median)'\nset key outside right\nset grid\n"
	"keys = system(\"awk -F, 'NR > 1 { print $1 \\\"/\\\" $2 }' \" . csv . \" | sort -u | tr '\\n' ' '\")\n"
	"series(k) = sprintf(\"< awk -F, '$1 \\\"/\\\" $2 == \\\"%s\\\"' %s\", k, csv)\n"
	"plot for [k in keys] series(k) using ($3 / 1048576):5 "
	"with linespoints title 'node' . k\n";

/* One faults run: what the command line asked for, and the module's state. */
struct faults {
	const char *size_list, *strategy_list, *node_arg;
	uint64_t sizes[MAX_SIZES];
	int nr_sizes;
	unsigned long runs;
	bool thp;
	int nodes[MAX_NODES], nr_nodes;
	int strategy_order[CLEARPAGE_STRATEGY_COUNT + 1], nr_strategies;
	struct cp_node_info saved[MAX_NODES];	/* to put back */
	struct cp_client *client;		/* NULL: the current strategy only */
	json_object *results;
};

/* One of faults' own options (bench_parse()). */
static int faults_option(int opt, const char *arg, void *ctx)
{
	struct faults *f = ctx;

	switch (opt) {
	case 's': f->size_list = arg; return 0;
	case 'n': f->node_arg = arg; return 0;
	case 't': f->thp = true; return 0;
	case 'S': f->strategy_list = arg; return 0;
	}
	return BENCH_GO_ON;
}

/* The command line into @f and @args; BENCH_GO_ON, or the exit status. */
static int faults_parse(int argc, char **argv, struct faults *f,
			struct bench_args *args)
{
	static const struct option options[] = {
		{ "sizes", required_argument, NULL, 's' },
		{ "node", required_argument, NULL, 'n' },
		{ "thp", no_argument, NULL, 't' },
		{ "strategies", required_argument, NULL, 'S' },
		BENCH_OPTION_RUNS, BENCH_OPTION_OUT, BENCH_OPTION_HELP,
		{}
	};
	unsigned long node_value;
	int err = bench_parse(argc, argv, options, args, usage, faults_option, f);

	if (err != BENCH_GO_ON)
		return err;
	f->runs = args->runs;
	f->nr_sizes = bench_parse_sizes(f->size_list, f->sizes, MAX_SIZES);
	if (f->nr_sizes < 0) {
		bench_error("--sizes: '%s' is not a list of sizes in 4K (2M with --thp) multiples",
			    f->size_list);
		return 2;
	}
	for (int i = 0; f->thp && i < f->nr_sizes; i++)
		if (f->sizes[i] % BENCH_HUGE) {
			bench_error("--sizes: with --thp every size is a multiple of 2M");
			return 2;
		}
	if (!strcmp(f->node_arg, "all")) {
		f->nr_nodes = online_nodes(f->nodes, MAX_NODES);
		if (f->nr_nodes <= 0) {
			bench_error("cannot read the online nodes");
			return 1;
		}
	} else {
		if (bench_parse_node(f->node_arg, "--node", &node_value) ||
		    bench_parse_range(f->node_arg, "--node", 0, MAX_NODES - 1,
				      &node_value))
			return 2;
		f->nodes[0] = (int)node_value;
		f->nr_nodes = 1;
	}
	return BENCH_GO_ON;
}

/*
 * Which strategies to time: those set through the module (saving each
 * node's state to put back), or the current one where the module is not
 * there or may not be changed. BENCH_GO_ON, or the exit status.
 */
static int faults_strategies(struct faults *f)
{
	unsigned int mask = 0;
	int err;

	if (!f->strategy_list || strcmp(f->strategy_list, "current")) {
		int e = cp_client_open(&f->client);

		if (e && f->strategy_list) {
			bench_error("--strategies needs clearpage.ko loaded: %s (modprobe clearpage)",
				    strerror(-e));
			return 1;
		}
		if (!e && !f->strategy_list && geteuid()) {
			bench_error("clearpage.ko is loaded but changing strategies needs root: timing the current strategy only");
			cp_client_close(f->client);
			f->client = NULL;
		}
	}
	if (!f->client) {
		f->strategy_order[f->nr_strategies++] = CURRENT;
		return BENCH_GO_ON;
	}
	for (int i = 0; i < f->nr_nodes; i++) {
		err = cp_get_node(f->client, (uint32_t)f->nodes[i], &f->saved[i]);
		if (err) {
			bench_error("node %d: %s %s", f->nodes[i], strerror(-err),
				    cp_client_error(f->client));
			return 1;
		}
		for (int k = 0; k < f->saved[i].nr_strategies; k++)
			mask |= 1U << f->saved[i].strategies[k].strategy;
	}
	if (f->strategy_list && strcmp(f->strategy_list, "all")) {
		unsigned int wanted;

		if (bench_parse_strategies(f->strategy_list, &wanted))
			return 2;
		if (wanted & ~mask) {
			bench_error("--strategies: the module does not offer every one of '%s'",
				    f->strategy_list);
			return 2;
		}
		mask = wanted;
	}
	for (int s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (mask & (1U << s))
			f->strategy_order[f->nr_strategies++] = s;
	return BENCH_GO_ON;
}

/* One node, strategy and size: its runs, a table row, CSV and JSON; 0 or -errno. */
static int faults_measure(struct faults *f, struct bench_out *out, int node,
			  const char *name, uint64_t size)
{
	double *v = calloc(f->runs, sizeof(*v)), med, lo, hi, share = 0;
	double per4k;
	char size_name[32];
	json_object *o;
	int err = 0;

	if (!v)
		return -ENOMEM;
	bench_format_size(size, size_name, sizeof(size_name));
	for (unsigned long r = 0; r < f->runs && !err; r++) {
		bench_progress("faults: node %d %s %s run %lu/%lu", node, name,
			       size_name, r + 1, f->runs);
		err = fault_run(size, node, f->thp, &v[r], &share);
	}
	if (err) {
		free(v);
		return err;
	}
	bench_summary(v, f->runs, &med, &lo, &hi);
	free(v);
	per4k = f->thp ? med / (BENCH_HUGE / BENCH_PAGE) : med;
	bench_progress_done();
	printf("%-5d %-10s %8s  %14.0f %10.0f %10.0f %10.1f%s\n",
	       node, name, size_name, med, lo, hi, per4k,
	       f->thp && share < 0.9 ? "  (few THPs)" : "");
	fflush(stdout);
	bench_out_csv(out, "%d,%s,%llu,%s,%.1f,%.1f,%.1f,%.1f,%.3f",
		      node, name, (unsigned long long)size,
		      f->thp ? "2M" : "4K", med, lo, hi, per4k, share);
	o = json_object_new_object();
	json_object_object_add(o, "node", json_object_new_int(node));
	json_object_object_add(o, "strategy", json_object_new_string(name));
	json_object_object_add(o, "size_bytes", json_object_new_int64((int64_t)size));
	json_object_object_add(o, "page", json_object_new_string(f->thp ? "2M" : "4K"));
	json_object_object_add(o, "runs", json_object_new_int((int)f->runs));
	json_object_object_add(o, "ns_per_fault_median", json_object_new_double(med));
	json_object_object_add(o, "ns_per_fault_min", json_object_new_double(lo));
	json_object_object_add(o, "ns_per_fault_max", json_object_new_double(hi));
	json_object_object_add(o, "ns_per_4k", json_object_new_double(per4k));
	if (f->thp)
		json_object_object_add(o, "thp_share", json_object_new_double(share));
	json_object_array_add(f->results, o);
	return 0;
}

/* Every node, strategy and size; 0 or -errno. */
static int faults_run(struct faults *f, struct bench_out *out)
{
	int err = 0;

	for (int n = 0; n < f->nr_nodes && !err; n++) {
		for (int k = 0; k < f->nr_strategies && !err; k++) {
			int s = f->strategy_order[k];
			const char *name = s == CURRENT ? "current" :
					   policy_strategy_name(s);

			if (s != CURRENT) {
				err = cp_set_strategy(f->client, (uint32_t)f->nodes[n],
						      f->thp ? CLEARPAGE_BACKEND_HUGE :
							       CLEARPAGE_BACKEND_4K,
						      s, CLEARPAGE_SOURCE_ADMIN);
				if (err) {
					bench_error("node %d: setting %s: %s %s",
						    f->nodes[n], name, strerror(-err),
						    cp_client_error(f->client));
					break;
				}
			}
			for (int i = 0; i < f->nr_sizes && !err; i++)
				err = faults_measure(f, out, f->nodes[n], name,
						     f->sizes[i]);
		}
	}
	return err;
}

/* Put every node back as it was. */
static void faults_restore(struct faults *f)
{
	for (int n = 0; f->client && n < f->nr_nodes; n++)
		for (int b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
			const struct cp_backend_info *be = &f->saved[n].backend[b];
			int e = cp_set_strategy(f->client, (uint32_t)f->nodes[n], b,
						be->strategy,
						CLEARPAGE_SOURCE_ADMIN);

			if (!e)
				e = cp_set_pinned(f->client, (uint32_t)f->nodes[n], b,
						  be->pinned);
			if (e)
				bench_error("node %d: restoring %s on %s%s: %s",
					    f->nodes[n], policy_strategy_name(be->strategy),
					    cp_backend_name(b),
					    be->pinned ? " (pinned)" : "",
					    strerror(-e));
		}
}

int bench_faults(int argc, char **argv)
{
	static struct faults f;
	struct bench_args args = BENCH_ARGS(5);
	struct bench_out out;
	int err;

	f = (struct faults){
		.size_list = "8M,64M,512M,4G", .node_arg = "all",
	};
	err = faults_parse(argc, argv, &f, &args);
	if (err == BENCH_GO_ON)
		err = faults_strategies(&f);
	if (err == BENCH_GO_ON &&
	    bench_out_open(&out, args.out, "faults", argc, argv,
			   "node,strategy,size_bytes,page,ns_per_fault_median,ns_per_fault_min,ns_per_fault_max,ns_per_4k,thp_share"))
		err = 1;
	if (err != BENCH_GO_ON) {
		cp_client_close(f.client);
		return err;
	}
	f.results = json_object_new_array();
	json_object_object_add(out.root, "results", f.results);
	printf("%-5s %-10s %8s  %14s %10s %10s %10s\n", "node", "strategy", "size",
	       f.thp ? "ns/2M fault" : "ns/4K fault", "min", "max", "ns/4K");
	err = faults_run(&f, &out);
	faults_restore(&f);
	cp_client_close(f.client);
	bench_out_plot(&out, plot);
	if (bench_out_close(&out))
		err = -EIO;
	return err ? 1 : 0;
}
