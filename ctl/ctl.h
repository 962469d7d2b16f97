/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CLEARPAGECTL_H
#define CLEARPAGECTL_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

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

/*
 * json.c: clearpagectl's --json documents (doc/clearpagectl.schema.json).
 * The setters add @key to @o; a value json-c cannot allocate marks the
 * document incomplete, and ctl_json_print() then prints nothing but an
 * error. ctl_json_print() frees @root and returns the exit code.
 */
struct json_object *ctl_json_new(void);
struct json_object *ctl_json_child(struct json_object *o, const char *key);
struct json_object *ctl_json_array(struct json_object *o, const char *key);
struct json_object *ctl_json_append(struct json_object *array);
void ctl_json_append_string(struct json_object *array, const char *s);
/* A NULL @s is JSON null. */
void ctl_json_string(struct json_object *o, const char *key, const char *s);
void ctl_json_bool(struct json_object *o, const char *key, bool b);
void ctl_json_int(struct json_object *o, const char *key, long long v);
void ctl_json_uint(struct json_object *o, const char *key, unsigned long long v);
void ctl_json_null(struct json_object *o, const char *key);
int ctl_json_print(struct json_object *root);

/* status.c, shared with calibrate and check */
/*
 * One sentence on the loaded module's version against the tools' ("clearpage
 * 0.4.0 loaded, as these tools", or how to reload an older one); true when
 * they are the same.
 */
bool ctl_module_verdict(char *buf, size_t size);
/* The nodes, as a table or a JSON document; the exit code. */
int print_nodes(const struct cp_node_info *nodes, int count, bool json,
		bool calibration_only);

#endif
