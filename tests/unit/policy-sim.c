// SPDX-License-Identifier: GPL-2.0
/*
 * The policy tests' simulated nodes: calibrations of real CPUs, their live
 * costs, deterministic noise, and a node with trials stepped interval by
 * interval as the module would time its clears; see policy-sim.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "policy-sim.h"

int verbose;

const char *const names[CLEARPAGE_STRATEGY_COUNT] = CLEARPAGE_STRATEGY_NAMES;

/* ns per 4 KiB page, hot (16 KiB buffer) and cold (2 GiB buffer). */
void epyc_calibration(struct policy_calibration *c)
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

/* Deterministic noise in [-amplitude, amplitude]. */
double noise(int i, double amplitude)
{
	return amplitude * sin(i * 12.9898) * cos(i * 78.233);
}

/*
 * Trials. Live costs, ns per 4 KiB, of cold 2 MiB folios on an AMD EPYC
 * Zen 5 guest (doc/results/README.md: regimes and trials), and of hot ones:
 * kernel, rep_stosb, rep_stosq, movq, movnti, clzero.
 */
const double live_burst[CLEARPAGE_STRATEGY_COUNT] = { 193, 90, 92, 135, 151, 62 };
const double live_sustained[CLEARPAGE_STRATEGY_COUNT] = { 212, 225, 226, 240, 336, 113 };
const double live_loaded[CLEARPAGE_STRATEGY_COUNT] = { 255, 260, 262, 300, 459, 228 };
const double live_hot[CLEARPAGE_STRATEGY_COUNT] = { 38, 30, 31, 62, 185, 150 };
/* rep_stosb and rep_stosq alike (ERMS): a tie, for the noise test. */
const double live_tie[CLEARPAGE_STRATEGY_COUNT] = { 200, 100, 100, 180, 300, 250 };

/* Zen 5, burst calibration (the huge backend's, ranges). */
void zen5_calibration(struct policy_calibration *c)
{
	static const double hot[] = { 38, 30, 31, 62, 185, 150 };
	int s;

	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		c->valid[s] = true;
		c->hot_ns[s] = hot[s];
		c->cold_ns[s] = live_burst[s];
	}
}

void trial_run_init(struct trial_run *r)
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
void trial_interval(struct trial_run *r, int i, const double *live,
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
	sample.fault_line_ns = r->fault_line_ns;
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
		if (!(r->trials & (1U << s)) &&
		    !(r->control && r->trials && s == cur))
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
		    POLICY_R_NONE, &d);
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
