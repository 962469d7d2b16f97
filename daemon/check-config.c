// SPDX-License-Identifier: GPL-2.0
/* clearpaged --check-config; see check-config.h. */
#include <errno.h>
#include <libgen.h>
#include <string.h>
#include <sys/stat.h>

#include "allowlist.h"
#include "check-config.h"

struct check {
	FILE *out, *err;
	unsigned int problems;
	unsigned int files;	/* of the configuration, listed */
};

#define CHECK_NODE_DIR "/sys/devices/system/node"

/*
 * The service runs as a dynamic user, neither owner nor group of the
 * configuration: it reads @path only through the "other" bits, of the file
 * and of every directory above it.
 */
static void check_readable(struct check *c, const char *path)
{
	char dir[2 * CONFIG_PATH_MAX];
	struct stat st;

	if (stat(path, &st)) {
		fprintf(c->err, "clearpaged: %s: %s\n", path, strerror(errno));
		c->problems++;
		return;
	}
	if (!(st.st_mode & S_IROTH)) {
		fprintf(c->err,
			"clearpaged: %s: mode %04o: the service's own user cannot read it (chmod o+r)\n",
			path, (unsigned int)(st.st_mode & 07777));
		c->problems++;
		return;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *d = dirname(dir); strcmp(d, "/") && strcmp(d, ".");
	     d = dirname(d)) {
		if (stat(d, &st) || (st.st_mode & S_IXOTH))
			continue;
		fprintf(c->err,
			"clearpaged: %s: the service's own user cannot enter %s (mode %04o; chmod o+x)\n",
			path, d, (unsigned int)(st.st_mode & 07777));
		c->problems++;
		return;
	}
}

static int print_file(const char *path, void *arg)
{
	struct check *c = arg;

	fprintf(c->out, "# %s\n", path);
	c->files++;
	check_readable(c, path);
	return 0;
}

/* Every *.conf of the allowlist's drop-in directory, and AllowList=. */
static void check_allowlist_files(struct check *c,
				  const struct daemon_config *config)
{
	char path[2 * CONFIG_PATH_MAX], **names = NULL;
	size_t count = 0, i;

	if (config_collect_dropins(config->allowlist_dir, &names, &count)) {
		fprintf(c->err, "clearpaged: %s: %s\n", config->allowlist_dir,
			strerror(ENOMEM));
		c->problems++;
	}
	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/%s", config->allowlist_dir,
			 names[i]);
		check_readable(c, path);
	}
	config_free_names(names, count);
	check_readable(c, config->allowlist);
}

/* What the allowlist says about this CPU, as a comment; false: unreadable. */
static bool print_cpu_verdict(struct check *c,
			      const struct daemon_config *config)
{
	const struct allowlist_entry *entry;
	unsigned int family, model, stepping;
	struct allowlist list;
	char vendor[64], error[512], names[128];

	if (allowlist_load_all(&list, config->allowlist_dir, config->allowlist,
			       error, sizeof(error))) {
		fprintf(c->out, "\n# The allowlist cannot be read: %s\n", error);
		fprintf(c->err,
			"clearpaged: %s (the daemon would only monitor)\n",
			error);
		c->problems++;
		return false;
	}
	if (allowlist_cpu_from_cpuinfo("/proc/cpuinfo", vendor, sizeof(vendor),
				       &family, &model, &stepping)) {
		fprintf(c->out, "\n# This CPU: unknown (no /proc/cpuinfo)\n");
		allowlist_free(&list);
		return true;
	}
	fprintf(c->out, "\n# This CPU: %s family 0x%x model 0x%x stepping %u: ",
		vendor, family, model, stepping);
	entry = allowlist_match(&list, vendor, family, model, stepping);
	if (entry) {
		allowlist_format_strategies(entry->strategies, names,
					    sizeof(names));
		fprintf(c->out, "allowed %s by %s:%u\n", names, entry->file,
			entry->line);
	} else {
		fprintf(c->out, "not on the allowlist: monitoring only%s\n",
			config->allow_unlisted_cpu ?
			", but AllowUnlistedCPU=yes lets clearpaged act" :
			" (clearpage-bench advise measures it and writes a line)");
	}
	allowlist_free(&list);
	return true;
}

/* The metrics file's directory: there, and writable by group or others. */
static void check_metrics_dir(struct check *c, const char *root,
			      const char *file)
{
	char path[2 * CONFIG_PATH_MAX], *dir;
	struct stat st;

	if (!file[0])
		return;
	snprintf(path, sizeof(path), "%s%s", root, file);
	dir = dirname(path);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(c->err,
			"clearpaged: MetricsFile=%s: the directory %s does not exist\n",
			file, dir);
		c->problems++;
	} else if (!(st.st_mode & (S_IWGRP | S_IWOTH))) {
		fprintf(c->err,
			"clearpaged: MetricsFile=%s: the service's own user cannot write to %s (mode %04o): make it group-writable and add SupplementaryGroups= for its group in a drop-in for clearpaged.service\n",
			file, dir, (unsigned int)(st.st_mode & 07777));
		c->problems++;
	}
}

/*
 * [Node.N] sections for nodes this machine does not have: the daemon would
 * apply nothing of them (a warning, as an unknown key is).
 */
static unsigned int check_nodes(struct check *c,
				const struct daemon_config *config)
{
	char path[64], online[256] = "";
	unsigned int missing = 0;
	struct stat st;
	FILE *f;
	int n;

	/* Without node sysfs (no NUMA support) nothing can be told. */
	if (stat(CHECK_NODE_DIR, &st))
		return 0;
	f = fopen(CHECK_NODE_DIR "/online", "re");
	if (f) {
		if (!fgets(online, sizeof(online), f))
			online[0] = '\0';
		online[strcspn(online, "\n")] = '\0';
		fclose(f);
	}
	for (n = 0; n < CONFIG_MAX_NODES; n++) {
		if (config->node_strategy[n] < 0 && config->node_helpers[n] < 0 &&
		    config->node_probe[n] == CONFIG_PROBE_NONE)
			continue;
		snprintf(path, sizeof(path), CHECK_NODE_DIR "/node%d", n);
		if (!stat(path, &st))
			continue;
		fprintf(c->err,
			"clearpaged: [Node.%d]: this machine has no node %d (nodes %s): the daemon would apply none of it\n",
			n, n, online[0] ? online : "unknown");
		missing++;
	}
	return missing;
}

unsigned int check_config(const struct daemon_config *config,
			  const char *root, char *const *files, int nr_files,
			  unsigned int warnings, bool lenient, FILE *out,
			  FILE *err)
{
	struct check c = { .out = out, .err = err };
	int i;

	fprintf(out, "# Files read, in order:\n");
	config_for_each_file(root, print_file, &c);
	if (!c.files)
		fprintf(out, "#   none installed: the built-in defaults\n");
	for (i = 0; i < nr_files; i++)
		fprintf(out, "# %s (from the command line, not installed)\n",
			files[i]);
	fputc('\n', out);
	config_print(config, out);
	/* Read as root; then as the service will read them. */
	if (print_cpu_verdict(&c, config))
		check_allowlist_files(&c, config);
	check_metrics_dir(&c, root, config->metrics_file);
	warnings += check_nodes(&c, config);
	if (warnings && !lenient) {
		fprintf(err,
			"clearpaged: %u setting%s the daemon would ignore (see the warnings above; --lenient accepts them)\n",
			warnings, warnings == 1 ? "" : "s");
		c.problems += warnings;
	}
	return c.problems;
}
