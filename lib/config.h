/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clearpaged's configuration: systemd-style INI files.
 *
 *   <root>/usr/lib/clearpaged/clearpaged.conf      shipped defaults
 *   <root>/etc/clearpaged.conf                     replaces the one above
 *   <root>/usr/lib/clearpaged/clearpaged.conf.d/NAME.conf
 *   <root>/etc/clearpaged.conf.d/NAME.conf         drop-ins; /etc wins for a
 *                                                  name in both
 *
 * Drop-ins apply after the main file, in lexical order of their names. An
 * unknown section or key is a warning with file:line; an invalid value fails
 * the load with file:line and the valid range, and the configuration in use
 * stays as it was.
 */
#ifndef CLEARPAGED_CONFIG_H
#define CLEARPAGED_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "policy.h"

#define CONFIG_MAX_NODES 1024
#define CONFIG_PATH_MAX 256

enum config_log_level {
	CONFIG_LOG_ERR = 3,
	CONFIG_LOG_WARNING = 4,
	CONFIG_LOG_NOTICE = 5,
	CONFIG_LOG_INFO = 6,
	CONFIG_LOG_DEBUG = 7,
};

struct daemon_config {
	/* [Daemon] */
	double interval;		/* Interval=, seconds */
	bool dry_run;			/* DryRun= */
	int log_level;			/* LogLevel= */
	char metrics_file[CONFIG_PATH_MAX];	/* MetricsFile=, "" for none */
	/* [Policy] */
	struct policy_config policy;
	/* [Baseline] */
	double slower_window;		/* SlowerWindow=, seconds */
	double summary_interval;	/* SummaryInterval=, seconds */
	/* [CPU] */
	char allowlist[CONFIG_PATH_MAX];	/* AllowList= */
	/* Measured lines first: <root>/etc/clearpaged/cpu-allowlist.d. */
	char allowlist_dir[CONFIG_PATH_MAX];
	bool allow_unlisted_cpu;		/* AllowUnlistedCPU= */
	/* [Node.N] Strategy=: an administrator's pin, -1 for none */
	int node_strategy[CONFIG_MAX_NODES];
	/*
	 * [Node.N] GiganticHelpers=: CPUs that help clear a 1 GiB page, -1
	 * to leave the module's setting alone
	 */
	int node_helpers[CONFIG_MAX_NODES];
	/*
	 * [Node.N] Probe=: the huge backend's probe mode, CONFIG_PROBE_NONE
	 * to leave the module's setting alone, CONFIG_PROBE_OFF, or on with
	 * node_probe_hot/cold.
	 */
	int node_probe[CONFIG_MAX_NODES];
	int node_probe_hot[CONFIG_MAX_NODES];
	int node_probe_cold[CONFIG_MAX_NODES];
	/* FILE:LINE of the thresholds, for config_check()'s error; "" unset. */
	char up_where[CONFIG_PATH_MAX + 32];
	char down_where[CONFIG_PATH_MAX + 32];
};

#define CONFIG_PROBE_NONE (-1)
#define CONFIG_PROBE_OFF 0
#define CONFIG_PROBE_ON 1

/*
 * Command-line options that override the files. They hold for the whole life
 * of the process: applied after the first load and after every reload.
 */
struct daemon_overrides {
	bool dry_run;			/* --dry-run */
};

/* Settings derived from others (done by the loaders and the defaults). */
void config_finish(struct daemon_config *config);
void config_apply_overrides(struct daemon_config *config,
			    const struct daemon_overrides *overrides);

typedef void (*config_warn_fn)(const char *message, void *arg);

void config_defaults(struct daemon_config *config);

/*
 * Every file config_load() reads under @root, in its order: clearpaged.conf
 * (/etc, else /usr/lib), then the drop-ins by name (/etc over /usr/lib).
 * Stops at the first nonzero return of @fn and returns it.
 */
int config_for_each_file(const char *root,
			 int (*fn)(const char *path, void *arg), void *arg);

/*
 * Load every file under @root ("" for /; AllowList= is then a path under
 * @root too). On success fills @config and
 * returns 0; on failure returns -EINVAL (or -errno) with one line in @error
 * and leaves @config untouched.
 */
int config_load(struct daemon_config *config, const char *root,
		config_warn_fn warn, void *warn_arg, char *error,
		size_t error_size);

/*
 * Apply one more file on top of @config (e.g. the replay benchmark's
 * --config); @config is untouched on failure.
 */
int config_load_file(struct daemon_config *config, const char *path,
		     config_warn_fn warn, void *warn_arg, char *error,
		     size_t error_size);

#define CONFIG_FILE_MAX (1U << 20)

/*
 * Read a text file of up to CONFIG_FILE_MAX bytes into a new NUL-terminated
 * @text. -EFBIG: larger; -EILSEQ: it holds a NUL byte (parsing would stop
 * there); else -errno. Nothing is read in part.
 */
int config_read_file(const char *path, char **text);
/* config_read_file(), with "PATH: what went wrong" in @error on an error. */
int config_read_text(const char *path, char **text, char *error,
		     size_t error_size);

/*
 * Add the names of @dir's *.conf files not listed yet to @names (@count of
 * them), and sort them all: 0, or -ENOMEM (the names so far kept). A
 * directory that cannot be read adds none. Free with config_free_names().
 */
int config_collect_dropins(const char *dir, char ***names, size_t *count);
void config_free_names(char **names, size_t count);

/*
 * @message into @error: the first as it is, each further one on a line of
 * its own (as far as @error_size allows); *@errors counts them.
 */
void config_add_error(char *error, size_t error_size, unsigned int *errors,
		      const char *message);

/*
 * Apply one file's text (for tests and fuzzing). Every line is read: each
 * error is reported in @error, one per line, and the return is -EINVAL if
 * there was any.
 */
int config_parse(struct daemon_config *config, const char *path,
		 const char *text, config_warn_fn warn, void *warn_arg,
		 char *error, size_t error_size);

/* Checks across keys (DownThreshold < UpThreshold, ...). */
int config_check(const struct daemon_config *config, char *error,
		 size_t error_size);

/* The effective configuration as an INI file. */
void config_print(const struct daemon_config *config, FILE *out);

#endif /* CLEARPAGED_CONFIG_H */
