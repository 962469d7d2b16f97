// SPDX-License-Identifier: GPL-2.0
/*
 * The policy's trials: the candidates timed on trial frames, the compare
 * stage that adopts one measured cheaper beyond noise, and tries of a
 * strategy on the whole node.
 */
#include <math.h>
#include <string.h>

#include "policy-internal.h"

static void trial_window_add(struct policy_trial_window *w,
			     unsigned int size, double gain)
{
	w->gain[w->next] = gain;
	w->idle = 0;
	w->next = (w->next + 1) % size;
	if (w->used < size)
		w->used++;
}

/*
 * The mean of the first @count gains and its standard error; @trim: without
 * the highest and the lowest.
 */
static void gain_stats(const double *gain, unsigned int count, bool trim,
		       double *mean, double *error)
{
	double sum = 0, sq = 0, lo = gain[0], hi = gain[0];
	unsigned int n = count;

	for (unsigned int i = 0; i < count; i++) {
		sum += gain[i];
		lo = fmin(lo, gain[i]);
		hi = fmax(hi, gain[i]);
	}
	if (trim) {
		sum -= lo + hi;
		n -= 2;
	}
	*mean = sum / n;
	for (unsigned int i = 0; i < count; i++)
		sq += (gain[i] - *mean) * (gain[i] - *mean);
	if (trim)
		sq -= (lo - *mean) * (lo - *mean) + (hi - *mean) * (hi - *mean);
	*error = sqrt(fmax(sq, 0) / (n - 1) / n);
}

/*
 * The mean gain of a full window and its standard error, without its
 * highest and lowest interval when it spans five or more: one interval of
 * a noisy neighbour (or a page-cache flush) must not decide.
 */
static bool trial_window_judge(const struct policy_trial_window *w,
			       unsigned int size, double *mean, double *error)
{
	if (w->used < size || size < 2)
		return false;
	gain_stats(w->gain, size, size >= 5, mean, error);
	return true;
}

/*
 * The mean gain of a window not yet full but with TRIAL_EARLY intervals or
 * more, and its standard error times the two-sided 95% quantile of
 * Student's t for its degrees of freedom (at least @confidence): enough to
 * tell a candidate far dearer (its trial frames cost most while it is
 * timed), never to adopt one. Three gains alone have 2 degrees of freedom
 * (4.3 standard errors), and none is trimmed.
 */
#define TRIAL_EARLY 3

static bool trial_window_early(const struct policy_trial_window *w,
			       unsigned int size, double confidence,
			       double *mean, double *bound)
{
	/* t(0.975) for 2 to 8 degrees of freedom; from 9 on, about 2.3. */
	static const double t975[] = { 4.303, 3.182, 2.776, 2.571, 2.447,
				       2.365, 2.306 };
	unsigned int n = w->used;
	double t, error;

	if (n < TRIAL_EARLY || n >= size)
		return false;
	/* n gains, n - 1 degrees of freedom: the table's entry n - 3. */
	t = n - 3 < sizeof(t975) / sizeof(t975[0]) ? t975[n - 3] : 2.3;
	/* Not wrapped yet: the gains are the first @n. */
	gain_stats(w->gain, n, false, mean, &error);
	*bound = fmax(t, confidence) * error;
	return true;
}

void policy_trials_forget(struct policy_node *node, bool rests)
{
	memset(node->trial, 0, sizeof(node->trial));
	if (rests) {
		memset(node->trial_rest, 0, sizeof(node->trial_rest));
		memset(node->trial_rest_next, 0, sizeof(node->trial_rest_next));
	}
}

/*
 * How near all cold or all hot the probe's count must be for a gain to
 * compare the candidates' frames with the strategy's control frames.
 */
#define CONTROL_EDGE 0.05
/* ... and how far from both it must go before the samples are again. */
#define CONTROL_LEAVE 0.15

/* How much dearer than the node's own clears a candidate rests at. */
#define TRIAL_DEAR 0.5
/*
 * Each rest of a candidate found dear again twice as long as its last, up
 * to this many ProbeIntervals; until the probe's running cold fraction
 * moves by more than TRIAL_REST_SHIFT from where it was found dear.
 */
#define TRIAL_REST_MAX 8
#define TRIAL_REST_SHIFT 0.25

static unsigned int window_size(const struct policy_config *config)
{
	unsigned int size = config->trial_window;

	return size < 2 ? 2 : size > POLICY_TRIAL_WINDOW_MAX ?
				      POLICY_TRIAL_WINDOW_MAX : size;
}

/* What a page of @strategy costs: its calibrated clear at @fraction, plus
 * what the application pays for a non-temporal one. */
double policy_effective_cost(const struct policy_calibration *calibration,
			     const struct policy_node *node, int strategy,
			     double fraction)
{
	return policy_predict(calibration, strategy, fraction) +
	       policy_touch_penalty(node, strategy);
}

/*
 * Two strategies the calibration cannot tell apart: of one kind (temporal
 * or non-temporal), both measured (hot and cold above 0), hot and cold
 * within TWIN_SPREAD of each other or TWIN_NS (rep_stosb and rep_stosq on
 * Zen 5, 30/146 and 31/146 ns). Trial frames cannot either: they differ
 * from the strategy's samples by which pages recycle on them (a few hot
 * pages on a fixed frame make it cheap), and a twin on trial "won" by
 * 8-31% in 4 KiB mix cells, was adopted and reverted, 20-28 switches in 6
 * replays of 120 intervals. Never the kernel: its row may be a copy of
 * rep_stosb's where the module does not measure its routine.
 */
#define TWIN_SPREAD 0.05
#define TWIN_NS 2.0

static bool twin_cost(double a, double b)
{
	return fabs(a - b) <= fmax(TWIN_SPREAD * fmax(a, b), TWIN_NS);
}

static bool twins(const struct policy_calibration *calibration, int a, int b)
{
	return a > CLEARPAGE_STRATEGY_KERNEL && b > CLEARPAGE_STRATEGY_KERNEL &&
	       a < CLEARPAGE_STRATEGY_COUNT && b < CLEARPAGE_STRATEGY_COUNT &&
	       policy_non_temporal(a) == policy_non_temporal(b) &&
	       calibration->valid[a] && calibration->valid[b] &&
	       calibration->hot_ns[a] > 0 && calibration->hot_ns[b] > 0 &&
	       calibration->cold_ns[a] > 0 && calibration->cold_ns[b] > 0 &&
	       twin_cost(calibration->hot_ns[a], calibration->hot_ns[b]) &&
	       twin_cost(calibration->cold_ns[a], calibration->cold_ns[b]);
}

/* How far the cost of a steady node may move before exploration widens. */
#define STEADY_SHIFT 0.25

/* Track whether the node's own cost holds steady (policy_trials()). */
static void steady_update(struct policy_node *node, double ns)
{
	if (node->steady && fabs(ns - node->steady_ns) <=
				    STEADY_SHIFT * node->steady_ns) {
		node->steady_ns += (ns - node->steady_ns) / 8;
		node->steady++;
		return;
	}
	node->steady = 1;
	node->steady_ns = ns;
}

unsigned int policy_trials(const struct policy_config *config,
			   unsigned int allowed, bool measured,
			   const struct policy_calibration *calibration,
			   const struct policy_node *node)
{
	unsigned int size = window_size(config), want, trials = 0, n = 0;
	int order[CLEARPAGE_STRATEGY_COUNT], s, i, j, closest = -1;
	double best = -INFINITY, mean, error;
	/* Where the probe counted, at its fraction; else on cold pages. */
	double at = node->probed_fraction >= 0 ? node->probed_fraction : 1;

	if (!config->trial_candidates || node->split)
		return 0;
	allowed = policy_allowed(config, allowed, measured);
	for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		if (s == node->strategy || !(allowed & (1U << s)) ||
		    node->trial_rest[s] ||
		    twins(calibration, node->strategy, s))
			continue;
		/*
		 * Insertion by calibration: cold cost (with what the
		 * application pays for a non-temporal one), then hot;
		 * unknown last.
		 */
		for (i = n; i > 0; i--) {
			int o = order[i - 1];
			double cs = policy_effective_cost(calibration, node, s, at);
			double co = policy_effective_cost(calibration, node, o, at);
			bool before = calibration->valid[s] &&
				      (!calibration->valid[o] || cs < co ||
				       (cs == co &&
					calibration->hot_ns[s] < calibration->hot_ns[o]));

			if (!before)
				break;
			order[i] = o;
		}
		order[i] = s;
		n++;
	}
	want = config->trial_candidates;
	if (node->steady >= config->trial_settle) {
		/* Settled: the candidate measured closest to winning. */
		for (j = 0; j < (int)n; j++)
			if (trial_window_judge(&node->trial[order[j]], size,
					       &mean, &error) && mean > best) {
				best = mean;
				closest = order[j];
			}
		if (closest >= 0)
			return 1U << closest;
		want = 1;
	}
	for (j = 0; j < (int)n && j < (int)want; j++)
		trials |= 1U << order[j];
	return trials;
}

enum policy_reason policy_compare(const struct policy_config *config,
				  unsigned int allowed,
				  struct policy_node *node,
				  const struct policy_sample *sample,
				  int *target, double *gain, double *bound)
{
	unsigned int size = window_size(config);
	double own = policy_mean(sample->sample_ns, sample->samples);
	double control = policy_mean(sample->trial_ns[node->strategy],
				     sample->trial_samples[node->strategy]);
	double f = node->probed_fraction;
	bool have = sample->trial_samples[node->strategy] >= config->min_samples &&
		    control > 0;
	bool was = node->control_for == node->strategy + 1, basis;
	unsigned int rest_max = TRIAL_REST_MAX * config->probe_interval;
	double own_cost, mean, error;
	bool full = false;
	int s;

	if (rest_max > REFUTE_MAX)
		rest_max = REFUTE_MAX;

	*target = node->strategy;
	*gain = 0;
	*bound = 0;
	steady_update(node, own);
	/*
	 * The candidates' fixed frames against the strategy's own (its
	 * control frames, clearpage_frame_way()) where the module timed
	 * enough of them: its samples, one clear in 64 by count, read 7-16%
	 * dearer than its own routine on fixed frames (AMD EPYC, 4 KiB,
	 * trial frames cleared with the strategy itself), and every
	 * candidate won by that. Only where the temperature probe counted
	 * the pages all of one kind: with hot and cold mixed, which of a few
	 * recycled hot pages fall on which frames decides a class of frames'
	 * cost (a control class with none of the hot set's frames made every
	 * candidate 30% cheaper, 4 KiB mix75), and the samples, a share of
	 * every page, are the fairer side. The basis changes with some
	 * hysteresis, and a window holds gains of one basis only: a change
	 * empties the windows. An interval without enough control frames
	 * on that basis adds no gain. Each with what the application pays
	 * for a non-temporal clear.
	 */
	if (was)
		basis = f >= 0 && fabs(f - 0.5) >= 0.5 - CONTROL_LEAVE;
	else
		basis = have && f >= 0 && fabs(f - 0.5) >= 0.5 - CONTROL_EDGE;
	if (basis != was) {
		memset(node->trial, 0, sizeof(node->trial));
		node->control_for = basis ? node->strategy + 1 : 0;
	}
	if (basis)
		own = control;
	own_cost = own + policy_touch_penalty(node, node->strategy);
	/*
	 * A rest found at other pages' temperature ends, and its doubling
	 * (also between rests: the next verdict starts from ProbeIntervals).
	 */
	for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if ((node->trial_rest[s] || node->trial_rest_next[s]) &&
		    node->probed_smooth >= 0 &&
		    node->trial_rest_at[s] >= 0 &&
		    fabs(node->probed_smooth - node->trial_rest_at[s]) >
			    TRIAL_REST_SHIFT) {
			node->trial_rest[s] = 0;
			node->trial_rest_next[s] = 0;
		}
	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		bool ref = s == CLEARPAGE_STRATEGY_KERNEL;
		uint64_t n = ref ? sample->ref_samples : sample->trial_samples[s];
		double ns = policy_mean(ref ? sample->ref_ns :
					      sample->trial_ns[s], n);

		if (s == node->strategy || (basis && !have))
			continue;
		if (n < config->min_samples || ns <= 0) {
			/*
			 * An interval whose fixed frames the workload missed
			 * leaves a gap; a window not fed for a whole window's
			 * length (a candidate no longer timed) goes stale.
			 */
			if (node->trial[s].used && ++node->trial[s].idle >= size)
				node->trial[s] = (struct policy_trial_window){ 0 };
			continue;
		}
		ns += policy_touch_penalty(node, s);
		trial_window_add(&node->trial[s], size,
				 (own_cost - ns) / own_cost);
	}
	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		double dear_bound = 0;
		bool judged;

		if (s == node->strategy ||
		    (s != CLEARPAGE_STRATEGY_KERNEL && !(allowed & (1U << s))))
			continue;
		judged = trial_window_judge(&node->trial[s], size, &mean, &error);
		full |= judged;
		if (judged)
			dear_bound = config->trial_confidence * error;
		/*
		 * Far dearer beyond noise: it rests (not the reference), as
		 * soon as its first intervals show it.
		 */
		if (s != CLEARPAGE_STRATEGY_KERNEL &&
		    (judged || trial_window_early(&node->trial[s], size,
						  config->trial_confidence,
						  &mean, &dear_bound)) &&
		    mean + dear_bound < -TRIAL_DEAR) {
			node->trial_rest[s] =
				policy_doubling(&node->trial_rest_next[s],
						config->probe_interval,
						rest_max);
			node->trial_rest_at[s] = node->probed_smooth;
			node->trial[s] = (struct policy_trial_window){ 0 };
			continue;
		}
		if (!judged)
			continue;
		node->trial_rest_next[s] = 0;
		/*
		 * A switch to it was reverted: not for a while. A
		 * non-temporal one whose cost to the application is not
		 * known yet: not at all.
		 */
		if (node->refuted_left[s] ||
		    !policy_adoptable(config, node, s))
			continue;
		if (mean <= config->trial_margin ||
		    mean - config->trial_confidence * error <= 0 ||
		    mean <= *gain)
			continue;
		*target = s;
		*gain = mean;
		*bound = mean - config->trial_confidence * error;
	}
	if (*target != node->strategy)
		return POLICY_R_MEASURED;
	return full ? POLICY_R_NONE_CHEAPER : POLICY_R_TRIALS_FILLING;
}

/*
 * Whether @s may be the target of a switch: allowed, calibrated, refuted
 * by no revert, and adoptable; @explore: a non-temporal one whose cost to
 * the application is not known yet counts (@allowed has one only where the
 * touch probe or the PMU can measure it).
 */
static bool targetable(const struct policy_config *config,
		       unsigned int allowed,
		       const struct policy_calibration *calibration,
		       const struct policy_node *node, int s, bool explore)
{
	return policy_usable(allowed, calibration, s) &&
	       !node->refuted_left[s] &&
	       (explore || policy_adoptable(config, node, s));
}

/*
 * The targetable strategy cheapest on cold pages (with what the
 * application pays for a non-temporal one; the configured ColdStrategy, if
 * any), or -1.
 */
int policy_cheapest_cold(const struct policy_config *config,
			 unsigned int allowed,
			 const struct policy_calibration *calibration,
			 const struct policy_node *node, bool explore)
{
	int s, best = config->cold_strategy;

	if (best >= 0)
		return targetable(config, allowed, calibration, node, best,
				  explore) ? best : -1;
	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (targetable(config, allowed, calibration, node, s, explore) &&
		    (best < 0 || policy_effective_cost(calibration, node, s, 1) <
				 policy_effective_cost(calibration, node, best, 1)))
			best = s;
	return best;
}

enum policy_reason policy_try(const struct policy_config *config,
			      unsigned int allowed,
			      const struct policy_calibration *calibration,
			      const struct policy_node *node, double fraction,
			      double own_ns, int *target)
{
	bool cold = fraction < 0 || fraction >= config->up_threshold;
	int s = node->strategy, hot, unused;
	double own;

	*target = s;
	if ((!cold && fraction > config->down_threshold) ||
	    node->try_left[cold])
		return POLICY_R_FITS;
	if (cold) {
		*target = policy_cheapest_cold(config, allowed, calibration,
					       node, true);
	} else {
		policy_pick_strategies(config, allowed, calibration, &hot,
				       &unused);
		*target = targetable(config, allowed, calibration, node, hot,
				     false) ? hot : -1;
	}
	if (*target < 0 || *target == s)
		goto fits;
	/*
	 * Worth a try only where the calibration (and what the application
	 * pays for a non-temporal clear) says it is cheaper than the current
	 * strategy, as calibrated and as it cost this interval: with idle
	 * memory rep stos may clear a cold page at a third of its calibrated
	 * cost, and a try of what the calibration ranks first loses then.
	 */
	own = own_ns > 0 ? own_ns + policy_touch_penalty(node, s) : INFINITY;
	if (s >= 0 && s < CLEARPAGE_STRATEGY_COUNT && calibration->valid[s])
		own = fmin(own, policy_effective_cost(calibration, node, s, cold));
	if (isfinite(own) &&
	    policy_effective_cost(calibration, node, *target, cold) >=
	    (1 - config->trial_margin) * own)
		goto fits;
	return cold ? POLICY_R_TRY_COLD : POLICY_R_TRY_HOT;
fits:
	*target = s;
	return POLICY_R_FITS;
}
