/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policy tests' simulated nodes, shared by test-policy.c,
 * test-stages.c, test-trials.c and test-probes.c (each its own program).
 */
#ifndef CLEARPAGE_TEST_POLICY_SIM_H
#define CLEARPAGE_TEST_POLICY_SIM_H

#include <stdbool.h>

#include "policy.h"

/* -v: print every interval. */
extern int verbose;
extern const char *const names[CLEARPAGE_STRATEGY_COUNT];

/* AMD EPYC (Zen 3) in user space, ns per 4 KiB page, hot and cold. */
void epyc_calibration(struct policy_calibration *c);
/* Intel-like: everything but clzero. */
#define ALLOWED_NO_CLZERO 0x1f

/* Deterministic noise in [-amplitude, amplitude]. */
double noise(int i, double amplitude);

/*
 * Live costs, ns per 4 KiB, of cold 2 MiB folios on an AMD EPYC Zen 5
 * guest in three regimes, of hot ones, and a tie of rep_stosb and
 * rep_stosq (kernel, rep_stosb, rep_stosq, movq, movnti, clzero).
 */
extern const double live_burst[CLEARPAGE_STRATEGY_COUNT];
extern const double live_sustained[CLEARPAGE_STRATEGY_COUNT];
extern const double live_loaded[CLEARPAGE_STRATEGY_COUNT];
extern const double live_hot[CLEARPAGE_STRATEGY_COUNT];
extern const double live_tie[CLEARPAGE_STRATEGY_COUNT];
/* Zen 5, burst calibration (the huge backend's, ranges). */
void zen5_calibration(struct policy_calibration *c);

/* A node with trials, and what its policy did. */
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
	/*
	 * The module's control frames: the current strategy timed on its
	 * own fixed frames too, at its @marginal cost (clearpage_frame_way()).
	 */
	bool control;
	int tries, measured;
	/*
	 * The temperature probe's share of cold units each interval (-1: no
	 * probe); the touch probe (@touch: the module has one) and the share
	 * of its lines found cached (-1: none loaded yet); @no_frames: the
	 * workload's pages hold no reference or trial frame (a small hot set);
	 * @fault_line_ns: what the faulting access pays after a non-temporal
	 * clear (struct policy_sample's).
	 */
	double probed_cold;
	bool touch;
	double touch_share;
	bool no_frames;
	double fault_line_ns;
};

/* Defaults, NonTemporal=yes, the Zen 5 calibration, on kernel. */
void trial_run_init(struct trial_run *r);
/*
 * One interval where strategy s costs @live[s] (times 1 + relative noise
 * of @noise_frac; @outlier: one trial of movq that many times too cheap):
 * the strategy's own clears, its reference frames (the kernel's) and the
 * trial frames of the candidates policy_trials() named, as the module
 * would time them.
 */
void trial_interval(struct trial_run *r, int i, const double *live,
		    double noise_frac, double outlier);

#endif /* CLEARPAGE_TEST_POLICY_SIM_H */
