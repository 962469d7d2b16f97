// SPDX-License-Identifier: GPL-2.0
/*
 * The policy's stages of one interval: observe what was measured, confirm
 * (or revert) the last switch, estimate the cold fraction, propose a
 * strategy, gate the proposal, and the guard against the kernel's routine.
 */
#include <math.h>
#include <string.h>

#include "policy-internal.h"

void policy_observe(const struct policy_config *config,
		    const struct policy_sample *sample,
		    struct policy_observation *obs)
{
	double ns = policy_mean(sample->sample_ns, sample->samples);
	double ref_ns = policy_mean(sample->ref_ns, sample->ref_samples);
	uint64_t probed = sample->probe_hot + sample->probe_cold;

	*obs = (struct policy_observation){
		.measured = sample->samples >= config->min_samples && ns > 0,
		.trials = sample->trials && config->trial_candidates,
		.ns_per_page = ns,
		.referenced = sample->ref_samples >= config->min_samples &&
			      ref_ns > 0,
		.ref_strategy = sample->ref_strategy,
		.ref_ns_per_page = ref_ns,
		.user_misses_per_page = policy_user_misses_per_page(sample),
		.counted = sample->counted,
		.kernel_miss_ratio = sample->kernel_miss_ratio,
	};
	if (probed >= config->min_samples) {
		obs->probed = probed;
		obs->probed_cold_fraction = (double)sample->probe_cold /
					    (double)probed;
		obs->probed_recycled_fraction =
			(double)sample->probe_recycled / (double)probed;
	}
}

/*
 * A try of a non-temporal strategy whose cost to the application was not
 * known: its confirmation waits for the touch probe's share, up to this
 * many times ConfirmIntervals.
 */
#define CONFIRM_TOUCH_WAIT 3

/* Whether what the node's own clears cost the application is known. */
static bool own_cost_known(const struct policy_config *config,
			   const struct policy_node *node)
{
	if (node->split)
		return policy_adoptable(config, node, node->split_hot) &&
		       policy_adoptable(config, node, node->split_cold);
	return policy_adoptable(config, node, node->strategy);
}

/* Back to what the node ran before the switch being confirmed. */
static enum policy_confirm revert(const struct policy_node *node,
				  struct policy_decision *decision)
{
	decision->action = POLICY_REVERT;
	decision->to = node->switched_from;
	/* A try out of per folio goes back per folio. */
	if (node->from_split) {
		decision->split = true;
		decision->split_hot = node->from_split_hot;
		decision->split_cold = node->from_split_cold;
	}
	return POLICY_CONFIRM_REVERT;
}

enum policy_confirm policy_confirm(const struct policy_config *config,
				   const struct policy_calibration *calibration,
				   int hot, struct policy_node *node,
				   const struct policy_observation *obs,
				   struct policy_decision *decision)
{
	double mean, penalty = 0, user = obs->user_misses_per_page;
	/*
	 * A switch from trials or a try must save the margin on the whole
	 * node (a trial frame may measure a strategy apart from how it costs
	 * on every clear); another switch only not lose more.
	 */
	double limit = node->before_ns * (node->trying ?
					  1 - config->trial_margin :
					  1 + config->revert_tolerance);

	if (!node->confirm_left)
		return POLICY_CONFIRM_NONE;
	node->confirm_ns_sum += obs->ns_per_page;
	node->confirm_intervals++;
	if (user >= 0) {
		node->confirm_user_sum += user;
		node->confirm_user_intervals++;
	}
	if (node->confirm_left == 1 && !own_cost_known(config, node) &&
	    node->confirm_intervals < CONFIRM_TOUCH_WAIT * config->confirm)
		return POLICY_CONFIRM_PENDING;
	if (--node->confirm_left)
		return POLICY_CONFIRM_PENDING;
	mean = node->confirm_ns_sum / node->confirm_intervals +
	       policy_own_penalty(node);
	if (!own_cost_known(config, node)) {
		policy_set_reason(decision, POLICY_R_TOUCH_UNKNOWN);
		return revert(node, decision);
	}
	/* Only when every interval on both sides was counted. */
	if (node->before_user_misses >= 0 &&
	    node->confirm_user_intervals == node->confirm_intervals)
		penalty = (node->confirm_user_sum / node->confirm_user_intervals -
			   node->before_user_misses) *
			  policy_line_miss_ns(calibration, hot);
	if (mean + penalty <= limit)
		return POLICY_CONFIRM_KEEP;
	policy_set_reason(decision, mean <= limit ? POLICY_R_USER_MISSES :
			     node->trying ? POLICY_R_NOT_CHEAPER :
					    POLICY_R_WORSE);
	decision->predicted_gain = (mean + penalty - node->before_ns) /
				   (mean + penalty);
	return revert(node, decision);
}

double policy_estimate(const struct policy_config *config,
		       const struct policy_calibration *calibration,
		       int strategy, const struct policy_observation *obs)
{
	double fraction;

	if (obs->probed)
		return obs->probed_cold_fraction;
	fraction = policy_cold_fraction(config, calibration, strategy,
					obs->ns_per_page);
	if (fraction < 0 && obs->referenced)
		fraction = policy_cold_fraction(config, calibration,
						obs->ref_strategy,
						obs->ref_ns_per_page);
	return fraction;
}

enum policy_reason policy_propose(const struct policy_config *config,
				  const struct policy_calibration *calibration,
				  const struct policy_node *node, int hot,
				  int cold, double fraction, int *target,
				  double *gain)
{
	double current_ns, target_ns;

	*target = node->strategy;
	*gain = 0;
	if (fraction < 0) {
		if (node->strategy != cold || node->backoff_left ||
		    node->since_switch < config->probe_interval)
			return POLICY_R_UNTELLABLE;
		*target = hot;
		return POLICY_R_PROBE;
	}
	if (fraction >= config->up_threshold)
		*target = cold;
	else if (fraction <= config->down_threshold)
		*target = hot;
	if (*target == node->strategy || !policy_adoptable(config, node, *target)) {
		*target = node->strategy;
		return POLICY_R_FITS;
	}
	current_ns = policy_effective_cost(calibration, node, node->strategy, fraction);
	target_ns = policy_effective_cost(calibration, node, *target, fraction);
	*gain = (current_ns - target_ns) / current_ns;
	if (*gain < config->margin)
		return POLICY_R_BELOW_MARGIN;
	return *target == cold ? POLICY_R_COLD : POLICY_R_HOT;
}

enum policy_reason policy_gate(const struct policy_config *config,
			       struct policy_node *node,
			       const struct policy_observation *obs,
			       int target, bool to_cold, double gain)
{
	if (to_cold && obs->counted &&
	    obs->kernel_miss_ratio < config->min_cold_miss_ratio)
		return POLICY_R_NOT_CORROBORATED;
	/* The proposal stands: its streak grows, whatever holds it back. */
	if (node->proposal == target) {
		node->streak++;
	} else {
		node->proposal = target;
		node->streak = 1;
	}
	if (node->backoff_left)
		return POLICY_R_BACKING_OFF;
	/*
	 * A switch predicted to halve the cost or better waits no longer;
	 * nor one whose cold fraction the temperature probe counted (the
	 * pages' state measured, not inferred from noisy costs).
	 */
	if (node->streak < config->dwell && gain < config->fast_gain &&
	    !obs->probed)
		return POLICY_R_DWELL;
	if (node->since_switch < config->rate_limit)
		return POLICY_R_RATE_LIMITED;
	return POLICY_R_NONE;
}

bool policy_guard(const struct policy_config *config, struct policy_node *node,
		  const struct policy_sample *sample,
		  enum policy_reason hands_off,
		  struct policy_decision *decision)
{
	struct baseline_verdict v;

	if (!config->slower_window)
		return false;
	baseline_window_add(&node->slower_window, sample,
			    config->interval_seconds, config->slower_window,
			    config->min_samples, config->slower_margin, &v);
	if (!v.slower)
		return false;
	decision->slower = true;
	decision->ns_per_page = v.ns_per_page;
	decision->kernel_ns_per_page = v.kernel_ns_per_page;
	decision->window_seconds = v.seconds;
	decision->predicted_gain = (v.ns_per_page - v.kernel_ns_per_page) /
				   v.ns_per_page;
	if (hands_off) {
		policy_hold(decision, hands_off);
		return true;
	}
	decision->action = POLICY_REVERT;
	decision->to = CLEARPAGE_STRATEGY_KERNEL;
	policy_set_reason(decision, POLICY_R_SLOWER_THAN_KERNEL);
	return true;
}
