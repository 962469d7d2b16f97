// SPDX-License-Identifier: GPL-2.0
/*
 * The policy over synthetic traces. A node's measured ns/page is modelled
 * from the calibration measured on an AMD EPYC (Zen 3) in user space
 * (DESIGN.md): cost = hot + cold_fraction * (cold - hot) of the strategy the
 * node runs, plus deterministic noise. Run with -v to print the trace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../daemon/policy.h"

static int verbose;


static const char *const names[] = CLEARPAGE_STRATEGY_NAMES;

/* ns per 4 KiB page, hot (16 KiB buffer) and cold (2 GiB buffer). */
static void epyc_calibration(struct policy_calibration *c)
{
	static const double hot[] = { 70, 70, 75, 90, 203, 175 };
	static const double cold[] = { 411, 411, 420, 423, 206, 124 };
	int s;

	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		c->valid[s] = true;
		c->hot_ns[s] = hot[s];
		c->cold_ns[s] = cold[s];
	}
}

/* Intel-like: everything but clzero. */
#define ALLOWED_NO_CLZERO 0x1f

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
	bool reference;		/* reference clears with rep_stosb */
	double ref_scale;	/* their cold cost / calibrated (0: 1) */
	double single_ns;	/* added to every measured clear: a single
				 * timed clear costs more than the
				 * calibration's back-to-back passes */
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

/* Deterministic noise in [-amplitude, amplitude]. */
static double noise(int i, double amplitude)
{
	return amplitude * sin(i * 12.9898) * cos(i * 78.233);
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
	struct policy_sample sample = { .samples = 64, .pages = 64 };
	struct policy_decision d;
	bool non_temporal = s == CLEARPAGE_STRATEGY_MOVNTI ||
			    s == CLEARPAGE_STRATEGY_CLZERO;

	sample.ns_per_page = (c->hot_ns[s] + cold_fraction *
			      (c->cold_ns[s] - c->hot_ns[s]) + noise(i, noise_ns)) *
			     penalty;
	if (r->reference && s != CLEARPAGE_STRATEGY_REP_STOSB &&
	    s != CLEARPAGE_STRATEGY_KERNEL) {
		sample.ref_strategy = CLEARPAGE_STRATEGY_REP_STOSB;
		sample.ref_samples = 16;
		sample.ref_ns_per_page =
			c->hot_ns[CLEARPAGE_STRATEGY_REP_STOSB] +
			cold_fraction * (r->ref_scale ? r->ref_scale : 1) *
				(c->cold_ns[CLEARPAGE_STRATEGY_REP_STOSB] -
				 c->hot_ns[CLEARPAGE_STRATEGY_REP_STOSB]) +
			noise(i + 7, noise_ns);
	}
	sample.ns_per_page += r->single_ns;
	if (sample.ref_samples)
		sample.ref_ns_per_page += r->single_ns;
	sample.counted = r->counted;
	sample.kernel_miss_ratio = r->kernel_miss_ratio;
	sample.user_misses = non_temporal ? r->touch_misses * sample.pages : 0;
	r->total_ns += sample.ns_per_page;
	r->intervals_on[s]++;
	policy_step(&r->config, r->allowed, c, &r->node, &sample, pinned, &d);
	if (verbose || (d.action != POLICY_HOLD && !(dry_run && i > 2)))
		printf("  interval %3d  cold %.2f  %-9s %6.0f ns  %s%s%s%s  (%s)\n",
		       i, d.cold_fraction, names[s], sample.ns_per_page,
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
	CHECK(r.intervals_on[CLEARPAGE_STRATEGY_MOVNTI] >= 35,
	      "cold phase on movnti (%d of 40 intervals)",
	      r.intervals_on[CLEARPAGE_STRATEGY_MOVNTI]);
	CHECK(hot_at >= 60 && hot_at <= 60 + 3,
	      "hot phase: back to rep_stosb within the dwell time (interval %d)",
	      hot_at);
	CHECK(r.reverts == 0 && r.switches == 2,
	      "no probe, no revert: %d switches, %d reverts", r.switches,
	      r.reverts);

	/*
	 * Single reference clears between non-temporal ones may cost far
	 * less on cold pages than the calibration's cold passes (measured:
	 * a third on a Xeon). The policy learns their cold cost while
	 * confirming the switch to cold, instead of reading them as hot.
	 */
	run_init(&r);
	r.reference = true;
	r.ref_scale = 0.35;
	hot_at = hot_cold_hot(&r, NULL);
	CHECK(r.intervals_on[CLEARPAGE_STRATEGY_MOVNTI] >= 35 && r.reverts == 0,
	      "cheap reference clears: the cold phase stays on movnti (%d of 40, %d reverts)",
	      r.intervals_on[CLEARPAGE_STRATEGY_MOVNTI], r.reverts);
	CHECK(hot_at >= 60 && hot_at <= 60 + 3,
	      "and the hot phase still returns within the dwell time (interval %d)",
	      hot_at);

	/* Single timed clears 60 ns dearer than calibrated, hot or cold:
	 * the hot level is learnt from the hot strategy's own intervals. */
	run_init(&r);
	r.reference = true;
	r.ref_scale = 0.35;
	r.single_ns = 60;
	hot_at = hot_cold_hot(&r, NULL);
	CHECK(hot_at >= 60 && hot_at <= 60 + 3,
	      "dearer single clears: the hot phase still returns within the dwell time (interval %d)",
	      hot_at);
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
	struct policy_sample sample = { .samples = 64, .ns_per_page = 500 };
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
		    false, &d);
	CHECK(d.action == POLICY_HOLD, "no pages cleared: no decision (%s)",
	      d.reason);

	run_init(&r);
	r.calibration.valid[CLEARPAGE_STRATEGY_KERNEL] = false;
	sample.samples = 64;
	for (i = 0; i < 20; i++)
		policy_step(&r.config, r.allowed, &r.calibration, &r.node,
			    &sample, false, &d);
	CHECK(d.action == POLICY_HOLD,
	      "an uncalibrated current strategy: no guess (%s)", d.reason);

	run_init(&r);
	r.allowed = 1U << CLEARPAGE_STRATEGY_KERNEL;
	for (i = 0; i < 50; i++)
		interval(&r, i, 0.95, 5, false, false, 1.0);
	CHECK(r.switches == 0, "only kernel allowed (unlisted CPU): monitor only");
}

static void test_pick(void)
{
	struct policy_config config;
	struct policy_calibration c;
	int hot, cold;

	policy_config_defaults(&config);
	epyc_calibration(&c);
	CHECK(policy_pick_strategies(&config, 0x3f, &c, &hot, &cold) &&
	      hot == CLEARPAGE_STRATEGY_REP_STOSB &&
	      cold == CLEARPAGE_STRATEGY_CLZERO,
	      "AMD: hot rep_stosb, cold clzero");
	CHECK(policy_pick_strategies(&config, ALLOWED_NO_CLZERO, &c, &hot,
				     &cold) &&
	      cold == CLEARPAGE_STRATEGY_MOVNTI,
	      "without clzero: cold movnti");
	CHECK(policy_pick_strategies(&config, 0x1d, &c, &hot, &cold) &&
	      hot == CLEARPAGE_STRATEGY_KERNEL,
	      "without rep_stosb: hot is kernel");
	/* Without ERMS rep stosb stores a byte at a time: hot is kernel. */
	c.hot_ns[CLEARPAGE_STRATEGY_REP_STOSB] =
		1.2 * c.hot_ns[CLEARPAGE_STRATEGY_KERNEL];
	CHECK(policy_pick_strategies(&config, 0x3f, &c, &hot, &cold) &&
	      hot == CLEARPAGE_STRATEGY_KERNEL,
	      "rep_stosb 20%% dearer than kernel on hot pages: hot is kernel");
	c.hot_ns[CLEARPAGE_STRATEGY_REP_STOSB] =
		1.05 * c.hot_ns[CLEARPAGE_STRATEGY_KERNEL];
	CHECK(policy_pick_strategies(&config, 0x3f, &c, &hot, &cold) &&
	      hot == CLEARPAGE_STRATEGY_REP_STOSB,
	      "rep_stosb 5%% dearer than kernel (noise): hot stays rep_stosb");
	epyc_calibration(&c);
	config.cold_strategy = CLEARPAGE_STRATEGY_MOVQ;
	CHECK(!policy_pick_strategies(&config, ALLOWED_NO_CLZERO, &c, &hot,
				      &cold),
	      "a configured cold strategy no cheaper on cold pages is refused");
}

/* The one sample builder: what clearpaged and the replay give the policy. */
static void test_sample_build(void)
{
	struct policy_counters prev = {
		.strategy = CLEARPAGE_STRATEGY_MOVNTI, .pages = 1000,
		.samples = 100, .sample_ns = 20000, .ref_pages = 40,
		.ref_ns = 16000,
	}, now = prev;
	struct policy_sample s;

	now.pages += 3100;
	now.samples += 50;
	now.sample_ns += 10500;
	now.ref_pages += 100;
	now.ref_ns += 41000;
	policy_sample_build(&prev, false, &now, &s);
	CHECK(s.pages == 0 && s.samples == 0 && s.ref_samples == 0,
	      "first interval: no previous counters, an empty sample");
	policy_sample_build(&prev, true, &now, &s);
	CHECK(s.samples == 50 && s.ns_per_page == 210 &&
	      s.ref_samples == 100 && s.ref_ns_per_page == 410 &&
	      s.ref_strategy == CLEARPAGE_STRATEGY_KERNEL &&
	      s.pages == 3200 && !s.counted,
	      "the differences: 50 clears at 210 ns, 100 reference frames at 410 ns, 3100 + 100 pages");
	now.strategy = CLEARPAGE_STRATEGY_REP_STOSB;
	policy_sample_build(&prev, true, &now, &s);
	CHECK(s.pages == 3100 && s.samples == 0 && s.ref_samples == 0,
	      "another strategy at the end: pages count, timings do not");
	now = prev;
	now.pages = 10;
	policy_sample_build(&prev, true, &now, &s);
	CHECK(s.pages == 0 && s.samples == 0,
	      "counters that went backwards (a reloaded module): an empty sample");
	now = prev;
	now.pages += 64;
	policy_sample_build(&prev, true, &now, &s);
	CHECK(s.pages == 64 && s.samples == 0 && s.ns_per_page == 0,
	      "pages but no timed clear: no cost");
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	test_pick();
	test_sample_build();
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
