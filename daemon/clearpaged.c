// SPDX-License-Identifier: GPL-2.0
/*
 * clearpaged: chooses, per NUMA node, how the kernel zeroes user pages, from
 * clearpage.ko's measurements. This file parses the command line and loads
 * the configuration; manager.c runs the event loop, policy.c decides.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "check-config.h"
#include "config.h"
#include "log.h"
#include "manager.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: clearpaged [OPTIONS]\n\n"
		"Choose per NUMA node how the kernel zeroes user pages.\n\n"
		"  --dry-run          decide and log, change nothing\n"
		"  --check-config [FILE...]\n"
		"                     validate the configuration (and FILEs, drop-ins\n"
		"                     to vet before they are installed, applied after\n"
		"                     it), print the files read and the result, every\n"
		"                     error; exit 1 on anything the daemon would not\n"
		"                     apply as written\n"
		"  --lenient          with --check-config: unknown keys only warn\n"
		"  --config-root DIR  read the configuration below DIR (for tests)\n"
		"  -h, --help         this help\n"
		"  -V, --version      print the version\n\n"
		"Configuration: /etc/clearpaged.conf (else /usr/lib/clearpaged/clearpaged.conf),\n"
		"then drop-ins *.conf in /etc/clearpaged.conf.d, /run/clearpaged.conf.d and\n"
		"/usr/lib/clearpaged/clearpaged.conf.d (see clearpaged.conf(5)). SIGHUP\n"
		"reloads it.\n");
	if (out == stdout) {
		struct daemon_config defaults;

		config_defaults(&defaults);
		fprintf(out, "\nEvery setting, with its default (clearpaged.conf(5) explains each):\n\n");
		config_print(&defaults, out);
		fprintf(out, "\n[Node.N]\nStrategy=none\nGiganticHelpers=none\nProbe=none\n");
	}
}

static void warn_config(const char *message, void *arg)
{
	unsigned int *warnings = arg;

	(*warnings)++;
	log_line(LOG_WARNING, "%s", message);
}

/* Every line of a loader's error, each a line of its own. */
static void print_errors(const char *error)
{
	const char *p = error;

	while (*p) {
		size_t len = strcspn(p, "\n");

		fprintf(stderr, "clearpaged: %.*s\n", (int)len, p);
		p += len + !!p[len];
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "check-config", no_argument, NULL, 'c' },
		{ "lenient", no_argument, NULL, 'l' },
		{ "config-root", required_argument, NULL, 'r' },
		/*
		 * Not an option: without it, getopt_long() took --config FILE
		 * for --config-root and read the configuration below FILE.
		 */
		{ "config", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	struct daemon_config config;
	struct daemon_overrides overrides = { 0 };
	bool check = false, lenient = false;
	unsigned int warnings = 0;
	const char *root = "";
	char error[4096] = "";
	bool failed = false;
	int c, i;

	while ((c = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			overrides.dry_run = true;
			break;
		case 'c':
			check = true;
			break;
		case 'l':
			lenient = true;
			break;
		case 'r':
			root = optarg;
			break;
		case 'C':
			fprintf(stderr, "clearpaged: there is no --config: the daemon reads /etc/clearpaged.conf and its drop-ins; --check-config %s vets that file\n",
				optarg);
			return 2;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("clearpaged %s\n", CLEARPAGE_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc && !check) {
		fprintf(stderr, "clearpaged: unexpected argument '%s' (files go with --check-config)\n",
			argv[optind]);
		return 2;
	}
	log_init(LOG_INFO);
	if (lenient && !check) {
		fprintf(stderr, "clearpaged: --lenient only goes with --check-config\n");
		return 2;
	}
	/* Defaults where the files fail: FILEs are still vetted on them. */
	config_defaults(&config);
	if (config_load(&config, root, warn_config, &warnings, error,
			sizeof(error))) {
		print_errors(error);
		if (!check)
			return 1;
		failed = true;
		if (optind < argc)
			fprintf(stderr,
				"clearpaged: the installed configuration fails: the files below are checked on the built-in defaults instead\n");
	}
	/* Files to vet: on top of what is installed, every error of each. */
	for (i = optind; i < argc; i++)
		if (config_load_file(&config, argv[i], warn_config, &warnings,
				     error, sizeof(error))) {
			print_errors(error);
			failed = true;
		}
	if (failed)
		return 1;
	config_apply_overrides(&config, &overrides);
	if (check)
		return check_config(&config, root, argv + optind, argc - optind,
				    warnings, lenient, stdout, stderr) ? 1 : 0;
	log_set_level(config.log_level);
	return manager_run(&config, root, &overrides);
}
