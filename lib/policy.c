// SPDX-License-Identifier: GPL-2.0
/* The adaptive policy of clearpaged; see policy.h. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "policy.h"

/* 64-byte cache lines in a 4 KiB page. */
#define LINES_PER_PAGE (4096 / 64)

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
	node->touch_penalty_ns = node->touch_known ?
		share * LINES_PER_PAGE *
		policy_line_miss_ns(calibration, hot_strategy) : 0;
}

double policy_touch_penalty(const struct policy_node *node, int strategy)
{
	return policy_non_temporal(strategy) ? node->touch_penalty_ns : 0;
}

/* What the application pays per page of the node's own clears. */
static double own_penalty(const struct policy_node *node)
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
static bool adoptable(const struct policy_config *config,
		      const struct policy_node *node, int strategy)
{
	return !policy_non_temporal(strategy) || node->counted ||
	       config->non_temporal != POLICY_NT_AUTO || node->touch_known;
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
		.try_kind = -1,
	};
	baseline_window_init(&node->slower_window, strategy);
}

static bool usable(unsigned int allowed,
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
		*hot = usable(allowed, calibration, CLEARPAGE_STRATEGY_REP_STOSB) &&
		       (!usable(allowed, calibration, CLEARPAGE_STRATEGY_KERNEL) ||
			calibration->hot_ns[CLEARPAGE_STRATEGY_REP_STOSB] <=
			HOT_TOLERANCE * calibration->hot_ns[CLEARPAGE_STRATEGY_KERNEL]) ?
			       CLEARPAGE_STRATEGY_REP_STOSB :
			       CLEARPAGE_STRATEGY_KERNEL;
	*cold = config->cold_strategy;
	if (*cold < 0)
		for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
			if (usable(allowed, calibration, s) &&
			    (*cold < 0 ||
			     calibration->cold_ns[s] < calibration->cold_ns[*cold]))
				*cold = s;
	if (!usable(allowed, calibration, *hot) ||
	    !usable(allowed, calibration, *cold) || *hot == *cold)
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
	return spread > 0 ? spread / LINES_PER_PAGE : 0;
}

double policy_predict(const struct policy_calibration *calibration,
		      int strategy, double cold_fraction)
{
	return calibration->hot_ns[strategy] +
	       cold_fraction * (calibration->cold_ns[strategy] -
				calibration->hot_ns[strategy]);
}

static void set_reason(struct policy_decision *decision,
		       enum policy_reason reason)
{
	decision->reason_id = reason;
	decision->reason = policy_reason_text(reason);
}

static void hold(struct policy_decision *decision, enum policy_reason reason)
{
	decision->action = POLICY_HOLD;
	set_reason(decision, reason);
}

static void forget_proposal(struct policy_node *node)
{
	node->proposal = -1;
	node->streak = 0;
}

static double user_misses_per_page(const struct policy_sample *sample)
{
	if (!sample->counted || !sample->pages)
		return -1;
	return sample->user_misses / (double)sample->pages;
}

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
		.user_misses_per_page = user_misses_per_page(sample),
		.counted = sample->counted,
		.kernel_miss_ratio = sample->kernel_miss_ratio,
	};
	if (probed >= config->min_samples) {
		obs->probed = probed;
		obs->probed_cold_fraction = (double)sample->probe_cold /
					    (double)probed;
	}
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
	if (--node->confirm_left)
		return POLICY_CONFIRM_PENDING;
	mean = node->confirm_ns_sum / node->confirm_intervals +
	       own_penalty(node);
	/* Only when every interval on both sides was counted. */
	if (node->before_user_misses >= 0 &&
	    node->confirm_user_intervals == node->confirm_intervals)
		penalty = (node->confirm_user_sum / node->confirm_user_intervals -
			   node->before_user_misses) *
			  policy_line_miss_ns(calibration, hot);
	if (mean + penalty <= limit)
		return POLICY_CONFIRM_KEEP;
	decision->action = POLICY_REVERT;
	decision->to = node->switched_from;
	/* A try out of per folio goes back per folio. */
	if (node->from_split) {
		decision->split = true;
		decision->split_hot = node->from_split_hot;
		decision->split_cold = node->from_split_cold;
	}
	set_reason(decision, mean <= limit ? POLICY_R_USER_MISSES :
			     node->trying ? POLICY_R_NOT_CHEAPER :
					    POLICY_R_WORSE);
	decision->predicted_gain = (mean + penalty - node->before_ns) /
				   (mean + penalty);
	return POLICY_CONFIRM_REVERT;
}

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
 * The mean gain of a full window and its standard error, without its
 * highest and lowest interval when it spans five or more: one interval of
 * a noisy neighbour (or a page-cache flush) must not decide.
 */
static bool trial_window_judge(const struct policy_trial_window *w,
			       unsigned int size, double *mean, double *error)
{
	double sum = 0, sq = 0, lo = w->gain[0], hi = w->gain[0];
	unsigned int n = size;

	if (w->used < size || size < 2)
		return false;
	for (unsigned int i = 0; i < size; i++) {
		sum += w->gain[i];
		lo = fmin(lo, w->gain[i]);
		hi = fmax(hi, w->gain[i]);
	}
	if (size >= 5) {
		sum -= lo + hi;
		n -= 2;
	}
	*mean = sum / n;
	for (unsigned int i = 0; i < size; i++)
		sq += (w->gain[i] - *mean) * (w->gain[i] - *mean);
	if (size >= 5)
		sq -= (lo - *mean) * (lo - *mean) + (hi - *mean) * (hi - *mean);
	*error = sqrt(fmax(sq, 0) / (n - 1) / n);
	return true;
}

static void trials_forget(struct policy_node *node)
{
	memset(node->trial, 0, sizeof(node->trial));
}

static unsigned int window_size(const struct policy_config *config)
{
	unsigned int size = config->trial_window;

	return size < 2 ? 2 : size > POLICY_TRIAL_WINDOW_MAX ?
				      POLICY_TRIAL_WINDOW_MAX : size;
}

/* What a page of @strategy costs: its calibrated clear at @fraction, plus
 * what the application pays for a non-temporal one. */
static double effective_cost(const struct policy_calibration *calibration,
			     const struct policy_node *node, int strategy,
			     double fraction)
{
	return policy_predict(calibration, strategy, fraction) +
	       policy_touch_penalty(node, strategy);
}

/* The longest a revert refutes a strategy for, in intervals. */
#define REFUTE_MAX 86400U

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
		if (s == node->strategy || !(allowed & (1U << s)))
			continue;
		/*
		 * Insertion by calibration: cold cost (with what the
		 * application pays for a non-temporal one), then hot;
		 * unknown last.
		 */
		for (i = n; i > 0; i--) {
			int o = order[i - 1];
			double cs = effective_cost(calibration, node, s, at);
			double co = effective_cost(calibration, node, o, at);
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
	/* Each with what the application pays for a non-temporal clear. */
	double own_cost = own + policy_touch_penalty(node, node->strategy);
	double mean, error;
	bool full = false;
	int s;

	*target = node->strategy;
	*gain = 0;
	*bound = 0;
	steady_update(node, own);
	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		bool ref = s == CLEARPAGE_STRATEGY_KERNEL;
		uint64_t n = ref ? sample->ref_samples : sample->trial_samples[s];
		double ns = policy_mean(ref ? sample->ref_ns :
					      sample->trial_ns[s], n);

		if (s == node->strategy)
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
		if (s == node->strategy ||
		    (s != CLEARPAGE_STRATEGY_KERNEL && !(allowed & (1U << s))) ||
		    !trial_window_judge(&node->trial[s], size, &mean, &error))
			continue;
		full = true;
		/*
		 * A switch to it was reverted: not for a while. A
		 * non-temporal one whose cost to the application is not
		 * known yet: not at all.
		 */
		if (node->refuted_left[s] ||
		    !adoptable(config, node, s))
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
 * The allowed, calibrated, adoptable strategy cheapest on cold pages (with
 * what the application pays for a non-temporal one) that no revert
 * refuted (the configured ColdStrategy, if any), or -1.
 */
static int cheapest_cold(const struct policy_config *config,
			 unsigned int allowed,
			 const struct policy_calibration *calibration,
			 const struct policy_node *node)
{
	int s, best = config->cold_strategy;

	if (best >= 0)
		return usable(allowed, calibration, best) &&
		       !node->refuted_left[best] &&
		       adoptable(config, node, best) ? best : -1;
	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (usable(allowed, calibration, s) && !node->refuted_left[s] &&
		    adoptable(config, node, s) &&
		    (best < 0 || effective_cost(calibration, node, s, 1) <
				 effective_cost(calibration, node, best, 1)))
			best = s;
	return best;
}

enum policy_reason policy_try(const struct policy_config *config,
			      unsigned int allowed,
			      const struct policy_calibration *calibration,
			      const struct policy_node *node, double fraction,
			      int *target)
{
	bool cold = fraction < 0 || fraction >= config->up_threshold;
	int s = node->strategy, hot, unused;

	*target = s;
	if ((!cold && fraction > config->down_threshold) ||
	    node->try_left[cold])
		return POLICY_R_FITS;
	if (cold) {
		*target = cheapest_cold(config, allowed, calibration, node);
	} else {
		policy_pick_strategies(config, allowed, calibration, &hot,
				       &unused);
		*target = usable(allowed, calibration, hot) &&
			  !node->refuted_left[hot] &&
			  adoptable(config, node, hot) ? hot : -1;
	}
	/*
	 * Worth a try only where the calibration (and what the application
	 * pays for a non-temporal clear) says it is cheaper.
	 */
	if (*target < 0 || *target == s ||
	    (s >= 0 && s < CLEARPAGE_STRATEGY_COUNT && calibration->valid[s] &&
	     effective_cost(calibration, node, *target, cold) >=
	     (1 - config->trial_margin) *
	     effective_cost(calibration, node, s, cold))) {
		*target = s;
		return POLICY_R_FITS;
	}
	return cold ? POLICY_R_TRY_COLD : POLICY_R_TRY_HOT;
}

/* Per folio within this of all hot or all cold: one strategy for all. */
#define SPLIT_EDGE 0.05

enum policy_reason policy_split(const struct policy_config *config,
				unsigned int allowed,
				const struct policy_calibration *calibration,
				const struct policy_node *node, double fraction,
				int *hot, int *cold, double *gain)
{
	double pair, current;
	int unused;

	*gain = 0;
	if (!config->per_folio || fraction <= SPLIT_EDGE ||
	    fraction >= 1 - SPLIT_EDGE || node->split_refuted_left ||
	    node->strategy < 0 || node->strategy >= CLEARPAGE_STRATEGY_COUNT ||
	    !calibration->valid[node->strategy])
		return POLICY_R_FITS;
	policy_pick_strategies(config, allowed, calibration, hot, &unused);
	*cold = cheapest_cold(config, allowed, calibration, node);
	if (!usable(allowed, calibration, *hot) || *cold < 0 || *cold == *hot)
		return POLICY_R_FITS;
	pair = (1 - fraction) * effective_cost(calibration, node, *hot, 0) +
	       fraction * effective_cost(calibration, node, *cold, 1);
	current = effective_cost(calibration, node, node->strategy, fraction);
	*gain = (current - pair) / current;
	return *gain > config->margin ? POLICY_R_PER_FOLIO : POLICY_R_FITS;
}

/*
 * A node per folio: hold while its folios stay mixed and its pair is the
 * policy's; else leave for the strategy of the folios' one kind, or for
 * the hot strategy.
 */
static void split_step(const struct policy_config *config,
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
	cold = cheapest_cold(config, allowed, calibration, node);
	if (fraction >= 0 && fraction <= SPLIT_EDGE) {
		target = node->split_hot;
		why = POLICY_R_ONE_KIND;
	} else if (fraction >= 1 - SPLIT_EDGE) {
		target = node->split_cold;
		why = POLICY_R_ONE_KIND;
	} else if (!config->per_folio || hot != node->split_hot ||
		   cold != node->split_cold) {
		target = usable(allowed, calibration, hot) ? hot :
			 CLEARPAGE_STRATEGY_KERNEL;
		why = POLICY_R_PAIR_CHANGED;
	} else if (node->since_switch >= (node->split_try_every ?
					  node->split_try_every :
					  config->probe_interval)) {
		/*
		 * Measured against one strategy for all: a try of the one of
		 * the pair the calibration has cheaper for all at the count.
		 */
		bool cold_one = effective_cost(calibration, node,
					       node->split_cold,
					       node->split_fraction) <
				effective_cost(calibration, node,
					       node->split_hot,
					       node->split_fraction);

		target = cold_one ? node->split_cold : node->split_hot;
		why = cold_one ? POLICY_R_TRY_COLD : POLICY_R_TRY_HOT;
		decision->whole = true;
	} else {
		return hold(decision, POLICY_R_SPLIT);
	}
	if (node->since_switch < config->rate_limit)
		return hold(decision, POLICY_R_RATE_LIMITED);
	decision->action = POLICY_SWITCH;
	decision->to = target;
	set_reason(decision, why);
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
	if (*target == node->strategy || !adoptable(config, node, *target)) {
		*target = node->strategy;
		return POLICY_R_FITS;
	}
	current_ns = effective_cost(calibration, node, node->strategy, fraction);
	target_ns = effective_cost(calibration, node, *target, fraction);
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
		hold(decision, hands_off);
		return true;
	}
	decision->action = POLICY_REVERT;
	decision->to = CLEARPAGE_STRATEGY_KERNEL;
	set_reason(decision, POLICY_R_SLOWER_THAN_KERNEL);
	return true;
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
		return hold(decision, why);
	}
	decision->action = POLICY_SWITCH;
	decision->to = target;
	decision->whole = whole;
	set_reason(decision, reason);
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
 * guard -> hands off -> observe -> per folio -> confirm -> compare (with
 * trials: measured, or a try) or estimate -> propose -> gate. Every stage
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
		.user_misses_per_page = user_misses_per_page(sample),
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
	decision->from_penalty_ns = own_penalty(node);
	if (node->since_switch < ~0U >> 1)
		node->since_switch++;
	if (node->backoff_left)
		node->backoff_left--;
	for (int s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (node->refuted_left[s])
			node->refuted_left[s]--;
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
		return hold(decision, hands_off);
	}
	policy_observe(config, sample, &obs);
	if (!obs.measured) {
		forget_proposal(node);
		/* A try cleared too little to be measured: not kept. */
		if (node->trying && node->confirm_left &&
		    ++node->confirm_unmeasured >= config->confirm) {
			decision->action = POLICY_REVERT;
			decision->to = node->switched_from;
			set_reason(decision, POLICY_R_NOT_CHEAPER);
			return;
		}
		return hold(decision, POLICY_R_FEW_SAMPLES);
	}
	if (!paired && !obs.trials) {
		forget_proposal(node);
		return hold(decision, POLICY_R_NO_PAIR);
	}
	switch (policy_confirm(config, calibration, hot, node, &obs, decision)) {
	case POLICY_CONFIRM_PENDING:
		return hold(decision, POLICY_R_CONFIRMING);
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
	if (node->split)
		return split_step(config, allowed, calibration, node, &obs,
				  decision);
	if (sample->can_split && obs.probed &&
	    policy_split(config, allowed, calibration, node,
			 decision->cold_fraction, &decision->split_hot,
			 &decision->split_cold, &gain) == POLICY_R_PER_FOLIO) {
		decision->predicted_gain = gain;
		why = limits(config, node);
		if (why != POLICY_R_NONE)
			return hold(decision, why);
		decision->action = POLICY_SWITCH;
		decision->split = true;
		set_reason(decision, POLICY_R_PER_FOLIO);
		return;
	}
	if (obs.trials) {
		why = policy_compare(config, allowed, node, sample, &target,
				     &gain, &decision->gain_bound);
		decision->predicted_gain = gain;
		if (why != POLICY_R_MEASURED) {
			enum policy_reason tried = policy_try(
				config, allowed, calibration, node,
				decision->cold_fraction, &target);

			if (tried != POLICY_R_TRY_COLD &&
			    tried != POLICY_R_TRY_HOT) {
				forget_proposal(node);
				return hold(decision, why);
			}
			/* As a proposal: corroborated, dwell, limits. */
			return gated_switch(config, node, &obs, target,
					    tried == POLICY_R_TRY_COLD, 0, tried,
					    true, decision);
		}
		/* The window was the dwell; backoff and rate limit remain. */
		why = limits(config, node);
		if (why != POLICY_R_NONE)
			return hold(decision, why);
		decision->action = POLICY_SWITCH;
		decision->to = target;
		set_reason(decision, POLICY_R_MEASURED);
		return;
	}
	/*
	 * Reference frames that came too few this interval to tell the cold
	 * fraction: wait for more rather than probe as if there were none.
	 */
	if (decision->cold_fraction < 0 && sample->ref_samples &&
	    !obs.referenced) {
		forget_proposal(node);
		return hold(decision, POLICY_R_FEW_SAMPLES);
	}
	why = policy_propose(config, calibration, node, hot, cold,
			     decision->cold_fraction, &target, &gain);
	decision->predicted_gain = gain;
	if (why == POLICY_R_PROBE) {
		forget_proposal(node);
		decision->action = POLICY_SWITCH;
		decision->to = target;
		decision->probe = true;
		set_reason(decision, why);
		return;
	}
	if (why != POLICY_R_COLD && why != POLICY_R_HOT) {
		forget_proposal(node);
		return hold(decision, why);
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
	/* Every gain was over the strategy left: measure afresh. */
	trials_forget(node);
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
			unsigned int every = node->split_try_every ?
					     node->split_try_every :
					     config->probe_interval;

			node->split_try_every = every > REFUTE_MAX / 2 ?
						REFUTE_MAX : 2 * every;
		} else if (was_split) {
			unsigned int next = node->split_refute_next;

			if (!next)
				next = config->probe_interval;
			node->split_refuted_left = next;
			node->split_refute_next =
				next > REFUTE_MAX / 2 ? REFUTE_MAX : 2 * next;
		} else if (!node->probing && from >= 0 &&
			   from < CLEARPAGE_STRATEGY_COUNT) {
			unsigned int next = node->refute_next[from];

			if (!next)
				next = config->probe_interval;
			node->refuted_left[from] = next;
			node->refute_next[from] =
				next > REFUTE_MAX / 2 ? REFUTE_MAX : 2 * next;
		}
		if (node->trying && node->try_kind >= 0) {
			unsigned int *next = &node->try_next[node->try_kind];

			if (!*next)
				*next = config->probe_interval;
			node->try_left[node->try_kind] = *next;
			*next = *next > REFUTE_MAX / 2 ? REFUTE_MAX : 2 * *next;
		}
		node->probing = false;
		node->trying = false;
		node->from_split = false;
		node->try_kind = -1;
	}
}

void policy_backend_step(const struct policy_config *config,
			 unsigned int allowed,
			 const struct policy_calibration *calibration,
			 struct policy_backend *b,
			 const struct policy_counters *now,
			 const struct policy_extra *extra,
			 enum policy_reason hands_off,
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
	policy_step(config, allowed, calibration, &b->node, sample, hands_off,
		    decision);
}
