// SPDX-License-Identifier: GPL-2.0
/* clearpaged's manager; see manager.h. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <libudev.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>

#include "allowlist.h"
#include "baseline.h"
#include "clearpage-client.h"
#include "savings-file.h"
#include "state-file.h"
#include "log.h"
#include "manager.h"
#include "metrics.h"
#include "pmu.h"

#define CPU_FILE CLEARPAGE_SYSFS_ROOT "/cpu"

/*
 * The policy's view of one backend of one node: the two backends clear in
 * different patterns, so each has its own strategy, calibration, samples
 * and decisions.
 */
struct unit_state {
	bool known;
	struct policy_backend backend;	/* the policy's state, the counters */
	bool pinned;
	bool changed_by_us;
	int dry_run_logged;		/* last proposal logged in dry run */
	double cold_fraction;		/* last estimate, for STATUS= */
	double ns_per_page;		/* last interval's, for metrics */
	uint64_t switches, reverts, pins_seen;
	/* The live baseline: time saved; the guard's warning said. */
	struct baseline_savings savings;
	bool slower_warned;		/* said for this window */
	uint64_t slower_returns;
	/* Reset by clearpagectl: left alone until unpin or a reload. */
	bool held;
	/* The last decision, for clearpagectl status. */
	struct {
		long long when;		/* seconds since the epoch; 0: none */
		const char *action;
		int from, to;
		char reason[CP_REASON_MAX];
	} decision;
};

struct node_state {
	struct unit_state unit[CLEARPAGE_BACKEND_COUNT];
	bool pmu_open;
	struct pmu_node pmu;
	uint64_t accounting_since;	/* CLOCK_REALTIME, µs; 0: not yet */
	uint64_t last_summary;		/* CLOCK_MONOTONIC, µs */
};

struct manager {
	struct daemon_config config;
	const char *config_root;
	struct daemon_overrides overrides;	/* the command line's */
	sd_event *event;
	sd_event_source *timer;
	sd_event_source *events_source;
	sd_event_source *udev_source;
	struct udev *udev;
	struct udev_monitor *udev_monitor;
	struct cp_client *client;
	struct cp_events *events;
	struct allowlist allowlist;
	bool allowlist_loaded;
	unsigned int allowed;
	bool monitor_only;
	char monitor_reason[CP_REASON_MAX];
	bool waiting_logged;
	bool pmu_unavailable;		/* said once; retried on CPU hotplug */
	bool pmu_in_use;
	int metrics_error;		/* last MetricsFile= error, logged once */
	int savings_error;		/* last savings file error, logged once */
	char savings_file[4096];
	/* clearpagectl status's view of the daemon; reset's held backends. */
	char state_file[4096], held_file[4096];
	int state_error;
	struct node_state nodes[CONFIG_MAX_NODES];
	struct cp_node_info infos[CP_MAX_NODES];
};


static void forget_node(struct node_state *n)
{
	if (n->pmu_open)
		pmu_close_node(&n->pmu);
	memset(n, 0, sizeof(*n));
}

static void forget_nodes(struct manager *m)
{
	int i;

	for (i = 0; i < CONFIG_MAX_NODES; i++)
		forget_node(&m->nodes[i]);
}

static void disconnect(struct manager *m)
{
	m->events_source = sd_event_source_unref(m->events_source);
	cp_events_close(m->events);
	m->events = NULL;
	cp_client_close(m->client);
	m->client = NULL;
	forget_nodes(m);
}

static void detach(struct manager *m, const char *why)
{
	if (!m->client)
		return;
	log_event(LOG_NOTICE, MESSAGE_ID_MODULE,
		  "lost the clearpage module (%s); waiting for it to come back",
		  why);
	disconnect(m);
	sd_notify(0, "STATUS=waiting for the clearpage module");
}

/* Which strategies the policy may use on this CPU. */
static void decide_allowlist(struct manager *m)
{
	char vendor[16] = "", error[512];
	unsigned int family = 0, model = 0, stepping = 0;
	const struct allowlist_entry *entry = NULL;
	FILE *f = fopen(CPU_FILE, "re");

	if (f) {
		if (fscanf(f, "vendor=%15s family=%u model=%u stepping=%u",
			   vendor, &family, &model, &stepping) != 4)
			vendor[0] = '\0';
		fclose(f);
	}
	if (m->allowlist_loaded)
		allowlist_free(&m->allowlist);
	m->allowlist_loaded = allowlist_load_all(&m->allowlist,
						 m->config.allowlist_dir,
						 m->config.allowlist, error,
						 sizeof(error)) == 0;
	if (m->allowlist_loaded)
		entry = allowlist_match(&m->allowlist, vendor, family, model,
					stepping);
	m->monitor_only = false;
	if (!m->allowlist_loaded) {
		/* No list, no permission: AllowUnlistedCPU= is for CPUs the
		 * list was read and did not name. */
		m->allowed = 1U << CLEARPAGE_STRATEGY_KERNEL;
		m->monitor_only = true;
		snprintf(m->monitor_reason, sizeof(m->monitor_reason),
			 "the CPU allowlist cannot be read: %.160s", error);
		log_event(LOG_WARNING, MESSAGE_ID_ALLOWLIST,
			  "cannot read the CPU allowlist: %s; monitoring only until it can be read (fix it, then systemctl reload clearpaged)",
			  error);
	} else if (entry) {
		m->allowed = entry->strategies;
		log_event(LOG_INFO, MESSAGE_ID_ALLOWLIST,
			  "CPU %s family %u model %u stepping %u is on the allowlist (%s:%u)",
			  vendor, family, model, stepping, entry->file,
			  entry->line);
	} else if (m->config.allow_unlisted_cpu) {
		m->allowed = ~0U;
		log_event(LOG_NOTICE, MESSAGE_ID_ALLOWLIST,
			  "CPU %s family %u model %u stepping %u is not on the allowlist; AllowUnlistedCPU=yes lets clearpaged act on it",
			  vendor, family, model, stepping);
	} else {
		m->allowed = 1U << CLEARPAGE_STRATEGY_KERNEL;
		m->monitor_only = true;
		snprintf(m->monitor_reason, sizeof(m->monitor_reason),
			 "CPU %s family %u model %u stepping %u is not on the allowlist (AllowUnlistedCPU=no)",
			 vendor, family, model, stepping);
		log_event(LOG_NOTICE, MESSAGE_ID_ALLOWLIST,
			  "CPU %s family %u model %u stepping %u is not on the allowlist: monitoring only; set AllowUnlistedCPU=yes in [CPU] of /etc/clearpaged.conf to act on it",
			  vendor, family, model, stepping);
	}
}

/* [Node.N] Strategy= pins from the configuration, applied as an admin. */
static void apply_config_pins(struct manager *m)
{
	int node, err;

	for (node = 0; node < CONFIG_MAX_NODES; node++) {
		int strategy = m->config.node_strategy[node];

		if (strategy < 0)
			continue;
		err = cp_set_strategy(m->client, node, CP_BACKEND_ALL, strategy,
				      CLEARPAGE_SOURCE_ADMIN);
		if (err)
			log_line(LOG_WARNING, "[Node.%d] Strategy=%s from the configuration: %s %s",
				 node, policy_strategy_name(strategy), strerror(-err),
				 cp_client_error(m->client));
		else
			log_event(LOG_INFO, MESSAGE_ID_PIN_SEEN,
				  "node %d pinned to %s by the configuration",
				  node, policy_strategy_name(strategy));
	}
}

static void refresh_held(struct manager *m);

static void on_module_event(const struct cp_event *e, void *arg)
{
	struct manager *m = arg;
	struct unit_state *u;

	if (e->node >= CONFIG_MAX_NODES || e->source != CLEARPAGE_SOURCE_ADMIN ||
	    e->backend < 0 || e->backend >= CLEARPAGE_BACKEND_COUNT)
		return;
	refresh_held(m);
	u = &m->nodes[e->node].unit[e->backend];
	if (e->pinned && !u->pinned) {
		log_event(LOG_NOTICE, MESSAGE_ID_PIN_SEEN,
			  "node %u pinned to %s by an administrator; leaving it alone (%s backend)",
			  e->node, policy_strategy_name(e->strategy),
			  cp_backend_name(e->backend));
		u->pins_seen++;
	}
	else if (!e->pinned && u->pinned && !u->held)
		log_event(LOG_NOTICE, MESSAGE_ID_PIN_SEEN,
			  "node %u unpinned by an administrator; clearpaged manages it again (%s backend)",
			  e->node, cp_backend_name(e->backend));
	u->pinned = e->pinned;
	u->changed_by_us = false;
}

static int on_events_readable(sd_event_source *s, int fd, uint32_t revents,
			      void *arg)
{
	struct manager *m = arg;

	(void)s;
	(void)fd;
	(void)revents;
	if (cp_events_receive(m->events, on_module_event, m) < 0)
		detach(m, "event subscription failed");
	return 0;
}

static int attach(struct manager *m)
{
	int err = cp_client_open(&m->client);

	if (err) {
		if (!m->waiting_logged)
			log_event(LOG_NOTICE, MESSAGE_ID_MODULE,
				  "the clearpage module is not loaded (%s); waiting for it (modprobe clearpage)",
				  strerror(-err));
		m->waiting_logged = true;
		sd_notify(0, "STATUS=waiting for the clearpage module");
		return err;
	}
	m->waiting_logged = false;
	err = cp_events_open(&m->events);
	if (!err)
		err = sd_event_add_io(m->event, &m->events_source,
				      cp_events_fd(m->events), EPOLLIN,
				      on_events_readable, m);
	if (err) {
		log_line(LOG_WARNING, "cannot subscribe to clearpage events: %s",
			 strerror(-err));
		cp_events_close(m->events);
		m->events = NULL;
	}
	log_event(LOG_INFO, MESSAGE_ID_MODULE, "attached to the clearpage module");
	decide_allowlist(m);
	apply_config_pins(m);
	return 0;
}

/*
 * @backend's calibration. The module measures kernel as the kernel clears
 * (clear_page(), the huge folio walk); a module that does not is read as
 * the instruction the kernel runs.
 */
static void calibration_of(const struct cp_node_info *info, int backend,
			   struct policy_calibration *c)
{
	int i, alias = CLEARPAGE_STRATEGY_REP_STOSQ;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < info->nr_strategies; i++) {
		const struct cp_strategy_info *s = &info->strategies[i];

		if (!s->has_calibration)
			continue;
		c->valid[s->strategy] = true;
		c->hot_ns[s->strategy] = s->hot_ns[backend];
		c->cold_ns[s->strategy] = s->cold_ns[backend];
		if (s->strategy == CLEARPAGE_STRATEGY_REP_STOSB)
			alias = CLEARPAGE_STRATEGY_REP_STOSB;
	}
	if (c->valid[CLEARPAGE_STRATEGY_KERNEL] &&
	    c->hot_ns[CLEARPAGE_STRATEGY_KERNEL])
		return;
	c->valid[CLEARPAGE_STRATEGY_KERNEL] = c->valid[alias];
	c->hot_ns[CLEARPAGE_STRATEGY_KERNEL] = c->hot_ns[alias];
	c->cold_ns[CLEARPAGE_STRATEGY_KERNEL] = c->cold_ns[alias];
}

static unsigned int available_mask(const struct cp_node_info *info)
{
	unsigned int mask = 0;
	int i;

	for (i = 0; i < info->nr_strategies; i++)
		mask |= 1U << info->strategies[i].strategy;
	return mask;
}

static void record_decision(struct unit_state *u, const char *action,
			    int from, int to, const char *reason)
{
	u->decision.when = time(NULL);
	u->decision.action = action;
	u->decision.from = from;
	u->decision.to = to;
	snprintf(u->decision.reason, sizeof(u->decision.reason), "%s", reason);
}

static void apply(struct manager *m, const struct cp_node_info *info,
		  int backend, struct unit_state *u, struct policy_decision *d)
{
	const char *message_id = d->action == POLICY_REVERT ? MESSAGE_ID_REVERT :
							      MESSAGE_ID_SWITCH;
	int err;

	if (m->config.dry_run) {
		if (u->dry_run_logged != d->to + 1) {
			log_decision(LOG_INFO, MESSAGE_ID_DRY_RUN, info->node,
				     backend, d, "dry run: would switch");
			record_decision(u, "would-switch", d->from, d->to,
					d->reason);
		}
		u->dry_run_logged = d->to + 1;
		return;
	}
	err = cp_set_strategy(m->client, info->node, backend, d->to,
			      CLEARPAGE_SOURCE_DAEMON);
	if (err == -EBUSY) {
		u->pinned = true;
		u->pins_seen++;
		log_event(LOG_NOTICE, MESSAGE_ID_PIN_SEEN,
			  "node %u is pinned by an administrator; leaving it alone (%s backend)",
			  info->node, cp_backend_name(backend));
		return;
	}
	if (err) {
		log_line(LOG_WARNING, "node %u %s: setting %s failed: %s %s",
			 info->node, cp_backend_name(backend),
			 policy_strategy_name(d->to), strerror(-err),
			 cp_client_error(m->client));
		return;
	}
	policy_applied(&m->config.policy, &u->backend.node, d);
	u->changed_by_us = true;
	if (d->action == POLICY_REVERT)
		u->reverts++;
	else
		u->switches++;
	log_decision(LOG_NOTICE, message_id, info->node, backend, d,
		     d->action == POLICY_REVERT ? "reverted" : "switched");
	record_decision(u, d->action == POLICY_REVERT ? "reverted" : "switched",
			d->from, d->to, d->reason);
}

/* The node's LLC counters over the interval, where the PMU has them. */
static void count_misses(struct manager *m, unsigned int node,
			 struct node_state *n, struct policy_sample *sample)
{
	struct pmu_counts c;
	char why[256];
	int err;

	if (!n->pmu_open && !m->pmu_unavailable) {
		err = pmu_open_node(&n->pmu, "/sys", node, why, sizeof(why));
		if (err) {
			log_line(LOG_NOTICE, "no cache-miss counters (%s); deciding on the module's signals alone%s",
				 why, m->config.policy.non_temporal == POLICY_NT_AUTO ?
				 ", without movnti or clzero (NonTemporal=auto; yes allows them)" : "");
			m->pmu_unavailable = true;
			return;
		}
		n->pmu_open = true;
		m->pmu_in_use = true;
	}
	if (!n->pmu_open)
		return;
	err = pmu_read_node(&n->pmu, &c);
	if (err < 0) {
		log_line(LOG_WARNING, "node %u: reading cache-miss counters failed: %s; closing them",
			 node, strerror(-err));
		pmu_close_node(&n->pmu);
		n->pmu_open = false;
		return;
	}
	if (err == 0 || !c.value[PMU_KERNEL_REFERENCES])
		return;
	sample->counted = true;
	sample->kernel_miss_ratio = (double)c.value[PMU_KERNEL_MISSES] /
				    c.value[PMU_KERNEL_REFERENCES];
	sample->user_misses = (double)c.value[PMU_USER_MISSES];
}

/* STATUS=: one short part per node, "node0: 4k rep_stosb, huge clzero cold 0.93". */
static void status_line(char *status, size_t size,
			const struct cp_node_info *info,
			const struct node_state *n)
{
	size_t used = strlen(status);
	int b;

	used += snprintf(status + used, size - used, "%snode%u:",
			 used ? "; " : "", info->node);
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT && used < size; b++) {
		const struct unit_state *u = &n->unit[b];
		char cold[32] = "";

		if (u->cold_fraction >= 0)
			snprintf(cold, sizeof(cold), " cold %.2f",
				 u->cold_fraction);
		used += snprintf(status + used, size - used, "%s %s %s%s%s",
				 b ? "," : "", cp_backend_name(b),
				 policy_strategy_name(u->backend.node.strategy),
				 info->backend[b].pinned ? " (pinned)" : "",
				 cold);
	}
	if (used < size)
		snprintf(status + used, size - used, ", saved %.3f s",
			 (n->unit[CLEARPAGE_BACKEND_4K].savings.saved_ns +
			  n->unit[CLEARPAGE_BACKEND_HUGE].savings.saved_ns) / 1e9);
}

static struct log_savings savings_of(const struct unit_state *u)
{
	return (struct log_savings){
		.saved_ns = u->savings.saved_ns,
		.uncertainty_ns = baseline_savings_uncertainty(&u->savings),
		.kernel_ns = u->savings.kernel_ns,
		.pages = u->savings.estimated_pages,
	};
}

/* At most once per SummaryInterval=, the node's savings in the journal. */
static void summarize_node(struct manager *m, const struct cp_node_info *info,
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
		backends[b] = savings_of(&n->unit[b]);
	log_savings(info->node, (long long)(n->accounting_since / 1000000),
		    backends);
}

/* The module's counters for @backend of the node, for the sample builder. */
/*
 * Trials run where the module has them, the configuration wants them and
 * the daemon may change the backend (not pinned, not monitoring only, not
 * a dry run: trials change how some frames are cleared).
 */
static bool trials_wanted(const struct manager *m,
			  const struct cp_backend_info *be)
{
	return be->has_trials && m->config.policy.trial_candidates &&
	       !be->pinned && !m->monitor_only && !m->config.dry_run;
}

/* Pinned by an administrator, or reset by clearpagectl: not ours. */
static bool hands_off(const struct cp_backend_info *be,
		      const struct unit_state *u)
{
	return be->pinned || u->held;
}

/* Set the backend's trial candidates to what the policy wants now. */
static void set_trials(struct manager *m, const struct cp_node_info *info,
		       int backend, struct unit_state *u,
		       const struct policy_calibration *calibration,
		       bool counted)
{
	const struct cp_backend_info *be = &info->backend[backend];
	unsigned int trials = 0;
	int err;

	if (!be->has_trials)
		return;
	if (trials_wanted(m, be) && !u->pinned && !u->held)
		trials = policy_trials(&m->config.policy,
				       m->allowed & available_mask(info),
				       counted, calibration, &u->backend.node);
	if (trials == be->trials)
		return;
	err = cp_set_trials(m->client, info->node, backend, trials);
	if (err == -EBUSY) {
		u->pinned = true;
		return;
	}
	if (err)
		log_line(LOG_WARNING, "node %u %s: setting trials failed: %s %s",
			 info->node, cp_backend_name(backend), strerror(-err),
			 cp_client_error(m->client));
	else
		log_line(LOG_DEBUG, "node %u %s: trials %#x", info->node,
			 cp_backend_name(backend), trials);
}

/*
 * The policy's guard found the backend's strategy slower than the kernel's
 * routine over the window (@d): return it to kernel, or, pinned, in a dry
 * run or monitoring only, say once what would happen.
 */
static void guard_act(struct manager *m, const struct cp_node_info *info,
		      int backend, struct unit_state *u,
		      struct policy_decision *d)
{
	const struct cp_backend_info *be = &info->backend[backend];
	int err;

	if (d->action == POLICY_HOLD || m->monitor_only || m->config.dry_run) {
		if (!u->slower_warned)
			log_slower(LOG_WARNING, be->pinned ? MESSAGE_ID_SLOWER_PINNED :
				   MESSAGE_ID_DRY_RUN, info->node, backend,
				   be->strategy, d->ns_per_page,
				   d->kernel_ns_per_page, d->window_seconds,
				   be->pinned ? "pinned by an administrator: leaving it" :
				   m->monitor_only ? "monitoring only: would return it to kernel" :
				   "dry run: would return it to kernel");
		u->slower_warned = true;
		return;
	}
	err = cp_set_strategy(m->client, info->node, backend,
			      CLEARPAGE_STRATEGY_KERNEL, CLEARPAGE_SOURCE_DAEMON);
	if (err) {
		if (err == -EBUSY)
			u->pinned = true;
		log_line(LOG_WARNING, "node %u %s: returning to kernel failed: %s %s",
			 info->node, cp_backend_name(backend), strerror(-err),
			 cp_client_error(m->client));
		return;
	}
	policy_applied(&m->config.policy, &u->backend.node, d);
	u->changed_by_us = true;
	u->slower_returns++;
	record_decision(u, "returned", be->strategy, CLEARPAGE_STRATEGY_KERNEL,
			"slower than the kernel's routine over the window");
	log_slower(LOG_NOTICE, MESSAGE_ID_SLOWER, info->node, backend,
		   be->strategy, d->ns_per_page, d->kernel_ns_per_page,
		   d->window_seconds, "returned to kernel");
}

static void step_unit(struct manager *m, const struct cp_node_info *info,
		      int backend, struct unit_state *u,
		      const struct policy_sample *pmu)
{
	const struct cp_backend_info *be = &info->backend[backend];
	struct policy_calibration calibration;
	struct policy_sample sample;
	struct baseline_interval interval;
	struct policy_counters now;
	struct policy_decision d;
	struct policy_extra extra;

	if (!u->known) {
		/* Later changes of the pin arrive as events (on_module_event). */
		u->pinned = be->pinned;
		/*
		 * Set by an earlier clearpaged that could not return it (a
		 * crash, SIGKILL, a lost event socket): ours to guard, and to
		 * return on stop.
		 */
		if (be->source == CLEARPAGE_SOURCE_DAEMON && !be->pinned &&
		    be->strategy != CLEARPAGE_STRATEGY_KERNEL) {
			u->changed_by_us = true;
			log_line(LOG_NOTICE, "node %u %s: on %s, set by an earlier clearpaged: adopted, guarded and returned to kernel on stop",
				 info->node, cp_backend_name(backend),
				 policy_strategy_name(be->strategy));
		}
	}
	u->known = true;
	cp_backend_counters(info, backend, &now);
	/* The node's cache-miss counters, read once for both backends. */
	extra = (struct policy_extra){
		.trials = trials_wanted(m, be) && !u->held,
		.counted = pmu->counted,
		.kernel_miss_ratio = pmu->kernel_miss_ratio,
		.user_misses = pmu->user_misses,
	};
	calibration_of(info, backend, &calibration);
	policy_backend_step(&m->config.policy, m->allowed & available_mask(info),
			    &calibration, &u->backend, &now, &extra,
			    hands_off(be, u), &sample, &d);
	/* The live baseline: the time saved against the kernel's routine. */
	baseline_interval_from_sample(be->strategy, &sample, m->config.interval,
				      &interval);
	baseline_savings_add(&u->savings, &interval,
			     m->config.policy.min_samples);
	log_line(LOG_DEBUG, "node %u %s: %s, %llu samples, %.0f ns/page, cold %.2f, kernel LLC miss ratio %.2f, user LLC misses/page %.1f, saved %.0f ns this interval: %s",
		 info->node, cp_backend_name(backend),
		 policy_strategy_name(be->strategy),
		 (unsigned long long)sample.samples, sample.ns_per_page,
		 d.cold_fraction, sample.counted ? sample.kernel_miss_ratio : -1,
		 d.user_misses_per_page,
		 u->savings.last_valid ? u->savings.last_saved_ns : 0, d.reason);
	u->cold_fraction = d.cold_fraction;
	u->ns_per_page = sample.samples ? sample.ns_per_page : 0;
	if (d.slower)
		guard_act(m, info, backend, u, &d);
	else if (d.action != POLICY_HOLD)
		apply(m, info, backend, u, &d);
	if (!d.slower)
		u->slower_warned = false;
	set_trials(m, info, backend, u, &calibration, sample.counted);
}

static void step_node(struct manager *m, const struct cp_node_info *info,
		      char *status, size_t status_size)
{
	struct node_state *n = &m->nodes[info->node];
	struct policy_sample counters = { 0 };
	int b;

	/* The node's cache-miss counters, read once, inform both backends. */
	count_misses(m, info->node, n, &counters);
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
		step_unit(m, info, b, &n->unit[b], &counters);
	summarize_node(m, info, n);
	status_line(status, status_size, info, n);
}

/* The savings of every node and backend, for clearpagectl status. */
static void write_savings(struct manager *m, int count)
{
	static struct cp_savings entries[CP_MAX_NODES * CLEARPAGE_BACKEND_COUNT];
	int i, b, n = 0, err;

	for (i = 0; i < count; i++) {
		const struct node_state *st;

		if (m->infos[i].node >= CONFIG_MAX_NODES)
			continue;
		st = &m->nodes[m->infos[i].node];
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
			const struct unit_state *u = &st->unit[b];

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

/*
 * The backends clearpagectl reset left on kernel: hands off until
 * clearpagectl unpin takes them out of the file or a reload removes it.
 */
static void refresh_held(struct manager *m)
{
	static struct cp_held held[CP_MAX_NODES * CLEARPAGE_BACKEND_COUNT];
	static bool now[CONFIG_MAX_NODES][CLEARPAGE_BACKEND_COUNT];
	int count = cp_held_read(m->held_file, held,
				 CP_MAX_NODES * CLEARPAGE_BACKEND_COUNT);
	int node, b, i;

	if (count < 0) {
		/* Keep what was held: better idle than undo a reset. */
		log_line(LOG_WARNING, "cannot read %s: %s; backends reset by clearpagectl stay as they are",
			 m->held_file, strerror(-count));
		return;
	}
	memset(now, 0, sizeof(now));
	for (i = 0; i < count; i++)
		if (held[i].node < CONFIG_MAX_NODES)
			now[held[i].node][held[i].backend] = true;
	for (node = 0; node < CONFIG_MAX_NODES; node++) {
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
			struct unit_state *u = &m->nodes[node].unit[b];

			if (u->held == now[node][b])
				continue;
			u->held = now[node][b];
			if (u->held)
				u->changed_by_us = false;
			log_event(LOG_NOTICE, MESSAGE_ID_PIN_SEEN,
				  u->held ? "node %d reset to kernel by clearpagectl: leaving it alone until clearpagectl unpin or a reload (%s backend)" :
					    "node %d handed back after clearpagectl reset: clearpaged manages it again (%s backend)",
				  node, cp_backend_name(b));
		}
	}
}

/* For clearpagectl status: the daemon's mode and each backend's last decision. */
static void write_state(struct manager *m, int count)
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
			const struct unit_state *u = &m->nodes[node].unit[b];
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

/* MetricsFile=: every interval, whether attached or waiting. */
static void write_metrics(struct manager *m, int count, bool stopped)
{
	static struct metrics_node nodes[CP_MAX_NODES];
	struct timespec now;
	struct metrics_daemon d = {
		.stopped = stopped,
		.attached = m->client != NULL,
		.monitor_only = m->monitor_only,
		.dry_run = m->config.dry_run,
		.pmu = m->pmu_in_use && !m->pmu_unavailable,
	};
	int i, b, n = 0, err;

	if (!m->config.metrics_file[0])
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	d.now = now.tv_sec + now.tv_nsec / 1e9;
	for (i = 0; m->client && i < count; i++) {
		const struct node_state *st;

		if (m->infos[i].node >= CONFIG_MAX_NODES)
			continue;
		st = &m->nodes[m->infos[i].node];
		nodes[n].info = &m->infos[i];
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
			nodes[n].unit[b] = (struct metrics_unit){
				.cold_fraction = st->unit[b].cold_fraction,
				.ns_per_page = st->unit[b].ns_per_page,
				.switches = st->unit[b].switches,
				.reverts = st->unit[b].reverts,
				.pins_seen = st->unit[b].pins_seen,
				.slower_returns = st->unit[b].slower_returns,
				.kernel_estimate_ns = st->unit[b].savings.kernel_ns,
				.saved_ns = st->unit[b].savings.saved_ns,
				.saved_uncertainty_ns = baseline_savings_uncertainty(
					&st->unit[b].savings),
			};
		n++;
	}
	err = metrics_write(m->config.metrics_file, &d, nodes, n);
	if (err && err != m->metrics_error)
		log_line(LOG_WARNING, "cannot write MetricsFile=%s: %s (is its directory writable? see ReadWritePaths= in clearpaged.service)",
			 m->config.metrics_file, strerror(-err));
	m->metrics_error = err;
}

static int on_tick(sd_event_source *s, uint64_t usec, void *arg)
{
	struct manager *m = arg;
	char status[1024] = "";
	uint64_t next, now;
	int count, i;

	if (!m->client && attach(m)) {
		write_metrics(m, 0, false);
		write_state(m, 0);
		goto rearm;
	}
	count = cp_dump_nodes(m->client, m->infos, CP_MAX_NODES);
	if (count < 0) {
		detach(m, strerror(-count));
		write_metrics(m, 0, false);
		write_state(m, 0);
		goto rearm;
	}
	refresh_held(m);
	for (i = 0; i < count; i++)
		if (m->infos[i].node < CONFIG_MAX_NODES)
			step_node(m, &m->infos[i], status, sizeof(status));
	sd_notifyf(0, "STATUS=%s%s", m->monitor_only ? "monitoring only: " :
			m->config.dry_run ? "dry run: " : "", status);
	write_metrics(m, count, false);
	write_savings(m, count);
	write_state(m, count);
rearm:
	/* After an early tick (udev), the next one is a full interval away. */
	next = usec + (uint64_t)(m->config.interval * 1e6);
	if (sd_event_now(sd_event_source_get_event(s), CLOCK_MONOTONIC, &now) >= 0 &&
	    next <= now)
		next = now + (uint64_t)(m->config.interval * 1e6);
	sd_event_source_set_time(s, next);
	return 0;
}

/* A NUMA node or a CPU came or went: re-read the node, reopen counters. */
static void on_topology(struct manager *m, const char *subsystem,
			const char *action, const char *name)
{
	unsigned int node, i;

	if (strcmp(action, "online") && strcmp(action, "offline") &&
	    strcmp(action, "add") && strcmp(action, "remove"))
		return;
	if (!strcmp(subsystem, "node") && sscanf(name, "node%u", &node) == 1) {
		log_line(LOG_NOTICE, "NUMA node %u: %s", node, action);
		if (node < CONFIG_MAX_NODES)
			forget_node(&m->nodes[node]);
	} else if (!strcmp(subsystem, "cpu")) {
		log_line(LOG_INFO, "%s: %s; reopening the cache-miss counters",
			 name, action);
		/* The nodes' CPU lists changed: counters start afresh. */
		for (i = 0; i < CONFIG_MAX_NODES; i++) {
			if (m->nodes[i].pmu_open)
				pmu_close_node(&m->nodes[i].pmu);
			m->nodes[i].pmu_open = false;
		}
	} else {
		return;
	}
	m->pmu_unavailable = false;
	if (m->client)
		sd_event_source_set_time(m->timer, 0);
}

/*
 * The module came or went, or a node or CPU went on- or offline: act now
 * rather than at the next tick.
 */
static int on_udev(sd_event_source *s, int fd, uint32_t revents, void *arg)
{
	struct manager *m = arg;
	struct udev_device *dev = udev_monitor_receive_device(m->udev_monitor);
	const char *action, *name, *subsystem;

	(void)s;
	(void)fd;
	(void)revents;
	if (!dev)
		return 0;
	action = udev_device_get_action(dev);
	name = udev_device_get_sysname(dev);
	subsystem = udev_device_get_subsystem(dev);
	if (!action || !name || !subsystem)
		goto out;
	if (!strcmp(subsystem, "module") && !strcmp(name, "clearpage")) {
		if (!strcmp(action, "remove"))
			detach(m, "module removed");
		else if (!strcmp(action, "add") && !m->client)
			sd_event_source_set_time(m->timer, 0);
	} else {
		on_topology(m, subsystem, action, name);
	}
out:
	udev_device_unref(dev);
	return 0;
}

/*
 * After a reload: what clearpaged set goes back to kernel where it would
 * no longer guard or choose it (a dry run changes nothing, so it would not
 * return it on stop either; a monitor-only CPU or an allowlist without the
 * strategy leaves the policy no pair to move it with).
 */
static void release_unguarded(struct manager *m)
{
	int node, b;

	for (node = 0; node < CONFIG_MAX_NODES; node++) {
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
			struct unit_state *u = &m->nodes[node].unit[b];
			int s = u->backend.node.strategy;
			char why[96];
			int err;

			if (!u->known || !u->changed_by_us || u->pinned ||
			    s == CLEARPAGE_STRATEGY_KERNEL)
				continue;
			if (m->config.dry_run)
				snprintf(why, sizeof(why),
					 "a dry run changes nothing and returns nothing on stop");
			else if (m->monitor_only)
				snprintf(why, sizeof(why),
					 "the CPU is monitored only now");
			else if (!(m->allowed & (1U << s)))
				snprintf(why, sizeof(why),
					 "the allowlist no longer allows %s here",
					 policy_strategy_name(s));
			else
				continue;
			err = cp_set_strategy(m->client, node, b,
					      CLEARPAGE_STRATEGY_KERNEL,
					      CLEARPAGE_SOURCE_DAEMON);
			if (err) {
				log_line(LOG_WARNING, "node %d %s: returning %s to kernel after the reload failed: %s %s",
					 node, cp_backend_name(b),
					 policy_strategy_name(s), strerror(-err),
					 cp_client_error(m->client));
				continue;
			}
			u->changed_by_us = false;
			policy_node_init(&u->backend.node, CLEARPAGE_STRATEGY_KERNEL);
			u->backend.have_last = false;
			log_event(LOG_NOTICE, MESSAGE_ID_REVERT,
				  "node %d %s: returned %s to kernel: %s",
				  node, cp_backend_name(b),
				  policy_strategy_name(s), why);
		}
	}
}

static int on_reload(sd_event_source *s, const struct signalfd_siginfo *si,
		     void *arg)
{
	struct manager *m = arg;
	char error[512];
	int err;

	(void)s;
	(void)si;
	sd_notify(0, "RELOADING=1");
	err = config_load(&m->config, m->config_root, NULL, NULL, error,
			  sizeof(error));
	if (err) {
		log_line(LOG_ERR, "configuration not reloaded, keeping the one in use: %s",
			 error);
	} else {
		config_apply_overrides(&m->config, &m->overrides);
		log_set_level(m->config.log_level);
		log_line(LOG_NOTICE, "configuration reloaded%s",
			 m->overrides.dry_run ?
			 " (dry run: --dry-run on the command line)" : "");
		if (m->client) {
			decide_allowlist(m);
			release_unguarded(m);
			apply_config_pins(m);
		}
		/* A reload hands back what clearpagectl reset held. */
		if (cp_held_write(m->held_file, NULL, 0) == 0)
			refresh_held(m);
	}
	sd_notify(0, "READY=1");
	return 0;
}

/* On stop, nodes the policy changed go back to the module's default. */
static void restore(struct manager *m)
{
	int node, b;

	if (!m->client || m->config.dry_run)
		return;
	for (node = 0; node < CONFIG_MAX_NODES; node++) {
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
			struct unit_state *u = &m->nodes[node].unit[b];

			/* Trials end with the daemon (none where none ran). */
			if (u->known)
				cp_set_trials(m->client, node, b, 0);
			if (!u->changed_by_us || u->pinned)
				continue;
			if (cp_set_strategy(m->client, node, b,
					    CLEARPAGE_STRATEGY_KERNEL,
					    CLEARPAGE_SOURCE_DAEMON) == 0)
				log_line(LOG_INFO, "node %d %s returned to kernel",
					 node, cp_backend_name(b));
		}
	}
}

static int on_stop(sd_event_source *s, const struct signalfd_siginfo *si,
		   void *arg)
{
	(void)si;
	(void)arg;
	sd_notify(0, "STOPPING=1");
	return sd_event_exit(sd_event_source_get_event(s), 0);
}

static int setup_udev(struct manager *m)
{
	m->udev = udev_new();
	if (!m->udev)
		return -ENOMEM;
	m->udev_monitor = udev_monitor_new_from_netlink(m->udev, "kernel");
	if (!m->udev_monitor ||
	    udev_monitor_filter_add_match_subsystem_devtype(m->udev_monitor,
							    "module", NULL) < 0 ||
	    udev_monitor_filter_add_match_subsystem_devtype(m->udev_monitor,
							    "node", NULL) < 0 ||
	    udev_monitor_filter_add_match_subsystem_devtype(m->udev_monitor,
							    "cpu", NULL) < 0 ||
	    udev_monitor_enable_receiving(m->udev_monitor) < 0)
		return -EIO;
	return sd_event_add_io(m->event, &m->udev_source,
			       udev_monitor_get_fd(m->udev_monitor), EPOLLIN,
			       on_udev, m);
}

/*
 * Where clearpagectl finds the savings: the unit's RuntimeDirectory=
 * (/run/clearpaged), or that directory made here when run by hand.
 */
static void savings_path(struct manager *m)
{
	const char *dir = getenv("RUNTIME_DIRECTORY");

	if (!dir || !dir[0] || strchr(dir, ':')) {
		dir = CP_SAVINGS_DIR;
		mkdir("/run", 0755);
		mkdir(dir, 0755);
	}
	snprintf(m->savings_file, sizeof(m->savings_file), "%s/savings", dir);
	snprintf(m->state_file, sizeof(m->state_file), "%s/state", dir);
	snprintf(m->held_file, sizeof(m->held_file), "%s/held", dir);
}

int manager_run(const struct daemon_config *config, const char *config_root,
		const struct daemon_overrides *overrides)
{
	struct manager *m = calloc(1, sizeof(*m));
	sigset_t mask;
	int err;

	if (!m)
		return 1;
	m->config = *config;
	m->config_root = config_root;
	m->overrides = *overrides;
	savings_path(m);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);

	/* sd-event calls return a negative errno, or 0 or more on success. */
	err = sd_event_default(&m->event);
	if (err >= 0)
		err = sd_event_add_signal(m->event, NULL, SIGTERM, on_stop, m);
	if (err >= 0)
		err = sd_event_add_signal(m->event, NULL, SIGINT, on_stop, m);
	if (err >= 0)
		err = sd_event_add_signal(m->event, NULL, SIGHUP, on_reload, m);
	if (err >= 0)
		err = sd_event_add_time(m->event, &m->timer, CLOCK_MONOTONIC, 0,
					0, on_tick, m);
	if (err >= 0)
		err = sd_event_source_set_enabled(m->timer, SD_EVENT_ON);
	if (err >= 0)
		err = sd_event_source_set_description(m->timer, "interval");
	if (err >= 0)
		err = sd_event_set_watchdog(m->event, true);
	if (err < 0) {
		log_line(LOG_ERR, "cannot set up the event loop: %s", strerror(-err));
		return 1;
	}
	if (setup_udev(m) < 0)
		log_line(LOG_WARNING, "no udev monitor: module loads and CPU or node hotplug are noticed at the next interval");
	attach(m);
	sd_notify(0, "READY=1");
	log_line(LOG_INFO, "started%s, interval %gs",
		 m->config.dry_run ? " in dry-run mode" : "", m->config.interval);

	err = sd_event_loop(m->event);
	restore(m);
	/* Says it stopped; a crash leaves a time that is not renewed. */
	write_metrics(m, 0, true);
	unlink(m->state_file);
	log_line(LOG_INFO, "stopped");
	if (m->client)
		disconnect(m);
	sd_event_source_unref(m->udev_source);
	udev_monitor_unref(m->udev_monitor);
	udev_unref(m->udev);
	sd_event_source_unref(m->timer);
	sd_event_unref(m->event);
	if (m->allowlist_loaded)
		allowlist_free(&m->allowlist);
	free(m);
	return err < 0 ? 1 : 0;
}
