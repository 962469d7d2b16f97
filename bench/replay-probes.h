/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's two probes as clearpage-bench replay models them, with the
 * module's own routines (probe.h), so that the replay's adaptive arm
 * gets what clearpaged gets from the module:
 *   the temperature sample  before the clear of one unit (a page, or a
 *                           folio) per --probe-every pages, clearpage_probe()
 *                           against the probe calibration's threshold, or
 *                           the table of recent clears (a unit cleared
 *                           non-temporally within the last-level cache's
 *                           reach), counted hot or cold (kmod/clear.c
 *                           clearpage_probe_pick());
 *   the touch probe         a unit whose clearpage_touch_pick() line a
 *                           non-temporal routine cleared, one in
 *                           --touch-every (every trial one), held while the
 *                           slot is free; --touch-delay units later its line
 *                           is loaded and timed: cached means the
 *                           application touched it (kmod/touch.c, the delay
 *                           in units instead of ms).
 * Both count into cumulative counters, as the module's, and keep the truth
 * (the unit's pool, the bytes the application read) to say how often they
 * were right.
 */
#ifndef CLEARPAGE_BENCH_REPLAY_PROBES_H
#define CLEARPAGE_BENCH_REPLAY_PROBES_H

#include <stdbool.h>
#include <stdint.h>

struct replay_probes {
	unsigned long threshold;	/* ticks; 0: neither probe runs */
	unsigned long probe_every;	/* pages per sampled unit; 0: none */
	unsigned long touch_every;	/* non-temporal clears per held unit */
	unsigned long touch_delay;	/* units cleared before the probe */
	unsigned long reach_pages;	/* clearpage_recent_reach_pages() */
	uint64_t page_sequence, touch_sequence;
	struct clearpage_recent recent;
	/* The held unit: its line, units to go, and whether it was read. */
	const char *held;
	unsigned long held_left;
	bool held_truth;
	/* The module's counters, cumulative. */
	uint64_t probe_hot, probe_cold, probe_recycled, probe_ticks;
	uint64_t touch_probed, touch_cached;
	/* The truth: units judged right; lines the application had read. */
	uint64_t probe_right, touch_truth;
	volatile uint64_t sink;
};

/* Counters and the slot back to zero (an arm's start). */
void replay_probes_reset(struct replay_probes *p);

/*
 * The temperature sample before the clear of @unit (@nr_pages, faulted at
 * its first byte), which came from the cold pool when @cold: counted hot
 * if cached or recycled, as the module counts it; returns whether it was
 * cached (the probe mode's choice), -1 when not probed. @every: the probe
 * mode (every unit probed).
 */
int replay_probe_sample(struct replay_probes *p, const char *unit,
			unsigned long nr_pages, bool cold, bool every);

/*
 * Before @unit (@nr_pages) is cleared: if it is the held unit, its line is
 * loaded now. The module holds a reference on a held folio, which cannot
 * come back to be cleared before the probe; the replay's pools recycle
 * units regardless.
 */
void replay_touch_before(struct replay_probes *p, const char *unit,
			 unsigned long nr_pages);

/* @unit cleared with @strategy, in the table of recent clears. */
void replay_probe_cleared(struct replay_probes *p, const char *unit,
			  unsigned long nr_pages, int strategy);

/*
 * After the clear of @unit and the application's read of its first
 * @read_bytes: the held unit's probe once due, then @unit held when a
 * non-temporal routine cleared its line (@strategy, and @way over its
 * subpages [@first, @first + @m), as clearpage_touch_pick() takes them).
 */
void replay_touch_step(struct replay_probes *p, const char *unit,
		       unsigned long nr_pages, int strategy, int way,
		       unsigned long first, unsigned long m,
		       unsigned long read_bytes);

#endif /* CLEARPAGE_BENCH_REPLAY_PROBES_H */
