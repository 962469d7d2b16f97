/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One interval of one backend of one node, as sums: what the module's
 * counters (struct policy_counters) grew by between two reads. The same
 * struct goes to the policy's observe and compare stages (which take its
 * means with policy_mean()) and to the live baseline (which adds its sums
 * into the savings and the slower-than-kernel window): no stage rebuilds
 * it from means. clearpaged and clearpage-bench replay both build it with
 * policy_sample_build().
 */
#ifndef CLEARPAGED_SAMPLE_H
#define CLEARPAGED_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include <uapi/clearpage.h>

/*
 * What the module counts for one backend of one node, since it loaded
 * (nodeN/stats, or the netlink reply).
 */
struct policy_counters {
	int strategy;			/* the backend's strategy now */
	/*
	 * Per folio (the huge backend's probe mode): each folio cleared with
	 * @split_hot or @split_cold as the probe finds it, and the timed
	 * clears below are both's.
	 */
	bool split;
	int split_hot, split_cold;
	uint64_t pages;			/* cleared, every strategy, no reference frames */
	uint64_t samples;		/* the strategy's timed pages ... */
	uint64_t sample_ns;		/* ... and their time */
	uint64_t ref_pages;		/* reference frames, every one timed ... */
	uint64_t ref_ns;		/* ... and their time */
	uint64_t trial_pages[CLEARPAGE_STRATEGY_COUNT];	/* per candidate ... */
	uint64_t trial_ns[CLEARPAGE_STRATEGY_COUNT];	/* ... and their time */
	/*
	 * The temperature probe: units judged hot and cold (probe_*_<backend>),
	 * and of the hot those hot only as recycled (probe_recycled_<backend>).
	 */
	uint64_t probe_hot;
	uint64_t probe_cold;
	uint64_t probe_recycled;
	/* The touch probe: lines loaded after a non-temporal clear, and cached. */
	uint64_t touch_probed;
	uint64_t touch_cached;
};

/* What one interval measured on a backend of a node, as sums. */
struct policy_sample {
	int strategy;			/* the backend's strategy at its end */
	bool split;			/* per folio at its end (counters) */
	int split_hot, split_cold;
	uint64_t pages;			/* every page cleared, all frames */
	uint64_t samples;		/* the strategy's timed clears ... */
	double sample_ns;		/* ... and their time */
	/*
	 * Reference clears: frames cleared and timed with @ref_strategy (the
	 * kernel's routine) while the backend runs another strategy. They
	 * are the live baseline, and tell the cold fraction when the current
	 * strategy's cost cannot (a non-temporal strategy). None:
	 * ref_samples = 0.
	 */
	int ref_strategy;
	uint64_t ref_samples;
	double ref_ns;
	/*
	 * Trial clears: frames cleared and timed with each candidate
	 * strategy. @trials: the module runs trials (then the compare stage
	 * decides).
	 */
	bool trials;
	/* The backend has a probe mode whose probe can tell (the driver's). */
	bool can_split;
	uint64_t trial_samples[CLEARPAGE_STRATEGY_COUNT];
	double trial_ns[CLEARPAGE_STRATEGY_COUNT];
	/*
	 * The temperature probe: units (pages, folios) it judged hot and
	 * cold this interval, whatever strategy ran. They tell the cold
	 * fraction directly. @probe_recycled: of @probe_hot, units counted
	 * hot only because this CPU had just cleared them non-temporally (a
	 * temporal strategy would have left them cached; their lines were
	 * not, and per folio they are cleared with the cold strategy).
	 */
	uint64_t probe_hot;
	uint64_t probe_cold;
	uint64_t probe_recycled;
	/*
	 * The touch probe: lines of non-temporally cleared units loaded some
	 * time after their clear, and those found cached (the application
	 * had touched them, paying the miss the clear moved to it). @touch:
	 * the module has the probe and the node's calibration can tell a
	 * cached line, so that a non-temporal clear's cost to the
	 * application is measured without a PMU.
	 */
	bool touch;
	uint64_t touch_probed;
	uint64_t touch_cached;
	/*
	 * What the faulting access pays at once after a non-temporal clear
	 * of one unit: a 4 KiB fault reads or writes its faulting line as
	 * soon as the clear returns, and a non-temporal clear left that line
	 * in memory: one dependent miss, the probe calibration's cold load
	 * less its cached one, in ns. 0 where the clear leaves the faulting
	 * line cached (the huge backend clears the faulting subpage with a
	 * temporal routine, last) or the probe calibration cannot tell.
	 */
	double fault_line_ns;
	/* Where the PMU counted the node's last-level cache: */
	bool counted;
	double kernel_miss_ratio;	/* misses/references, kernel mode */
	double user_misses;		/* misses in user mode */
};

/* The mean of @n clears taking @ns in all; 0 when there are none. */
static inline double policy_mean(double ns, uint64_t n)
{
	return n ? ns / (double)n : 0;
}

/*
 * The interval from the counters at its start (@prev, absent when
 * @have_prev is false) and at its end (@now). The strategy's timed clears
 * and the reference frames count only when the strategy was the same at
 * both ends; pages count whatever ran, reference and trial frames
 * included. Counters that went backwards (the module was reloaded) give an
 * empty sample. The PMU's fields are the caller's to fill.
 */
void policy_sample_build(const struct policy_counters *prev, bool have_prev,
			 const struct policy_counters *now,
			 struct policy_sample *sample);

#endif /* CLEARPAGED_SAMPLE_H */
