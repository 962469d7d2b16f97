// SPDX-License-Identifier: GPL-2.0
/* clearpagectl monitor: every change of strategy or pin, as it happens. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ctl.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct monitor {
	bool json, failed;
	long seen;
};

static void print_event(const struct cp_event *e, void *arg)
{
	struct monitor *m = arg;
	char when[64];

	if (m->json) {
		struct json_object *o = ctl_json_new();

		ctl_json_uint(o, "time_unix_ns", e->time_ns);
		ctl_json_uint(o, "node", e->node);
		ctl_json_string(o, "backend", cp_backend_name(e->backend));
		ctl_json_string(o, "old", cp_strategy_name(e->old_strategy));
		ctl_json_string(o, "new", cp_strategy_name(e->strategy));
		ctl_json_bool(o, "pinned", e->pinned);
		ctl_json_string(o, "source", cp_source_name(e->source));
		if (ctl_json_print(o))
			m->failed = true;
		m->seen++;
		return;
	}
	ctl_format_time(e->time_ns, when, sizeof(when));
	printf("%s node %u %s: %s -> %s, %s, by %s\n", when, e->node,
	       cp_backend_name(e->backend), cp_strategy_name(e->old_strategy),
	       cp_strategy_name(e->strategy),
	       e->pinned ? "pinned" : "not pinned", cp_source_name(e->source));
	fflush(stdout);
	m->seen++;
}

int cmd_monitor(int argc, char **argv, const struct ctl_options *o)
{
	struct monitor m = { .json = o->json };
	struct sigaction sa = { .sa_handler = on_signal };
	struct cp_events *events;
	struct timespec start, now;
	struct pollfd pfd;
	int err, timeout_ms;

	(void)argv;
	if (argc) {
		fprintf(stderr, "clearpagectl: usage: clearpagectl monitor [--json] [--count N] [--timeout S]\n");
		return EXIT_USAGE;
	}
	err = ctl_connect_failed(cp_events_open(&events));
	if (err)
		return err;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* Tell a caller waiting on our output that the subscription is live. */
	fprintf(stderr, "clearpagectl: monitoring clearpage events\n");
	clock_gettime(CLOCK_MONOTONIC, &start);
	pfd.fd = cp_events_fd(events);
	pfd.events = POLLIN;
	while (!stop && !m.failed && (o->count < 0 || m.seen < o->count)) {
		timeout_ms = -1;
		if (o->timeout >= 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			timeout_ms = o->timeout * 1000 -
				     ((now.tv_sec - start.tv_sec) * 1000 +
				      (now.tv_nsec - start.tv_nsec) / 1000000);
			if (timeout_ms <= 0)
				break;
		}
		if (poll(&pfd, 1, timeout_ms) <= 0)
			continue;
		err = cp_events_receive(events, print_event, &m);
		if (err) {
			cp_events_close(events);
			return ctl_fail(NULL, err, "receiving clearpage events");
		}
	}
	cp_events_close(events);
	return m.failed || (o->count >= 0 && m.seen < o->count) ?
	       EXIT_FAILED : EXIT_OK;
}
