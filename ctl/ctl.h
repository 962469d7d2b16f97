/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CLEARPAGECTL_H
#define CLEARPAGECTL_H

#include <stdbool.h>
#include <stddef.h>

#include "clearpage-client.h"

/* Exit codes, documented in clearpagectl(8). */
enum {
	EXIT_OK = 0,
	EXIT_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_NOT_LOADED = 3,
	EXIT_PERMISSION = 4,
	EXIT_WARNINGS = 5,	/* check: a warning, no failure */
};

struct ctl_options {
	bool json;
	int backend;		/* CP_BACKEND_ALL unless --backend */
	long count;
	long timeout;
};

/* clearpagectl.c */
int ctl_open(struct cp_client **client);
/* One line for a failed connection (-ENOENT: not loaded); the exit code. */
int ctl_connect_failed(int err);
int ctl_fail(struct cp_client *client, int err, const char *what);
/* "all" or a node number, checked before any request; the exit code. */
int ctl_check_node_arg(const char *arg);
/* A helper count, 0 to CLEARPAGE_HELPERS_MAX, checked before any request. */
int ctl_check_helpers_arg(const char *arg);
int ctl_parse_nodes(struct cp_client *client, const char *arg,
		    struct cp_node_info *nodes, int *count);
/* RFC 3339 with the zone ("2026-12-06T19:12:44+00:00"), or "-" for none. */
void ctl_format_epoch(long long seconds, char *buf, size_t size);
void ctl_format_time(unsigned long long ns, char *buf, size_t size);
/*
 * printf() one line, wrapped at spaces to CTL_WIDTH columns, each
 * continuation line indented by @indent spaces.
 */
#define CTL_WIDTH 80
void ctl_wrapped(int indent, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The first line of a file, or of a fixed command's output (nothing of the
 * user's in @cmd), without its newline; false when there is none (errno
 * set where the file could not be opened).
 */
bool ctl_read_line(const char *path, char *buf, size_t size);
bool ctl_command_line(const char *cmd, char *buf, size_t size);

int cmd_status(int argc, char **argv, const struct ctl_options *o);
int cmd_set(int argc, char **argv, const struct ctl_options *o);
int cmd_pin(int argc, char **argv, const struct ctl_options *o);
int cmd_unpin(int argc, char **argv, const struct ctl_options *o);
int cmd_calibrate(int argc, char **argv, const struct ctl_options *o);
int cmd_helpers(int argc, char **argv, const struct ctl_options *o);
int cmd_probe(int argc, char **argv, const struct ctl_options *o);
int cmd_release(int argc, char **argv, const struct ctl_options *o);
int cmd_monitor(int argc, char **argv, const struct ctl_options *o);
int cmd_reset(int argc, char **argv, const struct ctl_options *o);
int cmd_unload(int argc, char **argv, const struct ctl_options *o);
int cmd_check(int argc, char **argv, const struct ctl_options *o);
int cmd_list(int argc, char **argv, const struct ctl_options *o);

/* status.c, shared with calibrate and check */
/* A JSON string: quotes, backslashes and control characters escaped. */
void print_json_string(const char *s);
/*
 * One sentence on the loaded module's version against the tools' ("clearpage
 * 0.4.0 loaded, as these tools", or how to reload an older one); true when
 * they are the same.
 */
bool ctl_module_verdict(char *buf, size_t size);
void print_nodes(const struct cp_node_info *nodes, int count, bool json,
		 bool calibration_only);

#endif
