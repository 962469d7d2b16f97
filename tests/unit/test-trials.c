// SPDX-License-Identifier: GPL-2.0
/*
 * The policy's trials: candidates timed on trial frames, measured
 * switches, tries on the whole node, under regimes, noise, bias and
 * calibrations that rank strategies wrong (live costs of an AMD EPYC Zen 5
 * guest, policy-sim.c). Run with -v to print the traces.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "policy-sim.h"

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
static const double xeon_cold[] = { 765, 765, 765, 650, 367, 0 };

/* trial_run_init() on an Intel-like CPU (no clzero), on rep_stosb. */
static void intel_run_init(struct trial_run *r)
{
	trial_run_init(r);
	r->allowed = ALLOWED_NO_CLZERO;
	r->calibration.valid[CLEARPAGE_STRATEGY_CLZERO] = false;
	policy_node_init(&r->node, CLEARPAGE_STRATEGY_REP_STOSB);
}

/* Xeon 6/207's 4 KiB calibration, on rep_stosb, all cold. */
static void xeon_cold_run(struct trial_run *r)
{
	static const double hot[] = { 31, 31, 32, 93, 366, 0 };
	int s;

	intel_run_init(r);
	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		r->calibration.hot_ns[s] = hot[s];
		r->calibration.cold_ns[s] = xeon_cold[s];
	}
	r->probed_cold = 1;
}

static void test_trials_try_regime(void)
{
	static const double live[] = { 200, 200, 210, 450, 400, 0 };
	struct trial_run r;
	int i;

	printf("trials: a calibration of another regime, live rep_stosb below it\n");
	xeon_cold_run(&r);
	for (i = 0; i < 120; i++)
		trial_interval(&r, i, live, 0.05, 0);
	CHECK(r.tries == 0 && r.switches == 0 &&
	      r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB,
	      "cold pages rep_stosb clears at 200 ns, movnti calibrated at 367: no try in 120 intervals (%d tries, %d switches, on %s)",
	      r.tries, r.switches, names[r.node.strategy]);
	xeon_cold_run(&r);
	for (i = 0; i < 10; i++)
		trial_interval(&r, i, xeon_cold, 0.05, 0);
	CHECK(r.tries == 1 && r.node.strategy == CLEARPAGE_STRATEGY_MOVNTI,
	      "the same pages at the calibrated 765 ns: movnti tried and kept (%d tries, on %s)",
	      r.tries, names[r.node.strategy]);
}

/*
 * Hot 4 KiB pages on rep_stosb, the candidates three and four times
 * dearer (Xeon 6/207, burst): a trial frame of each costs more than it
 * can tell, about 10% of the node's time with two of them. A window that
 * measures a candidate half as dear again beyond noise rests it for
 * ProbeIntervals, each rest after twice the last (up to 8 times); a switch
 * of the same kind keeps the rests, one to the other kind ends them, and
 * so does a move of the probe's cold fraction.
 */
static void test_trials_rest(void)
{
	static const double live[] = { 36, 36, 37, 131, 171, 0 };
	const unsigned int movq = 1U << CLEARPAGE_STRATEGY_MOVQ;
	struct policy_decision d;
	struct trial_run r;
	int i, timed = 0, first_rest = -1, second_rest = -1;
	unsigned int rested = 0, longest = 0;

	printf("trials: candidates far dearer than the node's own clears rest\n");
	intel_run_init(&r);
	for (i = 0; i < 120; i++) {
		trial_interval(&r, i, live, 0.05, 0);
		timed += !!(r.trials & (1U << CLEARPAGE_STRATEGY_MOVQ |
					1U << CLEARPAGE_STRATEGY_MOVNTI));
		for (int s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
			if (r.node.trial_rest[s])
				rested |= 1U << s;
	}
	CHECK(rested == (1U << CLEARPAGE_STRATEGY_MOVQ |
			 1U << CLEARPAGE_STRATEGY_MOVNTI) && r.switches == 0,
	      "movq and movnti rested after a few intervals each, rep_stosq (as dear as rep_stosb) never, no switch (rested %#x)",
	      rested);
	CHECK(timed <= 20,
	      "movq or movnti timed in %d of 120 intervals (at most 20; a full window before each rest 40, without rests 60)",
	      timed);

	/* The same node for longer: movq's rests double, up to 8 times. */
	intel_run_init(&r);
	r.config.trial_settle = 100000;	/* two candidates throughout */
	for (i = 0; i < 2000; i++) {
		unsigned int left = r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ];

		trial_interval(&r, i, live, 0.05, 0);
		if (r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ] > left) {
			if (first_rest < 0)
				first_rest = (int)r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ];
			else if (second_rest < 0)
				second_rest = (int)r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ];
			if (r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ] > longest)
				longest = r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ];
		}
	}
	CHECK(first_rest == (int)r.config.probe_interval &&
	      second_rest == 2 * (int)r.config.probe_interval &&
	      longest == 8 * r.config.probe_interval,
	      "movq rests %d, then %d intervals, at most %u (ProbeIntervals %u, doubled, 8 times at most)",
	      first_rest, second_rest, longest, r.config.probe_interval);

	/* A switch of the same kind keeps the rests, one of the other ends them. */
	intel_run_init(&r);
	for (i = 0; i < 20; i++)
		trial_interval(&r, i, live, 0.05, 0);
	CHECK(r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ],
	      "after 20 intervals movq rests (%u left)",
	      r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ]);
	d = (struct policy_decision){ .action = POLICY_SWITCH,
				      .from = CLEARPAGE_STRATEGY_REP_STOSB,
				      .to = CLEARPAGE_STRATEGY_REP_STOSQ,
				      .reason_id = POLICY_R_MEASURED };
	policy_applied(&r.config, &r.node, &d);
	CHECK(r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ] &&
	      !(policy_trials(&r.config, r.allowed, false, &r.calibration,
			      &r.node) & movq),
	      "a switch to rep_stosq (temporal as well) keeps movq's rest (%u left)",
	      r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ]);
	d.from = CLEARPAGE_STRATEGY_REP_STOSQ;
	d.to = CLEARPAGE_STRATEGY_MOVNTI;
	policy_applied(&r.config, &r.node, &d);
	CHECK(!r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ] &&
	      !r.node.trial_rest_next[CLEARPAGE_STRATEGY_MOVQ],
	      "a switch to movnti (non-temporal) ends every rest and its doubling");

	/*
	 * The probe's running cold fraction moves by more than 0.25: the
	 * rest ends, and its doubling (rests of 100 intervals here).
	 */
	intel_run_init(&r);
	r.config.probe_interval = 100;
	r.probed_cold = 0.1;
	for (i = 0; i < 20; i++)
		trial_interval(&r, i, live, 0.05, 0);
	CHECK(r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ],
	      "pages 10%% cold: after 20 intervals movq rests (%u left)",
	      r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ]);
	r.probed_cold = 0.9;
	trial_interval(&r, i++, live, 0.05, 0);
	CHECK(r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ],
	      "one interval's count at 90%% cold does not end it (%u left)",
	      r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ]);
	r.probed_cold = 0.3;
	timed = 0;
	for (int k = 0; k < 30; k++) {
		trial_interval(&r, i++, live, 0.05, 0);
		timed += !!(r.trials & movq);
	}
	CHECK(r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ] && !timed,
	      "30%% cold for 30 intervals (0.2 away): the rest goes on, movq never timed (%u left, timed %d)",
	      r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ], timed);
	r.probed_cold = 0.5;
	for (int k = 0; k < 30 && !(r.trials & movq); k++)
		trial_interval(&r, i++, live, 0.05, 0);
	CHECK(r.trials & movq,
	      "50%% cold (0.4 away): the rest ends, movq on trial again");

	/* Between rests too: a move resets the doubling. */
	intel_run_init(&r);
	r.config.probe_interval = 5;
	r.probed_cold = 0.1;
	for (i = 0; i < 200 && r.node.trial_rest_next[CLEARPAGE_STRATEGY_MOVQ] <
				   4 * r.config.probe_interval; i++)
		trial_interval(&r, i, live, 0.05, 0);
	while (r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ])
		trial_interval(&r, i++, live, 0.05, 0);
	CHECK(r.node.trial_rest_next[CLEARPAGE_STRATEGY_MOVQ] >=
	      4 * r.config.probe_interval,
	      "rests of 5: the next rest of movq has doubled to %u",
	      r.node.trial_rest_next[CLEARPAGE_STRATEGY_MOVQ]);
	{
		unsigned int given = 0;

		r.probed_cold = 0.9;
		for (int k = 0; k < 10 && !given; k++) {
			trial_interval(&r, i++, live, 0.05, 0);
			given = r.node.trial_rest[CLEARPAGE_STRATEGY_MOVQ];
		}
		CHECK(given && given <= r.config.probe_interval,
		      "the pages 90%% cold, moved between rests: movq's next rest is ProbeIntervals again (%u)",
		      given);
	}

	/* A full window that finds it not so dear resets the doubling. */
	intel_run_init(&r);
	for (i = 0; i < 200 && r.node.trial_rest_next[CLEARPAGE_STRATEGY_MOVQ] <
				   2 * r.config.probe_interval; i++)
		trial_interval(&r, i, live, 0.05, 0);
	CHECK(r.node.trial_rest_next[CLEARPAGE_STRATEGY_MOVQ] ==
	      2 * r.config.probe_interval,
	      "movq's next rest doubled to %u",
	      r.node.trial_rest_next[CLEARPAGE_STRATEGY_MOVQ]);
	{
		static const double near[] = { 36, 36, 37, 40, 171, 0 };

		for (int k = 0; k < 200 &&
				r.node.trial_rest_next[CLEARPAGE_STRATEGY_MOVQ]; k++)
			trial_interval(&r, i++, near, 0.05, 0);
	}
	CHECK(!r.node.trial_rest_next[CLEARPAGE_STRATEGY_MOVQ],
	      "movq at 40 ns against 36: a full window, not dear, resets its doubling");
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
static const double biased_live[] = { 250, 250, 250, 600, 400, 380 };
/* The reference frames true: the guard is not what is tested. */
static const double biased_frames[] = { 250, 188, 188, 450, 300, 285 };

/*
 * rep_stosq calibrated a fifth dearer on hot pages than rep_stosb, so that
 * the calibration tells them apart and rep_stosq goes on trial (twins
 * never do: test_trials_twins()).
 */
static void untwin(struct trial_run *r)
{
	r->calibration.hot_ns[CLEARPAGE_STRATEGY_REP_STOSQ] =
		1.2 * r->calibration.hot_ns[CLEARPAGE_STRATEGY_REP_STOSB];
}

/*
 * A node on rep_stosb, NonTemporal=auto, whose reference and trial frames
 * cost @frames; @twin: rep_stosq calibrated as rep_stosb's twin (Zen 5's),
 * else untwin()'s.
 */
static void biased_run_init(struct trial_run *r, const double *frames,
			    bool twin)
{
	trial_run_init(r);
	if (!twin)
		untwin(r);
	r->config.non_temporal = POLICY_NT_AUTO;
	r->marginal = frames;
	policy_node_init(&r->node, CLEARPAGE_STRATEGY_REP_STOSB);
}

/*
 * Twins by the calibration (Zen 5's rep_stosb and rep_stosq, 30 and 31 ns
 * hot, their cold costs within 5%): the trials never time one beside the
 * other, so the biased frames above make no switch between them.
 */
static void test_trials_twins(void)
{
	struct trial_run r;
	int i, twin_timed = 0;

	printf("trials: twins by the calibration are not timed against each other\n");
	biased_run_init(&r, biased_frames, true);
	for (i = 0; i < 300; i++) {
		trial_interval(&r, i, biased_live, 0.05, 0);
		twin_timed += !!(r.trials & (1U << CLEARPAGE_STRATEGY_REP_STOSQ));
	}
	CHECK(twin_timed == 0 && r.switches == 0 &&
	      r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB,
	      "on rep_stosb, rep_stosq on trial in %d of 300 intervals (0), %d switches (0), on %s",
	      twin_timed, r.switches, names[r.node.strategy]);
	untwin(&r);
	CHECK(policy_trials(&r.config, r.allowed, false, &r.calibration, &r.node) &
	      (1U << CLEARPAGE_STRATEGY_REP_STOSQ),
	      "calibrated a fifth dearer hot, rep_stosq goes on trial");
	/* A calibration of zeros (the module's failed) makes no twins. */
	for (int s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
		r.calibration.hot_ns[s] = r.calibration.cold_ns[s] = 0;
	CHECK(policy_trials(&r.config, r.allowed, false, &r.calibration, &r.node) &
	      (1U << CLEARPAGE_STRATEGY_REP_STOSQ),
	      "every cost calibrated 0: no twins, rep_stosq still on trial");
	/* 30 against 32 ns hot is within 2 ns: twins still. */
	zen5_calibration(&r.calibration);
	r.calibration.hot_ns[CLEARPAGE_STRATEGY_REP_STOSB] = 30;
	r.calibration.hot_ns[CLEARPAGE_STRATEGY_REP_STOSQ] = 32;
	CHECK(!(policy_trials(&r.config, r.allowed, false, &r.calibration, &r.node) &
		(1U << CLEARPAGE_STRATEGY_REP_STOSQ)),
	      "30 against 32 ns hot (within 2 ns): twins, rep_stosq not on trial");
}

static void test_trials_biased(void)
{
	const double *live = biased_live, *frames = biased_frames;
	struct trial_run r;
	int i, on_stosb = 0;

	printf("trials that measure every candidate a quarter cheaper than it is\n");
	biased_run_init(&r, frames, false);
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

/*
 * The same bias with the module's control frames: the node's own strategy
 * timed on fixed frames as the candidates are, at the frames' cost, so a
 * gain compares like with like and an equal candidate wins nothing (AMD
 * EPYC, 4 KiB cold: with the strategy itself on the trial frames, they
 * read 7-16% cheaper than its samples).
 */
static void control_run_init(struct trial_run *r, const double *frames,
			     double probed_cold)
{
	biased_run_init(r, frames, false);
	r->control = true;
	r->probed_cold = probed_cold;
}

static void test_trials_control(void)
{
	const double *live = biased_live, *frames = biased_frames;
	static const double cheaper[] = { 250, 250, 200, 600, 400, 380 };
	static const double cheaper_frames[] = { 250, 188, 150, 450, 300, 285 };
	struct trial_run r;
	int i, on_stosb = 0;

	printf("biased trial frames beside control frames of the node's own strategy\n");
	control_run_init(&r, frames, 1);
	for (i = 0; i < 300; i++) {
		trial_interval(&r, i, live, 0.05, 0);
		on_stosb += r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSB;
	}
	CHECK(r.measured == 0 && r.switches == 0,
	      "rep_stosq as cheap as rep_stosb on fixed frames: no switch in 300 intervals (%d measured, %d in all)",
	      r.measured, r.switches);
	CHECK(on_stosb == 300, "rep_stosb cleared all 300 intervals (%d)", on_stosb);
	/* A count that wavers near the edge keeps the control frames. */
	control_run_init(&r, frames, 1);
	for (i = 0; i < 300; i++) {
		r.probed_cold = i % 3 ? 0.9 : 1;
		trial_interval(&r, i, live, 0.05, 0);
	}
	CHECK(r.switches == 0,
	      "the probe's count between 0.9 and 1: still against the control frames, no switch in 300 intervals (%d)",
	      r.switches);
	/* ... and its windows fill: a cheaper candidate is still adopted. */
	control_run_init(&r, cheaper_frames, 1);
	for (i = 0; i < 60; i++) {
		r.probed_cold = i % 3 ? 0.9 : 1;
		trial_interval(&r, i, cheaper, 0.05, 0);
	}
	CHECK(r.measured >= 1 && r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSQ,
	      "the count between 0.9 and 1: rep_stosq, a fifth cheaper on its frames, adopted (%d measured switches, now %s)",
	      r.measured, names[r.node.strategy]);
	/*
	 * Half the pages hot by the probe's count: which frames the hot set
	 * falls on decides a class's cost, so the gain is against the
	 * samples again, and the biased frames win as without control.
	 */
	control_run_init(&r, frames, 0.5);
	for (i = 0; i < 60; i++)
		trial_interval(&r, i, live, 0.05, 0);
	CHECK(r.measured >= 1,
	      "pages half cold: gains against the samples, not the control frames (%d measured switches)",
	      r.measured);
	/* A candidate a fifth cheaper on frames of the same kind still wins. */
	control_run_init(&r, cheaper_frames, 1);
	for (i = 0; i < 60; i++)
		trial_interval(&r, i, cheaper, 0.05, 0);
	CHECK(r.measured >= 1 && r.node.strategy == CLEARPAGE_STRATEGY_REP_STOSQ,
	      "rep_stosq at 150 on its frames against rep_stosb's 188: adopted from the trials (%d measured switches, now %s)",
	      r.measured, names[r.node.strategy]);
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

	/*
	 * Three intervals of movq far dearer: against 2 standard errors
	 * (mean + 2 SE = -0.60) they would rest it; against Student's t for 2
	 * degrees of freedom (4.3 SE, -0.38) they do not, ...
	 */
	policy_node_init(&node, CLEARPAGE_STRATEGY_REP_STOSB);
	sample.trial_samples[CLEARPAGE_STRATEGY_CLZERO] = 0;
	sample.trial_samples[CLEARPAGE_STRATEGY_MOVQ] = 64;
	for (i = 0; i < 3; i++) {
		/* gains -0.97, -0.80, -0.63 against 200 ns */
		sample.trial_ns[CLEARPAGE_STRATEGY_MOVQ] = 64 * (394 - 34 * i);
		policy_compare(&config, 0x3f, &node, &sample, &target, &gain, &bound);
	}
	CHECK(!node.trial_rest[CLEARPAGE_STRATEGY_MOVQ] &&
	      node.trial[CLEARPAGE_STRATEGY_MOVQ].used == 3,
	      "compare: gains -0.97, -0.80, -0.63 in three intervals: movq does not rest yet");
	/* ... while three that agree do (mean -0.85, 4.3 SE 0.04). */
	policy_node_init(&node, CLEARPAGE_STRATEGY_REP_STOSB);
	for (i = 0; i < 3; i++) {
		sample.trial_ns[CLEARPAGE_STRATEGY_MOVQ] = 64 * (368 + 2 * i);
		policy_compare(&config, 0x3f, &node, &sample, &target, &gain, &bound);
	}
	CHECK(node.trial_rest[CLEARPAGE_STRATEGY_MOVQ] == config.probe_interval,
	      "compare: gains -0.84, -0.85, -0.86: movq rests after three intervals (%u)",
	      node.trial_rest[CLEARPAGE_STRATEGY_MOVQ]);
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	test_trials_pick();
	test_trials_stages();
	test_trials_regimes();
	test_trials_phases();
	test_trials_systemic();
	test_trials_try();
	test_trials_try_regime();
	test_trials_try_touch();
	test_trials_rest();
	test_trials_twins();
	test_trials_biased();
	test_trials_control();
	test_trials_noise();
	test_trials_try_kinds();
	return check_summary();
}
