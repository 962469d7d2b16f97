/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The adaptive policy of clearpaged: pure functions over plain structs, no
 * I/O, so that it is tested without root and driven by the replay benchmark
 * as the daemon drives it: both keep the module's counters and turn them
 * into the interval's sample with policy_sample_build(), then call
 * policy_step() and, for a change they made, policy_applied().
 *
 * Each interval, per node and backend, these stages (each declared below
 * with its contract):
 *   guard     the live baseline: a strategy that has cost more than the
 *             kernel's own clear (its reference frames) by more than
 *             SlowerMargin over the whole SlowerWindow returns to kernel and
 *             the node backs off (a pinned one is only flagged);
 *   observe   what the interval measured, against MinSamples;
 *   confirm   after a switch: if the cost over the confirmation intervals is
 *             worse than before it by more than the tolerance (a try or
 *             a switch from trials: not TrialMargin cheaper, as trial
 *             frames may measure a strategy apart from its cost on every
 *             clear), revert and back off;
 *   compare   where the module runs trials (clearpage.ko 0.3: trial frames
 *             cleared with each candidate strategy and timed, beside the
 *             reference frames cleared the kernel's way): the candidate
 *             measured cheaper than the current strategy, interval by
 *             interval on the same workload, by more than TrialMargin and
 *             beyond the noise over TrialWindow intervals. This is the
 *             decision wherever trials run; the calibration then only
 *             orders the candidates (policy_trials()), and the two stages
 *             below are skipped;
 *   try       (trials, none measured cheaper) a trial frame shows what a
 *             candidate costs in the cache state the node's other clears
 *             leave, not what it saves when it clears every page (a
 *             non-temporal node leaves no dirty lines for the next clears
 *             to write back, a gain no share of frames can see). So where
 *             the estimate says the pages are cold and the calibration's
 *             cheapest cold strategy is cheaper there than the current one,
 *             the whole node tries it; where they are hot on another
 *             strategy, it tries the hot one. The confirmation keeps a try
 *             only if it measured TrialMargin cheaper than before it; a
 *             revert refutes the strategy for ProbeIntervals, doubling with
 *             each revert;
 *   estimate  (no trials) the cold fraction, from where the measured ns/page lies
 *             between the calibrated hot and cold cost of the current
 *             strategy;
 *   propose   (no trials) the hot strategy below the down threshold, the cold one above
 *             the up threshold (hysteresis between), if the gain predicted
 *             at that fraction exceeds the margin;
 *   gate      the PMU's corroboration, dwell consecutive intervals, backoff
 *             and the rate limit.
 *
 * Per folio (PerFolio=yes, the huge backend where the module's probe can
 * tell a cached line): the temperature sample says how many folios are
 * hot and how many cold, but one strategy clears them all. Where clearing
 * each folio with the hot strategy or the cheapest cold one, as the
 * module's probe finds it, is predicted Margin cheaper at the counted
 * fraction than the current strategy, the node goes per folio (the
 * module's probe mode) after observe and confirm, ahead of compare; it is
 * confirmed as a try is, and a revert refutes it for ProbeIntervals,
 * doubling. Per folio, trials stop and the node holds, but for the guard,
 * until the folios are nearly all of one kind (the probe's count within
 * SPLIT_EDGE of 0 or 1: one strategy does as well without the probe's
 * loads) or the pair is no longer the policy's; and every ProbeIntervals
 * (doubling after each revert) it tries on the whole node the one of the
 * pair the calibration has cheaper for all folios at the count, a try
 * confirmed as any other, whose revert goes back per folio: the
 * calibration's prediction that put it there is checked against the costs
 * it measures.
 *
 * A non-temporal cold strategy costs about the same on hot and cold pages,
 * so while it runs the zeroing cost cannot show the pages turning hot. The
 * module's temperature probe asks the pages instead: a sample of them,
 * whatever strategy runs, is probed before its clear (timed loads of a few
 * lines) and counted hot or cold, and where it counted at least MinSamples
 * units in the interval their cold share is the cold fraction, ahead of
 * any inference from costs. Without it, the module's reference clears
 * (the live baseline: the kernel's own routine on a small share of the
 * pages, beside any strategy but kernel) tell the cold fraction, read
 * against the calibration of that same routine. Without either, every
 * probe_interval intervals the policy tries the hot strategy; the
 * confirmation reverts the probe if the pages are still cold.
 *
 * A non-temporal clear leaves the page out of the cache, and an
 * application that reads it next pays the misses. Two signals show that
 * cost. The module's touch probe loads one line of a sample of
 * non-temporally cleared units (the node's own clears, or a non-temporal
 * candidate's trial frames) some time after the clear: cached means the
 * application touched it. Its share, over about the last ten intervals
 * that loaded lines (sums decayed by TOUCH_DECAY in each), makes every non-temporal
 * strategy dearer by share x a page's lines x the cost of a missed line,
 * wherever costs are compared (trials, tries, proposals, confirmations);
 * on the 4 KiB backend, whose faulting access reads its line at once, one
 * dependent miss more (the sample's @fault_line_ns) for certain.
 * Where the PMU counts user-space misses, the confirmation charges those
 * instead. NonTemporal=auto allows movnti and clzero only where one of the
 * two measures (policy_allowed()), and adopts one without the PMU only
 * once the touch probe's share is known, but for a try on the whole node,
 * whose confirmation waits for the share its own clears give.
 *
 * Where the PMU counts last-level cache misses, two more signals join in: a
 * switch to the cold strategy needs the kernel's LLC miss ratio to
 * corroborate the cold estimate, and the confirmation charges a switch for
 * the user-space cache misses it adds per page cleared (a non-temporal clear
 * leaves the page out of the cache, and the application then pays for it),
 * each at the calibrated cost of one missed line.
 */
#ifndef CLEARPAGED_POLICY_H
#define CLEARPAGED_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include <uapi/clearpage.h>

#include "baseline.h"
#include "sample.h"

struct policy_config {
	double up_threshold;		/* cold fraction to go cold, 0..1 */
	double down_threshold;		/* cold fraction to go hot, < up */
	double margin;			/* predicted gain needed, fraction */
	unsigned int dwell;		/* intervals a proposal must hold */
	double fast_gain;		/* predicted gain that needs no dwell */
	unsigned int rate_limit;	/* intervals between two switches */
	unsigned int confirm;		/* intervals measured after a switch */
	double revert_tolerance;	/* worse than predicted by this: revert */
	unsigned int backoff;		/* intervals without switching after */
	uint64_t min_samples;		/* timed clears needed in an interval */
	double min_spread;		/* cold/hot needed for a usable calibration */
	unsigned int probe_interval;	/* intervals on a flat cold strategy
					 * before trying the hot one again */
	double min_cold_miss_ratio;	/* kernel LLC misses/references needed
					 * to go cold, where counted; 0: off */
	/*
	 * Non-temporal strategies (movnti, clzero) leave the page out of the
	 * cache, and an application that reads it next pays the misses: the
	 * PMU's user-mode LLC counters or the module's touch probe show it.
	 * POLICY_NT_AUTO allows them only where one of the two measures.
	 */
	int non_temporal;		/* POLICY_NT_* */
	bool per_folio;			/* the huge backend's probe mode allowed */
	int hot_strategy;		/* -1: rep_stosb if allowed and not dearer
					 * than kernel on hot pages, else kernel */
	int cold_strategy;		/* -1: best allowed by cold calibration */
	/* Trials (the compare stage): */
	unsigned int trial_candidates;	/* timed beside the current strategy
					 * while exploring; 0: no trials */
	unsigned int trial_window;	/* intervals a comparison spans */
	double trial_margin;		/* measured gain needed, fraction */
	double trial_confidence;	/* standard errors the gain must clear */
	unsigned int trial_settle;	/* steady intervals after which one
					 * candidate is timed, not all */
	/* The guard (the live baseline's slower-than-kernel window): */
	double slower_margin;		/* fraction dearer than the kernel */
	unsigned int slower_window;	/* intervals; 0: no guard */
	double interval_seconds;	/* an interval's length, for the window */
};

/* The longest TrialWindow. */
#define POLICY_TRIAL_WINDOW_MAX 64

enum { POLICY_NT_NO, POLICY_NT_YES, POLICY_NT_AUTO };

void policy_config_defaults(struct policy_config *config);

/*
 * @allowed without the non-temporal strategies where the config says so:
 * NonTemporal=no, or auto where nothing measures what they cost the
 * application (@measured: the PMU counted the node's LLC, or the module's
 * touch probe can tell).
 */
unsigned int policy_allowed(const struct policy_config *config,
			    unsigned int allowed, bool measured);

/* movnti and clzero: the page left out of the cache. */
bool policy_non_temporal(int strategy);

/* The names of include/uapi/clearpage.h: "unknown" / -EINVAL outside them. */
const char *policy_strategy_name(int strategy);
int policy_strategy_from_name(const char *name);

struct policy_calibration {
	bool valid[CLEARPAGE_STRATEGY_COUNT];
	double hot_ns[CLEARPAGE_STRATEGY_COUNT];
	double cold_ns[CLEARPAGE_STRATEGY_COUNT];
};

/* Why the policy decided what it did; policy_reason_text() words it. */
enum policy_reason {
	POLICY_R_NONE,
	POLICY_R_PINNED,		/* hold: hands off, an administrator's pin */
	POLICY_R_HELD,			/* hold: hands off, clearpagectl reset */
	POLICY_R_FEW_SAMPLES,		/* hold */
	POLICY_R_NO_PAIR,		/* hold: no usable hot/cold pair */
	POLICY_R_CONFIRMING,		/* hold */
	POLICY_R_UNTELLABLE,		/* hold: cost cannot tell hot from cold */
	POLICY_R_FITS,			/* hold */
	POLICY_R_BELOW_MARGIN,		/* hold */
	POLICY_R_NOT_CORROBORATED,	/* hold: the PMU disagrees */
	POLICY_R_BACKING_OFF,		/* hold */
	POLICY_R_DWELL,			/* hold */
	POLICY_R_RATE_LIMITED,		/* hold */
	POLICY_R_PROBE,			/* switch to the hot strategy, to try */
	POLICY_R_COLD,			/* switch to the cold strategy */
	POLICY_R_HOT,			/* switch to the hot strategy */
	POLICY_R_WORSE,			/* revert: the cost rose */
	POLICY_R_USER_MISSES,		/* revert: user-space misses rose more */
	POLICY_R_SLOWER_THAN_KERNEL,	/* revert to kernel: the live baseline */
	POLICY_R_TRIALS_FILLING,	/* hold: a window of trials not yet full */
	POLICY_R_NONE_CHEAPER,		/* hold: no candidate cheaper beyond noise */
	POLICY_R_MEASURED,		/* switch: measured cheaper on trials */
	POLICY_R_TRY_COLD,		/* switch the whole node, to try */
	POLICY_R_TRY_HOT,		/* switch the whole node, to try */
	POLICY_R_NOT_CHEAPER,		/* revert: a switch from trials or a try
					 * saved less than TrialMargin */
	POLICY_R_PER_FOLIO,		/* switch to per folio */
	POLICY_R_SPLIT,			/* hold: per folio */
	POLICY_R_ONE_KIND,		/* switch: folios all hot or all cold */
	POLICY_R_PAIR_CHANGED,		/* switch: the pair is not the policy's */
	POLICY_R_TOUCH_UNKNOWN,		/* revert: a non-temporal try's cost to
					 * the application stayed unknown */
	POLICY_R_COUNT
};

const char *policy_reason_text(enum policy_reason reason);

enum policy_action {
	POLICY_HOLD,
	POLICY_SWITCH,
	POLICY_REVERT,
};

struct policy_decision {
	enum policy_action action;
	int from;
	int to;
	enum policy_reason reason_id;
	const char *reason;		/* policy_reason_text(reason_id) */
	double cold_fraction;		/* -1 when unknown */
	double ns_per_page;
	double predicted_gain;		/* fraction of the current cost */
	double user_misses_per_page;	/* -1 when not counted */
	/*
	 * The touch probe's share of cached lines (-1: unknown, or the PMU
	 * counts instead), and what it adds to a page of a non-temporal
	 * strategy; @from_penalty_ns: of the strategy left.
	 */
	double touch_share;
	double touch_penalty_ns;
	double from_penalty_ns;
	bool probe;			/* a SWITCH that only tries */
	/*
	 * A SWITCH to per folio: @split_hot for hot folios, @split_cold for
	 * cold ones (the backend's strategy stays @from). Any other SWITCH or
	 * REVERT of a node per folio (@from_split) leaves it for @to.
	 */
	bool split;
	int split_hot, split_cold;
	bool from_split;
	bool whole;			/* a TRY: kept only if TrialMargin cheaper */
	/* MEASURED: the target's gain, less TrialConfidence standard errors. */
	double gain_bound;
	/*
	 * The guard found the strategy slower than the kernel over the window
	 * (a REVERT to kernel, or a HOLD when pinned): its costs and length.
	 */
	bool slower;
	double kernel_ns_per_page;
	double window_seconds;
};

/*
 * The window of one candidate: per interval, the gain of its trial clears
 * over the current strategy's own, (own - trial) / own.
 */
struct policy_trial_window {
	unsigned int used, next;
	unsigned int idle;		/* intervals since its last gain */
	double gain[POLICY_TRIAL_WINDOW_MAX];
};

struct policy_node {
	int strategy;			/* what the node runs now */
	int proposal;			/* -1: none */
	unsigned int streak;		/* intervals the proposal held */
	unsigned int since_switch;
	unsigned int backoff_left;
	/* Confirmation of the last switch. */
	unsigned int confirm_left;
	int switched_from;
	bool probing;			/* the last switch was a probe */
	bool trying;			/* ... a try, or from trials: kept
					 * only if TrialMargin cheaper */
	double before_ns;		/* measured cost before the switch */
	double before_user_misses;	/* per page cleared; -1: not counted */
	double confirm_ns_sum;
	double confirm_user_sum;
	unsigned int confirm_intervals;
	unsigned int confirm_user_intervals;
	unsigned int confirm_unmeasured;	/* a try's intervals too few to time */
	/* The guard's window of the strategy's and the kernel's costs. */
	struct baseline_window slower_window;
	/* Trials: a window per candidate (kernel's from reference frames). */
	struct policy_trial_window trial[CLEARPAGE_STRATEGY_COUNT];
	unsigned int steady;		/* intervals the own cost held steady */
	double steady_ns;		/* its running mean */
	/*
	 * A candidate whose window (three intervals or more, a full one
	 * against TrialConfidence, one not yet full against Student's t)
	 * measured it half as dear again as the node's own clears, beyond
	 * noise, rests from trials for trial_rest[s] intervals: its frames
	 * cost more than they can tell. Each rest is trial_rest_next[s], from
	 * ProbeIntervals doubled at each dear verdict up to 8 times that (at
	 * most a day of intervals); a full window that finds it not so dear
	 * resets the doubling. A rest ends, and its doubling, when the
	 * probe's running cold fraction (probed_smooth) moves more than 0.25
	 * from trial_rest_at[s] (where it was found dear; -1: not probed),
	 * and at a change of strategy to the other kind (temporal,
	 * non-temporal, per folio).
	 */
	unsigned int trial_rest[CLEARPAGE_STRATEGY_COUNT];
	unsigned int trial_rest_next[CLEARPAGE_STRATEGY_COUNT];
	double trial_rest_at[CLEARPAGE_STRATEGY_COUNT];
	/*
	 * A strategy whose switch or try the confirmation reverted is neither
	 * tried nor adopted from trials for refuted_left[s] intervals; each
	 * revert doubles refute_next[s] (from ProbeIntervals), a kept switch
	 * resets it.
	 */
	unsigned int refuted_left[CLEARPAGE_STRATEGY_COUNT];
	unsigned int refute_next[CLEARPAGE_STRATEGY_COUNT];
	/*
	 * A reverted try refutes its kind too (0: hot, 1: cold) for as long,
	 * whatever its target: a calibration that ranks several strategies
	 * wrong for the regime must not have each tried in turn.
	 */
	int try_kind;			/* of the switch confirmed now; -1 */
	unsigned int try_left[2], try_next[2];
	/*
	 * The touch probe's lines loaded and found cached, decayed by
	 * TOUCH_DECAY each interval; what a page of a non-temporal strategy
	 * costs the application at their share (0: nothing known, or the
	 * PMU counts), and whether the share is known.
	 */
	double touch_probed;
	double touch_cached;
	double touch_penalty_ns;
	bool touch_known;
	bool counted;			/* the PMU counted the last interval */
	/*
	 * Per folio: the pair, the cold fraction last counted, and how long a
	 * revert refutes it (as refuted_left for a strategy).
	 */
	bool split;
	int split_hot, split_cold;
	double split_fraction;
	unsigned int split_refuted_left, split_refute_next;
	/*
	 * Per folio, a static strategy is tried on the whole node (the
	 * folios' majority kind's) every @split_try_every intervals, doubling
	 * after each revert; @from_split: the switch being confirmed left per
	 * folio (@from_split_hot, @from_split_cold), to which a revert goes
	 * back.
	 */
	unsigned int split_try_every;
	bool from_split;
	int from_split_hot, from_split_cold;
	/*
	 * The cold fraction the temperature probe counted last (-1: none):
	 * policy_trials() orders the candidates at it.
	 */
	double probed_fraction;
	/*
	 * ... and of its units the share hot only as recycled (0: none),
	 * which per folio are cleared with the cold strategy (policy_split()).
	 */
	double probed_recycled;
	/*
	 * ... and its running mean (1/8 of each new count; -1: none yet): a
	 * count of one interval's few probed units moves by 0.1 and more.
	 */
	double probed_smooth;
	/*
	 * 1 + the strategy whose trial gains are against its control
	 * frames (policy_compare()); 0: against its samples.
	 */
	int control_for;
};

void policy_node_init(struct policy_node *node, int strategy);

/*
 * Resolve the configured hot and cold strategies against @allowed (a bit per
 * strategy) and the calibration: returns false when no usable pair exists.
 */
bool policy_pick_strategies(const struct policy_config *config,
			    unsigned int allowed,
			    const struct policy_calibration *calibration,
			    int *hot, int *cold);

/*
 * The cold fraction of clears costing @ns_per_page under @strategy, or -1
 * when it can't be told.
 */
double policy_cold_fraction(const struct policy_config *config,
			    const struct policy_calibration *calibration,
			    int strategy, double ns_per_page);

/*
 * The cost of one cache line missed by user space, from the calibration of
 * @hot_strategy: (cold - hot) / lines per page. 0 when it can't be told.
 */
double policy_line_miss_ns(const struct policy_calibration *calibration,
			   int hot_strategy);

/* Predicted ns/page of @strategy at @cold_fraction. */
double policy_predict(const struct policy_calibration *calibration,
		      int strategy, double cold_fraction);

/*
 * The candidates to time on the trial frames of a node running
 * node->strategy (a bit per strategy, kernel's never: its frames are the
 * reference frames): the allowed strategies ordered by the calibration
 * (cold cost, then hot; at the cold fraction the temperature probe last
 * counted, where it did: a hot node does not time cold strategies on its
 * pages), none the calibration cannot tell from node->strategy (twins:
 * of one kind, hot and cold within 5% or 2 ns; never the kernel),
 * TrialCandidates of them while exploring; once the
 * node's own cost has held steady for TrialSettle intervals, only the one
 * measured closest to winning. A shift of the cost widens it again. 0 when
 * TrialCandidates is 0.
 */
unsigned int policy_trials(const struct policy_config *config,
			   unsigned int allowed, bool counted,
			   const struct policy_calibration *calibration,
			   const struct policy_node *node);

/*
 * The stages of one interval, each pure but for the node state it names.
 *
 * observe: what the interval measured, judged against MinSamples.
 */
struct policy_observation {
	bool measured;			/* enough timed clears of the strategy */
	double ns_per_page;		/* their mean */
	bool referenced;		/* enough reference clears */
	bool trials;			/* the module runs trials, and the
					 * config wants them: compare decides */
	int ref_strategy;		/* what they ran: the kernel's routine */
	double ref_ns_per_page;
	double user_misses_per_page;	/* -1: not counted */
	bool counted;			/* the PMU counted the node's LLC */
	double kernel_miss_ratio;
	/*
	 * The units the temperature probe judged (0 when fewer than
	 * MinSamples), and the cold share of them.
	 */
	uint64_t probed;
	double probed_cold_fraction;
	/* Of them, the share counted hot only as recycled (sample.h). */
	double probed_recycled_fraction;
};

void policy_observe(const struct policy_config *config,
		    const struct policy_sample *sample,
		    struct policy_observation *obs);

/*
 * confirm: for ConfirmIntervals after a switch, the mean cost (plus, where
 * counted, the user-space misses it added at the cost of a missed line)
 * against the cost before it. NONE: no switch to confirm; PENDING: still
 * measuring; KEEP: it did no worse than RevertTolerance allows; REVERT:
 * @decision says back to where it came from, and why.
 */
enum policy_confirm {
	POLICY_CONFIRM_NONE,
	POLICY_CONFIRM_PENDING,
	POLICY_CONFIRM_KEEP,
	POLICY_CONFIRM_REVERT,
};

enum policy_confirm policy_confirm(const struct policy_config *config,
				   const struct policy_calibration *calibration,
				   int hot, struct policy_node *node,
				   const struct policy_observation *obs,
				   struct policy_decision *decision);

/*
 * compare: add the interval's trials to the candidates' windows, then
 * MEASURED with @target and @gain (the window's mean) and @bound (less
 * TrialConfidence standard errors) for the candidate with the largest mean
 * gain whose window is full, whose mean exceeds TrialMargin and whose
 * bound exceeds 0; else TRIALS_FILLING while no allowed candidate's window
 * is full, NONE_CHEAPER otherwise.
 */
enum policy_reason policy_compare(const struct policy_config *config,
				  unsigned int allowed,
				  struct policy_node *node,
				  const struct policy_sample *sample,
				  int *target, double *gain, double *bound);

/*
 * try: where compare measured no candidate cheaper, a switch of the whole
 * node at the cold fraction @fraction (unknown counts as cold): TRY_COLD
 * with @target the calibration's cheapest cold strategy at or above
 * UpThreshold, TRY_HOT with the hot strategy at or below DownThreshold,
 * either only if no revert refutes it and the calibration has it
 * TrialMargin cheaper than the current strategy there, both as calibrated
 * and as it cost this interval (@own_ns per page, 0 when not timed: a
 * calibration taken in another memory regime does not outweigh what the
 * node measures); else FITS. A cold try may pick a non-temporal strategy
 * whose cost to the application is not known yet where the touch probe
 * can tell it: the try's own clears are probed, and its confirmation waits
 * for the share. A try then passes the gate as a proposal does (the PMU's
 * corroboration of a cold one, DwellIntervals, backoff, the rate limit); a
 * try whose clears are too few to time for ConfirmIntervals is reverted.
 */
enum policy_reason policy_try(const struct policy_config *config,
			      unsigned int allowed,
			      const struct policy_calibration *calibration,
			      const struct policy_node *node, double fraction,
			      double own_ns, int *target);

/*
 * split: PER_FOLIO where the temperature probe's cold @fraction lies more
 * than SPLIT_EDGE from 0 and 1, per folio is not refuted, and clearing hot
 * folios with @hot (the hot strategy) and cold ones with @cold (the
 * cheapest cold one, with what the application pays for a non-temporal
 * one) is predicted more than Margin cheaper than the current strategy at
 * @fraction (@gain); else FITS.
 */
enum policy_reason policy_split(const struct policy_config *config,
				unsigned int allowed,
				const struct policy_calibration *calibration,
				const struct policy_node *node, double fraction,
				int *hot, int *cold, double *gain);

/*
 * estimate: the cold fraction the temperature probe counted, where it
 * probed MinSamples units; else from where the strategy's cost lies
 * between its calibrated hot and cold cost; where that spread is too small
 * (a non-temporal strategy), from the reference clears against the
 * calibration of the routine they ran. -1 when none tells.
 */
double policy_estimate(const struct policy_config *config,
		       const struct policy_calibration *calibration,
		       int strategy, const struct policy_observation *obs);

/*
 * propose: the target at @fraction (cold at or above UpThreshold, hot at or
 * below DownThreshold, else the current one) and its predicted gain.
 * Returns COLD or HOT for a proposal worth its Margin; PROBE (target hot)
 * when the fraction is unknown on the cold strategy and ProbeIntervals have
 * passed outside a backoff; else why there is none (FITS, BELOW_MARGIN,
 * UNTELLABLE).
 */
enum policy_reason policy_propose(const struct policy_config *config,
				  const struct policy_calibration *calibration,
				  const struct policy_node *node, int hot,
				  int cold, double fraction, int *target,
				  double *gain);

/*
 * gate: whether a proposal may switch now. NOT_CORROBORATED when the PMU's
 * kernel LLC miss ratio says the pages are not cold (the proposal does not
 * stand); otherwise the proposal's streak grows and BACKING_OFF, DWELL
 * (fewer than DwellIntervals in a row, unless the gain reaches FastGain or
 * the temperature probe counted the cold fraction) or RATE_LIMITED hold
 * it; NONE lets it through.
 */
enum policy_reason policy_gate(const struct policy_config *config,
			       struct policy_node *node,
			       const struct policy_observation *obs,
			       int target, bool to_cold, double gain);

/*
 * guard: add the interval to the node's slower-than-kernel window
 * (restarted when the strategy changed) and judge it; true when the
 * strategy was slower than the kernel over the whole window, with
 * @decision a REVERT to kernel (a HOLD for @hands_off's reason when the
 * backend is not the policy's to change) and its figures.
 */
bool policy_guard(const struct policy_config *config, struct policy_node *node,
		  const struct policy_sample *sample,
		  enum policy_reason hands_off,
		  struct policy_decision *decision);

/*
 * One interval for one node: guard -> pinned or held (@hands_off, a hold
 * reason: POLICY_R_PINNED or POLICY_R_HELD; POLICY_R_NONE when the backend
 * is the policy's) -> observe -> confirm -> estimate -> per folio ->
 * compare (with trials: measured, or a try) or propose -> gate. The
 * caller applies a SWITCH or REVERT and then calls policy_applied(); in
 * dry-run it logs the decision and does not.
 */
void policy_step(const struct policy_config *config, unsigned int allowed,
		 const struct policy_calibration *calibration,
		 struct policy_node *node, const struct policy_sample *sample,
		 enum policy_reason hands_off,
		 struct policy_decision *decision);

void policy_applied(const struct policy_config *config,
		    struct policy_node *node,
		    const struct policy_decision *decision);

/*
 * One backend of one node as its driver keeps it, clearpaged and
 * clearpage-bench replay alike: the policy's state, and the module's
 * counters at the end of the last interval.
 */
struct policy_backend {
	struct policy_node node;
	struct policy_counters last;
	bool have_last;
	bool known;			/* seen once */
};

/*
 * touch: the interval's touch probe into @node's decayed sums, and the
 * cost a non-temporal page adds at their share (share x a page's lines x
 * the calibrated cost of a line missed by @hot_strategy), unless the PMU
 * counts the misses (@sample->counted) or too few lines were loaded.
 */
void policy_touch_update(const struct policy_config *config,
			 const struct policy_calibration *calibration,
			 int hot_strategy, struct policy_node *node,
			 const struct policy_sample *sample);

/* The touch probe's share of cached lines, -1 while unknown. */
double policy_touch_share(const struct policy_config *config,
			  const struct policy_node *node);

/* What the application pays per page of @strategy beyond its clear. */
double policy_touch_penalty(const struct policy_node *node, int strategy);

/*
 * What the faulting access of @backend pays after a non-temporal clear
 * (struct policy_sample's @fault_line_ns) from the module's probe
 * calibration: a cached line's load (@hot_ticks) and a line's from memory
 * (@cold_ticks), TSC ticks of @ns_per_tick; 0 on the huge backend, or
 * where the calibration cannot tell (@threshold_ticks 0).
 */
double policy_fault_line_ns(int backend, double hot_ticks, double cold_ticks,
			    double threshold_ticks, double ns_per_tick);

/* What a driver knows of an interval beyond the module's counters. */
struct policy_extra {
	bool trials;			/* the backend runs trials */
	bool touch;			/* the module's touch probe can tell */
	bool can_split;			/* a probe mode whose probe can tell */
	bool counted;			/* the PMU counted the node's LLC: */
	double kernel_miss_ratio;
	double user_misses;
	double fault_line_ns;		/* struct policy_sample's */
};

/*
 * One interval of one backend, the one way both drivers run the policy: a
 * backend seen for the first time, or whose strategy someone else changed
 * (@now->strategy is not the policy's), starts afresh; the counters at the
 * interval's end (@now) and @extra become @sample; policy_step() decides
 * (@hands_off: POLICY_R_PINNED, POLICY_R_HELD or POLICY_R_NONE); a SWITCH
 * or REVERT goes to @apply (with @ctx), and where it put the decision into
 * effect (the module may refuse it; a dry run does not), policy_applied()
 * follows. Returns the trial candidates the backend should time in the
 * next interval (policy_trials(); 0 without @extra->trials).
 */
typedef bool policy_apply_fn(void *ctx, const struct policy_decision *decision);

unsigned int policy_backend_step(const struct policy_config *config,
				 unsigned int allowed,
				 const struct policy_calibration *calibration,
				 struct policy_backend *b,
				 const struct policy_counters *now,
				 const struct policy_extra *extra,
				 enum policy_reason hands_off,
				 policy_apply_fn *apply, void *ctx,
				 struct policy_sample *sample,
				 struct policy_decision *decision);

#endif /* CLEARPAGED_POLICY_H */
