// SPDX-License-Identifier: GPL-2.0
/* clearpage-bench: the command line every subcommand shares; see bench.h. */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"
#include "bench.h"

int bench_parse_strategies(const char *list, unsigned int *mask)
{
	char *copy, *tok, *save;
	int s, err = 0;

	*mask = 0;
	if (!strcmp(list, "all")) {
		for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
			if (bench_strategy_usable(s))
				*mask |= 1U << s;
		return 0;
	}
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
			if (!strcmp(tok, policy_strategy_name(s)))
				break;
		if (s == CLEARPAGE_STRATEGY_COUNT) {
			bench_error("unknown strategy '%s' (kernel, rep_stosb, rep_stosq, movq, movnti, clzero or all)",
				    tok);
			err = -EINVAL;
		} else {
			*mask |= 1U << s;
		}
	}
	free(copy);
	return err;
}

int bench_parse_sizes(const char *list, uint64_t *sizes, int max)
{
	const char *p = list;
	int count = 0;

	while (*p) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);

		if (end == p || v == 0 || count == max)
			return -EINVAL;
		switch (*end) {
		case 'K': case 'k': v <<= 10; end++; break;
		case 'M': case 'm': v <<= 20; end++; break;
		case 'G': case 'g': v <<= 30; end++; break;
		default: break;
		}
		if (v % BENCH_PAGE || v > (1ULL << 40))
			return -EINVAL;
		sizes[count++] = v;
		if (*end == ',')
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	return count ? count : -EINVAL;
}

void bench_format_size(uint64_t bytes, char *buf, size_t size)
{
	if (bytes >= (1ULL << 30) && !(bytes % (1ULL << 30)))
		snprintf(buf, size, "%lluG", (unsigned long long)(bytes >> 30));
	else if (bytes >= (1ULL << 20) && !(bytes % (1ULL << 20)))
		snprintf(buf, size, "%lluM", (unsigned long long)(bytes >> 20));
	else
		snprintf(buf, size, "%lluK", (unsigned long long)(bytes >> 10));
}

int bench_parse_range(const char *text, const char *what, unsigned long min,
		      unsigned long max, unsigned long *value)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || end == text || *end || v < min || v > max ||
	    text[0] == '-') {
		bench_error("%s: '%s' is not a number from %lu to %lu", what, text,
			    min, max);
		return -EINVAL;
	}
	*value = v;
	return 0;
}

int bench_parse_uint(const char *text, const char *what, unsigned long max,
		     unsigned long *value)
{
	return bench_parse_range(text, what, 0, max, value);
}

/* The first line of @path, or @fallback where it cannot be read. */
static void read_line(const char *path, char *buf, size_t size,
		      const char *fallback)
{
	FILE *f = fopen(path, "re");

	if (!f || !fgets(buf, (int)size, f))
		snprintf(buf, size, "%s", fallback);
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

/* A CPU this process may run on. */
static int parse_cpu(const char *text, const char *what, unsigned long *value)
{
	char online[256];
	cpu_set_t set;

	if (bench_parse_uint(text, what, CPU_SETSIZE - 1, value))
		return -EINVAL;
	if (sched_getaffinity(0, sizeof(set), &set) ||
	    !CPU_ISSET((int)*value, &set)) {
		read_line("/sys/devices/system/cpu/online", online,
			  sizeof(online), "unknown");
		bench_error("%s: CPU %lu is not one this process can run on (online CPUs: %s)",
			    what, *value, online);
		return -EINVAL;
	}
	return 0;
}

int bench_parse_node(const char *text, const char *what, unsigned long *value)
{
	char online[256];
	int nodes[BENCH_MAX_NODES], n;

	if (bench_parse_uint(text, what, BENCH_MAX_NODES - 1, value))
		return -EINVAL;
	/* A kernel without NUMA has node 0 only. */
	read_line("/sys/devices/system/node/online", online, sizeof(online),
		  "0");
	n = pmu_parse_cpulist(online, nodes, BENCH_MAX_NODES);
	for (int i = 0; i < n; i++)
		if (nodes[i] == (int)*value)
			return 0;
	bench_error("%s: node %lu is not online (online nodes: %s)", what,
		    *value, online);
	return -EINVAL;
}

/*
 * A shared option stored in @args (BENCH_GO_ON), --help (@usage on stdout,
 * 0), a bad value (one line, 2) or an option the command does not take
 * (@usage on stderr, 2).
 */
static int bench_common_option(int opt, const char *arg,
			       struct bench_args *args,
			       void (*usage)(FILE *out))
{
	int err = 0;

	switch (opt) {
	case BENCH_OPT_RUNS:
		err = bench_parse_range(arg, "--runs", 1, 1000, &args->runs);
		break;
	case BENCH_OPT_CPU:
		err = parse_cpu(arg, "--cpu", &args->cpu);
		break;
	case BENCH_OPT_NODE:
		err = bench_parse_node(arg, "--node", &args->node);
		break;
	case BENCH_OPT_LOAD:
		err = parse_cpu(arg, "--load", &args->load_cpu);
		break;
	case BENCH_OPT_OUT:
		args->out = arg;
		break;
	case 'h':
		usage(stdout);
		return 0;
	default:
		usage(stderr);
		return 2;
	}
	return err ? 2 : BENCH_GO_ON;
}

/* After the loop: a stray argument, --load without --cpu on another CPU. */
static int bench_common_done(int argc, struct bench_args *args,
			     void (*usage)(FILE *out))
{
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (args->load_cpu != ~0UL &&
	    (args->cpu == ~0UL || args->cpu == args->load_cpu)) {
		bench_error("--load: pin the measurement with --cpu on another CPU");
		return 2;
	}
	return BENCH_GO_ON;
}

int bench_parse(int argc, char **argv, const struct option *options,
		struct bench_args *args, void (*usage)(FILE *out),
		int (*own)(int opt, const char *arg, void *ctx), void *ctx)
{
	int opt, err;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		err = own(opt, optarg, ctx);
		if (err == BENCH_GO_ON)
			err = bench_common_option(opt, optarg, args, usage);
		if (err != BENCH_GO_ON && err != 0)
			return err;
		if (opt == 'h')
			return 0;
	}
	return bench_common_done(argc, args, usage);
}
