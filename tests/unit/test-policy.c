// SPDX-License-Identifier: GPL-2.0
/*
 * The policy over synthetic traces. A node's measured ns/page is modelled
 * from the calibration measured on an AMD EPYC (Zen 3) in user space
 * (doc/design.md): cost = hot + cold_fraction * (cold - hot) of the strategy the
 * node runs, plus deterministic noise. Run with -v to print the trace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "policy.h"

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
	CHECK(s.samples == 50 && s.sample_ns == 50 * 210 &&
	      s.ref_samples == 100 && s.ref_ns == 100 * 410 &&
	      s.ref_strategy == CLEARPAGE_STRATEGY_KERNEL &&
	      s.pages == 3200 && !s.counted,
	      "the differences, as sums: 50 clears at 210 ns, 100 reference frames at 410 ns, 3100 + 100 pages");
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
	CHECK(s.pages == 64 && s.samples == 0 && s.sample_ns == 0 &&
	      policy_mean(s.sample_ns, s.samples) == 0,
	      "pages but no timed clear: no cost");
	now = prev;
	now.samples += 50;
	now.sample_ns += 10000;
	now.probe_hot = 30;
	now.probe_cold = 10;
	now.touch_probed = 8;
	now.touch_cached = 9;
	now.split = true;
	now.split_hot = CLEARPAGE_STRATEGY_REP_STOSB;
	now.split_cold = CLEARPAGE_STRATEGY_MOVNTI;
	policy_sample_build(&prev, true, &now, &s);
	CHECK(s.samples == 0 && s.probe_hot == 30 && s.probe_cold == 10 &&
	      s.touch_probed == 8 && s.touch_cached == 8 && s.split,
	      "per folio since the last read: the probes count (a cached line counted between two reads, clamped), timings do not");
}

/* Each stage alone, one exact check per branch. */
static void test_stages(void)
{
	struct policy_config config;
	struct policy_calibration c;
	struct policy_observation obs;
	struct policy_decision d = { 0 };
	struct policy_node node;
	struct policy_sample sample = {
		.samples = 8, .sample_ns = 8 * 300, .ref_samples = 7,
		.ref_strategy = CLEARPAGE_STRATEGY_KERNEL, .ref_ns = 7 * 400,
		.pages = 100,
	};
	const int hot = CLEARPAGE_STRATEGY_REP_STOSB;
	const int cold = CLEARPAGE_STRATEGY_MOVNTI;
	int target, i;
	double gain;

	policy_config_defaults(&config);
	epyc_calibration(&c);

	/* observe */
	policy_observe(&config, &sample, &obs);
	CHECK(obs.measured && !obs.referenced && obs.user_misses_per_page == -1,
	      "observe: 8 clears measure (MinSamples 8), 7 reference clears do not, no counters: -1");
	sample.samples = 7;
	sample.ref_samples = 8;
	sample.counted = true;
	sample.user_misses = 50;
	policy_observe(&config, &sample, &obs);
	CHECK(!obs.measured && obs.referenced && obs.user_misses_per_page == 0.5,
	      "observe: 7 clears do not measure, 8 reference clears do, 50 misses over 100 pages");

	/* estimate */
	obs = (struct policy_observation){ .measured = true, .ns_per_page = 240.5 };
	CHECK(policy_estimate(&config, &c, CLEARPAGE_STRATEGY_KERNEL, &obs) == 0.5,
	      "estimate: kernel at 240.5 ns, halfway between 70 and 411: 0.5");
	obs.ns_per_page = 204.5;
	CHECK(policy_estimate(&config, &c, cold, &obs) == -1,
	      "estimate: movnti's 203/206 spread tells nothing, no reference: -1");
	obs.referenced = true;
	obs.ref_strategy = CLEARPAGE_STRATEGY_KERNEL;
	obs.ref_ns_per_page = 376.9;
	CHECK(fabs(policy_estimate(&config, &c, cold, &obs) - 0.9) < 1e-9,
	      "estimate: then the reference clears against kernel's calibration: 0.9");

	/* propose */
	policy_node_init(&node, CLEARPAGE_STRATEGY_KERNEL);
	CHECK(policy_propose(&config, &c, &node, hot, cold, 0.9, &target, &gain) ==
	      POLICY_R_FITS && target == CLEARPAGE_STRATEGY_KERNEL,
	      "propose: NonTemporal=auto, nothing measures what movnti costs the application: not adopted");
	/* From here the PMU counts (the touch probe's own checks are below). */
	node.counted = true;
	CHECK(policy_propose(&config, &c, &node, hot, cold, 0.5, &target, &gain) ==
	      POLICY_R_FITS && target == CLEARPAGE_STRATEGY_KERNEL,
	      "propose: 0.5 lies between the thresholds: the current strategy fits");
	CHECK(policy_propose(&config, &c, &node, hot, cold, 0.9, &target, &gain) ==
	      POLICY_R_COLD && target == cold && fabs(gain - (376.9 - 205.7) / 376.9) < 1e-9,
	      "propose: 0.9 is cold: movnti, gain (376.9 - 205.7) / 376.9");
	CHECK(policy_propose(&config, &c, &node, hot, cold, 0.1, &target, &gain) ==
	      POLICY_R_BELOW_MARGIN && target == hot && gain == 0,
	      "propose: 0.1 is hot, but rep_stosb costs what kernel does here: below the margin");
	node.strategy = cold;
	CHECK(policy_propose(&config, &c, &node, hot, cold, 0.1, &target, &gain) ==
	      POLICY_R_HOT && target == hot,
	      "propose: 0.1 on movnti: back to rep_stosb");
	node.since_switch = config.probe_interval - 1;
	CHECK(policy_propose(&config, &c, &node, hot, cold, -1, &target, &gain) ==
	      POLICY_R_UNTELLABLE,
	      "propose: unknown on movnti before ProbeIntervals: nothing to propose");
	node.since_switch = config.probe_interval;
	CHECK(policy_propose(&config, &c, &node, hot, cold, -1, &target, &gain) ==
	      POLICY_R_PROBE && target == hot,
	      "propose: unknown on movnti after ProbeIntervals: probe rep_stosb");
	node.backoff_left = 1;
	CHECK(policy_propose(&config, &c, &node, hot, cold, -1, &target, &gain) ==
	      POLICY_R_UNTELLABLE, "propose: no probe while backing off");

	/* gate */
	policy_node_init(&node, CLEARPAGE_STRATEGY_KERNEL);
	obs = (struct policy_observation){ .counted = true, .kernel_miss_ratio = 0.1 };
	CHECK(policy_gate(&config, &node, &obs, cold, true, 0.9) ==
	      POLICY_R_NOT_CORROBORATED && node.streak == 0,
	      "gate: a cold proposal the LLC miss ratio (0.1) contradicts does not stand");
	obs.kernel_miss_ratio = 0.5;
	CHECK(policy_gate(&config, &node, &obs, cold, true, 0.2) == POLICY_R_DWELL &&
	      node.streak == 1,
	      "gate: first interval of a proposal with a gain below FastGain: dwell");
	policy_gate(&config, &node, &obs, cold, true, 0.2);
	CHECK(policy_gate(&config, &node, &obs, cold, true, 0.2) == POLICY_R_NONE &&
	      node.streak == 3,
	      "gate: third interval in a row (DwellIntervals 3): through");
	CHECK(policy_gate(&config, &node, &obs, hot, false, 0.6) == POLICY_R_NONE &&
	      node.streak == 1,
	      "gate: a new proposal with a gain past FastGain: through at once");
	node.since_switch = config.rate_limit - 1;
	CHECK(policy_gate(&config, &node, &obs, hot, false, 0.6) ==
	      POLICY_R_RATE_LIMITED && node.streak == 2,
	      "gate: within RateLimitIntervals of the last switch: rate limited, the streak still grows");
	node.backoff_left = 5;
	CHECK(policy_gate(&config, &node, &obs, hot, false, 0.6) ==
	      POLICY_R_BACKING_OFF && node.streak == 3,
	      "gate: backing off holds it, the streak still grows");

	/* confirm (what the cold strategy costs the application known) */
	policy_node_init(&node, cold);
	node.touch_known = true;
	obs = (struct policy_observation){ .measured = true, .ns_per_page = 210,
					   .user_misses_per_page = -1 };
	CHECK(policy_confirm(&config, &c, hot, &node, &obs, &d) ==
	      POLICY_CONFIRM_NONE, "confirm: no switch to confirm");
	node.confirm_left = 2;
	node.switched_from = CLEARPAGE_STRATEGY_KERNEL;
	node.before_ns = 200;
	node.before_user_misses = -1;
	CHECK(policy_confirm(&config, &c, hot, &node, &obs, &d) ==
	      POLICY_CONFIRM_PENDING, "confirm: first of two intervals: pending");
	CHECK(policy_confirm(&config, &c, hot, &node, &obs, &d) ==
	      POLICY_CONFIRM_KEEP,
	      "confirm: 210 ns after 200 before, within RevertTolerance 5%%: keep");
	node.confirm_left = 1;
	node.confirm_ns_sum = 0;
	node.confirm_intervals = 0;
	obs.ns_per_page = 211;
	CHECK(policy_confirm(&config, &c, hot, &node, &obs, &d) ==
	      POLICY_CONFIRM_REVERT && d.action == POLICY_REVERT &&
	      d.to == CLEARPAGE_STRATEGY_KERNEL && d.reason_id == POLICY_R_WORSE,
	      "confirm: 211 ns after 200: revert to kernel, it did worse");
	node.confirm_left = 1;
	node.confirm_ns_sum = 0;
	node.confirm_intervals = 0;
	node.before_user_misses = 0;
	obs.ns_per_page = 150;
	obs.user_misses_per_page = 64;
	CHECK(policy_confirm(&config, &c, hot, &node, &obs, &d) ==
	      POLICY_CONFIRM_REVERT && d.reason_id == POLICY_R_USER_MISSES,
	      "confirm: 150 ns but 64 more user misses a page at 5.3 ns each: revert, misses");

	/*
	 * A try of a non-temporal strategy under NonTemporal=auto before the
	 * touch probe told its share: the confirmation waits for it, up to
	 * three times ConfirmIntervals, then reverts.
	 */
	config.non_temporal = POLICY_NT_AUTO;
	node.touch_known = false;
	node.confirm_left = config.confirm;
	node.confirm_ns_sum = 0;
	node.confirm_intervals = 0;
	node.before_user_misses = -1;
	obs.user_misses_per_page = -1;
	for (i = 1; i < 3 * (int)config.confirm; i++)
		if (policy_confirm(&config, &c, hot, &node, &obs, &d) !=
		    POLICY_CONFIRM_PENDING)
			break;
	CHECK(i == 3 * (int)config.confirm && node.confirm_left == 1,
	      "confirm: a non-temporal try whose touch share is unknown stays pending for %u intervals (%d)",
	      3 * config.confirm - 1, i - 1);
	CHECK(policy_confirm(&config, &c, hot, &node, &obs, &d) ==
	      POLICY_CONFIRM_REVERT && d.to == CLEARPAGE_STRATEGY_KERNEL &&
	      d.reason_id == POLICY_R_TOUCH_UNKNOWN,
	      "confirm: still unknown after %u intervals: reverted, though 150 ns saved 25%% (%s)",
	      3 * config.confirm, d.reason);
	node.confirm_left = config.confirm;
	node.confirm_ns_sum = 0;
	node.confirm_intervals = 0;
	policy_confirm(&config, &c, hot, &node, &obs, &d);
	node.touch_known = true;
	CHECK(policy_confirm(&config, &c, hot, &node, &obs, &d) ==
	      POLICY_CONFIRM_PENDING &&
	      policy_confirm(&config, &c, hot, &node, &obs, &d) ==
	      POLICY_CONFIRM_KEEP,
	      "confirm: the share known after its first interval: kept after ConfirmIntervals, as any other");
}

/* The guard: slower than the kernel over the window, back to kernel. */
static void test_guard(void)
{
	struct policy_config config;
	struct policy_calibration c;
	struct policy_node node;
	struct policy_decision d;
	struct policy_sample sample = { .strategy = CLEARPAGE_STRATEGY_REP_STOSB,
					.samples = 64, .pages = 64,
					.sample_ns = 64 * 240,
					.ref_strategy = CLEARPAGE_STRATEGY_KERNEL,
					.ref_samples = 16, .ref_ns = 16 * 200 };
	int i, at = -1;

	policy_config_defaults(&config);
	config.slower_window = 10;
	config.trial_candidates = 0;
	epyc_calibration(&c);
	policy_node_init(&node, CLEARPAGE_STRATEGY_REP_STOSB);
	for (i = 0; i < 20 && at < 0; i++) {
		policy_step(&config, 0x1f, &c, &node, &sample, POLICY_R_NONE, &d);
		if (d.action != POLICY_HOLD)
			at = i;
	}
	CHECK(at == 9 && d.action == POLICY_REVERT && d.slower &&
	      d.to == CLEARPAGE_STRATEGY_KERNEL &&
	      d.reason_id == POLICY_R_SLOWER_THAN_KERNEL &&
	      fabs(d.kernel_ns_per_page - 200) < 1e-9 && fabs(d.ns_per_page - 240) < 1e-9 &&
	      fabs(d.window_seconds - 10) < 1e-9,
	      "guard: 240 against the kernel's 200 ns/page for a window of 10 intervals: back to kernel at the 10th (interval %d)",
	      at);
	policy_applied(&config, &node, &d);
	CHECK(node.strategy == CLEARPAGE_STRATEGY_KERNEL && node.backoff_left == config.backoff,
	      "guard: the node then backs off (%u intervals)", node.backoff_left);
	policy_node_init(&node, CLEARPAGE_STRATEGY_REP_STOSB);
	for (i = 0; i < 10; i++)
		policy_step(&config, 0x1f, &c, &node, &sample, POLICY_R_PINNED,
			    &d);
	CHECK(d.action == POLICY_HOLD && d.slower && d.reason_id == POLICY_R_PINNED,
	      "guard: a pinned node is only flagged, never changed");
	policy_node_init(&node, CLEARPAGE_STRATEGY_REP_STOSB);
	for (i = 0; i < 10; i++)
		policy_step(&config, 0x1f, &c, &node, &sample, POLICY_R_HELD,
			    &d);
	CHECK(d.action == POLICY_HOLD && d.slower && d.reason_id == POLICY_R_HELD &&
	      !strcmp(d.reason, "held on kernel by clearpagectl reset"),
	      "guard: a held backend is flagged with its own reason (%s), never changed",
	      d.reason);
	sample.sample_ns = 64 * 205;
	policy_node_init(&node, CLEARPAGE_STRATEGY_REP_STOSB);
	for (i = 0, at = 0; i < 20; i++) {
		policy_step(&config, 0x1f, &c, &node, &sample, POLICY_R_NONE, &d);
		at += d.slower;
	}
	CHECK(at == 0, "guard: 205 against 200 is within SlowerMargin 5%% (%d intervals flagged of 20)", at);
}

/* Reference frames too few in an interval are waited for, not probed past. */
static void test_few_references(void)
{
	struct policy_config config;
	struct policy_calibration c;
	struct policy_node node;
	struct policy_decision d;
	struct policy_sample sample = { .strategy = CLEARPAGE_STRATEGY_MOVNTI,
					.samples = 64, .pages = 64,
					.sample_ns = 64 * 206,
					.ref_strategy = CLEARPAGE_STRATEGY_KERNEL,
					.ref_samples = 3, .ref_ns = 3 * 411 };
	int i, probes = 0;

	policy_config_defaults(&config);
	config.non_temporal = POLICY_NT_YES;
	config.trial_candidates = 0;
	epyc_calibration(&c);
	policy_node_init(&node, CLEARPAGE_STRATEGY_MOVNTI);
	for (i = 0; i < 3 * (int)config.probe_interval; i++) {
		policy_step(&config, ALLOWED_NO_CLZERO, &c, &node, &sample, false, &d);
		probes += d.action == POLICY_SWITCH;
	}
	CHECK(probes == 0 && d.reason_id == POLICY_R_FEW_SAMPLES,
	      "on movnti with 3 reference clears an interval (MinSamples 8): no probe in %u intervals, too few samples (%d probes)",
	      3 * config.probe_interval, probes);
	sample.ref_samples = 0;
	policy_step(&config, ALLOWED_NO_CLZERO, &c, &node, &sample, false, &d);
	CHECK(d.action == POLICY_SWITCH && d.probe &&
	      d.to == CLEARPAGE_STRATEGY_REP_STOSB,
	      "without any reference clear it probes rep_stosb (ProbeIntervals have passed)");
}

/*
 * Trials. Live costs, ns per 4 KiB, of cold 2 MiB folios on an AMD EPYC
 * Zen 5 guest (doc/results/README.md: regimes and trials), and of hot ones:
 * kernel, rep_stosb, rep_stosq, movq, movnti, clzero.
 */
static const double live_burst[] = { 193, 90, 92, 135, 151, 62 };
static const double live_sustained[] = { 212, 225, 226, 240, 336, 113 };
static const double live_loaded[] = { 255, 260, 262, 300, 459, 228 };
static const double live_hot[] = { 38, 30, 31, 62, 185, 150 };
/* rep_stosb and rep_stosq alike (ERMS): a tie, for the noise test. */
static const double live_tie[] = { 200, 100, 100, 180, 300, 250 };

/* Zen 5, burst calibration (the huge backend's, ranges). */
static void zen5_calibration(struct policy_calibration *c)
{
	static const double hot[] = { 38, 30, 31, 62, 185, 150 };
	int s;

	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		c->valid[s] = true;
		c->hot_ns[s] = hot[s];
		c->cold_ns[s] = live_burst[s];
	}
}

struct trial_run {
	struct policy_config config;
	struct policy_calibration calibration;
	unsigned int allowed;
	struct policy_node node;
	unsigned int trials;
	int switches, reverts, last_switch;
	enum policy_reason last_reason, revert_reason;
	double last_gain, last_bound;
	/*
	 * What reference and trial frames cost amid the node's other clears,
	 * where that is not what the strategy costs on every page (NULL:
	 * the same).
	 */
	const double *marginal;
	int tries, measured;
	/*
	 * The temperature probe's share of cold units each interval (-1: no
	 * probe); the touch probe (@touch: the module has one) and the share
	 * of its lines found cached (-1: none loaded yet); @no_frames: the
	 * workload's pages hold no reference or trial frame (a small hot set).
	 */
	double probed_cold;
	bool touch;
	double touch_share;
	bool no_frames;
};

static void trial_run_init(struct trial_run *r)
{
	memset(r, 0, sizeof(*r));
	policy_config_defaults(&r->config);
	r->config.non_temporal = POLICY_NT_YES;
	zen5_calibration(&r->calibration);
	r->allowed = 0x3f;
	policy_node_init(&r->node, CLEARPAGE_STRATEGY_KERNEL);
	r->last_switch = -1;
	r->probed_cold = -1;
	r->touch_share = -1;
}

/*
 * One interval where strategy s costs @live[s] (times 1 + relative noise
 * of @noise): the strategy's own clears, its reference frames (the
 * kernel's) and the trial frames of the candidates policy_trials() named,
 * as the module would time them.
 */
static void trial_interval(struct trial_run *r, int i, const double *live,
			   double noise_frac, double outlier)
{
	struct policy_sample sample = { .strategy = r->node.strategy,
					.samples = 64, .pages = 4096,
					.trials = true };
	struct policy_decision d;
	int cur = r->node.strategy, s;
	const double *frames = r->marginal ? r->marginal : live;
	double ns;

	r->trials = policy_trials(&r->config, r->allowed, r->touch,
				  &r->calibration, &r->node);
	ns = live[cur] * (1 + noise(i, noise_frac));
	sample.sample_ns = ns * sample.samples;
	if (r->probed_cold >= 0) {
		sample.probe_cold = (uint64_t)(64 * r->probed_cold + 0.5);
		sample.probe_hot = 64 - sample.probe_cold;
	}
	sample.touch = r->touch;
	/* Lines of non-temporal clears: the node's own, or a trial's. */
	if (r->touch && r->touch_share >= 0 &&
	    (policy_non_temporal(cur) ||
	     r->trials & (1U << CLEARPAGE_STRATEGY_MOVNTI |
			  1U << CLEARPAGE_STRATEGY_CLZERO))) {
		sample.touch_probed = 16;
		sample.touch_cached = (uint64_t)(16 * r->touch_share + 0.5);
	}
	if (r->no_frames)
		goto step;
	if (cur != CLEARPAGE_STRATEGY_KERNEL) {
		sample.ref_strategy = CLEARPAGE_STRATEGY_KERNEL;
		sample.ref_samples = 128;
		sample.ref_ns = sample.ref_samples * frames[0] *
				(1 + noise(i + 11, noise_frac));
	}
	for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		if (!(r->trials & (1U << s)))
			continue;
		sample.trial_samples[s] = 64;
		sample.trial_ns[s] = sample.trial_samples[s] * frames[s] *
				     (1 + noise(i + 3 * s, noise_frac));
		/* One interval's trial ten times too cheap: a timer glitch. */
		if (outlier && s == CLEARPAGE_STRATEGY_MOVQ)
			sample.trial_ns[s] /= outlier;
	}
step:
	policy_step(&r->config, r->allowed, &r->calibration, &r->node, &sample,
		    false, &d);
	if (verbose)
		printf("  interval %3d  %-9s %6.0f ns  trials %#x  %s%s  (%s, gain %.3f)\n",
		       i, names[cur], ns, r->trials,
		       d.action == POLICY_HOLD ? "hold" : "switch -> ",
		       d.action == POLICY_HOLD ? "" : names[d.to], d.reason,
		       d.predicted_gain);
	r->last_reason = d.reason_id;
	if (d.action == POLICY_HOLD)
		return;
	r->last_gain = d.predicted_gain;
	r->last_bound = d.gain_bound;
	if (d.action == POLICY_REVERT)
		r->revert_reason = d.reason_id;
	policy_applied(&r->config, &r->node, &d);
	if (d.action == POLICY_SWITCH)
		r->switches++;
	else
		r->reverts++;
	r->last_switch = i;
	r->tries += d.whole;
	r->measured += d.reason_id == POLICY_R_MEASURED;
}

static void test_trials_pick(void)
{
	struct trial_run r;
	unsigned int t;

	trial_run_init(&r);
	t = policy_trials(&r.config, r.allowed, false, &r.calibration, &r.node);
	CHECK(t == (1U << CLEARPAGE_STRATEGY_CLZERO | 1U << CLEARPAGE_STRATEGY_REP_STOSB),
	      "trials: the two candidates the burst calibration ranks first on cold folios, clzero and rep_stosb, never kernel (%#x)", t);
	r.config.non_temporal = POLICY_NT_AUTO;
	t = policy_trials(&r.config, r.allowed, false, &r.calibration, &r.node);
	CHECK(t == (1U << CLEARPAGE_STRATEGY_REP_STOSB | 1U << CLEARPAGE_STRATEGY_REP_STOSQ),
	      "trials: NonTemporal=auto without counters leaves clzero and movnti out (%#x)", t);
	t = policy_trials(&r.config, r.allowed, true, &r.calibration, &r.node);
	CHECK(t == (1U << CLEARPAGE_STRATEGY_CLZERO | 1U << CLEARPAGE_STRATEGY_REP_STOSB),
	      "trials: ... and takes them where the PMU counts (%#x)", t);
	r.config.non_temporal = POLICY_NT_YES;
	r.node.probed_fraction = 0;
	t = policy_trials(&r.config, r.allowed, false, &r.calibration, &r.node);
	CHECK(t == (1U << CLEARPAGE_STRATEGY_REP_STOSB | 1U << CLEARPAGE_STRATEGY_REP_STOSQ),
	      "trials: the temperature sample counts every unit hot: the two cheapest on hot pages, no cold strategy timed on them (%#x)", t);
	r.node.probed_fraction = -1;
	r.node.strategy = CLEARPAGE_STRATEGY_CLZERO;
	r.config.trial_candidates = 3;
	t = policy_trials(&r.config, r.allowed, false, &r.calibration, &r.node);
	CHECK(t == (1U << CLEARPAGE_STRATEGY_REP_STOSB | 1U << CLEARPAGE_STRATEGY_REP_STOSQ |
		    1U << CLEARPAGE_STRATEGY_MOVQ),
	      "trials: TrialCandidates=3, never the current strategy (%#x)", t);
	r.config.trial_candidates = 0;
	CHECK(policy_trials(&r.config, r.allowed, false, &r.calibration, &r.node) == 0,
	      "trials: TrialCandidates=0, none");
}

/* Each regime alone: the measured choice, and no flapping in it. */
static void test_trials_regimes(void)
{
	static const struct {
		const char *name;
		const double *live;
		int best;
	} regimes[] = {
		{ "burst", live_burst, CLEARPAGE_STRATEGY_CLZERO },
		{ "sustained", live_sustained, CLEARPAGE_STRATEGY_CLZERO },
		{ "loaded", live_loaded, CLEARPAGE_STRATEGY_CLZERO },
		{ "hot", live_hot, CLEARPAGE_STRATEGY_REP_STOSB },
	};

	for (unsigned int k = 0; k < sizeof(regimes) / sizeof(regimes[0]); k++) {
		struct trial_run r;
		int i;

		printf("trials, %s regime: 200 intervals from kernel, 5%% noise\n",
		       regimes[k].name);
		trial_run_init(&r);
		for (i = 0; i < 200; i++)
			trial_interval(&r, i, regimes[k].live, 0.05, 0);
		CHECK(r.node.strategy == regimes[k].best && r.switches == 1 &&
		      r.tries == 1 && r.reverts == 0 && r.last_switch == 2,
		      "%s: the calibration's pick tried on the whole node after the dwell (3 intervals) and kept: one switch, to %s (interval %d); %d switches, %d reverts",
		      regimes[k].name, names[regimes[k].best], r.last_switch,
		      r.switches, r.reverts);

		printf("trials, %s regime without a calibration\n",
		       regimes[k].name);
		trial_run_init(&r);
		memset(&r.calibration, 0, sizeof(r.calibration));
		r.config.trial_candidates = CLEARPAGE_STRATEGY_COUNT - 1;
		for (i = 0; i < 200; i++)
			trial_interval(&r, i, regimes[k].live, 0.05, 0);
		CHECK(r.node.strategy == regimes[k].best && r.switches == 1 &&
		      r.measured == 1 && r.reverts == 0 && r.last_switch == 9,
		      "%s, no calibration (nothing to try): measured, to %s, once the first window of 10 is full (interval %d); %d switches, %d reverts",
		      regimes[k].name, names[regimes[k].best], r.last_switch,
		      r.switches, r.reverts);
	}
}

/*
 * Zen 5, sustained (the replay grid): a clzero trial folio amid the
 * kernel's clears costs more than the kernel's own (it writes its lines
 * back beside theirs), yet clzero on every folio halves the cost, since
 * it leaves no dirty lines for the next clears.
 */
static const double marginal_sustained[] = { 175, 205, 206, 230, 340, 206 };

static void test_trials_systemic(void)
{
	struct trial_run r;
	int i, on_clzero = 0;

	printf("trials, sustained, a gain only the whole node shows\n");
	trial_run_init(&r);
	r.marginal = marginal_sustained;
	for (i = 0; i < 300; i++) {
		trial_interval(&r, i, live_sustained, 0.05, 0);
		on_clzero += r.node.strategy == CLEARPAGE_STRATEGY_CLZERO;
	}
	CHECK(r.node.strategy == CLEARPAGE_STRATEGY_CLZERO && r.tries == 1 &&
	      r.switches == 1 && r.reverts == 0,
	      "clzero's trial frames are dearer than the kernel's, yet the try on the whole node keeps it (%d tries, %d switches, %d reverts)",
	      r.tries, r.switches, r.reverts);

	/*
	 * The reverse: on clzero, the kernel's reference frames look cheaper
	 * than clzero's own clears (a cost they only have amid clzero's), and
	 * every measured switch to the kernel is reverted by its
	 * confirmation; each revert refutes the kernel for twice as long.
	 */
	static const double marginal_kernel_cheap[] = { 90, 205, 206, 230, 340, 206 };

	printf("trials, sustained, the kernel's frames misleading on clzero (no guard)\n");
	trial_run_init(&r);
	/* The guard reads the same frames: this is the compare stage alone. */
	r.config.slower_window = 0;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_CLZERO);
	r.marginal = marginal_kernel_cheap;
	on_clzero = 0;
	for (i = 0; i < 600; i++) {
		trial_interval(&r, i, live_sustained, 0.05, 0);
		on_clzero += r.node.strategy == CLEARPAGE_STRATEGY_CLZERO;
	}
	CHECK(r.node.strategy == CLEARPAGE_STRATEGY_CLZERO &&
	      r.reverts == r.measured + r.tries && r.measured >= 2 &&
	      r.measured <= 5,
	      "measured switches to the kernel, each reverted by its confirmation and refuted for longer: %d in 600 intervals (%d reverts, %d tries), ends on clzero",
	      r.measured, r.reverts, r.tries);
	CHECK(on_clzero >= 600 - 4 * r.reverts,
	      "on clzero %d of 600 intervals (each refuted switch costs its confirmation)",
	      on_clzero);
}

/* The choice follows the regime: burst, sustained, loaded, hot, sustained. */
static void test_trials_phases(void)
{
	static const double *const phases[] = { live_burst, live_sustained,
						 live_loaded, live_hot,
						 live_sustained };
	struct trial_run r;
	int i, on_best = 0;

	printf("trials across regimes: 5 phases of 60 intervals, 5%% noise\n");
	trial_run_init(&r);
	for (i = 0; i < 300; i++) {
		const double *live = phases[i / 60];
		int best = live == live_hot ? CLEARPAGE_STRATEGY_REP_STOSB :
					      CLEARPAGE_STRATEGY_CLZERO;

		trial_interval(&r, i, live, 0.05, 0);
		on_best += r.node.strategy == best;
	}
	CHECK(r.switches == 3 && r.reverts == 0,
	      "a switch only where the best strategy changes: to clzero, to rep_stosb in the hot phase, back to clzero (%d switches, %d reverts)",
	      r.switches, r.reverts);
	CHECK(on_best >= 300 - 3 * 15,
	      "on the best strategy %d of 300 intervals (each change costs at most a window and the rate limit)",
	      on_best);
	CHECK(r.node.strategy == CLEARPAGE_STRATEGY_CLZERO, "ends on clzero");
}

static void test_trials_try(void)
{
	static const double spike[] = { 80, 70, 70, 120, 185, 150 };
	struct policy_sample sample = { .samples = 0, .trials = true };
	struct policy_decision d;
	struct trial_run r;
	int i;

	printf("trials: a try needs the dwell, and clears enough to be timed\n");
	trial_run_init(&r);
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_REP_STOSB);
	for (i = 0; i < 100; i++)
		trial_interval(&r, i, i % 20 == 10 ? spike : live_hot, 0.05, 0);
	CHECK(r.tries == 0 && r.switches == 0,
	      "hot pages, one interval in 20 costing twice as much: nothing tried (%d tries)",
	      r.tries);
	for (i = 0; i < 3; i++)
		trial_interval(&r, 100 + i, live_burst, 0.05, 0);
	CHECK(r.tries == 1 && r.node.strategy == CLEARPAGE_STRATEGY_CLZERO,
	      "three cold intervals: clzero tried (%d tries)", r.tries);
	for (i = 0; i < 3; i++) {
		policy_step(&r.config, r.allowed, &r.calibration, &r.node,
			    &sample, false, &d);
		if (i < 2)
			CHECK(d.action == POLICY_HOLD &&
			      d.reason_id == POLICY_R_FEW_SAMPLES,
			      "interval %d of the try without a timed clear: holds", i + 1);
	}
	CHECK(d.action == POLICY_REVERT && d.to == CLEARPAGE_STRATEGY_REP_STOSB &&
	      d.reason_id == POLICY_R_NOT_CHEAPER,
	      "a try not timed for ConfirmIntervals is reverted (%s)", d.reason);
}

/*
 * A calibration taken in another memory regime (seen on 4 KiB pages, Xeon
 * 6/207, burst): rep stos clears the cold pages at a quarter of its
 * calibrated cost, below what movnti costs calibrated and live. The try
 * weighs the calibration's pick against what the node's strategy cost,
 * not only against its calibration: no try.
 */
static void test_trials_try_regime(void)
{
	static const double hot[] = { 31, 31, 32, 93, 366, 0 };
	static const double cold[] = { 765, 765, 765, 650, 367, 0 };
	static const double live[] = { 200, 200, 210, 450, 400, 0 };
	struct trial_run r;
	int i, s;

	printf("trials: a calibration of another regime, live rep_stosb below it\n");
	trial_run_init(&r);
	r.allowed = ALLOWED_NO_CLZERO;
	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		r.calibration.valid[s] = s != CLEARPAGE_STRATEGY_CLZERO;
		r.calibration.hot_ns[s] = hot[s];
		r.calibration.cold_ns[s] = cold[s];
	}
	r.probed_cold = 1;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_REP_STOSB);
	for (i = 0; i < 120; i++)
		trial_interval(&r, i, live, 0.05, 0);
	CHECK(r.tries == 0 && r.switches == 0 &&
	      r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB,
	      "cold pages rep_stosb clears at 200 ns, movnti calibrated at 367: no try in 120 intervals (%d tries, %d switches, on %s)",
	      r.tries, r.switches, names[r.node.strategy]);
	trial_run_init(&r);
	r.allowed = ALLOWED_NO_CLZERO;
	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		r.calibration.valid[s] = s != CLEARPAGE_STRATEGY_CLZERO;
		r.calibration.hot_ns[s] = hot[s];
		r.calibration.cold_ns[s] = cold[s];
	}
	r.probed_cold = 1;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_REP_STOSB);
	for (i = 0; i < 10; i++)
		trial_interval(&r, i, cold, 0.05, 0);
	CHECK(r.tries == 1 && r.node.strategy == CLEARPAGE_STRATEGY_MOVNTI,
	      "the same pages at the calibrated 765 ns: movnti tried and kept (%d tries, on %s)",
	      r.tries, names[r.node.strategy]);
}

/*
 * NonTemporal=auto, no PMU, cold folios, the touch probe there but its
 * first lines still to come (they are loaded some time after the clear):
 * the first try goes to the cheapest cold strategy, clzero, whose own
 * clears the probe then samples; the try is kept once the share is known
 * and small, reverted if it stays unknown.
 */
static void test_trials_try_touch(void)
{
	struct trial_run r;
	int i, tried_at = -1;

	printf("trials: a non-temporal try before the touch probe told its share\n");
	trial_run_init(&r);
	r.config.non_temporal = POLICY_NT_AUTO;
	r.touch = true;
	r.probed_cold = 1;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_REP_STOSB);
	for (i = 0; i < 30 && tried_at < 0; i++) {
		trial_interval(&r, i, live_burst, 0.05, 0);
		if (r.tries)
			tried_at = i;
	}
	CHECK(tried_at >= 0 && r.node.strategy == CLEARPAGE_STRATEGY_CLZERO,
	      "cold folios, share unknown: clzero tried first (at interval %d, on %s)",
	      tried_at, names[r.node.strategy]);
	for (; i < tried_at + 3; i++)
		trial_interval(&r, i, live_burst, 0.05, 0);
	CHECK(r.reverts == 0 && r.last_reason == POLICY_R_CONFIRMING,
	      "its confirmation waits for the share past ConfirmIntervals (%s)",
	      policy_reason_text(r.last_reason));
	r.touch_share = 0.05;
	for (; i < tried_at + 12; i++)
		trial_interval(&r, i, live_burst, 0.05, 0);
	CHECK(r.reverts == 0 && r.node.strategy == CLEARPAGE_STRATEGY_CLZERO,
	      "the share then known, 5%%: clzero kept (%d reverts, on %s)",
	      r.reverts, names[r.node.strategy]);

	trial_run_init(&r);
	r.config.non_temporal = POLICY_NT_AUTO;
	r.touch = true;
	r.probed_cold = 1;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_REP_STOSB);
	tried_at = -1;
	for (i = 0; i < 40 && !r.reverts; i++) {
		trial_interval(&r, i, live_burst, 0.05, 0);
		if (r.tries && tried_at < 0)
			tried_at = i;
	}
	CHECK(r.tries == 1 && r.reverts == 1 && i - tried_at == 1 + 3 * (int)r.config.confirm &&
	      r.revert_reason == POLICY_R_TOUCH_UNKNOWN &&
	      !policy_non_temporal(r.node.strategy),
	      "a share that never comes: the try reverted after 3 x ConfirmIntervals timed (%d intervals after it, on %s)",
	      i - tried_at, names[r.node.strategy]);
}

/*
 * Trial frames that measure every strategy a quarter cheaper than the
 * node's own clears cost (seen on 4 KiB cold pages in the sustained
 * regime): each candidate looks cheaper than the current strategy, which
 * it is not. A switch from trials is kept only if the whole node then
 * costs TrialMargin less; else it is reverted and its target refuted for
 * ever longer, so the node does not flap between equals.
 */
static void test_trials_biased(void)
{
	static const double live[] = { 250, 250, 250, 600, 400, 380 };
	/* The reference frames true: the guard is not what is tested. */
	static const double frames[] = { 250, 188, 188, 450, 300, 285 };
	struct trial_run r;
	int i, on_stosb = 0;

	printf("trials that measure every candidate a quarter cheaper than it is\n");
	trial_run_init(&r);
	r.config.non_temporal = POLICY_NT_AUTO;
	r.marginal = frames;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_REP_STOSB);
	for (i = 0; i < 300; i++) {
		trial_interval(&r, i, live, 0.05, 0);
		on_stosb += r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB;
	}
	CHECK(r.measured >= 1 && r.reverts == r.switches - (r.node.strategy !=
							   CLEARPAGE_STRATEGY_REP_STOSB),
	      "every switch the biased trials made was reverted (%d switches, %d reverts)",
	      r.switches, r.reverts);
	CHECK(r.measured <= 5,
	      "refuted for ever longer: at most 5 measured switches in 300 intervals (%d)",
	      r.measured);
	CHECK(on_stosb >= 280,
	      "rep_stosb cleared in at least 280 of 300 intervals (%d)", on_stosb);
}

static void test_trials_noise(void)
{
	struct trial_run r;
	int i;

	printf("trials, a tie under 15%% noise and outliers\n");
	trial_run_init(&r);
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_REP_STOSB);
	r.config.trial_candidates = 3;
	for (i = 0; i < 300; i++)
		trial_interval(&r, i, live_tie, 0.15, i % 37 == 5 ? 10 : 0);
	CHECK(r.measured == 0 && r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB,
	      "rep_stosb and rep_stosq cost the same: no measured switch in 300 noisy intervals, one trial in 37 ten times too cheap (%d)",
	      r.measured);
	/*
	 * The burst calibration has clzero cheapest on cold pages, the live
	 * costs have it dearest: tried, refuted, tried again at 30, 60, 120
	 * intervals' distance.
	 */
	CHECK(r.tries == 4 && r.reverts == 4,
	      "a calibration the live costs refute: clzero tried 4 times in 300 intervals, each reverted (%d tries, %d reverts)",
	      r.tries, r.reverts);
}

/*
 * A calibration that ranks every other strategy cheaper on cold pages than
 * the live costs say (the burst calibration in a loaded regime): each try
 * is reverted, and a reverted try holds back every cold try, not only its
 * target's, so the node does not try them in turn.
 */
static void test_trials_try_kinds(void)
{
	static const double live[] = { 400, 400, 410, 600, 450, 500 };
	struct trial_run r;
	int i;

	printf("trials: a calibration that ranks four strategies wrong\n");
	trial_run_init(&r);
	for (i = 0; i < 120; i++)
		trial_interval(&r, i, live, 0.05, 0);
	CHECK(r.tries >= 2 && r.tries <= 3 && r.reverts == r.tries &&
	      r.node.strategy == CLEARPAGE_STRATEGY_KERNEL,
	      "tries 30, then 60 intervals apart whatever their target: %d tries in 120 intervals, each reverted, back on kernel",
	      r.tries);
}

static void test_trials_stages(void)
{
	struct policy_config config;
	struct policy_node node;
	struct policy_sample sample = { .samples = 64, .sample_ns = 64 * 200,
					.trials = true };
	double gain, bound;
	int target, i;

	policy_config_defaults(&config);
	config.non_temporal = POLICY_NT_YES;
	policy_node_init(&node, CLEARPAGE_STRATEGY_KERNEL);
	sample.trial_samples[CLEARPAGE_STRATEGY_CLZERO] = 64;
	for (i = 0; i < 9; i++) {
		sample.trial_ns[CLEARPAGE_STRATEGY_CLZERO] = 64 * (100 + i);
		CHECK(policy_compare(&config, 0x3f, &node, &sample, &target, &gain,
				     &bound) == POLICY_R_TRIALS_FILLING,
		      "compare: interval %d of a window of 10, filling", i + 1);
	}
	sample.trial_ns[CLEARPAGE_STRATEGY_CLZERO] = 64 * 109;
	CHECK(policy_compare(&config, 0x3f, &node, &sample, &target, &gain,
			     &bound) == POLICY_R_MEASURED &&
	      target == CLEARPAGE_STRATEGY_CLZERO &&
	      fabs(gain - (200 - 104.5) / 200) < 1e-9 && bound > 0 && bound < gain,
	      "compare: the window full, clzero measured at 100..109 against 200: gain %.4f (the mean without the extremes), bound %.4f",
	      gain, bound);
	CHECK(policy_compare(&config, 0x3f & ~(1U << CLEARPAGE_STRATEGY_CLZERO),
			     &node, &sample, &target, &gain, &bound) ==
	      POLICY_R_TRIALS_FILLING && target == CLEARPAGE_STRATEGY_KERNEL,
	      "compare: clzero no longer allowed: no allowed candidate measured, no target");
	config.trial_margin = 0.5;
	CHECK(policy_compare(&config, 0x3f, &node, &sample, &target, &gain,
			     &bound) == POLICY_R_NONE_CHEAPER,
	      "compare: a gain of 0.48 is below TrialMargin=0.5");
	config.trial_margin = 0.03;
	sample.trial_samples[CLEARPAGE_STRATEGY_CLZERO] = 0;
	CHECK(policy_compare(&config, 0x3f, &node, &sample, &target, &gain,
			     &bound) == POLICY_R_MEASURED &&
	      node.trial[CLEARPAGE_STRATEGY_CLZERO].used == 10,
	      "compare: an interval without clzero's trial frames leaves its window as it was");
	for (i = 0; i < 9; i++)
		policy_compare(&config, 0x3f, &node, &sample, &target, &gain, &bound);
	CHECK(node.trial[CLEARPAGE_STRATEGY_CLZERO].used == 0 &&
	      policy_compare(&config, 0x3f, &node, &sample, &target, &gain,
			     &bound) == POLICY_R_TRIALS_FILLING,
	      "compare: a candidate not timed for a whole window loses its window");
}


/*
 * A non-temporal strategy costs the same hot or cold, so once a node runs
 * one its cost cannot show the pages turning hot; where the hot set holds
 * no reference or trial frame nothing else does either (the replay held
 * movnti through a whole hot phase). The temperature probe asks the pages.
 */
static void test_probe_temperature(void)
{
	struct trial_run r;
	int i, first_on_stosb = -1;

	printf("a hot phase on movnti, no reference or trial frame in the hot set\n");
	trial_run_init(&r);
	r.no_frames = true;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_MOVNTI);
	for (i = 0; i < 100; i++)
		trial_interval(&r, i, live_hot, 0.05, 0);
	CHECK(r.node.strategy != CLEARPAGE_STRATEGY_REP_STOSB &&
	      r.node.strategy != CLEARPAGE_STRATEGY_KERNEL,
	      "without the probe: still non-temporal after 100 hot intervals (%s)",
	      names[r.node.strategy]);

	trial_run_init(&r);
	r.no_frames = true;
	r.probed_cold = 0;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_MOVNTI);
	for (i = 0; i < 100; i++) {
		trial_interval(&r, i, live_hot, 0.05, 0);
		if (first_on_stosb < 0 &&
		    r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB)
			first_on_stosb = i;
	}
	CHECK(first_on_stosb == 0 &&
	      r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB && r.reverts == 0,
	      "the probe counts every unit hot: rep_stosb tried at once, a counted fraction needs no dwell (interval %d), and kept (%d switches, %d reverts)",
	      first_on_stosb, r.switches, r.reverts);

	/* The probe's share beats the cost's inference, and needs MinSamples. */
	{
		struct policy_config config;
		struct policy_calibration c;
		struct policy_observation obs;
		struct policy_sample sample = {
			.samples = 64, .sample_ns = 64 * 240.5,
			.probe_hot = 3, .probe_cold = 9,
		};

		policy_config_defaults(&config);
		epyc_calibration(&c);
		policy_observe(&config, &sample, &obs);
		CHECK(obs.probed == 12 &&
		      policy_estimate(&config, &c, CLEARPAGE_STRATEGY_KERNEL, &obs) == 0.75,
		      "estimate: 9 of 12 probed units cold: 0.75, not the 0.5 kernel's cost says");
		CHECK(policy_estimate(&config, &c, CLEARPAGE_STRATEGY_MOVNTI, &obs) == 0.75,
		      "estimate: ... even on movnti, whose cost tells nothing");
		sample.probe_hot = 2;
		sample.probe_cold = 5;
		policy_observe(&config, &sample, &obs);
		CHECK(obs.probed == 0 &&
		      policy_estimate(&config, &c, CLEARPAGE_STRATEGY_KERNEL, &obs) == 0.5,
		      "estimate: 7 probed units are fewer than MinSamples: from the cost again");
	}
}

/*
 * NonTemporal=auto without a PMU: the touch probe says what a
 * non-temporal clear costs the application. Cold folios (burst regime,
 * clzero cheapest to clear).
 */
static void test_touch(void)
{
	struct policy_config config;
	struct policy_calibration c;
	struct policy_node node;
	struct policy_sample sample = { .touch_probed = 4, .touch_cached = 1 };
	struct trial_run r;
	int i;

	policy_config_defaults(&config);
	zen5_calibration(&c);
	CHECK(policy_allowed(&config, 0x3f, false) == 0x0f &&
	      policy_allowed(&config, 0x3f, true) == 0x3f,
	      "NonTemporal=auto: movnti and clzero allowed where the PMU or the touch probe measures");
	policy_node_init(&node, CLEARPAGE_STRATEGY_CLZERO);
	policy_touch_update(&config, &c, CLEARPAGE_STRATEGY_REP_STOSB, &node, &sample);
	CHECK(policy_touch_share(&config, &node) == -1 && !node.touch_known &&
	      policy_touch_penalty(&node, CLEARPAGE_STRATEGY_CLZERO) == 0,
	      "touch: 4 lines are fewer than MinSamples: unknown, no penalty");
	sample.touch_probed = 8;
	sample.touch_cached = 2;
	policy_touch_update(&config, &c, CLEARPAGE_STRATEGY_REP_STOSB, &node, &sample);
	CHECK(fabs(policy_touch_share(&config, &node) - 2.9 / 11.6) < 1e-9 &&
	      fabs(policy_touch_penalty(&node, CLEARPAGE_STRATEGY_CLZERO) -
		   2.9 / 11.6 * (90 - 30)) < 1e-9 &&
	      policy_touch_penalty(&node, CLEARPAGE_STRATEGY_REP_STOSB) == 0,
	      "touch: sums decayed by 0.9: 2.9 of 11.6 cached, clzero dearer by that share of rep_stosb's cold-hot spread (%.1f ns), rep_stosb not",
	      policy_touch_penalty(&node, CLEARPAGE_STRATEGY_CLZERO));
	sample.touch_probed = 0;
	sample.touch_cached = 0;
	for (i = 0; i < 50; i++)
		policy_touch_update(&config, &c, CLEARPAGE_STRATEGY_REP_STOSB, &node,
				    &sample);
	CHECK(fabs(policy_touch_share(&config, &node) - 2.9 / 11.6) < 1e-9,
	      "touch: 50 intervals without a line loaded (nothing cleared non-temporally) leave the share as it was");
	sample.counted = true;
	policy_touch_update(&config, &c, CLEARPAGE_STRATEGY_REP_STOSB, &node, &sample);
	CHECK(!node.touch_known && policy_touch_penalty(&node, CLEARPAGE_STRATEGY_CLZERO) == 0,
	      "touch: where the PMU counts, its user misses are charged instead");

	printf("NonTemporal=auto, no PMU, cold folios: the touch probe decides\n");
	trial_run_init(&r);
	r.config.non_temporal = POLICY_NT_AUTO;
	for (i = 0; i < 100; i++)
		trial_interval(&r, i, live_burst, 0.05, 0);
	CHECK(r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB,
	      "no touch probe: movnti and clzero never allowed, rep_stosb (%s)",
	      names[r.node.strategy]);
	trial_run_init(&r);
	r.config.non_temporal = POLICY_NT_AUTO;
	r.touch = true;
	for (i = 0; i < 100; i++)
		trial_interval(&r, i, live_burst, 0.05, 0);
	CHECK(!policy_non_temporal(r.node.strategy) &&
	      r.trials & (1U << CLEARPAGE_STRATEGY_CLZERO),
	      "a touch probe that has loaded nothing yet: clzero timed on trial frames, not adopted (%s)",
	      names[r.node.strategy]);
	r.touch_share = 0.05;
	for (i = 100; i < 200; i++)
		trial_interval(&r, i, live_burst, 0.05, 0);
	CHECK(r.node.strategy == CLEARPAGE_STRATEGY_CLZERO,
	      "its trial frames' lines 5%% touched: clzero adopted (%s)",
	      names[r.node.strategy]);
	r.touch_share = 1;
	for (i = 200; i < 300; i++)
		trial_interval(&r, i, live_burst, 0.05, 0);
	CHECK(!policy_non_temporal(r.node.strategy),
	      "the application then touches every line: clzero dropped for %s",
	      names[r.node.strategy]);
}

/*
 * Two non-temporal strategies that cost the same on the whole node, whose
 * trial frames measure clzero 4.6% cheaper, under 8% noise: the replay
 * once swapped clzero and movnti on such a "gain". The trial frames'
 * difference is steady, so beyond their noise; the whole node's is not:
 * the confirmation reverts every such switch, and each revert refutes
 * clzero for twice as long. No switch between them stands.
 */
static void test_trials_close(void)
{
	static const double live[] = { 300, 280, 281, 320, 105, 105 };
	static const double frames[] = { 300, 280, 281, 320, 105, 100.2 };
	struct trial_run r;
	int i, on_movnti = 0;

	printf("trials: movnti and clzero equal, clzero's trial frames 4.6%% cheaper, 8%% noise\n");
	trial_run_init(&r);
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_MOVNTI);
	/* A calibration that cannot tell them apart: no try, trials decide. */
	memcpy(r.calibration.cold_ns, live, sizeof(live));
	r.marginal = frames;
	for (i = 0; i < 300; i++) {
		trial_interval(&r, i, live, 0.08, 0);
		on_movnti += r.node.strategy == CLEARPAGE_STRATEGY_MOVNTI;
	}
	CHECK(r.switches == r.reverts && r.measured <= 4 && on_movnti >= 285 &&
	      r.node.strategy == CLEARPAGE_STRATEGY_MOVNTI,
	      "no switch between them stands: %d measured, %d switches, %d reverts, movnti in %d of 300 intervals",
	      r.measured, r.switches, r.reverts, on_movnti);
}

/*
 * Per folio: one interval at the probe's cold fraction @fraction; a
 * strategy costs its live_hot share on hot folios and its live_burst one
 * on cold ones, per folio the pair's (times @split_extra).
 */
static void split_interval(struct trial_run *r, double fraction,
			   double split_extra, bool can_split)
{
	struct policy_sample sample = { .strategy = r->node.strategy,
					.samples = 64, .pages = 4096,
					.can_split = can_split };
	struct policy_decision d;
	int hot = r->node.split ? r->node.split_hot : r->node.strategy;
	int cold = r->node.split ? r->node.split_cold : r->node.strategy;
	double ns = (1 - fraction) * live_hot[hot] + fraction * live_burst[cold];

	if (r->node.split)
		ns *= split_extra;
	sample.split = r->node.split;
	sample.split_hot = r->node.split_hot;
	sample.split_cold = r->node.split_cold;
	sample.sample_ns = ns * sample.samples;
	sample.probe_cold = (uint64_t)(64 * fraction + 0.5);
	sample.probe_hot = 64 - sample.probe_cold;
	policy_step(&r->config, r->allowed, &r->calibration, &r->node, &sample,
		    false, &d);
	r->last_reason = d.reason_id;
	if (verbose)
		printf("  %-9s%s %5.1f ns  %s  (%s)\n", names[r->node.strategy],
		       r->node.split ? " split" : "      ", ns,
		       d.action == POLICY_HOLD ? "hold" : "act", d.reason);
	if (d.action == POLICY_HOLD)
		return;
	policy_applied(&r->config, &r->node, &d);
	r->switches += d.action == POLICY_SWITCH;
	r->reverts += d.action == POLICY_REVERT;
}

static void test_split(void)
{
	struct trial_run r;
	int i, split_intervals = 0;

	printf("per folio: half the folios hot, half cold\n");
	trial_run_init(&r);
	r.config.trial_candidates = 0;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_REP_STOSB);
	split_interval(&r, 0.5, 1, true);
	CHECK(r.node.split && r.node.split_hot == CLEARPAGE_STRATEGY_REP_STOSB &&
	      r.node.split_cold == CLEARPAGE_STRATEGY_CLZERO &&
	      r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB && r.switches == 1,
	      "the probe counts half cold: per folio at once, rep_stosb for hot folios, clzero for cold (%s)",
	      r.node.split ? "split" : "not split");
	for (i = 0; i < 20; i++)
		split_interval(&r, 0.5, 1, true);
	CHECK(r.node.split && r.reverts == 0 && r.last_reason == POLICY_R_SPLIT,
	      "confirmed (the pair measured a quarter cheaper) and held");
	for (i = 0; i < 25; i++)
		split_interval(&r, 0.5, 1, true);
	CHECK(r.node.split && r.switches == 2 && r.reverts == 1,
	      "after ProbeIntervals rep_stosb is tried for all folios, dearer, and the revert goes back per folio (%d switches, %d reverts)",
	      r.switches, r.reverts);
	for (i = 0; i < 3; i++)
		split_interval(&r, 0.02, 1, true);
	CHECK(!r.node.split && r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB,
	      "the folios turn all hot: rep_stosb for all (%s)", names[r.node.strategy]);
	for (i = 0; i < 20; i++)
		split_interval(&r, 0.98, 1, true);
	CHECK(!r.node.split,
	      "all cold: not per folio (one strategy does as well without the probe)");

	trial_run_init(&r);
	r.config.trial_candidates = 0;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_REP_STOSB);
	for (i = 0; i < 100; i++)
		split_interval(&r, 0.5, 1, false);
	CHECK(r.switches == 0 || !r.node.split,
	      "without a probe mode that can tell: never per folio");
	trial_run_init(&r);
	r.config.trial_candidates = 0;
	r.config.per_folio = false;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_REP_STOSB);
	for (i = 0; i < 100; i++) {
		split_interval(&r, 0.5, 1, true);
		split_intervals += r.node.split;
	}
	CHECK(split_intervals == 0, "PerFolio=no: never per folio");

	printf("per folio cheaper than kernel, dearer than rep_stosb for all\n");
	trial_run_init(&r);
	r.config.trial_candidates = 0;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_KERNEL);
	split_intervals = 0;
	for (i = 0; i < 300; i++) {
		split_interval(&r, 0.5, 1.5, true);
		split_intervals += r.node.split;
	}
	CHECK(!r.node.split && r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB &&
	      split_intervals < 100,
	      "per folio kept against kernel, then rep_stosb tried on the whole node after ProbeIntervals, kept, and per folio refuted for ever longer: on %s, per folio in %d of 300 intervals",
	      names[r.node.strategy], split_intervals);

	printf("per folio that measures dearer than it predicts\n");
	trial_run_init(&r);
	r.config.trial_candidates = 0;
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_REP_STOSB);
	split_intervals = 0;
	for (i = 0; i < 200; i++) {
		split_interval(&r, 0.5, 1.6, true);
		split_intervals += r.node.split;
	}
	CHECK(r.reverts >= 2 && r.reverts <= 4 && r.switches == r.reverts &&
	      split_intervals <= 3 * r.reverts && !r.node.split,
	      "each try reverted and refuted for ever longer: %d tries in 200 intervals, %d of them per folio",
	      r.switches, split_intervals);
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	test_pick();
	test_sample_build();
	test_stages();
	test_phases();
	test_phases_reference();
	test_static();
	test_noise();
	test_pinned_and_dry_run();
	test_revert();
	test_counters();
	test_non_temporal_auto();
	test_degenerate();
	test_guard();
	test_few_references();
	test_trials_pick();
	test_trials_stages();
	test_trials_regimes();
	test_trials_phases();
	test_trials_systemic();
	test_trials_try();
	test_trials_try_regime();
	test_trials_try_touch();
	test_trials_biased();
	test_trials_noise();
	test_trials_try_kinds();
	test_trials_close();
	test_probe_temperature();
	test_touch();
	test_split();
	return check_summary();
}
