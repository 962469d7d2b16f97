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

#include "allowlist.h"
#include "config.h"
#include "log.h"
#include "manager.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: clearpaged [OPTIONS]\n\n"
		"Choose per NUMA node how the kernel zeroes user pages.\n\n"
		"  --dry-run          decide and log, change nothing\n"
		"  --check-config     validate the configuration, print it, exit\n"
		"  --config-root DIR  read the configuration below DIR (for tests)\n"
		"  -h, --help         this help\n"
		"      --version      print the version\n\n"
		"Configuration: /etc/clearpaged.conf, /etc/clearpaged.conf.d/*.conf\n"
		"(see clearpaged.conf(5)). SIGHUP reloads it.\n");
	if (out == stdout) {
		struct daemon_config defaults;

		config_defaults(&defaults);
		fprintf(out, "\nEvery setting, with its default (clearpaged.conf(5) explains each):\n\n");
		config_print(&defaults, out);
		fprintf(out, "\n[Node.N]\nStrategy=none\n");
	}
}

static void warn_config(const char *message, void *arg)
{
	(void)arg;
	log_line(LOG_WARNING, "%s", message);
}

/* --check-config: what the allowlist says about this CPU, as a comment. */
static void print_cpu_verdict(const struct daemon_config *config)
{
	const struct allowlist_entry *entry;
	unsigned int family, model, stepping;
	struct allowlist list;
	char vendor[64], error[512], names[128];

	if (allowlist_cpu_from_cpuinfo("/proc/cpuinfo", vendor, sizeof(vendor),
				       &family, &model, &stepping)) {
		printf("\n# This CPU: unknown (no /proc/cpuinfo)\n");
		return;
	}
	printf("\n# This CPU: %s family %u model %u stepping %u: ", vendor,
	       family, model, stepping);
	if (allowlist_load_all(&list, config->allowlist_dir, config->allowlist,
			       error, sizeof(error))) {
		printf("the allowlist cannot be read: %s\n", error);
		return;
	}
	entry = allowlist_match(&list, vendor, family, model, stepping);
	if (entry) {
		allowlist_format_strategies(entry->strategies, names,
					    sizeof(names));
		printf("allowed %s by %s:%u\n", names, entry->file,
		       entry->line);
	} else {
		printf("not on the allowlist: monitoring only%s\n",
		       config->allow_unlisted_cpu ?
		       ", but AllowUnlistedCPU=yes lets clearpaged act" :
		       " (clearpage-bench advise measures it and writes a line)");
	}
	allowlist_free(&list);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "check-config", no_argument, NULL, 'c' },
		{ "config-root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	struct daemon_config config;
	struct daemon_overrides overrides = { 0 };
	bool check = false;
	const char *root = "";
	char error[512];
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			overrides.dry_run = true;
			break;
		case 'c':
			check = true;
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
	if (config_load(&config, root, warn_config, NULL, error, sizeof(error))) {
		fprintf(stderr, "clearpaged: %s\n", error);
		return 1;
	}
	config_apply_overrides(&config, &overrides);
	if (check) {
		config_print(&config, stdout);
		print_cpu_verdict(&config);
		return 0;
	}
	log_set_level(config.log_level);
	return manager_run(&config, root, &overrides);
}
