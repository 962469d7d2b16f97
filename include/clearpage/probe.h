/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The probes that load a folio's lines: the temperature probe's timed,
 * machine-check-safe loads and its threshold, the table of units this CPU
 * cleared non-temporally (the recycled rule), and the touch probe's pick
 * of a line a non-temporal clear left out. Shared by clearpage.ko, the
 * tests and the benchmarks.
 */
#ifndef _CLEARPAGE_PROBE_H
#define _CLEARPAGE_PROBE_H

#include <clearpage/folio.h>
#ifdef __KERNEL__
#include <asm/asm.h>
#include <asm/cpufeature.h>
#include <asm/extable_fixup_types.h>
#include <asm/tsc.h>
#include <asm/trapnr.h>
#endif

/*
 * The temperature probe: before a folio is cleared, a timed load of a few
 * of its lines says whether its cache lines are still cached (a folio just
 * freed by a process that used it) or must come from memory. Each load is
 * timed alone in TSC ticks, serialised so that no two overlap: lfence,
 * rdtsc, lfence, the load, an ordered TSC read (which waits for the load),
 * lfence. The ticks include the timing's own overhead, the same for a
 * cached line and for one from memory; the node's calibration measures
 * both and puts the threshold between them.
 *
 * The ordered read is the kernel's rdtsc_ordered(): rdtscp where CPUID
 * has it, else lfence; rdtsc (every x86-64 CPU with a dispatch-serialising
 * lfence: Intel's, and AMD's once the kernel sets it so, X86_FEATURE_
 * LFENCE_RDTSC). clearpage_timing_ordered() says whether the CPU has
 * either; a CPU with neither gets no probe (its calibration threshold is
 * 0). User space (the tests and benchmarks) uses lfence; rdtsc everywhere,
 * which needs no CPUID bit beyond SSE2.
 *
 * The load is machine-check safe in the kernel (clearpage_load_line()):
 * a latent memory error in the line is a failed load, counted, never a
 * panic, where the kernel's own clear (stores only) would have left the
 * page for memory_failure() to retire. See doc/design.md, "What the
 * probes load".
 */
#define CLEARPAGE_PROBE_LINES 4
/* The ticks of a load that failed (a poisoned line, a fault). */
#define CLEARPAGE_LOAD_FAILED (~0UL)

/* The TSC before a timed load (nothing before it still running)... */
static inline unsigned long clearpage_load_start(void)
{
	unsigned long lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence"
		     : "=a"(lo), "=d"(hi) : : "memory");
	return hi << 32 | lo;
}

#ifdef __KERNEL__
/* Whether the end of a timed load can be ordered after it on this CPU. */
static inline int clearpage_timing_ordered(void)
{
	return boot_cpu_has(X86_FEATURE_RDTSCP) ||
	       boot_cpu_has(X86_FEATURE_LFENCE_RDTSC);
}

/* ... and its ticks after it (rdtsc_ordered() waits for the load). */
static inline unsigned long clearpage_load_ticks(unsigned long start)
{
	unsigned long end = rdtsc_ordered();

	__asm__ __volatile__("lfence" : : : "memory");
	return end - start;
}

/*
 * Load one byte at @line (a direct-map address): 0, or the trap
 * (X86_TRAP_MC, X86_TRAP_PF) that ended it. EX_TYPE_FAULT_MCE_SAFE is the
 * exception-table type the kernel's machine-check handler recovers from in
 * kernel mode (as for copy_mc_to_kernel(), whose one-byte path is this
 * same plain load): a consumed memory error is fixed up here, and a page
 * fault (a page that left the direct map) too. The handler does not
 * report an error consumed in kernel mode outside a copy from user space,
 * so the page is queued for memory_failure() here, as the kernel's own
 * copy_mc_user_highpage() does: it is retired (and its user, if it has
 * one by then, signalled) instead of read again by a load that is not
 * machine-check safe.
 */
static __always_inline int clearpage_load_line(const void *line)
{
	unsigned long trap = 0;
	unsigned char value;

	__asm__ __volatile__("1:\tmovb (%[line]), %[value]\n"
			     "2:\n"
			     _ASM_EXTABLE_TYPE(1b, 2b, EX_TYPE_FAULT_MCE_SAFE)
			     : "+a"(trap), [value] "=q"(value)
			     : [line] "r"(line) : "memory");
	if (unlikely(trap == X86_TRAP_MC))
		memory_failure_queue(PHYS_PFN(__pa(line)), 0);
	return (int)trap;
}
#else
static inline int clearpage_timing_ordered(void)
{
	return 1;
}

/* ... and its ticks after it (lfence waits for the load). */
static inline unsigned long clearpage_load_ticks(unsigned long start)
{
	unsigned long lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence"
		     : "=a"(lo), "=d"(hi) : : "memory");
	return (hi << 32 | lo) - start;
}

static inline int clearpage_load_line(const void *line)
{
	(void)*(const volatile unsigned char *)line;
	return 0;
}
#endif

/* The ticks of one load of @line, or CLEARPAGE_LOAD_FAILED. */
static inline unsigned long clearpage_timed_load(const void *line)
{
	unsigned long start = clearpage_load_start(), ticks;
	int failed = clearpage_load_line(line);

	ticks = clearpage_load_ticks(start);
	return failed ? CLEARPAGE_LOAD_FAILED : ticks;
}

/*
 * The lines a probe of @nr_pages loads: one for a single page (a second
 * line of the same page would be judged after the first load's miss set
 * the prefetchers going, and look cached), CLEARPAGE_PROBE_LINES for a
 * folio.
 */
static inline unsigned int clearpage_probe_lines(unsigned long nr_pages)
{
	return nr_pages > 1 ? CLEARPAGE_PROBE_LINES : 1;
}

/*
 * The byte offsets, from the folio's start, of the lines a probe of a folio
 * of @nr_pages loads: the faulting line (@fault_offset, the faulting
 * address's offset in the folio) first, then (a folio) one line in each of
 * CLEARPAGE_PROBE_LINES - 1 equal parts of the folio, each at another
 * place within its page (the prefetchers of a neighbouring probe never
 * bring it in).
 */
static inline void clearpage_probe_offsets(unsigned long nr_pages,
					   unsigned long fault_offset,
					   unsigned long offsets[CLEARPAGE_PROBE_LINES])
{
	unsigned long lines_per_page = CLEARPAGE_PAGE_SIZE / CLEARPAGE_LINE_SIZE;
	unsigned long i, page;

	if (fault_offset >= nr_pages * CLEARPAGE_PAGE_SIZE)
		fault_offset = 0;
	offsets[0] = fault_offset & ~(CLEARPAGE_LINE_SIZE - 1);
	for (i = 1; i < CLEARPAGE_PROBE_LINES; i++) {
		page = (2 * i - 1) * nr_pages / (2 * (CLEARPAGE_PROBE_LINES - 1));
		offsets[i] = page * CLEARPAGE_PAGE_SIZE +
			     (i * 23 % lines_per_page) * CLEARPAGE_LINE_SIZE;
	}
}

/*
 * Probe the folio at @base (@nr_pages, faulted at byte @fault_offset):
 * how many of its clearpage_probe_lines() lines loaded in fewer than
 * @threshold ticks. Without @ticks it stops as soon as the verdict of
 * clearpage_probe_hot() is known (half the lines cached, or more than half
 * not), which spares a cold folio most of its loads from memory; with
 * @ticks it loads every line and gives the ticks of each. A failed load
 * (clearpage_load_line()) counts as not cached and ends the probe: its
 * ticks, and those of the lines not loaded, are CLEARPAGE_LOAD_FAILED.
 */
static inline unsigned int clearpage_probe(const void *base,
					   unsigned long nr_pages,
					   unsigned long fault_offset,
					   unsigned long threshold,
					   unsigned long *ticks)
{
	unsigned long offsets[CLEARPAGE_PROBE_LINES], t;
	unsigned int i, cached = 0, lines = clearpage_probe_lines(nr_pages);

	clearpage_probe_offsets(nr_pages, fault_offset, offsets);
	for (i = 0; i < lines; i++) {
		t = clearpage_timed_load((const char *)base + offsets[i]);
		cached += t < threshold;
		if (ticks)
			ticks[i] = t;
		if (t == CLEARPAGE_LOAD_FAILED) {
			/* A poisoned line: no more loads of this folio. */
			for (i++; ticks && i < lines; i++)
				ticks[i] = CLEARPAGE_LOAD_FAILED;
			break;
		}
		if (!ticks && (2 * cached >= lines ||
			       2 * (i + 1 - cached) > lines))
			break;
	}
	return cached;
}

/*
 * A folio of @nr_pages is hot when at least half its probed lines were
 * cached; a single page when its one line was.
 */
static inline int clearpage_probe_hot(unsigned int cached,
				      unsigned long nr_pages)
{
	return 2 * cached >= clearpage_probe_lines(nr_pages);
}

/*
 * Reclears: a unit (a page, or a folio) that a non-temporal routine
 * cleared comes back to be cleared again. Its lines are not cached (the
 * clear left them out, and the probe finds it cold), yet a temporal clear
 * would have left them cached: if fewer pages were cleared in between than
 * the last-level cache holds, the unit is hot for a temporal strategy.
 * Where a node recycles a small set of folios whose lines the application
 * does not read (a hot set on movnti), only this tells. Each CPU keeps a
 * direct-mapped table of the units it cleared last (the first frame
 * number, the page sequence after the clear, whether the routine was
 * non-temporal): one load and one store per clear.
 */
#define CLEARPAGE_RECENT_SHIFT 10
#define CLEARPAGE_RECENT_SLOTS (1UL << CLEARPAGE_RECENT_SHIFT)

struct clearpage_recent {
	unsigned long frame[CLEARPAGE_RECENT_SLOTS];	/* frame + 1; 0: none */
	unsigned long mark[CLEARPAGE_RECENT_SLOTS];	/* sequence << 1 | nt */
	unsigned long sequence;				/* pages cleared */
};

static inline unsigned long clearpage_recent_slot(unsigned long frame)
{
	return (unsigned long)(frame * 0x9e3779b97f4a7c15ULL) >>
	       (8 * sizeof(unsigned long) - CLEARPAGE_RECENT_SHIFT);
}

/*
 * How far back, in 4 KiB pages (the table's sequence counts them, 512 a
 * 2 MiB folio), a non-temporal clear makes a unit hot for a temporal one:
 * the last-level cache, or where the CPU does not describe it (an AMD
 * guest without TOPOEXT, whose legacy leaf 0x80000006 gives the whole
 * package's L3) 8 MiB, at or below most server parts' L3 a core shares,
 * so that a recycled unit is under-counted rather than never counted.
 */
#define CLEARPAGE_RECENT_REACH_UNKNOWN (8UL << 20)

static inline unsigned long
clearpage_recent_reach_pages(const struct clearpage_cpu *cpu)
{
	return (cpu->llc_bytes ? cpu->llc_bytes :
				 CLEARPAGE_RECENT_REACH_UNKNOWN) /
	       CLEARPAGE_PAGE_SIZE;
}

/*
 * Whether the unit at frame @frame, about to be cleared, was last cleared
 * by a non-temporal routine fewer than @reach_pages pages ago (0: never):
 * hot for a temporal strategy.
 */
static inline int clearpage_recent_seen(const struct clearpage_recent *r,
					unsigned long frame,
					unsigned long reach_pages)
{
	unsigned long slot = clearpage_recent_slot(frame);
	unsigned long mark = r->mark[slot];

	return r->frame[slot] == frame + 1 && (mark & 1) &&
	       r->sequence - (mark >> 1) < reach_pages;
}

/* Its clear of @nr_pages, by a non-temporal routine when @non_temporal. */
static inline void clearpage_recent_store(struct clearpage_recent *r,
					  unsigned long frame,
					  unsigned long nr_pages,
					  int non_temporal)
{
	unsigned long slot = clearpage_recent_slot(frame);

	r->sequence += nr_pages;
	r->frame[slot] = frame + 1;
	r->mark[slot] = r->sequence << 1 | !!non_temporal;
}

/*
 * The threshold between a cached line's @hot and a line from memory's
 * @cold load ticks (the calibration's medians): halfway, or 0 when the two
 * are too close to tell apart (cold less than twice hot: an emulated CPU,
 * a cache flush that does not flush, an unusable TSC).
 */
static inline unsigned long clearpage_probe_threshold(unsigned long hot,
						      unsigned long cold)
{
	if (!hot || cold < 2 * hot)
		return 0;
	return hot + (cold - hot) / 2;
}

/*
 * The touch probe: some time after a page or folio was cleared with a
 * non-temporal routine, a timed load of one of its lines (never the
 * faulting line, nor a line of the faulting subpage's temporal
 * neighbourhood) says whether the application has touched it since: the
 * clear left it out of the cache, so a cached line is one the application
 * brought back, paying the miss the clear moved to it. The share of cached
 * lines is how much a non-temporal clear costs the application, measured
 * without a PMU.
 *
 * The byte offset, from the start of a folio of @nr_pages faulted at byte
 * @fault_offset, of the line to load for @seed (any number: a sequence or
 * a hash), or CLEARPAGE_TOUCH_NONE when every line is the faulting one's
 * or its neighbourhood's. One page: a line at least
 * CLEARPAGE_TOUCH_NEAR_LINES from the faulting one. A folio: a line of a
 * subpage outside the neighbourhood.
 */
#define CLEARPAGE_TOUCH_NONE (~0UL)
/*
 * A page's lines closer than this to its faulting line are never the
 * touch probe's: after the application's read of the faulting line, the
 * hardware prefetchers bring its neighbours in by themselves. Measured on
 * an AMD EPYC (family 26, clearpage-bench touch with the line fixed):
 * lines 1-12 after a faulting line 0 read cached 70-98% of the time in
 * pages the application did not read while it read half the others
 * whole, lines 16 and beyond 50%, as it read; Intel's L2 streamer runs up
 * to 20 lines ahead. At least 25 lines remain.
 */
#define CLEARPAGE_TOUCH_NEAR_LINES 20UL

static inline unsigned long clearpage_touch_offset(unsigned long nr_pages,
						   unsigned long fault_offset,
						   unsigned long seed)
{
	unsigned long lines = CLEARPAGE_PAGE_SIZE / CLEARPAGE_LINE_SIZE;
	unsigned long fault, line, near_first, near_end, outside, page;

	if (!nr_pages)
		return CLEARPAGE_TOUCH_NONE;
	if (fault_offset >= nr_pages * CLEARPAGE_PAGE_SIZE)
		fault_offset = 0;
	fault = fault_offset / CLEARPAGE_PAGE_SIZE;
	if (nr_pages == 1) {
		/* Lines [0, near_first) and [near_end, lines). */
		fault = fault_offset / CLEARPAGE_LINE_SIZE;
		near_first = fault >= CLEARPAGE_TOUCH_NEAR_LINES ?
			     fault - CLEARPAGE_TOUCH_NEAR_LINES + 1 : 0;
		near_end = fault + CLEARPAGE_TOUCH_NEAR_LINES;
		if (near_end > lines)
			near_end = lines;
		line = seed % (lines - (near_end - near_first));
		if (line >= near_first)
			line += near_end - near_first;
		return line * CLEARPAGE_LINE_SIZE;
	}
	near_first = fault > CLEARPAGE_FAULT_NEIGHBOURS ?
		     fault - CLEARPAGE_FAULT_NEIGHBOURS : 0;
	near_end = fault + CLEARPAGE_FAULT_NEIGHBOURS + 1;
	if (near_end > nr_pages)
		near_end = nr_pages;
	outside = nr_pages - (near_end - near_first);
	if (!outside)
		return CLEARPAGE_TOUCH_NONE;
	page = seed % outside;
	if (page >= near_first)
		page += near_end - near_first;
	line = seed / outside % lines;
	return page * CLEARPAGE_PAGE_SIZE + line * CLEARPAGE_LINE_SIZE;
}

/*
 * The touch probe's seed for the @n-th clear: a hash (the finalizer of
 * SplitMix64), never @n itself. Its loads all come from one instruction,
 * and held pages come in order: where the allocator hands out physically
 * sequential pages, a seed that steps by a constant picks lines a
 * constant distance apart, a stride the hardware's stride prefetcher
 * learns and follows, bringing the next held line into the cache before
 * its load (77-81% of the loads read cached with the application reading
 * none). Hashed, the distance between two loads differs every time.
 */
static inline unsigned long clearpage_touch_seed(unsigned long n)
{
	unsigned long long z = (unsigned long long)n + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned long)(z ^ (z >> 31));
}

/*
 * The line the touch probe loads of a unit of @nr_pages (a page, or a
 * folio) faulted at byte @fault_offset and just cleared with @strategy,
 * but for its subpages [@first, @first + @m) cleared the measured way @way
 * (a reference or trial frame; @m 0: none): a line clearpage_touch_offset()
 * picks for @seed, if a non-temporal routine cleared it, else
 * CLEARPAGE_TOUCH_NONE. A folio whose measured way alone is
 * non-temporal (a non-temporal candidate's trial frame on a node that
 * clears temporally): a line of its measured part outside the faulting
 * subpage's neighbourhood, so that the candidate's cost to the application
 * is measured before any switch. *@trial: the line was cleared the
 * measured way, not with @strategy.
 */
static inline unsigned long clearpage_touch_pick(unsigned long nr_pages,
						 unsigned long fault_offset,
						 unsigned long seed,
						 int strategy, int way,
						 unsigned long first,
						 unsigned long m, int *trial)
{
	unsigned long lines = CLEARPAGE_PAGE_SIZE / CLEARPAGE_LINE_SIZE;
	unsigned long fault = fault_offset / CLEARPAGE_PAGE_SIZE;
	unsigned long offset, subpage;
	int routine;

	*trial = 0;
	if (nr_pages > 1 && m && clearpage_strategy_non_temporal(way) &&
	    !clearpage_strategy_non_temporal(strategy)) {
		subpage = first + seed % m;
		if (subpage + CLEARPAGE_FAULT_NEIGHBOURS >= fault &&
		    subpage <= fault + CLEARPAGE_FAULT_NEIGHBOURS)
			return CLEARPAGE_TOUCH_NONE;
		*trial = 1;
		return subpage * CLEARPAGE_PAGE_SIZE +
		       (seed / m % lines) * CLEARPAGE_LINE_SIZE;
	}
	offset = clearpage_touch_offset(nr_pages, fault_offset, seed);
	if (offset == CLEARPAGE_TOUCH_NONE)
		return offset;
	subpage = offset / CLEARPAGE_PAGE_SIZE;
	routine = m && subpage >= first && subpage < first + m ? way : strategy;
	if (!clearpage_strategy_non_temporal(routine))
		return CLEARPAGE_TOUCH_NONE;
	*trial = routine != strategy;
	return offset;
}

#endif /* _CLEARPAGE_PROBE_H */
