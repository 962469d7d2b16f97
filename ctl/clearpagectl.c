// SPDX-License-Identifier: GPL-2.0
/*
 * clearpagectl: show and change clearpage's per-node page zeroing strategy.
 * Each subcommand lives in its own file; this one dispatches and holds the
 * helpers they share.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctl.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv, const struct ctl_options *o);
	const char *args, *about;
} commands[] = {
	{ "status", cmd_status, "[NODE|all] [--json]",
	  "per node: the verdict, each backend's strategy and last decision,\n"
	  "the time saved, counters and calibration" },
	{ "check", cmd_check, "[--json]",
	  "will clearpage act here: kernel, headers, DKMS, signing, pages, CPU" },
	{ "list", cmd_list, "[--json]",
	  "the strategies: what each runs, what it is good for, which this CPU has" },
	{ "set", cmd_set, "NODE|all STRATEGY [--backend 4k|huge|all]",
	  "select a strategy (pins it)" },
	{ "pin", cmd_pin, "NODE|all [--backend 4k|huge|all]",
	  "keep the daemon off the node" },
	{ "unpin", cmd_unpin, "NODE|all [--backend 4k|huge|all]",
	  "hand the node back to the daemon" },
	{ "helpers", cmd_helpers, "NODE|all COUNT",
	  "other CPUs that help clear a 1 GiB page (0: none)" },
	{ "probe", cmd_probe, "NODE|all HOT COLD|off",
	  "clear hot huge folios with HOT, cold ones with COLD (pins huge)" },
	{ "calibrate", cmd_calibrate, "[NODE|all] [--json]",
	  "measure hot and cold cost again" },
	{ "reset", cmd_reset, "[NODE|all] [--backend 4k|huge|all]",
	  "everything to kernel, unpinned; clearpaged leaves it" },
	{ "release", cmd_release, "[NODE|all] [--backend 4k|huge|all]",
	  "return what clearpaged set to kernel, end trials" },
	{ "monitor", cmd_monitor, "[--json] [--count N] [--timeout S]",
	  "print every change" },
	{ "unload", cmd_unload, "[--timeout S]",
	  "disable the livepatch, remove the module" },
};
#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/*
 * A command's synopsis after @prefix, then what it does, its lines
 * indented by @indent.
 */
static void command_usage(FILE *out, size_t i, const char *prefix,
			  const char *indent)
{
	const char *p = commands[i].about;

	fprintf(out, "%s%s %s\n", prefix, commands[i].name, commands[i].args);
	while (*p) {
		size_t len = strcspn(p, "\n");

		fprintf(out, "%s%.*s\n", indent, (int)len, p);
		p += len + !!p[len];
	}
}

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: clearpagectl [OPTIONS] [COMMAND [ARGS]]\n\nCommands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		command_usage(out, i, "  ", "      ");
	fprintf(out,
		"\nOptions:\n"
		"  --json                  machine-readable status, check, list, calibrate,\n"
		"                          monitor\n"
		"  --backend 4k|huge|all   the backend to change (default all)\n"
		"  --count N, --timeout S  for monitor (and --timeout for unload)\n"
		"  -h, --help              this help; 'COMMAND --help', 'help COMMAND': one\n"
		"  -V, --version           the version\n"
		"\nWithout a command: status. Without --backend, set, pin, unpin, reset and\n"
		"release change both backends (4k: 4 KiB faults; huge: huge folios).\n"
		"Changes need root (CAP_SYS_ADMIN).\n"
		"Exit status: 0 ok, 1 failed, 2 usage, 3 module not loaded, 4 permission\n"
		"denied, 5 check found warnings and no failure.\n"
		"See clearpagectl(8).\n");
}

/* Help for one command, or for all when @name is none; the exit code. */
static int help(const char *name)
{
	size_t i;

	for (i = 0; name && i < NR_COMMANDS; i++)
		if (!strcmp(name, commands[i].name)) {
			command_usage(stdout, i, "Usage: clearpagectl ", "  ");
			printf("\nclearpagectl(8) describes it under COMMANDS; clearpagectl --help\nlists the options every command takes.\n");
			return EXIT_OK;
		}
	if (name && strcmp(name, "help")) {
		fprintf(stderr, "clearpagectl: help: unknown command '%s'; see clearpagectl --help\n",
			name);
		return EXIT_USAGE;
	}
	usage(stdout);
	return EXIT_OK;
}

int ctl_connect_failed(int err)
{
	if (err == -ENOENT) {
		fprintf(stderr, "clearpagectl: the clearpage module is not loaded; load it with 'modprobe clearpage'\n");
		return EXIT_NOT_LOADED;
	}
	if (err == -EPROTO) {
		fprintf(stderr, "clearpagectl: the loaded clearpage module is older than these tools (its netlink interface is before version %d): reload it (README, Upgrade)\n",
			CLEARPAGE_GENL_VERSION);
		return EXIT_FAILED;
	}
	if (err < 0) {
		fprintf(stderr, "clearpagectl: cannot talk to clearpage over generic netlink: %s\n",
			strerror(-err));
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

int ctl_open(struct cp_client **client)
{
	return ctl_connect_failed(cp_client_open(client));
}

/* Print one line for a failed request; return the exit code it means. */
int ctl_fail(struct cp_client *client, int err, const char *what)
{
	const char *detail = client ? cp_client_error(client) : "";

	if (err == -EPERM) {
		fprintf(stderr, "clearpagectl: %s needs CAP_SYS_ADMIN: run it as root\n",
			what);
		return EXIT_PERMISSION;
	}
	if (err == -EBUSY) {
		fprintf(stderr, "clearpagectl: %s: the node's backend is pinned by an administrator; 'clearpagectl unpin' hands it back\n",
			what);
		return EXIT_FAILED;
	}
	fprintf(stderr, "clearpagectl: %s: %s%s%s\n", what, strerror(-err),
		*detail ? ": " : "", detail);
	return EXIT_FAILED;
}

int ctl_check_helpers_arg(const char *arg)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (!errno && *arg >= '0' && *arg <= '9' && !*end &&
	    n <= CLEARPAGE_HELPERS_MAX)
		return EXIT_OK;
	fprintf(stderr, "clearpagectl: helpers: '%s' is not a count of helpers: give 0 to %d (at most the node's online CPUs less one)\n",
		arg, CLEARPAGE_HELPERS_MAX);
	return EXIT_USAGE;
}

int ctl_check_node_arg(const char *arg)
{
	char *end;
	long id;

	errno = 0;
	id = strtol(arg, &end, 10);
	if (!strcmp(arg, "all") ||
	    (!errno && *arg >= '0' && *arg <= '9' && !*end && id <= INT_MAX))
		return EXIT_OK;
	fprintf(stderr, "clearpagectl: '%s' is not a node: give a node number (clearpagectl status lists them) or 'all'\n",
		arg);
	return EXIT_USAGE;
}

/*
 * Resolve "all" or a node id into node infos. Unknown ids get one line
 * naming the nodes there are.
 */
int ctl_parse_nodes(struct cp_client *client, const char *arg,
		    struct cp_node_info *nodes, int *count)
{
	static struct cp_node_info all[CP_MAX_NODES];
	char *end, list[256] = "";
	int n, i;
	long id;

	n = cp_dump_nodes(client, all, CP_MAX_NODES);
	if (n < 0)
		return ctl_fail(client, n, "listing nodes");
	if (!strcmp(arg, "all")) {
		memcpy(nodes, all, n * sizeof(*all));
		*count = n;
		return EXIT_OK;
	}
	errno = 0;
	id = strtol(arg, &end, 10);
	for (i = 0; !errno && *arg && !*end && i < n; i++) {
		if (all[i].node == id) {
			nodes[0] = all[i];
			*count = 1;
			return EXIT_OK;
		}
	}
	for (i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%u", i ? " " : "", all[i].node);
	fprintf(stderr, "clearpagectl: '%s' is not a node with memory managed by clearpage; nodes: %s, or 'all'\n",
		arg, list);
	return EXIT_USAGE;
}

/* fgets() the first line of @f, its newline dropped. */
static bool first_line(FILE *f, char *buf, size_t size)
{
	if (!fgets(buf, size, f))
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

bool ctl_read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = first_line(f, buf, size);
	fclose(f);
	return ok;
}

bool ctl_command_line(const char *cmd, char *buf, size_t size)
{
	FILE *p = popen(cmd, "re");
	bool ok;

	if (!p)
		return false;
	ok = first_line(p, buf, size);
	pclose(p);
	return ok && *buf;
}

void ctl_format_epoch(long long seconds, char *buf, size_t size)
{
	time_t t = (time_t)seconds;
	struct tm tm;
	size_t len;

	/* strftime's %z is +hhmm; RFC 3339 writes +hh:mm. */
	if (seconds <= 0 || !localtime_r(&t, &tm) ||
	    !(len = strftime(buf, size, "%Y-%m-%dT%H:%M:%S%z", &tm)) ||
	    len + 2 > size) {
		snprintf(buf, size, "-");
		return;
	}
	memmove(buf + len - 1, buf + len - 2, 3);
	buf[len - 2] = ':';
}

void ctl_format_time(unsigned long long ns, char *buf, size_t size)
{
	ctl_format_epoch((long long)(ns / 1000000000ULL), buf, size);
}

void ctl_wrapped(int indent, const char *fmt, ...)
{
	char line[2048];
	const char *p = line;
	int column = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* Each line breaks at its last space within CTL_WIDTH, or its first. */
	while (column + strlen(p) > CTL_WIDTH) {
		const char *cut = NULL, *q;

		for (q = p; *q && (!cut || column + (q - p) <= CTL_WIDTH); q++)
			if (*q == ' ' && q > p)
				cut = q;
		if (!cut)
			break;
		printf("%.*s\n%*s", (int)(cut - p), p, indent, "");
		column = indent;
		p = cut + 1;
	}
	printf("%s\n", p);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "count", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "backend", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	struct ctl_options o = { .count = -1, .timeout = -1,
				 .backend = CP_BACKEND_ALL };
	const char *name = "status", *first = NULL;
	long *number;
	char *end;
	size_t i, positional = 0;
	int c;

	/*
	 * A negative number is a node that cannot be, not an option: say so
	 * rather than print the usage (values of options with one excepted).
	 */
	for (i = 1; i < (size_t)argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--count") || !strcmp(argv[i], "--timeout") ||
		    !strcmp(argv[i], "--backend"))
			i++;
		else if (argv[i][0] == '-' && argv[i][1] >= '0' && argv[i][1] <= '9')
			return positional == 2 && !strcmp(name, "helpers") ?
			       ctl_check_helpers_arg(argv[i]) :
			       ctl_check_node_arg(argv[i]);
		else if (argv[i][0] != '-' && positional++ == 0)
			name = argv[i];
	}
	if (positional)
		first = name;
	name = "status";
	/*
	 * GNU getopt permutes: options may stand before or after the command.
	 * Its own messages are off: one line of ours names what was wrong.
	 */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			o.json = true;
			break;
		case 'c':
		case 't':
			number = c == 'c' ? &o.count : &o.timeout;
			errno = 0;
			*number = strtol(optarg, &end, 10);
			if (errno || !*optarg || *end || *number < 0) {
				fprintf(stderr, "clearpagectl: --%s wants a non-negative number, not '%s'\n",
					c == 'c' ? "count" : "timeout", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'b':
			o.backend = cp_backend_from_name(optarg);
			if (o.backend == -EINVAL) {
				fprintf(stderr, "clearpagectl: --backend wants 4k, huge or all, not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			return help(first);
		case 'V':
			printf("clearpagectl %s\n", CLEARPAGE_VERSION);
			return EXIT_OK;
		case ':':
			fprintf(stderr, "clearpagectl: %s wants a value (clearpagectl --help lists the options)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		default:
			/*
			 * glibc: optopt 0 for an unknown long option; a
			 * flag's own letter for a flag given a value
			 * (--json=1: -j itself cannot fail); else the
			 * unknown short option, perhaps within a cluster.
			 */
			if (!optopt)
				fprintf(stderr, "clearpagectl: unknown option '%s' (clearpagectl --help lists the options)\n",
					argv[optind - 1]);
			else if (strchr("jhV", optopt))
				fprintf(stderr, "clearpagectl: %.*s takes no value (clearpagectl --help lists the options)\n",
					(int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
			else
				fprintf(stderr, "clearpagectl: unknown option '-%c' (clearpagectl --help lists the options)\n",
					optopt);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		name = argv[optind++];
	argc -= optind;
	argv += optind;
	if (!strcmp(name, "help"))
		return help(argc ? argv[0] : NULL);
	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return commands[i].run(argc, argv, &o);
	fprintf(stderr, "clearpagectl: unknown command '%s'; see clearpagectl --help\n",
		name);
	return EXIT_USAGE;
}
