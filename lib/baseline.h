/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live baseline, pure: what each backend of each node saves against the
 * kernel's own routine, and whether its strategy has been slower than the
 * kernel over a window. No I/O; clearpaged feeds it one interval at a time
 * (sample.h) from the module's counters (tests/unit/test-baseline.c drives it alone).
 *
 * The module clears a fixed share of frames (reference frames, see
 * reference_shift in doc/ABI) with the kernel's routine while a backend runs
 * any other strategy, and times every one of them; the strategy's own
 * clears are sampled. Both cost per page are measured on the same workload
 * in the same interval, so their difference, times the pages the strategy
 * cleared, is the time it saved (negative: lost).
 */
#ifndef CLEARPAGED_BASELINE_H
#define CLEARPAGED_BASELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "sample.h"

/* The largest window, in intervals. */
#define BASELINE_MAX_WINDOW 256

/*
 * Time saved against the kernel's routine since accounting began.
 * Intervals with fewer than min_samples on either side are not estimated:
 * their pages are counted in unestimated_pages.
 */
struct baseline_savings {
	double saved_ns;		/* sum of pages_i * (kernel_i - strategy_i) */
	double kernel_ns;		/* sum of pages_i * kernel_i */
	double pages_sq;		/* sum of pages_i^2, for the uncertainty */
	uint64_t estimated_pages;
	uint64_t unestimated_pages;
	/* Welford over the per-interval differences kernel_i - strategy_i. */
	uint64_t intervals;
	double diff_mean, diff_m2;
	/* The last interval's estimate. */
	bool last_valid;
	double last_saved_ns, last_kernel_ns_per_page, last_ns_per_page;
};

/*
 * The window over which a strategy must not be slower than the kernel:
 * per-interval sums, reset when the strategy changes.
 */
struct baseline_window {
	int strategy;
	unsigned int used, next;
	struct {
		uint64_t samples, ref_samples;
		double sample_ns, ref_ns, seconds;
	} slot[BASELINE_MAX_WINDOW];
};

struct baseline_verdict {
	bool slower;			/* over the whole window, beyond the margin */
	double ns_per_page;		/* the strategy's, over the window */
	double kernel_ns_per_page;	/* the kernel routine's, over the window */
	double seconds;			/* the window's length */
};

void baseline_savings_init(struct baseline_savings *s);
/*
 * Account one interval: its pages but the reference frames, at the cost
 * of @in->strategy.
 */
void baseline_savings_add(struct baseline_savings *s,
			  const struct policy_sample *in,
			  uint64_t min_samples);
/*
 * One standard deviation of saved_ns: the spread of the per-interval
 * differences, scaled by the pages of each interval. Negative while fewer
 * than two intervals were estimated.
 */
double baseline_savings_uncertainty(const struct baseline_savings *s);

void baseline_window_init(struct baseline_window *w, int strategy);
/*
 * Add one interval, @seconds long, to @w (restarted if @in->strategy is
 * not the window's) and judge the
 * last @intervals of it: slower when they are all there, each side has at
 * least @min_samples over the intervals that timed both sides (the others
 * do not count), and the strategy's cost per page exceeds the
 * kernel's by more than @margin (a fraction). kernel itself is never
 * slower than the kernel.
 */
void baseline_window_add(struct baseline_window *w,
			 const struct policy_sample *in, double seconds,
			 unsigned int intervals, uint64_t min_samples,
			 double margin, struct baseline_verdict *verdict);

#endif /* CLEARPAGED_BASELINE_H */
