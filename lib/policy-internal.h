/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policy's own helpers, shared by its files (not an API): policy.c
 * (names, configuration, the node, one interval's step and its
 * application), policy-stages.c (observe, confirm, estimate, propose, gate,
 * guard), policy-trials.c (trial candidates, the compare stage, tries),
 * policy-split.c (per folio) and policy-touch.c (what a non-temporal clear
 * costs the application).
 */
#ifndef CLEARPAGE_POLICY_INTERNAL_H
#define CLEARPAGE_POLICY_INTERNAL_H

#include "policy.h"

/* 64-byte cache lines in a 4 KiB page. */
#define POLICY_LINES_PER_PAGE (4096 / 64)

/* The longest a revert refutes a strategy for, in intervals. */
#define REFUTE_MAX 86400U

/*
 * A capped doubling: the wait to give now, *@next (@first when unset), and
 * *@next doubled for the time after, at most @max.
 */
static inline unsigned int policy_doubling(unsigned int *next,
					   unsigned int first,
					   unsigned int max)
{
	unsigned int now = *next ? *next : first;

	*next = now > max / 2 ? max : 2 * now;
	return now;
}

void policy_set_reason(struct policy_decision *decision,
		       enum policy_reason reason);
double policy_own_penalty(const struct policy_node *node);
void policy_hold(struct policy_decision *decision, enum policy_reason reason);
double policy_user_misses_per_page(const struct policy_sample *sample);
bool policy_usable(unsigned int allowed,
		   const struct policy_calibration *calibration, int strategy);
bool policy_adoptable(const struct policy_config *config,
		      const struct policy_node *node, int strategy);
double policy_effective_cost(const struct policy_calibration *calibration,
			     const struct policy_node *node, int strategy,
			     double fraction);
void policy_trials_forget(struct policy_node *node, bool rests);
int policy_cheapest_cold(const struct policy_config *config,
			 unsigned int allowed,
			 const struct policy_calibration *calibration,
			 const struct policy_node *node, bool explore);
void policy_split_step(const struct policy_config *config,
		       unsigned int allowed,
		       const struct policy_calibration *calibration,
		       struct policy_node *node,
		       const struct policy_observation *obs,
		       struct policy_decision *decision);

#endif /* CLEARPAGE_POLICY_INTERNAL_H */
