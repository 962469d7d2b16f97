// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench: micro, fault-latency, replay and A/B benchmarks of page
 * zeroing strategies. See bench/README.md.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "strategies", bench_strategies, "every strategy, hot and cold, at each buffer size" },
	{ "faults", bench_faults, "page-fault latency per size and node, per module strategy" },
	{ "replay", bench_replay, "the real policy on real clears: adaptive vs static vs oracle" },
	{ "ab", bench_ab, "macro A/B: interleaved repeats, Welch's t-test, a verdict" },
	{ "gigantic", bench_gigantic, "a 1 GiB folio cleared by 1, 2, 4 ... CPUs, as the module's helpers do" },
	{ "probe", bench_probe, "the huge backend's temperature probe: cost, hot and cold judged right" },
	{ "touch", bench_touch, "the touch probe: its cached share against what the application read" },
	{ "advise", bench_advise, "measure this CPU; its allowlist line and policy settings" },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: clearpage-bench COMMAND [OPTIONS]\n\nCommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nclearpage-bench COMMAND --help describes each. Every command writes\n"
		   "COMMAND.json, COMMAND.csv and COMMAND.svg into --out DIR\n"
		   "(default bench-results); progress goes to stderr.\n");
}

int main(int argc, char **argv)
{
	clearpage_cpu_detect(&bench_cpu);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("clearpage-bench %s\n", CLEARPAGE_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	bench_error("unknown command '%s'; try clearpage-bench --help", argv[1]);
	return 2;
}
