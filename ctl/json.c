// SPDX-License-Identifier: GPL-2.0
/*
 * clearpagectl's JSON, built with json-c and printed on one line. The
 * documents are described by doc/clearpagectl.schema.json; every --json
 * output is validated against it by the tests.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"

/* Set when json-c could not allocate a value: the document is incomplete. */
static bool json_oom;

/* Adds @v to @o as @key; on failure frees @v and returns false. */
static bool put(struct json_object *o, const char *key, struct json_object *v,
		bool may_be_null)
{
	if ((!v && !may_be_null) || !o ||
	    json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		json_oom = true;
		return false;
	}
	return true;
}

struct json_object *ctl_json_new(void)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		json_oom = true;
	return o;
}

struct json_object *ctl_json_array(struct json_object *o, const char *key)
{
	struct json_object *a = json_object_new_array();

	return put(o, key, a, false) ? a : NULL;
}

struct json_object *ctl_json_child(struct json_object *o, const char *key)
{
	struct json_object *c = json_object_new_object();

	return put(o, key, c, false) ? c : NULL;
}

struct json_object *ctl_json_append(struct json_object *array)
{
	struct json_object *c = json_object_new_object();

	if (!c || !array || json_object_array_add(array, c) < 0) {
		json_object_put(c);
		json_oom = true;
		return NULL;
	}
	return c;
}

void ctl_json_append_string(struct json_object *array, const char *s)
{
	struct json_object *v = json_object_new_string(s);

	if (!v || !array || json_object_array_add(array, v) < 0) {
		json_object_put(v);
		json_oom = true;
	}
}

void ctl_json_string(struct json_object *o, const char *key, const char *s)
{
	put(o, key, s ? json_object_new_string(s) : NULL, !s);
}

void ctl_json_bool(struct json_object *o, const char *key, bool b)
{
	put(o, key, json_object_new_boolean(b), false);
}

void ctl_json_int(struct json_object *o, const char *key, long long v)
{
	put(o, key, json_object_new_int64(v), false);
}

void ctl_json_uint(struct json_object *o, const char *key, unsigned long long v)
{
	put(o, key, json_object_new_uint64(v), false);
}

void ctl_json_null(struct json_object *o, const char *key)
{
	put(o, key, NULL, true);
}

int ctl_json_print(struct json_object *root)
{
	const char *text = NULL;
	int rc = EXIT_OK;

	if (root && !json_oom)
		text = json_object_to_json_string_ext(root,
			JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (text) {
		printf("%s\n", text);
		fflush(stdout);
	} else {
		fprintf(stderr, "clearpagectl: building the JSON output: %s\n",
			strerror(ENOMEM));
		rc = EXIT_FAILED;
	}
	json_object_put(root);
	json_oom = false;
	return rc;
}
