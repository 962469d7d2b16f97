// SPDX-License-Identifier: GPL-2.0
/*
 * One trace, two drivers: clearpaged and clearpage-bench replay must make
 * the same decisions from the same clears.
 *
 * A simulated module clears one backend's pages interval by interval
 * through hot and cold phases, each strategy at a fixed cost per page in
 * each phase: the strategy's own clears (one in 64 timed), reference
 * frames with the kernel's cost while the strategy is another (one in 32),
 * trial frames with each candidate's (one in 64 each). The daemon's driver
 * gets the module's counters as netlink reports them (struct cp_node_info:
 * per strategy, reference and trial frames apart) and reads them with
 * cp_backend_counters(), as clearpaged does; the replay's keeps its own
 * running sums, as bench/replay-model.c does. Both step the policy with
 * policy_backend_step(), which applies their decisions through each
 * driver's callback and names the next interval's trial candidates.
 * Every interval's action, target, reason and candidates must agree, and
 * the trace must make the policy act (switch to a cold strategy in the
 * cold phase) for the agreement to mean anything.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "clearpage-client.h"
#include "policy.h"

#define BACKEND CLEARPAGE_BACKEND_4K
#define PAGES 4096
#define INTERVALS 240
#define PHASE 60

/* AMD EPYC-like costs, ns per page: the calibration, and the live costs. */
static const double hot_ns[CLEARPAGE_STRATEGY_COUNT] = { 70, 70, 75, 150, 203, 180 };
static const double cold_ns[CLEARPAGE_STRATEGY_COUNT] = { 411, 411, 420, 500, 206, 190 };

struct driver {
	struct policy_backend backend;
	int strategy;
	unsigned int trials;
	/* The daemon's module (netlink's view) ... */
	struct cp_node_info info;
	/* ... or the replay's running sums. */
	struct policy_counters sums;
};

/* What the module clears in one interval, and how long each part takes. */
struct interval {
	uint64_t own, samples, ref;
	double own_ns, ref_ns;
	uint64_t trial[CLEARPAGE_STRATEGY_COUNT];
	double trial_ns[CLEARPAGE_STRATEGY_COUNT];
};

static void clear_interval(int strategy, unsigned int trials, bool cold,
			   struct interval *in)
{
	const double *cost = cold ? cold_ns : hot_ns;
	uint64_t left = PAGES;

	memset(in, 0, sizeof(*in));
	if (strategy != CLEARPAGE_STRATEGY_KERNEL) {
		in->ref = PAGES / 32;
		in->ref_ns = in->ref * cost[CLEARPAGE_STRATEGY_KERNEL];
		left -= in->ref;
	}
	for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		if (!(trials & (1U << s)))
			continue;
		in->trial[s] = PAGES / 64;
		in->trial_ns[s] = in->trial[s] * cost[s];
		left -= in->trial[s];
	}
	in->own = left;
	in->samples = left / 64;
	in->own_ns = in->samples * cost[strategy];
}

/* The module's counters as netlink reports them. */
static void module_count(struct cp_node_info *info, int strategy,
			 const struct interval *in)
{
	struct cp_strategy_info *s = &info->strategies[strategy];
	struct cp_backend_info *be = &info->backend[BACKEND];

	be->strategy = strategy;
	s->pages[BACKEND] += in->own;
	s->samples[BACKEND] += in->samples;
	s->sample_ns[BACKEND] += (uint64_t)in->own_ns;
	be->reference_pages += in->ref;
	be->reference_sample_ns += (uint64_t)in->ref_ns;
	for (int t = 1; t < CLEARPAGE_STRATEGY_COUNT; t++) {
		info->strategies[t].trial_pages[BACKEND] += in->trial[t];
		info->strategies[t].trial_ns[BACKEND] += (uint64_t)in->trial_ns[t];
	}
}

/* The replay's running sums (bench/replay-model.c, replay_run_arm()). */
static void replay_count(struct policy_counters *now, int strategy,
			 const struct interval *in)
{
	now->strategy = strategy;
	now->pages += in->own;
	now->samples += in->samples;
	now->sample_ns += (uint64_t)in->own_ns;
	now->ref_pages += in->ref;
	now->ref_ns += (uint64_t)in->ref_ns;
	for (int t = 1; t < CLEARPAGE_STRATEGY_COUNT; t++) {
		now->trial_pages[t] += in->trial[t];
		now->trial_ns[t] += (uint64_t)in->trial_ns[t];
	}
}

/* The driver's module takes every decision. */
static bool driver_apply(void *ctx, const struct policy_decision *decision)
{
	struct driver *d = ctx;

	d->strategy = decision->to;
	return true;
}

static void driver_init(struct driver *d)
{
	memset(d, 0, sizeof(*d));
	d->strategy = CLEARPAGE_STRATEGY_REP_STOSB;
	d->info.nr_strategies = CLEARPAGE_STRATEGY_COUNT;
	for (int s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
		d->info.strategies[s].strategy = s;
}

int main(void)
{
	const struct policy_extra extra = { .trials = true };
	const unsigned int allowed = (1U << CLEARPAGE_STRATEGY_COUNT) - 1;
	struct policy_calibration calibration = { 0 };
	struct policy_config config;
	struct driver daemon, replay;
	int agreed = 0, first_differ = -1, switches = 0, cold_switch = 0;
	char differ[256] = "";

	policy_config_defaults(&config);
	/* No PMU here to watch a non-temporal strategy's misses (NonTemporal=yes). */
	config.non_temporal = POLICY_NT_YES;
	for (int s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		calibration.valid[s] = true;
		calibration.hot_ns[s] = hot_ns[s];
		calibration.cold_ns[s] = cold_ns[s];
	}
	driver_init(&daemon);
	driver_init(&replay);
	for (int i = 0; i < INTERVALS; i++) {
		bool cold = (i / PHASE) % 2 == 1;
		struct policy_sample ds, rs;
		struct policy_decision dd, rd;
		struct policy_counters now;
		struct interval in;

		/* This interval's candidates, as the last step named them. */
		unsigned int dt = daemon.trials, rt = replay.trials;

		clear_interval(daemon.strategy, dt, cold, &in);
		module_count(&daemon.info, daemon.strategy, &in);
		cp_backend_counters(&daemon.info, BACKEND, &now);
		daemon.trials = policy_backend_step(&config, allowed, &calibration,
						    &daemon.backend, &now, &extra,
						    POLICY_R_NONE, driver_apply,
						    &daemon, &ds, &dd);

		clear_interval(replay.strategy, rt, cold, &in);
		replay_count(&replay.sums, replay.strategy, &in);
		replay.trials = policy_backend_step(&config, allowed, &calibration,
						    &replay.backend, &replay.sums,
						    &extra, POLICY_R_NONE,
						    driver_apply, &replay, &rs, &rd);

		if (dd.action == rd.action && dd.to == rd.to &&
		    dd.reason_id == rd.reason_id && dt == rt &&
		    daemon.trials == replay.trials &&
		    ds.pages == rs.pages && ds.samples == rs.samples) {
			agreed++;
		} else if (first_differ < 0) {
			first_differ = i;
			snprintf(differ, sizeof(differ),
				 "interval %d: daemon %s -> %s (%s, trials %#x, %llu pages), replay %s -> %s (%s, trials %#x, %llu pages)",
				 i, policy_strategy_name(dd.from),
				 policy_strategy_name(dd.to), dd.reason,
				 dt, (unsigned long long)ds.pages,
				 policy_strategy_name(rd.from),
				 policy_strategy_name(rd.to), rd.reason,
				 rt, (unsigned long long)rs.pages);
		}
		if (dd.action != POLICY_HOLD) {
			switches++;
			if (cold && (dd.to == CLEARPAGE_STRATEGY_MOVNTI ||
				     dd.to == CLEARPAGE_STRATEGY_CLZERO))
				cold_switch++;
		}
	}
	CHECK(first_differ < 0,
	      "the daemon and the replay decide alike in all %d intervals (%d agreed%s%s)",
	      INTERVALS, agreed, first_differ < 0 ? "" : "; first difference at ",
	      differ);
	CHECK(switches > 0 && cold_switch > 0,
	      "the trace makes the policy act: %d changes, %d to a cold strategy in a cold phase",
	      switches, cold_switch);
	return check_summary();
}
