// SPDX-License-Identifier: GPL-2.0
/*
 * clearpaged: one interval of each backend of a node, from the module's
 * counters to the policy's decision and its application.
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
#include "tsc.h"

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

static void record_decision(struct backend_state *u, const char *action,
			    int from, int to, const char *reason)
{
	u->decision.when = time(NULL);
	u->decision.action = action;
	u->decision.from = from;
	u->decision.to = to;
	snprintf(u->decision.reason, sizeof(u->decision.reason), "%s", reason);
}

/*
 * A set refused with -EBUSY: an administrator pinned the backend after the
 * interval's dump. Said once, as on_module_event() says it, whichever sees
 * the pin first, with the strategy the module has now.
 */
static void pin_seen(struct manager *m, unsigned int node, int backend,
		     struct backend_state *u)
{
	struct cp_node_info now;

	if (u->pinned)
		return;
	u->pinned = true;
	u->pins_seen++;
	if (cp_get_node(m->client, node, &now) == 0)
		log_event(LOG_NOTICE, MESSAGE_ID_PIN_SEEN,
			  "node %u pinned to %s by an administrator; leaving it alone (%s backend)",
			  node, policy_strategy_name(now.backend[backend].strategy),
			  cp_backend_name(backend));
	else
		log_event(LOG_NOTICE, MESSAGE_ID_PIN_SEEN,
			  "node %u pinned by an administrator; leaving it alone (%s backend)",
			  node, cp_backend_name(backend));
}

/*
 * The one place the daemon changes a backend: to @d's strategy, or per
 * folio with @d's pair (@d NULL: back to kernel), as the daemon's source.
 * A set refused with -EBUSY marks the backend pinned and says so once
 * (pin_seen()); another failure is logged, "node N BACKEND: @what failed",
 * where @what is given. 0 or -errno.
 */
int manager_set_backend(struct manager *m, unsigned int node, int backend,
			struct backend_state *u,
			const struct policy_decision *d, const char *what)
{
	int err;

	if (d && d->split)
		err = cp_set_probe(m->client, node, backend, true, d->split_hot,
				   d->split_cold, CLEARPAGE_SOURCE_DAEMON);
	else
		err = cp_set_strategy(m->client, node, backend,
				      d ? d->to : CLEARPAGE_STRATEGY_KERNEL,
				      CLEARPAGE_SOURCE_DAEMON);
	if (err == -EBUSY)
		pin_seen(m, node, backend, u);
	else if (err && what)
		log_line(LOG_WARNING, "node %u %s: %s failed: %s %s", node,
			 cp_backend_name(backend), what, strerror(-err),
			 cp_client_error(m->client));
	return err;
}

/* A SWITCH or REVERT the policy decided: true where it took effect. */
static bool apply(struct manager *m, const struct cp_node_info *info,
		  int backend, struct backend_state *u,
		  const struct policy_decision *d)
{
	const char *message_id = d->action == POLICY_REVERT ? MESSAGE_ID_REVERT :
							      MESSAGE_ID_SWITCH;
	char what[96];
	int err;

	if (m->config.dry_run) {
		if (u->dry_run_logged != d->to + 1) {
			log_decision(LOG_INFO, MESSAGE_ID_DRY_RUN, info->node,
				     backend, d, "dry run: would switch");
			record_decision(u, "would-switch", d->from, d->to,
					d->reason);
		}
		u->dry_run_logged = d->to + 1;
		return false;
	}
	/* Per folio: the huge backend's probe mode, as the daemon's. */
	snprintf(what, sizeof(what), "setting %s%s",
		 d->split ? "per folio with hot strategy " : "",
		 policy_strategy_name(d->split ? d->split_hot : d->to));
	err = manager_set_backend(m, info->node, backend, u, d, what);
	if (err)
		return false;
	u->changed_by_us = true;
	if (d->action == POLICY_REVERT)
		u->reverts++;
	else
		u->switches++;
	log_decision(LOG_NOTICE, message_id, info->node, backend, d,
		     d->action == POLICY_REVERT ? "reverted" : "switched");
	if (d->split) {
		char reason[192];

		snprintf(reason, sizeof(reason), "%s (hot folios %s, cold %s)",
			 d->reason, policy_strategy_name(d->split_hot),
			 policy_strategy_name(d->split_cold));
		record_decision(u, "switched", d->from, d->to, reason);
		return true;
	}
	record_decision(u, d->action == POLICY_REVERT ? "reverted" : "switched",
			d->from, d->to, d->reason);
	return true;
}

/* The node's LLC counters over the interval, where the PMU has them. */
static void count_misses(struct manager *m, unsigned int node,
			 struct node_state *n, struct policy_extra *pmu)
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
	pmu->counted = true;
	pmu->kernel_miss_ratio = (double)c.value[PMU_KERNEL_MISSES] /
				 c.value[PMU_KERNEL_REFERENCES];
	pmu->user_misses = (double)c.value[PMU_USER_MISSES];
}

/*
 * Why the backend is not the policy's to change: pinned by an
 * administrator, or held on kernel by clearpagectl reset; POLICY_R_NONE
 * when it is.
 */
static enum policy_reason hands_off(const struct cp_backend_info *be,
				    const struct backend_state *u)
{
	return be->pinned ? POLICY_R_PINNED :
	       u->held ? POLICY_R_HELD : POLICY_R_NONE;
}

/*
 * Trials run where the module has them, the configuration wants them and
 * the daemon may change the backend (not hands off, not monitoring only,
 * not a dry run: trials change how some frames are cleared).
 */
static bool trials_wanted(const struct manager *m,
			  const struct cp_backend_info *be,
			  const struct backend_state *u)
{
	return be->has_trials && m->config.policy.trial_candidates &&
	       hands_off(be, u) == POLICY_R_NONE && !m->monitor_only &&
	       !m->config.dry_run;
}

/* Set the backend's trial candidates to @trials, what the policy wants. */
static void set_trials(struct manager *m, const struct cp_node_info *info,
		       int backend, struct backend_state *u,
		       unsigned int trials)
{
	const struct cp_backend_info *be = &info->backend[backend];
	int err;

	if (!be->has_trials)
		return;
	/* u->pinned: a set refused with -EBUSY, before the pin's event. */
	if (u->pinned)
		trials = 0;
	if (trials == be->trials)
		return;
	err = cp_set_trials(m->client, info->node, backend, trials);
	if (err == -EBUSY) {
		pin_seen(m, info->node, backend, u);
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
 * run or monitoring only, say once what would happen. True where it
 * returned it.
 */
static bool guard_act(struct manager *m, const struct cp_node_info *info,
		      int backend, struct backend_state *u,
		      const struct policy_decision *d)
{
	const struct cp_backend_info *be = &info->backend[backend];
	int err;

	if (d->action == POLICY_HOLD || m->monitor_only || m->config.dry_run) {
		bool held = d->action == POLICY_HOLD;
		char why[96];

		if (!u->slower_warned) {
			snprintf(why, sizeof(why), "%s: leaving it", d->reason);
			log_slower(LOG_WARNING, held ? MESSAGE_ID_SLOWER_PINNED :
				   MESSAGE_ID_DRY_RUN, info->node, backend,
				   be->strategy, d->ns_per_page,
				   d->kernel_ns_per_page, d->window_seconds,
				   held ? why :
				   m->monitor_only ? "monitoring only: would return it to kernel" :
				   "dry run: would return it to kernel");
		}
		u->slower_warned = true;
		return false;
	}
	err = manager_set_backend(m, info->node, backend, u, NULL,
				  "returning to kernel");
	if (err)
		return false;
	u->changed_by_us = true;
	u->slower_returns++;
	record_decision(u, "returned", be->strategy, CLEARPAGE_STRATEGY_KERNEL,
			"slower than the kernel's routine over the window");
	log_slower(LOG_NOTICE, MESSAGE_ID_SLOWER, info->node, backend,
		   be->strategy, d->ns_per_page, d->kernel_ns_per_page,
		   d->window_seconds, "returned to kernel");
	return true;
}

/* One backend's interval, for the policy to apply its decisions. */
struct step_ctx {
	struct manager *m;
	const struct cp_node_info *info;
	int backend;
	struct backend_state *u;
};

static bool step_apply(void *ctx, const struct policy_decision *d)
{
	struct step_ctx *c = ctx;

	if (d->slower)
		return guard_act(c->m, c->info, c->backend, c->u, d);
	return apply(c->m, c->info, c->backend, c->u, d);
}

static void step_backend(struct manager *m, const struct cp_node_info *info,
			 int backend, struct backend_state *u,
			 const struct policy_extra *pmu)
{
	const struct cp_backend_info *be = &info->backend[backend];
	struct policy_calibration calibration;
	struct policy_sample sample;
	struct policy_counters now;
	struct policy_decision d;
	struct policy_extra extra = *pmu;
	struct step_ctx ctx = { m, info, backend, u };
	unsigned int trials;

	if (!u->known) {
		/* Later changes of the pin arrive as events (on_module_event). */
		u->pinned = be->pinned;
		/*
		 * Set by an earlier clearpaged that could not return it (a
		 * crash, SIGKILL, a lost event socket): ours to guard, and to
		 * return on stop.
		 */
		if (be->source == CLEARPAGE_SOURCE_DAEMON && !be->pinned &&
		    (be->strategy != CLEARPAGE_STRATEGY_KERNEL || be->probe)) {
			u->changed_by_us = true;
			log_line(LOG_NOTICE, "node %u %s: on %s, set by an earlier clearpaged: adopted, guarded and returned to kernel on stop",
				 info->node, cp_backend_name(backend),
				 policy_strategy_name(be->strategy));
		}
	}
	u->known = true;
	cp_backend_counters(info, backend, &now);
	/* The node's cache-miss counters, read once for both backends. */
	extra.trials = trials_wanted(m, be, u);
	/* The touch probe tells where the node's probe calibration can. */
	extra.touch = be->has_touch && info->probe.threshold_ticks > 0;
	/* Per folio: the huge backend's probe mode, where it can tell. */
	extra.can_split = backend == CLEARPAGE_BACKEND_HUGE && be->has_probe &&
			  info->probe.threshold_ticks > 0;
	/* What the faulting access pays after a non-temporal clear. */
	extra.fault_line_ns = policy_fault_line_ns(backend, info->probe.hot_ticks,
						   info->probe.cold_ticks,
						   info->probe.threshold_ticks,
						   cp_ns_per_tick());
	calibration_of(info, backend, &calibration);
	trials = policy_backend_step(&m->config.policy,
				     m->allowed & available_mask(info),
				     &calibration, &u->policy, &now, &extra,
				     hands_off(be, u), step_apply, &ctx, &sample,
				     &d);
	/* The live baseline: the time saved against the kernel's routine. */
	baseline_savings_add(&u->savings, &sample, m->config.policy.min_samples);
	log_line(LOG_DEBUG, "node %u %s: %s, %llu samples, %.0f ns/page, cold %.2f, %llu units probed, touched %.2f, kernel LLC miss ratio %.2f, user LLC misses/page %.1f, saved %.0f ns this interval: %s",
		 info->node, cp_backend_name(backend),
		 policy_strategy_name(be->strategy),
		 (unsigned long long)sample.samples,
		 policy_mean(sample.sample_ns, sample.samples),
		 d.cold_fraction,
		 (unsigned long long)(sample.probe_hot + sample.probe_cold),
		 d.touch_share,
		 sample.counted ? sample.kernel_miss_ratio : -1,
		 d.user_misses_per_page,
		 u->savings.last_valid ? u->savings.last_saved_ns : 0, d.reason);
	u->cold_fraction = d.cold_fraction;
	u->ns_per_page = policy_mean(sample.sample_ns, sample.samples);
	/* A SWITCH or REVERT went to step_apply(); a guard's hold warns. */
	if (d.slower && d.action == POLICY_HOLD)
		guard_act(m, info, backend, u, &d);
	if (!d.slower)
		u->slower_warned = false;
	set_trials(m, info, backend, u, trials);
}

void manager_step_node(struct manager *m, const struct cp_node_info *info,
		      char *status, size_t status_size)
{
	struct node_state *n = &m->nodes[info->node];
	struct policy_extra pmu = { 0 };
	int b;

	/* The node's cache-miss counters, read once, inform both backends. */
	count_misses(m, info->node, n, &pmu);
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
		step_backend(m, info, b, &n->backends[b], &pmu);
	report_summary(m, info, n);
	report_status_line(status, status_size, info, n);
}

/*
 * The backends clearpagectl reset left on kernel: hands off until
 * clearpagectl unpin takes them out of the file or a reload removes it.
 */
void manager_refresh_held(struct manager *m)
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
			struct backend_state *u = &m->nodes[node].backends[b];

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
