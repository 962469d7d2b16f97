// SPDX-License-Identifier: GPL-2.0
/*
 * What a non-temporal clear costs the application: which strategies
 * NonTemporal= allows, the touch probe's share of lines the application
 * read, and the charge it puts on movnti and clzero; see policy.h.
 */
#include "policy-internal.h"

unsigned int policy_allowed(const struct policy_config *config,
			    unsigned int allowed, bool measured)
{
	if (config->non_temporal == POLICY_NT_NO ||
	    (config->non_temporal == POLICY_NT_AUTO && !measured))
		allowed &= ~((1U << CLEARPAGE_STRATEGY_MOVNTI) |
			     (1U << CLEARPAGE_STRATEGY_CLZERO));
	return allowed;
}

bool policy_non_temporal(int strategy)
{
	return strategy == CLEARPAGE_STRATEGY_MOVNTI ||
	       strategy == CLEARPAGE_STRATEGY_CLZERO;
}

/* The touch probe's sums lose this share of their weight each interval. */
#define TOUCH_DECAY 0.9

double policy_touch_share(const struct policy_config *config,
			  const struct policy_node *node)
{
	if (node->touch_probed < (double)config->min_samples ||
	    node->touch_probed <= 0)
		return -1;
	return node->touch_cached / node->touch_probed;
}

void policy_touch_update(const struct policy_config *config,
			 const struct policy_calibration *calibration,
			 int hot_strategy, struct policy_node *node,
			 const struct policy_sample *sample)
{
	double share;

	/*
	 * Decayed only by intervals that loaded lines: the application's
	 * habit is known across a phase without non-temporal clears.
	 */
	if (sample->touch_probed) {
		node->touch_probed = node->touch_probed * TOUCH_DECAY +
				     (double)sample->touch_probed;
		node->touch_cached = node->touch_cached * TOUCH_DECAY +
				     (double)sample->touch_cached;
	}
	share = policy_touch_share(config, node);
	node->counted = sample->counted;
	node->touch_known = share >= 0 && !sample->counted;
	/*
	 * The faulting line is paid for certain, at a dependent miss's
	 * latency; the other lines at the share the probe found read, at
	 * the streaming cost of a line (the probe never loads the faulting
	 * line). Where the PMU counts, the confirmation charges what it
	 * counted instead.
	 */
	node->touch_penalty_ns = sample->counted ? 0 : sample->fault_line_ns;
	if (node->touch_known)
		node->touch_penalty_ns += share * POLICY_LINES_PER_PAGE *
			policy_line_miss_ns(calibration, hot_strategy);
}

double policy_touch_penalty(const struct policy_node *node, int strategy)
{
	return policy_non_temporal(strategy) ? node->touch_penalty_ns : 0;
}

double policy_fault_line_ns(int backend, double hot_ticks, double cold_ticks,
			    double threshold_ticks, double ns_per_tick)
{
	if (backend != CLEARPAGE_BACKEND_4K || threshold_ticks <= 0 ||
	    cold_ticks <= hot_ticks || ns_per_tick <= 0)
		return 0;
	return (cold_ticks - hot_ticks) * ns_per_tick;
}

/* What the application pays per page of the node's own clears. */
double policy_own_penalty(const struct policy_node *node)
{
	if (!node->split)
		return policy_touch_penalty(node, node->strategy);
	return node->split_fraction *
		       policy_touch_penalty(node, node->split_cold) +
	       (1 - node->split_fraction) *
		       policy_touch_penalty(node, node->split_hot);
}

/*
 * Whether @strategy may be adopted: a non-temporal one without the PMU
 * (NonTemporal=auto) only once the touch probe says what it costs the
 * application.
 */
bool policy_adoptable(const struct policy_config *config,
		      const struct policy_node *node, int strategy)
{
	return !policy_non_temporal(strategy) || node->counted ||
	       config->non_temporal != POLICY_NT_AUTO || node->touch_known;
}
