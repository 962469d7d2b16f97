/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * How a folio is cleared with the routines of clearpage/strategies.h: the
 * kernel's own orders per series, the ranges of a huge folio (the faulting
 * subpage's neighbourhood last), the measured part of a reference or trial
 * folio, the frame rule that names a folio's way, and a gigantic folio's
 * chunks for helper CPUs. Shared by clearpage.ko, the tests and the
 * benchmarks.
 */
#ifndef _CLEARPAGE_FOLIO_H
#define _CLEARPAGE_FOLIO_H

#include <clearpage/strategies.h>

/*
 * The kernel's own order for a huge folio in Linux 6.1 and 6.12
 * (process_huge_page()): subpages far from the faulting one @fault first,
 * then converging on it from both sides, one 4 KiB page at a time; a folio of
 * more than @max_order_pages (gigantic) in address order. Calls
 * @clear(@ctx, index) for every subpage; inlined, so the call is direct.
 */
static __always_inline void
clearpage_kernel_walk(unsigned long fault, unsigned long nr_pages,
		      unsigned long max_order_pages,
		      void (*clear)(void *ctx, unsigned long index), void *ctx)
{
	long i, n = (long)fault, nr = (long)nr_pages, base, l;

	if (nr_pages > max_order_pages) {
		for (i = 0; i < nr; i++)
			clear(ctx, (unsigned long)i);
		return;
	}
	if (2 * n <= nr) {
		base = 0;
		l = n;
		for (i = nr - 1; i >= 2 * n; i--)
			clear(ctx, (unsigned long)i);
	} else {
		base = nr - 2 * (nr - n);
		l = nr - n;
		for (i = 0; i < base; i++)
			clear(ctx, (unsigned long)i);
	}
	for (i = 0; i < l; i++) {
		clear(ctx, (unsigned long)(base + i));
		clear(ctx, (unsigned long)(base + 2 * l - 1 - i));
	}
}

/*
 * The order in which a huge folio of @nr_pages is cleared when it is cleared
 * as ranges (as Linux 7.0 does): the subpages right of the faulting one
 * @fault, then those left of it, and last the faulting subpage with
 * CLEARPAGE_FAULT_NEIGHBOURS neighbours on each side, with a temporal
 * routine, so the faulting process finds them in cache. Extents may be
 * empty (first == end).
 */
#define CLEARPAGE_FAULT_NEIGHBOURS 2UL

struct clearpage_extent {
	unsigned long first, end;	/* subpages [first, end) */
	int near_fault;			/* cleared with a temporal routine */
};

static inline void clearpage_folio_extents(unsigned long fault,
					   unsigned long nr_pages,
					   struct clearpage_extent extent[3])
{
	unsigned long near_first, near_end;

	if (fault >= nr_pages)
		fault = nr_pages - 1;
	near_first = fault > CLEARPAGE_FAULT_NEIGHBOURS ?
		     fault - CLEARPAGE_FAULT_NEIGHBOURS : 0;
	near_end = fault + CLEARPAGE_FAULT_NEIGHBOURS + 1;
	if (near_end > nr_pages)
		near_end = nr_pages;
	extent[0] = (struct clearpage_extent){ near_end, nr_pages, 0 };
	extent[1] = (struct clearpage_extent){ 0, near_first, 0 };
	extent[2] = (struct clearpage_extent){ near_first, near_end, 1 };
}

/*
 * A measured folio of the huge backend (a reference or trial folio): only
 * *@measure_pages subpages of it are cleared the measured way and timed,
 * the rest the backend's own way, so that knowing costs a fraction of a
 * folio. The measured part is the first *@measure_pages subpages, or the
 * last ones when the faulting subpage or its neighbours lie among the first
 * (they are cleared last, with the rest). Returns the measured part's first
 * subpage; the rest is the other end of the folio. A folio too small for
 * the fault's neighbourhood to miss one end or the other is measured whole
 * (*@measure_pages becomes @nr_pages).
 */
static inline unsigned long clearpage_measured_part(unsigned long fault,
						    unsigned long nr_pages,
						    unsigned long *measure_pages)
{
	if (2 * *measure_pages + 2 * CLEARPAGE_FAULT_NEIGHBOURS + 2 > nr_pages) {
		*measure_pages = nr_pages;
		return 0;
	}
	return fault < *measure_pages + CLEARPAGE_FAULT_NEIGHBOURS ?
	       nr_pages - *measure_pages : 0;
}

/* @index modulo @every (a power of two: a mask, as the module's shifts). */
static inline unsigned long clearpage_frame_mod(unsigned long index,
						unsigned long every)
{
	return every & (every - 1) ? index % every : index & (every - 1);
}

/*
 * The frame rule: the way frame @index (a page frame number, or a folio's
 * divided by its pages) is cleared while a backend runs @strategy with the
 * trial candidates @trials (a bit per strategy). A reference frame, one in
 * @reference_every while any strategy but kernel runs, gets the kernel's
 * routine (the live baseline); a trial frame, whose index modulo
 * @trial_every is a candidate's number, that candidate (each gets one frame
 * in @trial_every); with @control, the frames of @strategy's own number
 * while it has trials, @strategy itself (a control frame: its own cost
 * timed on fixed frames as the candidates' are, so a gain compares frames
 * of one kind); -1 for any other frame, cleared with @strategy. 0 for
 * either "every": none of those frames. No control frames for kernel,
 * whose number is the reference frames'.
 */
static inline int clearpage_frame_way(unsigned long index, int strategy,
				      unsigned int trials,
				      unsigned long reference_every,
				      unsigned long trial_every, bool control)
{
	unsigned long candidate;

	if (reference_every && strategy != CLEARPAGE_STRATEGY_KERNEL &&
	    !clearpage_frame_mod(index, reference_every))
		return CLEARPAGE_STRATEGY_KERNEL;
	if (!trials || !trial_every)
		return -1;
	candidate = clearpage_frame_mod(index, trial_every);
	if (control && (int)candidate == strategy &&
	    strategy != CLEARPAGE_STRATEGY_KERNEL)
		return strategy;
	if (candidate == CLEARPAGE_STRATEGY_KERNEL ||
	    candidate >= CLEARPAGE_STRATEGY_COUNT ||
	    (int)candidate == strategy || !(trials & (1U << candidate)))
		return -1;
	return (int)candidate;
}

/*
 * The routine for the faulting subpage's neighbourhood: the strategy itself
 * when it is temporal, else "kernel" (the caller's own temporal routine).
 */
static inline int clearpage_near_fault_routine(int strategy)
{
	return clearpage_strategy_non_temporal(strategy) ?
	       CLEARPAGE_STRATEGY_KERNEL : strategy;
}

/*
 * Clear a folio of @nr_pages as ranges, in clearpage_folio_extents() order:
 * calls @clear(@ctx, routine, first, n) for each range of at most
 * @chunk_pages subpages [first, first + n), with @strategy's routine, or
 * clearpage_near_fault_routine()'s for the faulting subpage's
 * neighbourhood. Inlined, so the call is direct.
 */
static __always_inline void
clearpage_folio_ranges(int strategy, unsigned long fault,
		       unsigned long nr_pages, unsigned long chunk_pages,
		       void (*clear)(void *ctx, int routine, unsigned long first,
				     unsigned long n),
		       void *ctx)
{
	struct clearpage_extent extent[3];
	unsigned long first, n;
	int i, routine;

	clearpage_folio_extents(fault, nr_pages, extent);
	for (i = 0; i < 3; i++) {
		routine = extent[i].near_fault ?
			  clearpage_near_fault_routine(strategy) : strategy;
		for (first = extent[i].first; first < extent[i].end; first += n) {
			n = extent[i].end - first;
			if (n > chunk_pages)
				n = chunk_pages;
			clear(ctx, routine, first, n);
		}
	}
}

/*
 * A gigantic folio cleared by several CPUs (kmod/helpers.c): it is cut into
 * @nr_chunks ranges; all but the faulting subpage's (@fault_chunk, cleared
 * last by the faulting task) are shared, taken in turn from one counter.
 * The @k-th taken (0 <= k < @nr_chunks - 1) is range number
 * clearpage_helped_range(): the ranges right of the faulting one in address
 * order, then those left of it, as a folio's extents go.
 */
static inline unsigned long clearpage_helped_range(unsigned long k,
						   unsigned long fault_chunk,
						   unsigned long nr_chunks)
{
	unsigned long right = nr_chunks - fault_chunk - 1;

	return k < right ? fault_chunk + 1 + k : k - right;
}

/*
 * What the running kernel itself does to a huge folio, per series: the
 * baseline of the huge backend (its "kernel" strategy, the reference folios,
 * the calibration's kernel row) and the kernel arms of the bench.
 *  CLEARPAGE_KERNEL_CLEAR_WALK: Linux 6.1 and 6.12, process_huge_page():
 *    clearpage_kernel_walk(), one 4 KiB clear_page() at a time.
 *  CLEARPAGE_KERNEL_CLEAR_EXTENTS: Linux 7.x, folio_zero_user(): the three
 *    extents of clearpage_folio_extents() in the same order, each with one
 *    clear_pages() (one rep stosb on ERMS), split only every
 *    @extent_pages (the whole folio under a preemptible model, as Debian's
 *    PREEMPT_LAZY; 32 MiB otherwise).
 */
enum clearpage_kernel_clear {
	CLEARPAGE_KERNEL_CLEAR_WALK,
	CLEARPAGE_KERNEL_CLEAR_EXTENTS,
};

/* The huge folio clear of kernel series @major.@minor. */
static inline enum clearpage_kernel_clear
clearpage_kernel_clear_of(unsigned int major, unsigned int minor)
{
	(void)minor;
	return major >= 7 ? CLEARPAGE_KERNEL_CLEAR_EXTENTS :
			    CLEARPAGE_KERNEL_CLEAR_WALK;
}

/*
 * Clear a folio of @nr_pages faulted at subpage @fault as the kernel series
 * @how does: @subpage(@ctx, index) per 4 KiB for the walk,
 * @range(@ctx, CLEARPAGE_STRATEGY_KERNEL, first, n) per extent (or part of
 * one) for the extents. Inlined, so the calls are direct.
 */
static __always_inline void
clearpage_kernel_folio_clear(enum clearpage_kernel_clear how,
			     unsigned long fault, unsigned long nr_pages,
			     unsigned long max_order_pages,
			     unsigned long extent_pages,
			     void (*subpage)(void *ctx, unsigned long index),
			     void (*range)(void *ctx, int routine,
					   unsigned long first, unsigned long n),
			     void *ctx)
{
	if (how == CLEARPAGE_KERNEL_CLEAR_EXTENTS)
		clearpage_folio_ranges(CLEARPAGE_STRATEGY_KERNEL, fault, nr_pages,
				       extent_pages, range, ctx);
	else
		clearpage_kernel_walk(fault, nr_pages, max_order_pages, subpage,
				      ctx);
}

/* The instruction the kernel's clear_page() uses on @cpu. */
static inline int clearpage_kernel_routine(const struct clearpage_cpu *cpu)
{
	return cpu->has_erms ? CLEARPAGE_STRATEGY_REP_STOSB :
			       CLEARPAGE_STRATEGY_REP_STOSQ;
}

#endif /* _CLEARPAGE_FOLIO_H */
