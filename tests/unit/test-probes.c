// SPDX-License-Identifier: GPL-2.0
/*
 * The policy on the module's probes: the temperature probe's counted cold
 * fraction, the touch probe's share under NonTemporal=auto, two equal
 * non-temporal strategies, and per folio. Run with -v to print traces.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "policy-sim.h"

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
/*
 * NonTemporal=auto with the touch probe, its lines 5% touched, and each
 * fault's line missed at @fault_line_ns after a non-temporal clear: the
 * strategy the node ends on after 200 intervals of cold folios.
 */
static int fault_line_run(double fault_line_ns)
{
	struct trial_run r;
	int i;

	trial_run_init(&r);
	r.config.non_temporal = POLICY_NT_AUTO;
	r.touch = true;
	r.touch_share = 0.05;
	r.fault_line_ns = fault_line_ns;
	for (i = 0; i < 200; i++)
		trial_interval(&r, i, live_burst, 0.05, 0);
	return r.node.strategy;
}

static void test_touch(void)
{
	struct policy_config config;
	struct policy_calibration c;
	struct policy_node node;
	struct policy_sample sample = { .touch_probed = 4, .touch_cached = 1 };
	struct trial_run r;
	int i, s;

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

	CHECK(policy_fault_line_ns(CLEARPAGE_BACKEND_4K, 60, 360, 200, 0.5) == 150 &&
	      policy_fault_line_ns(CLEARPAGE_BACKEND_HUGE, 60, 360, 200, 0.5) == 0 &&
	      policy_fault_line_ns(CLEARPAGE_BACKEND_4K, 60, 360, 0, 0.5) == 0 &&
	      policy_fault_line_ns(CLEARPAGE_BACKEND_4K, 360, 60, 200, 0.5) == 0 &&
	      policy_fault_line_ns(CLEARPAGE_BACKEND_4K, 60, 360, 200, 0) == 0,
	      "fault line: the probe calibration's cold less hot load in ns on the 4k backend; 0 on huge, a calibration that cannot tell, or no tick length");
	policy_node_init(&node, CLEARPAGE_STRATEGY_REP_STOSB);
	sample = (struct policy_sample){ .fault_line_ns = 150 };
	policy_touch_update(&config, &c, CLEARPAGE_STRATEGY_REP_STOSB, &node, &sample);
	CHECK(!node.touch_known &&
	      policy_touch_penalty(&node, CLEARPAGE_STRATEGY_CLZERO) == 150 &&
	      policy_touch_penalty(&node, CLEARPAGE_STRATEGY_MOVNTI) == 150 &&
	      policy_touch_penalty(&node, CLEARPAGE_STRATEGY_REP_STOSB) == 0,
	      "fault line: charged to movnti and clzero before any line is probed, not to rep_stosb");
	sample.touch_probed = 16;
	sample.touch_cached = 4;
	policy_touch_update(&config, &c, CLEARPAGE_STRATEGY_REP_STOSB, &node, &sample);
	CHECK(fabs(policy_touch_penalty(&node, CLEARPAGE_STRATEGY_CLZERO) -
		   (150 + 0.25 * (90 - 30))) < 1e-9,
	      "fault line: added to the touch share's charge (%.1f ns)",
	      policy_touch_penalty(&node, CLEARPAGE_STRATEGY_CLZERO));
	sample.counted = true;
	policy_touch_update(&config, &c, CLEARPAGE_STRATEGY_REP_STOSB, &node, &sample);
	CHECK(policy_touch_penalty(&node, CLEARPAGE_STRATEGY_CLZERO) == 0,
	      "fault line: not where the PMU counts the user misses");

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

	/*
	 * clzero's clear saves 28 ns a page on rep_stosb's; a faulting line
	 * that then misses at 150 ns (Zen 5's dependent miss) costs more.
	 */
	s = fault_line_run(150);
	CHECK(!policy_non_temporal(s),
	      "5%% touched, each fault's line then missed at 150 ns: clzero not adopted (%s)",
	      names[s]);
	s = fault_line_run(10);
	CHECK(s == CLEARPAGE_STRATEGY_CLZERO,
	      "missed at 10 ns: clzero still adopted (%s)", names[s]);
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
		    POLICY_R_NONE, &d);
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

/*
 * Per folio, a folio this CPU cleared non-temporally moments before is
 * counted hot (a temporal strategy for all would find it cached), but its
 * lines are not cached and the probe sends it to the cold strategy: the
 * pair's predicted cost takes the recycled share at the cold one's cost.
 */
/* What policy_split() predicts for @s at cold fraction @f. */
static double cost(const struct trial_run *r, int s, double f)
{
	return policy_predict(&r->calibration, s, f) +
	       policy_touch_penalty(&r->node, s);
}

static void test_split_recycled(void)
{
	struct trial_run r;
	double g0, g1, pair, current;
	int hot, cold, hot1, cold1;
	enum policy_reason why;

	printf("per folio: recycled folios counted hot cost the cold strategy\n");
	trial_run_init(&r);
	policy_node_init(&r.node, CLEARPAGE_STRATEGY_REP_STOSB);
	why = policy_split(&r.config, r.allowed, &r.calibration, &r.node, 0.5,
			   &hot, &cold, &g0);
	CHECK(why == POLICY_R_PER_FOLIO && g0 > 0,
	      "half the folios cold, none recycled: per folio, %.3f cheaper", g0);
	r.node.probed_recycled = 0.25;
	policy_split(&r.config, r.allowed, &r.calibration, &r.node, 0.5,
		     &hot1, &cold1, &g1);
	current = cost(&r, r.node.strategy, 0.5);
	pair = 0.25 * cost(&r, hot, 0) + 0.75 * cost(&r, cold, 1);
	CHECK(hot1 == hot && cold1 == cold && g1 < g0 &&
	      fabs(g1 - (current - pair) / current) < 1e-9,
	      "a quarter of the folios hot only as recycled: the pair costs them at %s's cold cost (gain %.3f, not %.3f)",
	      names[cold], g1, g0);
	r.node.probed_recycled = 0.9;
	policy_split(&r.config, r.allowed, &r.calibration, &r.node, 0.5,
		     &hot1, &cold1, &g1);
	pair = cost(&r, cold, 1);
	CHECK(fabs(g1 - (current - pair) / current) < 1e-9,
	      "a recycled share beyond the hot one (counters read apart) is capped at it");
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	test_trials_close();
	test_probe_temperature();
	test_touch();
	test_split();
	test_split_recycled();
	return check_summary();
}
