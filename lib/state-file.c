// SPDX-License-Identifier: GPL-2.0
/* clearpaged's runtime state and clearpagectl reset's held backends. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uapi/clearpage.h>

#include "state-file.h"

#define STATE_HEADER "# clearpaged state: daemon, monitor-only, backend lines; see clearpagectl(8)\n"
#define HELD_HEADER "# node backend: reset by clearpagectl, left alone by clearpaged until clearpagectl unpin or a reload\n"

/* One line of free text: no newline, "-" for none. */
static const char *text_or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

static void fill_state(FILE *f, const void *arg)
{
	const struct cp_daemon_state *s = arg;
	int i;

	fputs(STATE_HEADER, f);
	fprintf(f, "daemon %d %lld %d %d %d\n", s->pid, s->updated,
		s->attached, s->dry_run, s->monitor_only);
	if (s->monitor_only)
		fprintf(f, "monitor-only %s\n", text_or_dash(s->monitor_reason));
	for (i = 0; i < s->count; i++) {
		const struct cp_backend_state *b = &s->backends[i];

		fprintf(f, "backend %u %s %d %lld %s %s %s %s\n", b->node,
			cp_backend_name(b->backend), b->held, b->decided,
			text_or_dash(b->action),
			b->from >= 0 ? cp_strategy_name(b->from) : "-",
			b->to >= 0 ? cp_strategy_name(b->to) : "-",
			text_or_dash(b->reason));
	}
}

int cp_state_write(const char *path, const struct cp_daemon_state *state)
{
	return cp_file_replace(path, fill_state, state);
}

/* The rest of @line after @skip fields, without its newline. */
static void rest_of_line(const char *line, int skip, char *out, size_t size)
{
	const char *p = line;

	while (skip-- > 0 && p) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	snprintf(out, size, "%s", p ? p : "");
	out[strcspn(out, "\n")] = '\0';
	if (!strcmp(out, "-"))
		out[0] = '\0';
}

static int strategy_or_none(const char *name)
{
	return strcmp(name, "-") ? cp_strategy_from_name(name) : -1;
}

static int parse_backend(const char *line, struct cp_backend_state *b)
{
	char backend[16], action[16], from[32], to[32];
	int held;

	if (sscanf(line, "backend %u %15s %d %lld %15s %31s %31s", &b->node,
		   backend, &held, &b->decided, action, from, to) != 7 ||
	    (b->backend = cp_backend_from_name(backend)) < 0 ||
	    (held != 0 && held != 1))
		return -EINVAL;
	b->held = held;
	snprintf(b->action, sizeof(b->action), "%s",
		 strcmp(action, "-") ? action : "");
	b->from = strategy_or_none(from);
	b->to = strategy_or_none(to);
	if ((b->from < 0 && strcmp(from, "-")) || (b->to < 0 && strcmp(to, "-")))
		return -EINVAL;
	rest_of_line(line, 8, b->reason, sizeof(b->reason));
	return 0;
}

int cp_state_read(const char *path, struct cp_daemon_state *state)
{
	char line[512];
	FILE *f = fopen(path, "re");
	int attached, dry_run, monitor_only, err = 0;
	bool have_daemon = false;

	if (!f)
		return -errno;
	memset(state, 0, sizeof(*state));
	if (!fgets(line, sizeof(line), f) || strcmp(line, STATE_HEADER))
		err = -EINVAL;
	while (!err && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "daemon ", 7)) {
			if (sscanf(line, "daemon %d %lld %d %d %d", &state->pid,
				   &state->updated, &attached, &dry_run,
				   &monitor_only) != 5)
				err = -EINVAL;
			state->attached = attached;
			state->dry_run = dry_run;
			state->monitor_only = monitor_only;
			have_daemon = true;
		} else if (!strncmp(line, "monitor-only ", 13)) {
			rest_of_line(line, 1, state->monitor_reason,
				     sizeof(state->monitor_reason));
		} else if (!strncmp(line, "backend ", 8)) {
			if (state->count >= (int)(sizeof(state->backends) /
						  sizeof(state->backends[0])))
				break;
			err = parse_backend(line, &state->backends[state->count]);
			if (!err)
				state->count++;
		} else {
			err = -EINVAL;
		}
	}
	fclose(f);
	if (!err && !have_daemon)
		err = -EINVAL;
	return err;
}

int cp_held_read(const char *path, struct cp_held *held, int max)
{
	char line[128], backend[16];
	FILE *f = fopen(path, "re");
	int count = 0, err = 0;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	if (!fgets(line, sizeof(line), f) || strcmp(line, HELD_HEADER))
		err = -EINVAL;
	while (!err && count < max && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %15s", &held[count].node, backend) != 2 ||
		    (held[count].backend = cp_backend_from_name(backend)) < 0 ||
		    held[count].backend >= CLEARPAGE_BACKEND_COUNT)
			err = -EINVAL;
		else
			count++;
	}
	fclose(f);
	return err ? err : count;
}

struct held_list {
	const struct cp_held *held;
	int count;
};

static void fill_held(FILE *f, const void *arg)
{
	const struct held_list *list = arg;
	int i;

	fputs(HELD_HEADER, f);
	for (i = 0; i < list->count; i++)
		fprintf(f, "%u %s\n", list->held[i].node,
			cp_backend_name(list->held[i].backend));
}

int cp_held_write(const char *path, const struct cp_held *held, int count)
{
	struct held_list list = { held, count };

	if (!count)
		return unlink(path) && errno != ENOENT ? -errno : 0;
	return cp_file_replace(path, fill_held, &list);
}
