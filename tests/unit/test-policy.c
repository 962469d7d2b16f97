// SPDX-License-Identifier: GPL-2.0
/*
 * The policy over synthetic traces of hot and cold phases. A node's
 * measured ns/page is modelled from the calibration measured on an AMD
 * EPYC (Zen 3) in user space (doc/design.md): cost = hot + cold_fraction *
 * (cold - hot) of the strategy the node runs, plus deterministic noise.
 * Run with -v to print the trace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "policy-sim.h"

struct run {
	struct policy_config config;
	struct policy_calibration calibration;
	unsigned int allowed;
	struct policy_node node;
	int switches, reverts;
	int intervals_on[CLEARPAGE_STRATEGY_COUNT];
	int last_switch_at;
	int min_gap;
	double total_ns;
	/* Cache-miss counters, where a test has them. */
	bool counted;
	double kernel_miss_ratio;
	double touch_misses;	/* user misses per page after a non-temporal
				 * clear (the application reads the page) */
	enum policy_reason last_reason;
	enum policy_reason revert_reason;
	bool reference;		/* reference clears with the kernel's routine */
};

static void run_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
	policy_config_defaults(&r->config);
	/* Most scenarios have no PMU and still exercise movnti. */
	r->config.non_temporal = POLICY_NT_YES;
	epyc_calibration(&r->calibration);
	r->allowed = ALLOWED_NO_CLZERO;
	policy_node_init(&r->node, CLEARPAGE_STRATEGY_KERNEL);
	r->last_switch_at = -1000;
	r->min_gap = 1000;
}

/*
 * One interval at @cold_fraction; @penalty multiplies the measured cost (a
 * strategy that does worse in reality than calibrated). Returns the action.
 */
static enum policy_action interval(struct run *r, int i, double cold_fraction,
				   double noise_ns, bool pinned, bool dry_run,
				   double penalty)
{
	const struct policy_calibration *c = &r->calibration;
	int s = r->node.strategy;
	struct policy_sample sample = { .strategy = s, .samples = 64,
					.pages = 64 };
	struct policy_decision d;
	bool non_temporal = s == CLEARPAGE_STRATEGY_MOVNTI ||
			    s == CLEARPAGE_STRATEGY_CLZERO;
	double ns = (c->hot_ns[s] + cold_fraction *
		     (c->cold_ns[s] - c->hot_ns[s]) + noise(i, noise_ns)) *
		    penalty;

	sample.sample_ns = ns * sample.samples;
	/*
	 * The live baseline: beside any strategy but kernel, reference clears
	 * with the kernel's routine, in the pattern its calibration measured.
	 */
	if (r->reference && s != CLEARPAGE_STRATEGY_KERNEL) {
		sample.ref_strategy = CLEARPAGE_STRATEGY_KERNEL;
		sample.ref_samples = 16;
		sample.ref_ns = sample.ref_samples *
			(c->hot_ns[CLEARPAGE_STRATEGY_KERNEL] +
			 cold_fraction * (c->cold_ns[CLEARPAGE_STRATEGY_KERNEL] -
					  c->hot_ns[CLEARPAGE_STRATEGY_KERNEL]) +
			 noise(i + 7, noise_ns));
	}
	sample.counted = r->counted;
	sample.kernel_miss_ratio = r->kernel_miss_ratio;
	sample.user_misses = non_temporal ? r->touch_misses * sample.pages : 0;
	r->total_ns += ns;
	r->intervals_on[s]++;
	policy_step(&r->config, r->allowed, c, &r->node, &sample,
		    pinned ? POLICY_R_PINNED : POLICY_R_NONE, &d);
	if (verbose || (d.action != POLICY_HOLD && !(dry_run && i > 2)))
		printf("  interval %3d  cold %.2f  %-9s %6.0f ns  %s%s%s%s  (%s)\n",
		       i, d.cold_fraction, names[s], ns,
		       d.action == POLICY_SWITCH ? "switch -> " :
		       d.action == POLICY_REVERT ? "revert -> " : "hold",
		       d.action == POLICY_HOLD ? "" : names[d.to],
		       dry_run && d.action != POLICY_HOLD ? " (dry run)" : "",
		       "", d.reason);
	r->last_reason = d.reason_id;
	if (d.action == POLICY_REVERT)
		r->revert_reason = d.reason_id;
	if (d.action != POLICY_HOLD && !dry_run) {
		policy_applied(&r->config, &r->node, &d);
		if (d.action == POLICY_SWITCH)
			r->switches++;
		else
			r->reverts++;
		if (i - r->last_switch_at < r->min_gap)
			r->min_gap = i - r->last_switch_at;
		r->last_switch_at = i;
	}
	return d.action;
}

/*
 * 20 hot, 40 cold, 40 hot intervals. Returns the first interval of the
 * last hot phase on rep_stosb after the node went to movnti (-1: never),
 * and in @cold_at, if given, the first interval on movnti.
 */
static int hot_cold_hot(struct run *r, int *cold_at)
{
	int i, went_cold = -1, hot_at = -1;

	for (i = 0; i < 100; i++) {
		double f = i < 20 ? 0.05 : i < 60 ? 0.95 : 0.05;

		interval(r, i, f, 5, false, false, 1.0);
		if (went_cold < 0 && r->node.strategy == CLEARPAGE_STRATEGY_MOVNTI)
			went_cold = i;
		if (went_cold >= 0 && hot_at < 0 && i >= 60 &&
		    r->node.strategy == CLEARPAGE_STRATEGY_REP_STOSB)
			hot_at = i;
	}
	if (cold_at)
		*cold_at = went_cold;
	return hot_at;
}

static void test_phases(void)
{
	struct run r;
	int cold_at, hot_at;

	printf("phases: 20 hot, 40 cold, 40 hot intervals\n");
	run_init(&r);
	hot_at = hot_cold_hot(&r, &cold_at);
	CHECK(cold_at == 20 + 2,
	      "cold phase: switched to movnti after the dwell time, its third cold interval (interval %d)",
	      cold_at);
	CHECK(hot_at == 85,
	      "hot phase: back to rep_stosb at the next probe, 30 intervals after the last one (interval %d)",
	      hot_at);
	CHECK(r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB,
	      "ends on the hot strategy");
	CHECK(r.switches == 3 && r.reverts == 1,
	      "3 switches (to cold, a probe in the cold phase, the probe that stays) and 1 revert (%d, %d)",
	      r.switches, r.reverts);
}

/* With reference clears the way back to hot needs no probe. */
static void test_phases_reference(void)
{
	struct run r;
	int hot_at;

	printf("phases with reference clears: 20 hot, 40 cold, 40 hot intervals\n");
	run_init(&r);
	r.reference = true;
	hot_at = hot_cold_hot(&r, NULL);
	CHECK(r.intervals_on[CLEARPAGE_STRATEGY_MOVNTI] == 38,
	      "cold phase on movnti from its third interval (%d of 40 intervals)",
	      r.intervals_on[CLEARPAGE_STRATEGY_MOVNTI]);
	CHECK(hot_at == 60,
	      "hot phase: the reference clears show it at once, a gain past FastGain needs no dwell (interval %d)",
	      hot_at);
	CHECK(r.reverts == 0 && r.switches == 2,
	      "no probe, no revert: %d switches, %d reverts", r.switches,
	      r.reverts);
}

static void test_static(void)
{
	struct run r;
	int i;

	run_init(&r);
	for (i = 0; i < 200; i++)
		interval(&r, i, 0.05, 5, false, false, 1.0);
	CHECK(r.switches == 0 && r.node.strategy == CLEARPAGE_STRATEGY_KERNEL,
	      "all hot: kernel (rep stosb) is kept, no switch");

	run_init(&r);
	for (i = 0; i < 200; i++)
		interval(&r, i, 0.95, 5, false, false, 1.0);
	CHECK(r.intervals_on[CLEARPAGE_STRATEGY_MOVNTI] >= 175,
	      "all cold: runs movnti %d of 200 intervals",
	      r.intervals_on[CLEARPAGE_STRATEGY_MOVNTI]);
	CHECK(r.switches == 7 && r.reverts == 5,
	      "all cold: to movnti, then a probe every 30 intervals, each reverted but the last, still confirming (%d switches, %d reverts)",
	      r.switches, r.reverts);
}

static void test_noise(void)
{
	struct run r;
	int i;

	run_init(&r);
	/* No rate limit: what keeps the node still is the dwell time. */
	r.config.rate_limit = 0;
	/* Runs of about three intervals either side of both thresholds. */
	for (i = 0; i < 300; i++)
		interval(&r, i, 0.5 + 0.25 * sin(i * 0.7), 20, false, false,
			 1.0);
	CHECK(r.min_gap == (int)r.config.confirm && r.switches == 13,
	      "noise around both thresholds, no rate limit: the confirmation spaces switches %d intervals apart at least, 13 in 300 (min gap %d, %d switches)",
	      r.config.confirm, r.min_gap, r.switches);
}

static void test_pinned_and_dry_run(void)
{
	struct run r;
	int i, proposed = 0;

	run_init(&r);
	for (i = 0; i < 100; i++)
		interval(&r, i, 0.95, 5, true, false, 1.0);
	CHECK(r.switches == 0 && r.node.strategy == CLEARPAGE_STRATEGY_KERNEL,
	      "a pinned node never changes");

	/*
	 * A dry run: the caller logs each decision and does not apply it
	 * (clearpaged's apply(); its real path is the VM suite "decide").
	 * The policy then proposes the same switch every interval once the
	 * dwell time has passed, and its node stays where it is.
	 */
	run_init(&r);
	for (i = 0; i < 100; i++)
		proposed += interval(&r, i, 0.95, 5, false, true, 1.0) ==
			    POLICY_SWITCH;
	CHECK(r.switches == 0 && r.node.strategy == CLEARPAGE_STRATEGY_KERNEL &&
	      r.last_reason == POLICY_R_COLD && proposed == 100 - 2,
	      "dry run: proposes the cold switch every interval after the dwell time (%d of 100) and changes nothing",
	      proposed);
}

static void test_revert(void)
{
	struct run r;
	int i;

	run_init(&r);
	/* movnti does far worse here than calibrated (e.g. the application
	 * reads every page right after the fault). */
	for (i = 0; i < 30; i++)
		interval(&r, i, 0.95, 5, false, false,
			 r.node.strategy == CLEARPAGE_STRATEGY_MOVNTI ? 3.0 : 1.0);
	CHECK(r.reverts >= 1 && r.node.strategy == CLEARPAGE_STRATEGY_KERNEL,
	      "a switch that made things worse is reverted (%d reverts)",
	      r.reverts);
	CHECK(r.switches == 1, "and the policy backs off (%d switches)",
	      r.switches);
}

/* Where the PMU counts: corroboration, and user-space misses in the check. */
static void test_counters(void)
{
	struct run r;
	int i;

	run_init(&r);
	r.counted = true;
	r.kernel_miss_ratio = 0.05;
	for (i = 0; i < 40; i++)
		interval(&r, i, 0.95, 5, false, false, 1.0);
	CHECK(r.switches == 0 && r.last_reason == POLICY_R_NOT_CORROBORATED,
	      "timing says cold, LLC miss ratio 0.05 says hot: holds (%s)",
	      policy_reason_text(r.last_reason));

	run_init(&r);
	r.counted = true;
	r.kernel_miss_ratio = 0.8;
	for (i = 0; i < 10; i++)
		interval(&r, i, 0.95, 5, false, false, 1.0);
	CHECK(r.node.strategy == CLEARPAGE_STRATEGY_MOVNTI,
	      "timing and LLC miss ratio 0.8 agree: switches to movnti");

	/*
	 * The application reads every line of each page right after the
	 * fault: movnti halves the zeroing cost, but each of the 64 lines
	 * then misses in user space (~5.3 ns each at this calibration).
	 */
	run_init(&r);
	r.counted = true;
	r.kernel_miss_ratio = 0.8;
	r.touch_misses = 64;
	for (i = 0; i < 40; i++)
		interval(&r, i, 0.95, 5, false, false, 1.0);
	CHECK(r.reverts >= 1 && r.node.strategy == CLEARPAGE_STRATEGY_KERNEL &&
	      r.revert_reason == POLICY_R_USER_MISSES,
	      "user-space misses that outweigh the gain revert the switch (%d reverts: %s)",
	      r.reverts, policy_reason_text(r.revert_reason));

	/* Control: the same workload without counters cannot see it
	 * (25 intervals: before the first probe of the hot strategy). */
	run_init(&r);
	r.touch_misses = 64;
	for (i = 0; i < 25; i++)
		interval(&r, i, 0.95, 5, false, false, 1.0);
	CHECK(r.reverts == 0 && r.node.strategy == CLEARPAGE_STRATEGY_MOVNTI,
	      "without counters the zeroing cost alone keeps movnti");

	/* A few misses per page cost less than the switch saves. */
	run_init(&r);
	r.counted = true;
	r.kernel_miss_ratio = 0.8;
	r.touch_misses = 4;
	for (i = 0; i < 25; i++)
		interval(&r, i, 0.95, 5, false, false, 1.0);
	CHECK(r.reverts == 0 && r.node.strategy == CLEARPAGE_STRATEGY_MOVNTI,
	      "4 user misses per page (~21 ns) do not outweigh ~200 ns saved");
}

/* NonTemporal=auto: movnti only while the LLC counters are read. */
static void test_non_temporal_auto(void)
{
	struct run r;
	int i;

	run_init(&r);
	r.config.non_temporal = POLICY_NT_AUTO;
	for (i = 0; i < 60; i++)
		interval(&r, i, 0.95, 5, false, false, 1.0);
	CHECK(r.intervals_on[CLEARPAGE_STRATEGY_MOVNTI] == 0,
	      "auto without counters: movnti is never chosen (%s)",
	      policy_reason_text(r.last_reason));

	run_init(&r);
	r.config.non_temporal = POLICY_NT_AUTO;
	r.counted = true;
	r.kernel_miss_ratio = 0.8;
	for (i = 0; i < 20; i++)
		interval(&r, i, 0.95, 5, false, false, 1.0);
	CHECK(r.node.strategy == CLEARPAGE_STRATEGY_MOVNTI,
	      "auto with counters: movnti is chosen for cold pages");

	run_init(&r);
	r.config.non_temporal = POLICY_NT_NO;
	r.counted = true;
	r.kernel_miss_ratio = 0.8;
	for (i = 0; i < 60; i++)
		interval(&r, i, 0.95, 5, false, false, 1.0);
	CHECK(r.intervals_on[CLEARPAGE_STRATEGY_MOVNTI] == 0,
	      "NonTemporal=no: never movnti, counters or not");
}

static void test_degenerate(void)
{
	struct run r;
	struct policy_sample sample = { .samples = 64, .sample_ns = 64 * 500 };
	struct policy_decision d;
	int s, i;

	/* Emulated CPUs: hot == cold for every strategy. */
	run_init(&r);
	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
		r.calibration.cold_ns[s] = r.calibration.hot_ns[s] = 500;
	for (i = 0; i < 100; i++)
		interval(&r, i, i % 2 ? 1.0 : 0.0, 50, false, false, 1.0);
	CHECK(r.switches == 0, "hot == cold calibration: holds still");

	run_init(&r);
	sample.samples = 0;
	policy_step(&r.config, r.allowed, &r.calibration, &r.node, &sample,
		    POLICY_R_NONE, &d);
	CHECK(d.action == POLICY_HOLD, "no pages cleared: no decision (%s)",
	      d.reason);

	run_init(&r);
	r.calibration.valid[CLEARPAGE_STRATEGY_KERNEL] = false;
	sample.samples = 64;
	for (i = 0; i < 20; i++)
		policy_step(&r.config, r.allowed, &r.calibration, &r.node,
			    &sample, POLICY_R_NONE, &d);
	CHECK(d.action == POLICY_HOLD,
	      "an uncalibrated current strategy: no guess (%s)", d.reason);

	run_init(&r);
	r.allowed = 1U << CLEARPAGE_STRATEGY_KERNEL;
	for (i = 0; i < 50; i++)
		interval(&r, i, 0.95, 5, false, false, 1.0);
	CHECK(r.switches == 0, "only kernel allowed (unlisted CPU): monitor only");
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	test_phases();
	test_phases_reference();
	test_static();
	test_noise();
	test_pinned_and_dry_run();
	test_revert();
	test_counters();
	test_non_temporal_auto();
	test_degenerate();
	return check_summary();
}
