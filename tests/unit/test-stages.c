// SPDX-License-Identifier: GPL-2.0
/*
 * The policy's stages one by one (pick, sample, observe, confirm,
 * estimate, propose, gate), the guard against the kernel's routine, and
 * reference frames too few to tell. Run with -v to print traces.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "policy-sim.h"

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
		policy_step(&config, ALLOWED_NO_CLZERO, &c, &node, &sample, POLICY_R_NONE, &d);
		probes += d.action == POLICY_SWITCH;
	}
	CHECK(probes == 0 && d.reason_id == POLICY_R_FEW_SAMPLES,
	      "on movnti with 3 reference clears an interval (MinSamples 8): no probe in %u intervals, too few samples (%d probes)",
	      3 * config.probe_interval, probes);
	sample.ref_samples = 0;
	policy_step(&config, ALLOWED_NO_CLZERO, &c, &node, &sample, POLICY_R_NONE, &d);
	CHECK(d.action == POLICY_SWITCH && d.probe &&
	      d.to == CLEARPAGE_STRATEGY_REP_STOSB,
	      "without any reference clear it probes rep_stosb (ProbeIntervals have passed)");
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	test_pick();
	test_sample_build();
	test_stages();
	test_guard();
	test_few_references();
	return check_summary();
}
