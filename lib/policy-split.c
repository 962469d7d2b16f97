// SPDX-License-Identifier: GPL-2.0
/*
 * The policy per folio: where the temperature sample counts folios both hot
 * and cold, whether the huge backend's probe mode (each folio cleared as
 * its probe finds it) is predicted cheaper than one strategy for all.
 */
#include <math.h>
#include <string.h>

#include "policy-internal.h"

/* Per folio within this of all hot or all cold: one strategy for all. */
#define SPLIT_EDGE 0.05

enum policy_reason policy_split(const struct policy_config *config,
				unsigned int allowed,
				const struct policy_calibration *calibration,
				const struct policy_node *node, double fraction,
				int *hot, int *cold, double *gain)
{
	double pair, current, recycled;
	int unused;

	*gain = 0;
	if (!config->per_folio || fraction <= SPLIT_EDGE ||
	    fraction >= 1 - SPLIT_EDGE || node->split_refuted_left ||
	    node->strategy < 0 || node->strategy >= CLEARPAGE_STRATEGY_COUNT ||
	    !calibration->valid[node->strategy])
		return POLICY_R_FITS;
	policy_pick_strategies(config, allowed, calibration, hot, &unused);
	*cold = policy_cheapest_cold(config, allowed, calibration, node, false);
	if (!policy_usable(allowed, calibration, *hot) || *cold < 0 || *cold == *hot)
		return POLICY_R_FITS;
	/*
	 * Per folio, a recycled folio (counted hot: a temporal strategy for
	 * all would find it cached) has no line cached and goes to @cold.
	 */
	recycled = fmin(fmax(node->probed_recycled, 0), 1 - fraction);
	pair = (1 - fraction - recycled) *
		       policy_effective_cost(calibration, node, *hot, 0) +
	       (fraction + recycled) *
		       policy_effective_cost(calibration, node, *cold, 1);
	current = policy_effective_cost(calibration, node, node->strategy, fraction);
	*gain = (current - pair) / current;
	return *gain > config->margin ? POLICY_R_PER_FOLIO : POLICY_R_FITS;
}

/*
 * A node per folio: hold while its folios stay mixed and its pair is the
 * policy's; else leave for the strategy of the folios' one kind, or for
 * the hot strategy.
 */
void policy_split_step(const struct policy_config *config,
		       unsigned int allowed,
		       const struct policy_calibration *calibration,
		       struct policy_node *node,
		       const struct policy_observation *obs,
		       struct policy_decision *decision)
{
	double fraction = obs->probed ? obs->probed_cold_fraction : -1;
	enum policy_reason why;
	int hot, cold, target;

	if (fraction >= 0)
		node->split_fraction = fraction;
	policy_pick_strategies(config, allowed, calibration, &hot, &cold);
	cold = policy_cheapest_cold(config, allowed, calibration, node, false);
	if (fraction >= 0 && fraction <= SPLIT_EDGE) {
		target = node->split_hot;
		why = POLICY_R_ONE_KIND;
	} else if (fraction >= 1 - SPLIT_EDGE) {
		target = node->split_cold;
		why = POLICY_R_ONE_KIND;
	} else if (!config->per_folio || hot != node->split_hot ||
		   cold != node->split_cold) {
		target = policy_usable(allowed, calibration, hot) ? hot :
			 CLEARPAGE_STRATEGY_KERNEL;
		why = POLICY_R_PAIR_CHANGED;
	} else if (node->since_switch >= (node->split_try_every ?
					  node->split_try_every :
					  config->probe_interval)) {
		/*
		 * Measured against one strategy for all: a try of the one of
		 * the pair the calibration has cheaper for all at the count.
		 */
		bool cold_one = policy_effective_cost(calibration, node,
					       node->split_cold,
					       node->split_fraction) <
				policy_effective_cost(calibration, node,
					       node->split_hot,
					       node->split_fraction);

		target = cold_one ? node->split_cold : node->split_hot;
		why = cold_one ? POLICY_R_TRY_COLD : POLICY_R_TRY_HOT;
		decision->whole = true;
	} else {
		policy_hold(decision, POLICY_R_SPLIT);
		return;
	}
	if (node->since_switch < config->rate_limit) {
		policy_hold(decision, POLICY_R_RATE_LIMITED);
		return;
	}
	decision->action = POLICY_SWITCH;
	decision->to = target;
	policy_set_reason(decision, why);
}
