// SPDX-License-Identifier: GPL-2.0
/* The adaptive policy of clearpaged; see policy.h. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "policy-internal.h"

static const char *const strategy_names[] = CLEARPAGE_STRATEGY_NAMES;

const char *policy_strategy_name(int strategy)
{
	if (strategy < 0 || strategy >= CLEARPAGE_STRATEGY_COUNT)
		return "unknown";
	return strategy_names[strategy];
}

int policy_strategy_from_name(const char *name)
{
	int s;

	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (!strcmp(name, strategy_names[s]))
			return s;
	return -EINVAL;
}

const char *policy_reason_text(enum policy_reason reason)
{
	static const char *const texts[POLICY_R_COUNT] = {
		[POLICY_R_NONE] = "",
		[POLICY_R_PINNED] = "pinned by an administrator",
		[POLICY_R_HELD] = "held on kernel by clearpagectl reset",
		[POLICY_R_FEW_SAMPLES] = "too few pages cleared to measure",
		[POLICY_R_NO_PAIR] = "calibration shows no usable hot/cold difference",
		[POLICY_R_CONFIRMING] = "confirming the last switch",
		[POLICY_R_UNTELLABLE] = "the current strategy's cost does not tell hot from cold",
		[POLICY_R_FITS] = "the current strategy fits",
		[POLICY_R_BELOW_MARGIN] = "predicted gain below the margin",
		[POLICY_R_NOT_CORROBORATED] = "cache-miss counters do not corroborate cold pages",
		[POLICY_R_BACKING_OFF] = "backing off after a revert",
		[POLICY_R_DWELL] = "waiting for the dwell time",
		[POLICY_R_RATE_LIMITED] = "rate limited",
		[POLICY_R_PROBE] = "probing whether the pages turned hot",
		[POLICY_R_COLD] = "pages are mostly cold",
		[POLICY_R_HOT] = "pages are mostly hot",
		[POLICY_R_WORSE] = "the switch did worse than before it",
		[POLICY_R_USER_MISSES] = "user-space cache misses rose by more than the switch saved",
		[POLICY_R_SLOWER_THAN_KERNEL] = "slower than the kernel's routine",
		[POLICY_R_TRIALS_FILLING] = "measuring the candidates on trial frames",
		[POLICY_R_NONE_CHEAPER] = "no candidate measured cheaper beyond the noise",
		[POLICY_R_MEASURED] = "measured cheaper on trial frames",
		[POLICY_R_TRY_COLD] = "trying the cheapest cold strategy on the whole node",
		[POLICY_R_TRY_HOT] = "trying the hot strategy on the whole node",
		[POLICY_R_NOT_CHEAPER] = "the switch did not save the margin on the whole node",
		[POLICY_R_PER_FOLIO] = "hot and cold folios mixed: each cleared as the probe finds it",
		[POLICY_R_SPLIT] = "clearing each folio as the probe finds it",
		[POLICY_R_ONE_KIND] = "the folios are nearly all of one kind: one strategy for all",
		[POLICY_R_PAIR_CHANGED] = "the hot/cold pair is no longer the policy's",
		[POLICY_R_TOUCH_UNKNOWN] = "the touch probe did not tell what the non-temporal clears cost the application",
	};

	if (reason < 0 || reason >= POLICY_R_COUNT)
		return "unknown";
	return texts[reason];
}

void policy_config_defaults(struct policy_config *config)
{
	*config = (struct policy_config){
		.up_threshold = 0.6,
		.down_threshold = 0.4,
		.margin = 0.10,
		.dwell = 3,
		.fast_gain = 0.5,
		.rate_limit = 10,
		.confirm = 3,
		.revert_tolerance = 0.05,
		.backoff = 60,
		.min_samples = 8,
		.min_spread = 1.25,
		.probe_interval = 30,
		.min_cold_miss_ratio = 0.2,
		.non_temporal = POLICY_NT_AUTO,
		.per_folio = true,
		.hot_strategy = -1,
		.cold_strategy = -1,
		.trial_candidates = 2,
		.trial_window = 10,
		.trial_margin = 0.03,
		.trial_confidence = 2,
		.trial_settle = 60,
		.slower_margin = 0.05,
		.slower_window = 60,
		.interval_seconds = 1,
	};
}

void policy_node_init(struct policy_node *node, int strategy)
{
	*node = (struct policy_node){
		.strategy = strategy,
		.proposal = -1,
		.switched_from = -1,
		/* A fresh node may switch as soon as the dwell time allows. */
		.since_switch = ~0U >> 1,
		.probed_fraction = -1,
		.probed_smooth = -1,
		.try_kind = -1,
	};
	for (int s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
		node->trial_rest_at[s] = -1;
	baseline_window_init(&node->slower_window, strategy);
}

bool policy_usable(unsigned int allowed,
		   const struct policy_calibration *calibration, int strategy)
{
	return strategy >= 0 && strategy < CLEARPAGE_STRATEGY_COUNT &&
	       (allowed & (1U << strategy)) && calibration->valid[strategy] &&
	       calibration->hot_ns[strategy] > 0 &&
	       calibration->cold_ns[strategy] > 0;
}

/* How much dearer than the kernel's routine rep_stosb may be on hot pages. */
#define HOT_TOLERANCE 1.1

bool policy_pick_strategies(const struct policy_config *config,
			    unsigned int allowed,
			    const struct policy_calibration *calibration,
			    int *hot, int *cold)
{
	int s;

	*hot = config->hot_strategy;
	/*
	 * rep_stosb, unless it is dearer than the kernel's routine on hot
	 * pages (CPUs without ERMS, where rep stosb stores a byte at a time).
	 */
	if (*hot < 0)
		*hot = policy_usable(allowed, calibration, CLEARPAGE_STRATEGY_REP_STOSB) &&
		       (!policy_usable(allowed, calibration, CLEARPAGE_STRATEGY_KERNEL) ||
			calibration->hot_ns[CLEARPAGE_STRATEGY_REP_STOSB] <=
			HOT_TOLERANCE * calibration->hot_ns[CLEARPAGE_STRATEGY_KERNEL]) ?
			       CLEARPAGE_STRATEGY_REP_STOSB :
			       CLEARPAGE_STRATEGY_KERNEL;
	*cold = config->cold_strategy;
	if (*cold < 0)
		for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
			if (policy_usable(allowed, calibration, s) &&
			    (*cold < 0 ||
			     calibration->cold_ns[s] < calibration->cold_ns[*cold]))
				*cold = s;
	if (!policy_usable(allowed, calibration, *hot) ||
	    !policy_usable(allowed, calibration, *cold) || *hot == *cold)
		return false;
	/* The cold strategy must really be cheaper on cold pages. */
	return calibration->cold_ns[*hot] >=
	       config->min_spread * calibration->cold_ns[*cold];
}

double policy_cold_fraction(const struct policy_config *config,
			    const struct policy_calibration *calibration,
			    int strategy, double ns_per_page)
{
	double hot, cold, fraction;

	if (strategy < 0 || strategy >= CLEARPAGE_STRATEGY_COUNT ||
	    !calibration->valid[strategy] || ns_per_page <= 0)
		return -1;
	hot = calibration->hot_ns[strategy];
	cold = calibration->cold_ns[strategy];
	/* Hot and cold too close: the measurement cannot tell them apart. */
	if (hot <= 0 || cold < config->min_spread * hot)
		return -1;
	fraction = (ns_per_page - hot) / (cold - hot);
	return fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
}

double policy_line_miss_ns(const struct policy_calibration *calibration,
			   int hot_strategy)
{
	double spread;

	if (hot_strategy < 0 || hot_strategy >= CLEARPAGE_STRATEGY_COUNT ||
	    !calibration->valid[hot_strategy])
		return 0;
	spread = calibration->cold_ns[hot_strategy] -
		 calibration->hot_ns[hot_strategy];
	return spread > 0 ? spread / POLICY_LINES_PER_PAGE : 0;
}

double policy_predict(const struct policy_calibration *calibration,
		      int strategy, double cold_fraction)
{
	return calibration->hot_ns[strategy] +
	       cold_fraction * (calibration->cold_ns[strategy] -
				calibration->hot_ns[strategy]);
}

void policy_set_reason(struct policy_decision *decision,
		       enum policy_reason reason)
{
	decision->reason_id = reason;
	decision->reason = policy_reason_text(reason);
}

void policy_hold(struct policy_decision *decision, enum policy_reason reason)
{
	decision->action = POLICY_HOLD;
	policy_set_reason(decision, reason);
}

static void forget_proposal(struct policy_node *node)
{
	node->proposal = -1;
	node->streak = 0;
}

double policy_user_misses_per_page(const struct policy_sample *sample)
{
	if (!sample->counted || !sample->pages)
		return -1;
	return sample->user_misses / (double)sample->pages;
}


/*
 * A proposal through the gate: a switch to @target for @reason (@whole: a
 * try on the whole node), or a hold saying why not.
 */
static void gated_switch(const struct policy_config *config,
			 struct policy_node *node,
			 const struct policy_observation *obs, int target,
			 bool cold, double gain, enum policy_reason reason,
			 bool whole, struct policy_decision *decision)
{
	enum policy_reason why = policy_gate(config, node, obs, target, cold,
					     gain);

	if (why != POLICY_R_NONE) {
		if (why == POLICY_R_NOT_CORROBORATED)
			forget_proposal(node);
		policy_hold(decision, why);
		return;
	}
	decision->action = POLICY_SWITCH;
	decision->to = target;
	decision->whole = whole;
	policy_set_reason(decision, reason);
}

/*
 * What holds a switch measured or chosen without the gate's dwell: a
 * backoff after a revert, the rate limit; POLICY_R_NONE when neither.
 */
static enum policy_reason limits(const struct policy_config *config,
				 const struct policy_node *node)
{
	if (node->backoff_left)
		return POLICY_R_BACKING_OFF;
	if (node->since_switch < config->rate_limit)
		return POLICY_R_RATE_LIMITED;
	return POLICY_R_NONE;
}

/*
 * guard -> hands off -> observe -> confirm -> estimate -> per folio ->
 * compare (with trials: measured, or a try) or propose -> gate. Every stage
 * that holds ends the step with its reason; a proposal that does not
 * stand (any hold before the gate counts it) is forgotten.
 */
void policy_step(const struct policy_config *config, unsigned int allowed,
		 const struct policy_calibration *calibration,
		 struct policy_node *node, const struct policy_sample *sample,
		 enum policy_reason hands_off,
		 struct policy_decision *decision)
{
	struct policy_observation obs;
	enum policy_reason why;
	int hot, cold, target;
	bool paired;
	double gain;

	*decision = (struct policy_decision){
		.action = POLICY_HOLD,
		.from = node->strategy,
		.to = node->strategy,
		.from_split = node->split,
		.reason = "",
		.cold_fraction = -1,
		.ns_per_page = policy_mean(sample->sample_ns, sample->samples),
		.user_misses_per_page = policy_user_misses_per_page(sample),
	};
	allowed = policy_allowed(config, allowed,
				 sample->counted || sample->touch);
	paired = policy_pick_strategies(config, allowed, calibration, &hot,
					&cold);
	/* What the application pays, whatever happens to the node now. */
	policy_touch_update(config, calibration, hot, node, sample);
	decision->touch_share = node->touch_known ?
				policy_touch_share(config, node) : -1;
	decision->touch_penalty_ns = node->touch_penalty_ns;
	decision->from_penalty_ns = policy_own_penalty(node);
	if (node->since_switch < ~0U >> 1)
		node->since_switch++;
	if (node->backoff_left)
		node->backoff_left--;
	for (int s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		if (node->refuted_left[s])
			node->refuted_left[s]--;
		if (node->trial_rest[s])
			node->trial_rest[s]--;
	}
	if (node->split_refuted_left)
		node->split_refuted_left--;
	for (int k = 0; k < 2; k++)
		if (node->try_left[k])
			node->try_left[k]--;

	if (policy_guard(config, node, sample, hands_off, decision)) {
		forget_proposal(node);
		node->confirm_left = 0;
		return;
	}
	if (hands_off) {
		forget_proposal(node);
		node->confirm_left = 0;
		policy_hold(decision, hands_off);
		return;
	}
	policy_observe(config, sample, &obs);
	if (!obs.measured) {
		forget_proposal(node);
		/* A try cleared too little to be measured: not kept. */
		if (node->trying && node->confirm_left &&
		    ++node->confirm_unmeasured >= config->confirm) {
			decision->action = POLICY_REVERT;
			decision->to = node->switched_from;
			policy_set_reason(decision, POLICY_R_NOT_CHEAPER);
			return;
		}
		policy_hold(decision, POLICY_R_FEW_SAMPLES);
		return;
	}
	if (!paired && !obs.trials) {
		forget_proposal(node);
		policy_hold(decision, POLICY_R_NO_PAIR);
		return;
	}
	switch (policy_confirm(config, calibration, hot, node, &obs, decision)) {
	case POLICY_CONFIRM_PENDING:
		policy_hold(decision, POLICY_R_CONFIRMING);
		return;
	case POLICY_CONFIRM_REVERT:
		return;
	case POLICY_CONFIRM_KEEP:
		if (node->split)
			node->split_refute_next = 0;
		else
			node->refute_next[node->strategy] = 0;
		/* One strategy for all measured cheaper than per folio. */
		if (node->from_split)
			node->split_try_every = 0;
		node->from_split = false;
		if (node->try_kind >= 0)
			node->try_next[node->try_kind] = 0;
		node->try_kind = -1;
		node->trying = false;
		break;
	default:
		break;
	}
	decision->cold_fraction = policy_estimate(config, calibration,
						  node->strategy, &obs);
	node->probed_fraction = obs.probed ? obs.probed_cold_fraction : -1;
	node->probed_recycled = obs.probed ? obs.probed_recycled_fraction : 0;
	if (obs.probed)
		node->probed_smooth = node->probed_smooth < 0 ?
			obs.probed_cold_fraction :
			node->probed_smooth +
				(obs.probed_cold_fraction - node->probed_smooth) / 8;
	if (node->split) {
		policy_split_step(config, allowed, calibration, node, &obs,
				  decision);
		return;
	}
	if (sample->can_split && obs.probed &&
	    policy_split(config, allowed, calibration, node,
			 decision->cold_fraction, &decision->split_hot,
			 &decision->split_cold, &gain) == POLICY_R_PER_FOLIO) {
		decision->predicted_gain = gain;
		why = limits(config, node);
		if (why != POLICY_R_NONE) {
			policy_hold(decision, why);
			return;
		}
		decision->action = POLICY_SWITCH;
		decision->split = true;
		policy_set_reason(decision, POLICY_R_PER_FOLIO);
		return;
	}
	if (obs.trials) {
		why = policy_compare(config, allowed, node, sample, &target,
				     &gain, &decision->gain_bound);
		decision->predicted_gain = gain;
		if (why != POLICY_R_MEASURED) {
			enum policy_reason tried = policy_try(
				config, allowed, calibration, node,
				decision->cold_fraction, obs.ns_per_page,
				&target);

			if (tried != POLICY_R_TRY_COLD &&
			    tried != POLICY_R_TRY_HOT) {
				forget_proposal(node);
				policy_hold(decision, why);
				return;
			}
			/* As a proposal: corroborated, dwell, limits. */
			gated_switch(config, node, &obs, target,
				     tried == POLICY_R_TRY_COLD, 0, tried,
				     true, decision);
			return;
		}
		/* The window was the dwell; backoff and rate limit remain. */
		why = limits(config, node);
		if (why != POLICY_R_NONE) {
			policy_hold(decision, why);
			return;
		}
		decision->action = POLICY_SWITCH;
		decision->to = target;
		policy_set_reason(decision, POLICY_R_MEASURED);
		return;
	}
	/*
	 * Reference frames that came too few this interval to tell the cold
	 * fraction: wait for more rather than probe as if there were none.
	 */
	if (decision->cold_fraction < 0 && sample->ref_samples &&
	    !obs.referenced) {
		forget_proposal(node);
		policy_hold(decision, POLICY_R_FEW_SAMPLES);
		return;
	}
	why = policy_propose(config, calibration, node, hot, cold,
			     decision->cold_fraction, &target, &gain);
	decision->predicted_gain = gain;
	if (why == POLICY_R_PROBE) {
		forget_proposal(node);
		decision->action = POLICY_SWITCH;
		decision->to = target;
		decision->probe = true;
		policy_set_reason(decision, why);
		return;
	}
	if (why != POLICY_R_COLD && why != POLICY_R_HOT) {
		forget_proposal(node);
		policy_hold(decision, why);
		return;
	}
	gated_switch(config, node, &obs, target, target == cold, gain,
		     target == cold ? POLICY_R_COLD : POLICY_R_HOT, false,
		     decision);
}

void policy_applied(const struct policy_config *config,
		    struct policy_node *node,
		    const struct policy_decision *decision)
{
	unsigned int steady = node->steady;
	double steady_ns = node->steady_ns;
	bool was_split = node->split;

	if (decision->action == POLICY_HOLD)
		return;
	node->strategy = decision->to;
	node->split = decision->split;
	if (node->split) {
		node->split_hot = decision->split_hot;
		node->split_cold = decision->split_cold;
		node->split_fraction = decision->cold_fraction >= 0 ?
				       decision->cold_fraction : 0.5;
	}
	node->since_switch = 0;
	forget_proposal(node);
	/*
	 * Every gain was over the strategy left: measure afresh. A candidate
	 * half as dear again as the strategy left is as dear beside one
	 * measured cheaper than it, so its rest goes on, but not across a
	 * change of kind (temporal and non-temporal, or per folio).
	 */
	policy_trials_forget(node, was_split != node->split ||
			     policy_non_temporal(decision->from) !=
			     policy_non_temporal(decision->to));
	node->steady = 0;
	node->confirm_ns_sum = 0;
	node->confirm_intervals = 0;
	node->confirm_user_sum = 0;
	node->confirm_user_intervals = 0;
	node->confirm_unmeasured = 0;
	if (decision->action == POLICY_SWITCH) {
		node->switched_from = decision->from;
		node->probing = decision->probe;
		node->trying = decision->whole || decision->split ||
			       decision->reason_id == POLICY_R_MEASURED;
		node->confirm_left = config->confirm;
		/*
		 * Leaving per folio: the probe's count decided, not a cost;
		 * but a try out of it is confirmed, and a revert goes back.
		 */
		node->from_split = was_split && decision->whole;
		node->try_kind = decision->reason_id == POLICY_R_TRY_COLD ? 1 :
				 decision->reason_id == POLICY_R_TRY_HOT ? 0 : -1;
		node->from_split_hot = node->split_hot;
		node->from_split_cold = node->split_cold;
		if (was_split && !decision->whole) {
			node->trying = false;
			node->confirm_left = 0;
		}
		node->before_ns = decision->ns_per_page;
		/* Against the steady cost where it held steady. */
		if (node->trying && steady >= 3)
			node->before_ns = steady_ns;
		/* With what the application paid for a non-temporal one. */
		node->before_ns += decision->from_penalty_ns;
		node->before_user_misses = decision->user_misses_per_page;
	} else {
		int from = decision->from;

		node->confirm_left = 0;
		/* A failed probe or try only waits for the next one. */
		node->backoff_left = node->probing || node->trying ?
					     0 : config->backoff;
		/* What the confirmation (or guard) refuted, not the probe. */
		if (node->from_split) {
			/* A try out of per folio: per folio again, longer. */
			policy_doubling(&node->split_try_every,
					config->probe_interval, REFUTE_MAX);
		} else if (was_split) {
			node->split_refuted_left =
				policy_doubling(&node->split_refute_next,
						config->probe_interval,
						REFUTE_MAX);
		} else if (!node->probing && from >= 0 &&
			   from < CLEARPAGE_STRATEGY_COUNT) {
			node->refuted_left[from] =
				policy_doubling(&node->refute_next[from],
						config->probe_interval,
						REFUTE_MAX);
		}
		if (node->trying && node->try_kind >= 0)
			node->try_left[node->try_kind] =
				policy_doubling(&node->try_next[node->try_kind],
						config->probe_interval,
						REFUTE_MAX);
		node->probing = false;
		node->trying = false;
		node->from_split = false;
		node->try_kind = -1;
	}
}

unsigned int policy_backend_step(const struct policy_config *config,
				 unsigned int allowed,
				 const struct policy_calibration *calibration,
				 struct policy_backend *b,
				 const struct policy_counters *now,
				 const struct policy_extra *extra,
				 enum policy_reason hands_off,
				 policy_apply_fn *apply, void *ctx,
				 struct policy_sample *sample,
				 struct policy_decision *decision)
{
	if (!b->known || b->node.strategy != now->strategy ||
	    b->node.split != now->split ||
	    (now->split && (b->node.split_hot != now->split_hot ||
			    b->node.split_cold != now->split_cold))) {
		policy_node_init(&b->node, now->strategy);
		b->node.split = now->split;
		b->node.split_hot = now->split_hot;
		b->node.split_cold = now->split_cold;
		b->node.split_fraction = 0.5;
		b->known = true;
		b->have_last = false;
	}
	policy_sample_build(&b->last, b->have_last, now, sample);
	b->last = *now;
	b->have_last = true;
	sample->trials = extra->trials;
	sample->touch = extra->touch;
	sample->can_split = extra->can_split;
	sample->counted = extra->counted;
	sample->kernel_miss_ratio = extra->kernel_miss_ratio;
	sample->user_misses = extra->user_misses;
	sample->fault_line_ns = extra->fault_line_ns;
	policy_step(config, allowed, calibration, &b->node, sample, hands_off,
		    decision);
	if (decision->action != POLICY_HOLD && apply(ctx, decision))
		policy_applied(config, &b->node, decision);
	if (!extra->trials)
		return 0;
	return policy_trials(config, allowed, extra->counted || extra->touch,
			     calibration, &b->node);
}
