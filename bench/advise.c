// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench advise: measure this CPU with the fault-like patterns of
 * "strategies", and say which strategies clearpaged should be allowed here
 * (a CPU allowlist line) and which policy settings fit, each with the
 * figures behind it. --write puts them in drop-ins clearpaged reads:
 * /etc/clearpaged/cpu-allowlist.d/50-advise.conf (before the shipped list,
 * so the measured line wins) and /etc/clearpaged.conf.d/50-advise.conf.
 *
 * The rules, on medians measured side by side with the kernel's own way:
 *  - a strategy is allowed where it beats the kernel by at least 5% on a
 *    cold pattern as faults see it (4k-cold touching the first line, or
 *    2m-cold touching the faulting subpage) and is within 10% of the best
 *    strategy there, and rep_stosb where it costs at most 10% more than
 *    the kernel on hot pages (it is the hot strategy);
 *  - HotStrategy: rep_stosb when it costs at most 10% more than the
 *    kernel on 4k-hot, else kernel (no ERMS);
 *  - ColdStrategy: auto, which picks per backend the allowed strategy with
 *    the lowest calibrated cold cost (what it will pick is printed);
 *  - NonTemporal: yes when every non-temporal pick stays ahead of the best
 *    temporal strategy (the kernel included) even when the application
 *    reads the whole page or folio right after; auto (only where
 *    cache-miss counters watch it) otherwise.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "allowlist.h"
#include "savings-file.h"
#include "bench.h"
#include "patterns.h"

#define WIN 0.95	/* beats the kernel: at most 95% of its time */
#define HOT_TOLERANCE 1.10
#define NEAR 1.10	/* within 10% of the best strategy */

/* The regimes of the cold patterns, as patterns.c names them. */
#define REGIMES 3
static const char *const pattern_4k[REGIMES] = { "4k-cold", "4k-sustained", "4k-loaded" };
static const char *const pattern_2m[REGIMES] = { "2m-cold", "2m-sustained", "2m-loaded" };

struct verdict {
	double cold4k, cold2m;		/* ratios, touched as faults touch */
	/* The same per regime (NAN: not measured). */
	double regime4k[REGIMES], regime2m[REGIMES];
	double page4k, folio2m;		/* ratios, everything read after */
	double hot4k, hot2m;
	bool measured, allowed;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: clearpage-bench advise [--runs N] [--cpu N] [--node N] [--pool SIZE]\n"
		"                              [--load CPU] [--no-gigantic] [--write] [--root DIR]\n"
		"                              [--out DIR]\n\n"
		"Measure this CPU with the fault-like patterns of 'strategies' and print the\n"
		"CPU allowlist line and the policy settings for clearpaged, with the figures\n"
		"behind each choice. --write installs them as drop-ins (needs root):\n"
		"DIR/etc/clearpaged/cpu-allowlist.d/50-advise.conf and\n"
		"DIR/etc/clearpaged.conf.d/50-advise.conf (--root DIR, default /).\n"
		"Cold patterns are measured in the burst and the sustained memory regime, and\n"
		"with --load CPU (another than --cpu) also loaded; a strategy that wins in any\n"
		"regime is allowed (clearpaged's trials then choose live).\n"
		"Then, unless --no-gigantic, a 1 GiB page with the huge backend's pick on 1, 2,\n"
		"4 ... of the node's CPUs (3 GiB of memory on --node, default 0): [Node.N]\n"
		"GiganticHelpers=, stopping where one more step adds less than 10%%.\n"
		"Benchmark on a quiet machine, pinned with --cpu.\n");
}

static double ratio_of(const struct patterns_options *po, const char *pattern,
		       const char *touch, int strategy)
{
	int i;

	for (i = 0; i < po->nr_results; i++) {
		const struct pattern_result *r = &po->results[i];

		if (r->strategy == strategy && !strcmp(r->pattern, pattern) &&
		    !strcmp(r->touch, touch) &&
		    (!r->chunk || r->chunk == BENCH_HUGE))
			return r->ratio[bench_running_kernel_arm() ==
					BENCH_ARM_KERNEL_7X];
	}
	return NAN;
}

static void judge(const struct patterns_options *po, int s, struct verdict *v)
{
	v->cold4k = ratio_of(po, "4k-cold", "line", s);
	v->cold2m = ratio_of(po, "2m-cold", "fault-page", s);
	v->page4k = ratio_of(po, "4k-cold", "page", s);
	v->folio2m = ratio_of(po, "2m-cold", "folio", s);
	v->hot4k = ratio_of(po, "4k-hot", "none", s);
	v->hot2m = ratio_of(po, "2m-hot", "none", s);
	for (int r = 0; r < REGIMES; r++) {
		v->regime4k[r] = ratio_of(po, pattern_4k[r], "line", s);
		v->regime2m[r] = ratio_of(po, pattern_2m[r], "fault-page", s);
	}
	v->measured = !isnan(v->cold4k) && !isnan(v->cold2m) && !isnan(v->hot4k);
}

/*
 * Allowed: near the best on a cold pattern and beating the kernel there, in
 * any regime measured.
 */
static bool allow(const struct verdict *v, int s, const double *best4k,
		  const double *best2m)
{
	if (!v->measured)
		return false;
	for (int r = 0; r < REGIMES; r++)
		if ((v->regime4k[r] <= WIN && v->regime4k[r] <= NEAR * best4k[r]) ||
		    (v->regime2m[r] <= WIN && v->regime2m[r] <= NEAR * best2m[r]))
			return true;
	return s == CLEARPAGE_STRATEGY_REP_STOSB && v->hot4k <= HOT_TOLERANCE;
}

/* Directories up to @path's, 0755 whatever the umask. */
static int make_parents(const char *path)
{
	char dir[1024], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (!mkdir(dir, 0755)) {
			if (chmod(dir, 0755))
				goto fail;
		} else if (errno != EEXIST) {
			goto fail;
		}
		*slash = '/';
	}
	return 0;
fail:
	bench_error("cannot create %s: %m", dir);
	return -1;
}

static void fill_text(FILE *f, const void *text)
{
	fputs(text, f);
}

/*
 * Both drop-ins or neither: each replaced whole (a temporary name and a
 * rename), 0644 in 0755 directories whatever the umask, so the daemon's
 * own user reads them; where the second cannot be written, the first is
 * put back as it was.
 */
static int write_dropins(const char *paths[2], const char *texts[2])
{
	char keep[1100];
	bool had_old;
	int err;

	if (make_parents(paths[0]) || make_parents(paths[1]))
		return -1;
	/* The first one as it was, under a name no loader reads (*.conf). */
	snprintf(keep, sizeof(keep), "%s.advise-old", paths[0]);
	unlink(keep);
	had_old = !link(paths[0], keep);
	if (!had_old && errno != ENOENT) {
		bench_error("cannot keep %s to put it back if the write fails: %m", paths[0]);
		return -1;
	}
	err = cp_file_replace(paths[0], fill_text, texts[0]);
	if (err) {
		bench_error("cannot write %s: %s; nothing changed", paths[0],
			    strerror(-err));
		if (had_old)
			unlink(keep);
		return -1;
	}
	err = cp_file_replace(paths[1], fill_text, texts[1]);
	if (err) {
		int undo = had_old ? rename(keep, paths[0]) : unlink(paths[0]);

		bench_error("cannot write %s: %s; %s %s", paths[1], strerror(-err),
			    undo ? "and could not put back" : "put back",
			    paths[0]);
		return -1;
	}
	if (had_old)
		unlink(keep);
	printf("wrote %s\nwrote %s\n", paths[0], paths[1]);
	return 0;
}

/* One advise run: the command line, this CPU, and what it measured. */
struct advise {
	struct bench_args args;
	const char *root, *pool;
	bool write;
	struct patterns_options po;
	char vendor[64];
	unsigned int family, model, stepping;
	unsigned int mask;		/* strategies measured */
	struct verdict v[CLEARPAGE_STRATEGY_COUNT];
	unsigned int allowed;		/* the allowlist line's */
	int hot;			/* HotStrategy= */
	int huge_pick;			/* ColdStrategy=auto's huge pick, or -1 */
	bool no_gigantic;		/* --no-gigantic */
	int node;			/* the node measured (--node, else 0) */
	struct gigantic_advice giga;	/* helpers < 0: not measured */
	cpu_set_t cpus;			/* where it may run, before --cpu */
	bool nt_yes;			/* NonTemporal=yes, else auto */
	char why[2048];			/* the comment behind the settings */
	char line[256];			/* the allowlist line */
	char giga_text[512];		/* its [Node.N] section, or "" */
};

/* One of advise's own options (bench_parse()). */
static int advise_option(int opt, const char *arg, void *ctx)
{
	struct advise *ad = ctx;

	switch (opt) {
	case 'P': ad->pool = arg; return 0;
	case 'w': ad->write = true; return 0;
	case 'R': ad->root = arg; return 0;
	case 'G': ad->no_gigantic = true; return 0;
	}
	return BENCH_GO_ON;
}

/* The command line into @ad; BENCH_GO_ON, or the exit status. */
static int advise_parse(int argc, char **argv, struct advise *ad)
{
	static const struct option options[] = {
		{ "pool", required_argument, NULL, 'P' },
		{ "write", no_argument, NULL, 'w' },
		{ "root", required_argument, NULL, 'R' },
		{ "no-gigantic", no_argument, NULL, 'G' },
		BENCH_OPTION_RUNS, BENCH_OPTION_CPU, BENCH_OPTION_NODE,
		BENCH_OPTION_LOAD, BENCH_OPTION_OUT, BENCH_OPTION_HELP,
		{}
	};
	int err = bench_parse(argc, argv, options, &ad->args, usage,
			      advise_option, ad);

	if (err != BENCH_GO_ON)
		return err;
	ad->po.load_cpu = ad->args.load_cpu == ~0UL ? -1 : (int)ad->args.load_cpu;
	ad->node = ad->args.node == ~0UL ? 0 : (int)ad->args.node;
	if (ad->pool && (bench_parse_sizes(ad->pool, &ad->po.pool_bytes, 1) != 1 ||
			 ad->po.pool_bytes < 16 * BENCH_PAGE)) {
		bench_error("--pool: '%s' is not a size of at least 64K, a multiple of 4K",
			    ad->pool);
		return 2;
	}
	return BENCH_GO_ON;
}

/* This CPU, measured with the fault-like patterns; 0, or the exit status. */
static int advise_measure(int argc, char **argv, struct advise *ad)
{
	struct bench_out out;
	int err;

	if (allowlist_cpu_from_cpuinfo("/proc/cpuinfo", ad->vendor,
				       sizeof(ad->vendor), &ad->family,
				       &ad->model, &ad->stepping)) {
		bench_error("cannot read this CPU's vendor, family and model from /proc/cpuinfo");
		return 1;
	}
	for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (bench_strategy_usable(s))
			ad->mask |= 1U << s;
	if (sched_getaffinity(0, sizeof(ad->cpus), &ad->cpus)) {
		bench_error("cannot read this process's CPUs: %m");
		return 1;
	}
	if (ad->args.cpu != ~0UL && bench_bind_cpu((int)ad->args.cpu))
		return 1;
	ad->po.mask = ad->mask;
	ad->po.runs = ad->args.runs;
	ad->po.node = ad->args.node == ~0UL ? -1 : (int)ad->args.node;
	if (bench_out_open(&out, ad->args.out, "advise", argc, argv,
			   PATTERNS_CSV_HEADER))
		return 1;
	err = bench_patterns(&out, &ad->po);
	err = bench_out_close(&out) || err;
	return err ? 1 : 0;
}

/* Judge every strategy, print the figures behind each choice, and set @ad->allowed. */
static void advise_judge(struct advise *ad)
{
	double rbest4k[REGIMES] = { 1, 1, 1 }, rbest2m[REGIMES] = { 1, 1, 1 };
	struct verdict *v = ad->v;
	int s;

	printf("\n%s family %u (0x%x) model %u (0x%x) stepping %u: ratio of each strategy's time to the running kernel's (%s; below 1: faster)\n",
	       ad->vendor, ad->family, ad->family, ad->model, ad->model,
	       ad->stepping, bench_arm_name(bench_running_kernel_arm(), true));
	printf("  %-10s %9s %9s %9s %9s %9s %9s  %s\n", "strategy", "4k-cold",
	       "2m-cold", "4k-page", "2m-folio", "4k-hot", "2m-hot",
	       "allowed");
	for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		if (!(ad->mask & (1U << s)))
			continue;
		judge(&ad->po, s, &v[s]);
		for (int r = 0; v[s].measured && r < REGIMES; r++) {
			if (v[s].regime4k[r] < rbest4k[r])
				rbest4k[r] = v[s].regime4k[r];
			if (v[s].regime2m[r] < rbest2m[r])
				rbest2m[r] = v[s].regime2m[r];
		}
	}
	for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		if (!(ad->mask & (1U << s)))
			continue;
		v[s].allowed = allow(&v[s], s, rbest4k, rbest2m);
		if (v[s].allowed)
			ad->allowed |= 1U << s;
		printf("  %-10s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f  %s\n",
		       policy_strategy_name(s), v[s].cold4k, v[s].cold2m,
		       v[s].page4k, v[s].folio2m, v[s].hot4k, v[s].hot2m,
		       v[s].allowed ? "yes" : "no");
	}
	printf("\n  cold patterns by memory regime (burst: flushed, memory idle; sustained: back\n"
	       "  to back through the pool; loaded: the same beside a bandwidth load)\n");
	printf("  %-10s", "strategy");
	for (int r = 0; r < REGIMES; r++)
		printf(" %12s", pattern_4k[r]);
	for (int r = 0; r < REGIMES; r++)
		printf(" %12s", pattern_2m[r]);
	printf("\n");
	for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		if (!(ad->mask & (1U << s)))
			continue;
		printf("  %-10s", policy_strategy_name(s));
		for (int r = 0; r < REGIMES; r++)
			printf(" %12.3f", v[s].regime4k[r]);
		for (int r = 0; r < REGIMES; r++)
			printf(" %12.3f", v[s].regime2m[r]);
		printf("\n");
	}
	printf("  (4k patterns touch the first line after each clear, 2m ones the faulting subpage;\n"
	       "   4k-page and 2m-folio read everything. Allowed: a cold ratio <= %.2f and within\n"
	       "   %.0f%% of the best one in any regime (nan: not measured; loaded needs --load),\n"
	       "   or, for rep_stosb, 4k-hot <= %.2f)\n\n",
	       WIN, (NEAR - 1) * 100, HOT_TOLERANCE);
}

/*
 * The policy settings the figures justify (HotStrategy=, what
 * ColdStrategy=auto picks per backend, NonTemporal=) with the reasons in
 * @ad->why, and the allowlist line, checked with clearpaged's own parser;
 * 0 or the exit status.
 */
static int advise_settings(struct advise *ad)
{
	const struct verdict *v = ad->v;
	char names[128], error[512];
	struct allowlist check;
	bool nt_any = false;
	size_t used = 0;
	int pick[2];

	ad->hot = (ad->mask & (1U << CLEARPAGE_STRATEGY_REP_STOSB)) &&
		  v[CLEARPAGE_STRATEGY_REP_STOSB].hot4k <= HOT_TOLERANCE ?
		  CLEARPAGE_STRATEGY_REP_STOSB : CLEARPAGE_STRATEGY_KERNEL;
	/* What ColdStrategy=auto will pick per backend, and whether it may
	 * be non-temporal even when the application reads everything. */
	ad->nt_yes = true;
	for (int b = 0; b < 2; b++) {
		double best_temporal = 1;	/* the kernel's own way */

		pick[b] = -1;
		for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
			double c = b ? v[s].cold2m : v[s].cold4k;
			double read = b ? v[s].folio2m : v[s].page4k;

			if (!(ad->allowed & (1U << s)))
				continue;
			if (pick[b] < 0 || c < (b ? v[pick[b]].cold2m : v[pick[b]].cold4k))
				pick[b] = s;
			if (!clearpage_strategy_non_temporal(s) && read < best_temporal)
				best_temporal = read;
		}
		if (pick[b] >= 0 && clearpage_strategy_non_temporal(pick[b])) {
			double read = b ? v[pick[b]].folio2m : v[pick[b]].page4k;

			nt_any = true;
			ad->nt_yes &= read < best_temporal;
			used += snprintf(ad->why + used, sizeof(ad->why) - used,
					 "# %s: %s stays at %.2fx the kernel with the whole %s read right after, the best temporal strategy at %.2fx.\n",
					 b ? "huge" : "4k", policy_strategy_name(pick[b]),
					 read, b ? "folio" : "page", best_temporal);
		}
	}
	ad->nt_yes &= nt_any;
	used += snprintf(ad->why + used, sizeof(ad->why) - used,
			 "# HotStrategy=%s: rep_stosb costs %.2fx the kernel's routine on hot 4 KiB pages%s.\n",
			 policy_strategy_name(ad->hot),
			 v[CLEARPAGE_STRATEGY_REP_STOSB].hot4k,
			 ad->hot == CLEARPAGE_STRATEGY_KERNEL ? " (more than 1.10x: no ERMS)" : "");
	used += snprintf(ad->why + used, sizeof(ad->why) - used,
			 "# ColdStrategy=auto: per backend the allowed strategy with the lowest calibrated cold cost; measured here, 4k: %s (%.2fx the kernel), huge: %s (%.2fx).\n",
			 pick[0] >= 0 ? policy_strategy_name(pick[0]) : "kernel",
			 pick[0] >= 0 ? v[pick[0]].cold4k : 1.0,
			 pick[1] >= 0 ? policy_strategy_name(pick[1]) : "kernel",
			 pick[1] >= 0 ? v[pick[1]].cold2m : 1.0);
	ad->huge_pick = pick[1];
	snprintf(ad->why + used, sizeof(ad->why) - used,
		 "# NonTemporal=%s: %s.\n", ad->nt_yes ? "yes" : "auto",
		 !nt_any ? "no backend's best cold strategy is non-temporal" :
		 ad->nt_yes ? "the non-temporal picks win even when everything is read after the clear" :
		 "where the application reads the page right after, it pays the misses: only where cache-miss counters watch it");

	allowlist_format_strategies(ad->allowed, names, sizeof(names));
	snprintf(ad->line, sizeof(ad->line), "%s  0x%x  0x%x  *  %s", ad->vendor,
		 ad->family, ad->model, names);
	/* What the daemon will parse: check it before printing it. */
	if (allowlist_parse(&check, "advise", ad->line, error, sizeof(error))) {
		bench_error("the allowlist line does not parse (%s): %s", error,
			    ad->line);
		return 1;
	}
	allowlist_free(&check);
	return 0;
}

/*
 * [Node.N] GiganticHelpers= for the measured node: a 1 GiB page cleared
 * with the huge backend's pick on 1, 2, 4 ... of its CPUs. Nothing when
 * the huge backend keeps the kernel's clear, with --no-gigantic, or when
 * the memory is not there (said on stderr).
 */
static void advise_gigantic(struct advise *ad)
{
	struct gigantic_advice *g = &ad->giga;

	g->helpers = -1;
	if (ad->no_gigantic || ad->huge_pick < 0)
		return;
	/* The node's other CPUs again: the patterns ran on --cpu alone. */
	sched_setaffinity(0, sizeof(ad->cpus), &ad->cpus);
	if (bench_gigantic_helpers(ad->node, ad->args.cpu == ~0UL ? -1 :
				   (int)ad->args.cpu, ad->huge_pick,
				   ad->args.runs, g)) {
		bench_error("no 1 GiB measurement on node %d: GiganticHelpers= left out", ad->node);
		return;
	}
	if (!g->helpers)
		snprintf(ad->giga_text, sizeof(ad->giga_text),
			 "# GiganticHelpers=0: a cold 1 GiB page with %s took %.1f ms (burst) and %.1f ms (sustained) on one CPU; more of the node's %d CPUs did not take 10%% off.\n"
			 "[Node.%d]\nGiganticHelpers=0\n",
			 policy_strategy_name(ad->huge_pick), g->alone_ms[0],
			 g->alone_ms[1], g->cpus, ad->node);
	else
		snprintf(ad->giga_text, sizeof(ad->giga_text),
			 "# GiganticHelpers=%d: a cold 1 GiB page with %s took %.1f ms (burst) and %.1f ms (sustained) on one CPU, %.1f and %.1f ms on %d of the node's %d; one more step added less than 10%%.\n"
			 "[Node.%d]\nGiganticHelpers=%d\n",
			 g->helpers, policy_strategy_name(ad->huge_pick),
			 g->alone_ms[0], g->alone_ms[1], g->helped_ms[0],
			 g->helped_ms[1], g->helpers + 1, g->cpus, ad->node,
			 g->helpers);
}

/*
 * The two drop-ins, as --write writes them and as advise prints them, so
 * that what is on the screen can be pasted into the files it names.
 */
static void advise_dropins(const struct advise *ad, char *text, size_t size,
			   char *text2, size_t size2)
{
	char date[32], evidence[1024];
	time_t now = time(NULL);
	char *dir;

	strftime(date, sizeof(date), "%Y-%m-%d", localtime(&now));
	/* Absolute: the drop-in is read from elsewhere. */
	dir = realpath(ad->args.out, NULL);
	snprintf(evidence, sizeof(evidence), "%s/advise.json",
		 dir ? dir : ad->args.out);
	free(dir);
	snprintf(text, size,
		 "# Measured by clearpage-bench advise on %s (%lu run%s).\n"
		 "# Evidence: %s\n"
		 "# A measured line here comes before the shipped list.\n"
		 "%s\n", date, ad->args.runs, ad->args.runs == 1 ? "" : "s",
		 evidence, ad->line);
	snprintf(text2, size2,
		 "# Measured by clearpage-bench advise on %s for %s family 0x%x model 0x%x.\n"
		 "%s[Policy]\nHotStrategy=%s\nColdStrategy=auto\nNonTemporal=%s\n%s",
		 date, ad->vendor, ad->family, ad->model, ad->why,
		 policy_strategy_name(ad->hot), ad->nt_yes ? "yes" : "auto",
		 ad->giga_text);
}

/* --write: both drop-ins under --root, both or neither; 0 or the exit status. */
static int advise_write(const struct advise *ad, const char *text,
			const char *text2)
{
	char path[1024], path2[1024];

	snprintf(path, sizeof(path), "%s/etc/clearpaged/cpu-allowlist.d/50-advise.conf",
		 ad->root);
	snprintf(path2, sizeof(path2), "%s/etc/clearpaged.conf.d/50-advise.conf",
		 ad->root);
	if (write_dropins((const char *[2]){ path, path2 },
			  (const char *[2]){ text, text2 }))
		return 1;
	printf("Written: %s and %s\nApply with: systemctl reload clearpaged\n",
	       path, path2);
	return 0;
}

int bench_advise(int argc, char **argv)
{
	static struct pattern_result results[512];
	static struct advise ad;
	char text[4096], text2[4096];
	int err;

	ad = (struct advise){
		.args = BENCH_ARGS(5), .root = "",
		.po = { .pool_bytes = 1ULL << 30, .chunks = { BENCH_HUGE },
			.nr_chunks = 1, .results = results, .max_results = 512,
			.sustained = true, .load_cpu = -1 },
	};
	err = advise_parse(argc, argv, &ad);
	if (err != BENCH_GO_ON)
		return err;
	err = advise_measure(argc, argv, &ad);
	if (err)
		return err;
	advise_judge(&ad);
	if (!ad.allowed) {
		printf("No strategy beat the kernel's routine here: leave this CPU unlisted (clearpaged only monitors it).\n");
		return 0;
	}
	err = advise_settings(&ad);
	if (err)
		return err;
	advise_gigantic(&ad);
	advise_dropins(&ad, text, sizeof(text), text2, sizeof(text2));
	printf("The CPU allowlist drop-in (the strategies clearpaged may choose here),\n"
	       "/etc/clearpaged/cpu-allowlist.d/50-advise.conf:\n\n%s\n"
	       "The policy drop-in, /etc/clearpaged.conf.d/50-advise.conf:\n\n%s\n",
	       text, text2);
	return ad.write ? advise_write(&ad, text, text2) : 0;
}
