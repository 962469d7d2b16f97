// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench replay: its command line, the workload's phases and the
 * defaults the options leave to the machine and the backend.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

const char *const replay_touch_names[4] = { "none", "line", "page", "folio" };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: clearpage-bench replay [--backend 4k|huge] [--workload mixed|hot|cold]\n"
		"                              [--phases LIST] [--pages N]\n"
		"                              [--touch none|line|page|folio]\n"
		"                              [--hot-pages N] [--cold-mb M] [--repeats R]\n"
		"                              [--sample-every N] [--reference-every N]\n"
		"                              [--kernel 6.x|7.x] [--trial-every N]\n"
		"                              [--probe-every N] [--touch-every N] [--touch-delay N]\n"
		"                              [--regime burst|sustained] [--load CPU]\n"
		"                              [--measure-kb K]\n"
		"                              [--config FILE] [--cpu C] [--node N] [--out DIR]\n"
		"  --backend         4k: single pages, as 4 KiB faults clear them (default);\n"
		"                    huge: 2 MiB folios, as the huge backend clears them\n"
		"  --workload        mixed: hot:30,cold:30,hot:30,cold:30 (default);\n"
		"                    hot: hot:120; cold: cold:120\n"
		"  --phases          the phases instead, e.g. hot:10,cold:50; mixP:N: N\n"
		"                    intervals whose units are hot at random, P%% of\n"
		"                    them (e.g. mix50:120)\n"
		"  --pages           pages cleared per interval (default 4096; huge: 65536)\n"
		"  --touch           what the application reads after each clear: the\n"
		"                    faulting page's first line, that page, or the whole\n"
		"                    folio (default line; huge: page)\n"
		"  --hot-pages       hot pool size in pages (default 64: 256 KiB; huge:\n"
		"                    1024, two folios)\n"
		"  --cold-mb         cold pool size (default 4 x LLC, at least 1024)\n"
		"  --repeats         repeats of every arm, medians reported (default 3)\n"
		"  --sample-every    time one clear in N, as the module does with its\n"
		"                    default sample_shift=6 (default 64)\n"
		"  --reference-every frames (one in N) cleared the kernel's own way while\n"
		"                    any other strategy runs, the live baseline; 0: none,\n"
		"                    the policy probes (default 32)\n"
		"  --trial-every     frames (one in N per candidate) cleared with each\n"
		"                    candidate the policy names, as the module's trial\n"
		"                    frames (trial_shift=6: 64, the default); 0: no\n"
		"                    trials, the policy decides from the calibration\n"
		"  --probe-every     the temperature sample: one unit probed before its clear\n"
		"                    per N pages, counted hot or cold (the module's\n"
		"                    probe_shift=8: 256, the default; 0: none)\n"
		"  --touch-every     the touch probe: one non-temporal clear in N (every\n"
		"                    trial one) held, one of its lines loaded\n"
		"                    --touch-delay units later (the module's touch_shift=4:\n"
		"                    16, the default; 0: none)\n"
		"  --touch-delay     units cleared before a held unit's line is loaded\n"
		"                    (default 16)\n"
		"  --measure-kb      huge: of a reference or trial folio, this many KiB are\n"
		"                    cleared that way and timed, the rest as the strategy\n"
		"                    (the module's huge_measure_kb; default 256; 2048: all)\n"
		"  --regime          burst: every cold unit flushed and memory left idle\n"
		"                    before its clear, only clears and touches timed;\n"
		"                    sustained (default): the cold pool back to back\n"
		"  --load            the loaded regime: a memory-bandwidth load on this\n"
		"                    CPU throughout (default none: the cold pool is\n"
		"                    cleared back to back, the sustained regime)\n"
		"  --kernel          huge: the kernel series replayed, whose clear the\n"
		"                    module's kernel strategy and reference clears run:\n"
		"                    6.x (the 4 KiB walk) or 7.x (extents); default: the\n"
		"                    running kernel's. Both are static arms either way\n"
		"  --config          take [Policy] from this clearpaged.conf file\n"
		"  --out             directory for replay.{json,csv,svg} and\n"
		"                    replay-timeline.csv (default bench-results)\n");
}

/* "hot", "cold" or "mixP". */
const char *replay_phase_name(const struct phase *p, char *buf, size_t size)
{
	if (p->hot_share == 100)
		return "hot";
	if (!p->hot_share)
		return "cold";
	snprintf(buf, size, "mix%u", p->hot_share);
	return buf;
}

static int parse_phases(struct replay *r, const char *text)
{
	char *copy = strdup(text), *tok, *save;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	r->nr_phases = 0;
	r->nr_intervals = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		struct phase *p = &r->phases[r->nr_phases];
		char kind[8];
		unsigned int n;
		int used = 0;

		unsigned int share = 0;

		if (r->nr_phases == MAX_PHASES ||
		    sscanf(tok, "%7[a-z0-9]:%u%n", kind, &n, &used) != 2 ||
		    tok[used] || !n || n > 100000 ||
		    (strcmp(kind, "hot") && strcmp(kind, "cold") &&
		     (sscanf(kind, "mix%u%n", &share, &used) != 1 ||
		      kind[used] || share > 100)))
			err = -EINVAL;
		else {
			p->hot_share = !strcmp(kind, "hot") ? 100 :
				       !strcmp(kind, "cold") ? 0 : share;
			p->intervals = n;
			r->nr_intervals += n;
			r->nr_phases++;
		}
	}
	free(copy);
	if (err || !r->nr_phases) {
		bench_error("--phases: '%s' is not a list of hot:N, cold:N and mixP:N, P%% of 0..100 (at most %d phases)",
			    text, MAX_PHASES);
		return -EINVAL;
	}
	return 0;
}

/* --backend, --touch, --kernel, --measure-kb, --regime, --trial-every. */
static int replay_option(int opt, const char *arg, struct replay *r,
			 bool *touch_given)
{
	unsigned long v;

	switch (opt) {
	case 'b':
		if (!strcmp(arg, "huge")) {
			r->huge = true;
			r->unit_pages = BENCH_HUGE / BENCH_PAGE;
			if (!*touch_given)
				r->touch = TOUCH_PAGE;
		} else if (strcmp(arg, "4k")) {
			bench_error("--backend: '%s' is not 4k or huge", arg);
			return 2;
		}
		return 0;
	case 't':
		for (v = 0; v < 4; v++)
			if (!strcmp(arg, replay_touch_names[v]))
				break;
		if (v == 4) {
			bench_error("--touch: '%s' is not none, line, page or folio", arg);
			return 2;
		}
		r->touch = (enum touch)v;
		*touch_given = true;
		return 0;
	case 'k':
		if (!strcmp(arg, "6.x")) {
			r->kernel_arm = BENCH_ARM_KERNEL_6X;
		} else if (!strcmp(arg, "7.x")) {
			r->kernel_arm = BENCH_ARM_KERNEL_7X;
		} else {
			bench_error("--kernel: '%s' is not 6.x or 7.x", arg);
			return 2;
		}
		return 0;
	case 'T':
		if (bench_parse_uint(arg, "--trial-every", 1UL << 20,
				     &r->trial_every))
			return 2;
		if (r->trial_every && r->trial_every < CLEARPAGE_STRATEGY_COUNT) {
			bench_error("--trial-every: %lu leaves no frame of its own to every candidate (0, or %d and more)",
				    r->trial_every, CLEARPAGE_STRATEGY_COUNT);
			return 2;
		}
		return 0;
	case 'M':
		if (bench_parse_uint(arg, "--measure-kb", 1UL << 20, &v))
			return 2;
		if (!v || v % 4) {
			bench_error("--measure-kb: a multiple of 4 from 4 on");
			return 2;
		}
		r->measure_pages = v / 4;
		return 0;
	case 'G':
		if (!strcmp(arg, "burst")) {
			r->burst = true;
		} else if (strcmp(arg, "sustained")) {
			bench_error("--regime: '%s' is not burst or sustained (loaded: --load CPU)", arg);
			return 2;
		}
		return 0;
	}
	return BENCH_GO_ON;
}

/* What replay's options set (bench_parse()'s context). */
struct replay_parsing {
	struct replay *r;
	struct replay_run *run;
	struct daemon_config daemon_config;
	bool touch_given;
};

/* One of replay's own options (bench_parse()). */
static int replay_own_option(int opt, const char *arg, void *ctx)
{
	struct replay_parsing *p = ctx;
	struct replay *r = p->r;
	char error[512];
	int err = replay_option(opt, arg, r, &p->touch_given);

	if (err != BENCH_GO_ON)
		return err;
	switch (opt) {
	case 'w': p->run->workload = arg; return 0;
	case 'p': p->run->phases = arg; return 0;
	case 'P':
		return bench_parse_range(arg, "--pages", 1, 1UL << 24,
					 &r->pages) ? 2 : 0;
	case 'H':
		return bench_parse_range(arg, "--hot-pages", 1, 1UL << 20,
					 &r->hot_pages) ? 2 : 0;
	case 'C':
		return bench_parse_range(arg, "--cold-mb", 1, 1UL << 20,
					 &p->run->cold_mb) ? 2 : 0;
	case 'r':
		return bench_parse_range(arg, "--repeats", 1, 1000,
					 &p->run->repeats) ? 2 : 0;
	case 's':
		return bench_parse_range(arg, "--sample-every", 1, 1UL << 20,
					 &r->sample_every) ? 2 : 0;
	case 'R':
		return bench_parse_uint(arg, "--reference-every", 1UL << 20,
					&r->reference_every) ? 2 : 0;
	case 'e':
		return bench_parse_uint(arg, "--probe-every", 1UL << 20,
					&r->probes.probe_every) ? 2 : 0;
	case 'E':
		return bench_parse_uint(arg, "--touch-every", 1UL << 16,
					&r->probes.touch_every) ? 2 : 0;
	case 'D':
		return bench_parse_uint(arg, "--touch-delay", 1UL << 16,
					&r->probes.touch_delay) ? 2 : 0;
	case 'f':
		if (config_load_file(&p->daemon_config, arg, NULL, NULL,
				     error, sizeof(error))) {
			bench_error("--config: %s", error);
			return 2;
		}
		return 0;
	}
	return BENCH_GO_ON;
}

/* The phases of --workload, or --phases (a "custom" workload). */
static int workload_phases(struct replay *r, struct replay_run *run)
{
	if (run->phases)
		run->workload = "custom";
	else if (!strcmp(run->workload, "mixed"))
		run->phases = "hot:30,cold:30,hot:30,cold:30";
	else if (!strcmp(run->workload, "hot"))
		run->phases = "hot:120";
	else if (!strcmp(run->workload, "cold"))
		run->phases = "cold:120";
	if (!run->phases) {
		bench_error("--workload: '%s' is not mixed, hot or cold",
			    run->workload);
		return -1;
	}
	return parse_phases(r, run->phases) ? -1 : 0;
}

/*
 * The defaults the options left to the machine and the backend, and the
 * checks across options; BENCH_GO_ON, or the exit status.
 */
static int replay_settle(struct replay *r, struct replay_run *run)
{
	if (run->args.load_cpu != ~0UL && r->burst) {
		bench_error("--load is the loaded regime, --regime burst another: choose one");
		return 2;
	}
	if (!r->kernel_arm)
		r->kernel_arm = bench_running_kernel_arm() == BENCH_ARM_KERNEL_7X ?
				BENCH_ARM_KERNEL_7X : BENCH_ARM_KERNEL_6X;
	if (!r->pages)
		r->pages = r->huge ? 65536 : 4096;
	if (!r->hot_pages)
		r->hot_pages = r->huge ? 1024 : 64;
	if (r->touch == TOUCH_FOLIO && !r->huge) {
		bench_error("--touch folio is for --backend huge");
		return 2;
	}
	if (r->pages % r->unit_pages || r->hot_pages % r->unit_pages) {
		bench_error("--pages and --hot-pages: whole 2 MiB folios (multiples of 512) with --backend huge");
		return 2;
	}
	if (workload_phases(r, run))
		return 2;
	if (!run->cold_mb) {
		run->cold_mb = (4 * bench_llc_bytes()) >> 20;
		if (run->cold_mb < 1024)
			run->cold_mb = 1024;
	}
	/* Hot units are numbered from the cold pool's shuffle. */
	if (r->hot_pages > (run->cold_mb << 20) / BENCH_PAGE) {
		bench_error("--hot-pages: %lu pages do not fit the cold pool of %lu MiB (--cold-mb)",
			    r->hot_pages, run->cold_mb);
		return 2;
	}
	return BENCH_GO_ON;
}

/* The command line into @r and @run; BENCH_GO_ON, or the exit status. */
int replay_parse(int argc, char **argv, struct replay *r,
			struct replay_run *run)
{
	static const struct option options[] = {
		{ "backend", required_argument, NULL, 'b' },
		{ "workload", required_argument, NULL, 'w' },
		{ "phases", required_argument, NULL, 'p' },
		{ "pages", required_argument, NULL, 'P' },
		{ "touch", required_argument, NULL, 't' },
		{ "hot-pages", required_argument, NULL, 'H' },
		{ "cold-mb", required_argument, NULL, 'C' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "sample-every", required_argument, NULL, 's' },
		{ "reference-every", required_argument, NULL, 'R' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "trial-every", required_argument, NULL, 'T' },
		{ "regime", required_argument, NULL, 'G' },
		{ "measure-kb", required_argument, NULL, 'M' },
		{ "probe-every", required_argument, NULL, 'e' },
		{ "touch-every", required_argument, NULL, 'E' },
		{ "touch-delay", required_argument, NULL, 'D' },
		{ "config", required_argument, NULL, 'f' },
		BENCH_OPTION_CPU, BENCH_OPTION_NODE, BENCH_OPTION_LOAD,
		BENCH_OPTION_OUT, BENCH_OPTION_HELP,
		{}
	};
	static struct replay_parsing p;
	int err;

	p = (struct replay_parsing){ .r = r, .run = run };
	config_defaults(&p.daemon_config);
	err = bench_parse(argc, argv, options, &run->args, usage,
			  replay_own_option, &p);
	if (err != BENCH_GO_ON)
		return err;
	r->config = p.daemon_config.policy;
	return replay_settle(r, run);
}
