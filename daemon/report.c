// SPDX-License-Identifier: GPL-2.0
/*
 * clearpaged's reports: STATUS=, the savings summaries in the journal,
 * and the files clearpagectl status and Prometheus read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "manager-internal.h"

/* STATUS=: one short part per node, "node0: 4k rep_stosb, huge clzero cold 0.93". */
void report_status_line(char *status, size_t size,
			const struct cp_node_info *info,
			const struct node_state *n)
{
	size_t used = strlen(status);
	int b;

	used += snprintf(status + used, size - used, "%snode%u:",
			 used ? "; " : "", info->node);
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT && used < size; b++) {
		const struct backend_state *u = &n->backends[b];
		const struct policy_node *p = &u->policy.node;
		char cold[32] = "", strategy[48];

		if (u->cold_fraction >= 0)
			snprintf(cold, sizeof(cold), " cold %.2f",
				 u->cold_fraction);
		if (p->split)
			snprintf(strategy, sizeof(strategy), "per folio %s/%s",
				 policy_strategy_name(p->split_hot),
				 policy_strategy_name(p->split_cold));
		else
			snprintf(strategy, sizeof(strategy), "%s",
				 policy_strategy_name(p->strategy));
		used += snprintf(status + used, size - used, "%s %s %s%s%s",
				 b ? "," : "", cp_backend_name(b), strategy,
				 info->backend[b].pinned ? " (pinned)" : "",
				 cold);
	}
	if (used < size)
		snprintf(status + used, size - used, ", saved %.3f s",
			 (n->backends[CLEARPAGE_BACKEND_4K].savings.saved_ns +
			  n->backends[CLEARPAGE_BACKEND_HUGE].savings.saved_ns) / 1e9);
}

static struct log_savings savings_of(const struct backend_state *u)
{
	return (struct log_savings){
		.saved_ns = u->savings.saved_ns,
		.uncertainty_ns = baseline_savings_uncertainty(&u->savings),
		.kernel_ns = u->savings.kernel_ns,
		.pages = u->savings.estimated_pages,
	};
}

/* At most once per SummaryInterval=, the node's savings in the journal. */
void report_summary(struct manager *m, const struct cp_node_info *info,
			   struct node_state *n)
{
	struct log_savings backends[CLEARPAGE_BACKEND_COUNT];
	uint64_t now, wall;
	int b;

	if (sd_event_now(m->event, CLOCK_MONOTONIC, &now) < 0 ||
	    sd_event_now(m->event, CLOCK_REALTIME, &wall) < 0)
		return;
	if (!n->accounting_since) {
		n->accounting_since = wall;
		n->last_summary = now;
		return;
	}
	if (now - n->last_summary < (uint64_t)(m->config.summary_interval * 1e6))
		return;
	n->last_summary = now;
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
		backends[b] = savings_of(&n->backends[b]);
	log_savings(info->node, (long long)(n->accounting_since / 1000000),
		    backends);
}

/* The savings of every node and backend, for clearpagectl status. */
void report_savings(struct manager *m, int count)
{
	static struct cp_savings entries[CP_MAX_NODES * CLEARPAGE_BACKEND_COUNT];
	int i, b, n = 0, err;

	for (i = 0; i < count; i++) {
		const struct node_state *st;

		if (m->infos[i].node >= CONFIG_MAX_NODES)
			continue;
		st = &m->nodes[m->infos[i].node];
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
			const struct backend_state *u = &st->backends[b];

			entries[n++] = (struct cp_savings){
				.node = m->infos[i].node,
				.backend = b,
				.since = (long long)(st->accounting_since / 1000000),
				.saved_ns = u->savings.saved_ns,
				.uncertainty_ns = baseline_savings_uncertainty(&u->savings),
				.kernel_ns = u->savings.kernel_ns,
				.pages = u->savings.estimated_pages,
				.unestimated_pages = u->savings.unestimated_pages,
				.last_saved_ns = u->savings.last_valid ?
						 u->savings.last_saved_ns : 0,
			};
		}
	}
	err = cp_savings_write(m->savings_file, entries, n);
	if (err && err != m->savings_error)
		log_line(LOG_WARNING, "cannot write %s for clearpagectl status: %s",
			 m->savings_file, strerror(-err));
	m->savings_error = err;
}

/* For clearpagectl status: the daemon's mode and each backend's last decision. */
void report_state(struct manager *m, int count)
{
	static struct cp_daemon_state state;
	int i, b, err;

	state.pid = getpid();
	state.updated = time(NULL);
	state.attached = m->client != NULL;
	state.dry_run = m->config.dry_run;
	state.monitor_only = m->monitor_only;
	snprintf(state.monitor_reason, sizeof(state.monitor_reason), "%s",
		 m->monitor_reason);
	state.count = 0;
	for (i = 0; m->client && i < count; i++) {
		unsigned int node = m->infos[i].node;

		if (node >= CONFIG_MAX_NODES)
			continue;
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
			const struct backend_state *u = &m->nodes[node].backends[b];
			struct cp_backend_state *e = &state.backends[state.count++];

			*e = (struct cp_backend_state){
				.node = node, .backend = b, .held = u->held,
				.decided = u->decision.when, .from = -1, .to = -1,
			};
			if (!u->decision.when)
				continue;
			snprintf(e->action, sizeof(e->action), "%s",
				 u->decision.action);
			e->from = u->decision.from;
			e->to = u->decision.to;
			snprintf(e->reason, sizeof(e->reason), "%s",
				 u->decision.reason);
		}
	}
	err = cp_state_write(m->state_file, &state);
	if (err && err != m->state_error)
		log_line(LOG_WARNING, "cannot write %s for clearpagectl status: %s",
			 m->state_file, strerror(-err));
	m->state_error = err;
}

/* The loaded module's version into @buf; "" when none. */
static const char *module_version(char *buf, size_t size)
{
	FILE *f = fopen("/sys/module/clearpage/version", "re");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, size, f))
			buf[0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	return buf;
}

/*
 * A stop record, clearpage_daemon_up 0, at @path: the last write of a
 * daemon that stops (@failed: on an error), or of a MetricsFile= a reload
 * moved away from, so that nothing keeps reading 1 from a file no longer
 * renewed.
 */
/* What every write says of the daemon: when, its interval, the versions. */
static void daemon_metrics(const struct manager *m, struct metrics_daemon *d,
			   char *version, size_t size)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	d->now = now.tv_sec + now.tv_nsec / 1e9;
	d->interval = m->config.interval;
	d->version = CLEARPAGE_VERSION;
	d->module_version = module_version(version, size);
}

void report_metrics_stopped(struct manager *m, const char *path, bool failed)
{
	struct metrics_daemon d = { .stopped = true, .failed = failed };
	char version[64];
	int err;

	if (!path[0])
		return;
	daemon_metrics(m, &d, version, sizeof(version));
	err = metrics_write(path, &d, NULL, 0);
	if (err)
		log_line(LOG_WARNING, "cannot write MetricsFile=%s: %s",
			 path, strerror(-err));
}

/*
 * MetricsFile=: every interval, whether attached or waiting; @stopped: the
 * last write, @failed: on an error.
 */
void report_metrics(struct manager *m, int count, bool stopped, bool failed)
{
	static struct metrics_node nodes[CP_MAX_NODES];
	char version[64];
	struct metrics_daemon d = {
		.stopped = stopped,
		.failed = failed,
		.attached = m->client != NULL,
		.monitor_only = m->monitor_only,
		.dry_run = m->config.dry_run,
		.pmu = m->pmu_in_use && !m->pmu_unavailable,
	};
	int i, b, n = 0, err;

	if (!m->config.metrics_file[0])
		return;
	daemon_metrics(m, &d, version, sizeof(version));
	for (i = 0; m->client && i < count; i++) {
		const struct node_state *st;

		if (m->infos[i].node >= CONFIG_MAX_NODES)
			continue;
		st = &m->nodes[m->infos[i].node];
		nodes[n].info = &m->infos[i];
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
			nodes[n].unit[b] = (struct metrics_unit){
				.cold_fraction = st->backends[b].cold_fraction,
				.ns_per_page = st->backends[b].ns_per_page,
				.switches = st->backends[b].switches,
				.reverts = st->backends[b].reverts,
				.pins_seen = st->backends[b].pins_seen,
				.slower_returns = st->backends[b].slower_returns,
				.kernel_estimate_ns = st->backends[b].savings.kernel_ns,
				.saved_ns = st->backends[b].savings.saved_ns,
				.saved_uncertainty_ns = baseline_savings_uncertainty(
					&st->backends[b].savings),
			};
		n++;
	}
	err = metrics_write(m->config.metrics_file, &d, nodes, n);
	if (err && err != m->metrics_error)
		log_line(LOG_WARNING, "cannot write MetricsFile=%s: %s (is its directory writable? see ReadWritePaths= in clearpaged.service)",
			 m->config.metrics_file, strerror(-err));
	m->metrics_error = err;
}
