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
		"  --check-config     validate the configuration, print the files read\n"
		"                     and the result, exit 1 on anything the daemon\n"
		"                     would not apply as written\n"
		"  --lenient          with --check-config: unknown keys only warn\n"
		"  --config-root DIR  read the configuration below DIR (for tests)\n"
		"  -h, --help         this help\n"
		"  -V, --version      print the version\n\n"
		"Configuration: /etc/clearpaged.conf, /etc/clearpaged.conf.d/*.conf\n"
		"(see clearpaged.conf(5)). SIGHUP reloads it.\n");
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "check-config", no_argument, NULL, 'c' },
		{ "lenient", no_argument, NULL, 'l' },
		{ "config-root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	struct daemon_config config;
	struct daemon_overrides overrides = { 0 };
	bool check = false, lenient = false;
	unsigned int warnings = 0;
	const char *root = "";
	char error[512];
	int c;

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
	if (optind < argc) {
		fprintf(stderr, "clearpaged: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	log_init(LOG_INFO);
	if (lenient && !check) {
		fprintf(stderr, "clearpaged: --lenient only goes with --check-config\n");
		return 2;
	}
	if (config_load(&config, root, warn_config, &warnings, error,
			sizeof(error))) {
		fprintf(stderr, "clearpaged: %s\n", error);
		return 1;
	}
	config_apply_overrides(&config, &overrides);
	if (check)
		return check_config(&config, root, warnings, lenient, stdout,
				    stderr) ? 1 : 0;
	log_set_level(config.log_level);
	return manager_run(&config, root, &overrides);
}
