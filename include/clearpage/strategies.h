/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The page-clearing routines, one definition each, shared by clearpage.ko and
 * by the user-space tests and benchmarks, so that a benchmark measures exactly
 * the loop the module runs.
 *
 * Every routine zeroes exactly the bytes it is given (one 4 KiB page, or a
 * range of whole pages) starting at a page-aligned address. Non-temporal
 * routines end with sfence, so the zeroes are globally visible before the
 * caller maps the page.
 *
 * Only plain integer instructions are used: no FPU or vector state, so the
 * kernel may call these without kernel_fpu_begin().
 */
#ifndef _CLEARPAGE_STRATEGIES_H
#define _CLEARPAGE_STRATEGIES_H

#include <uapi/clearpage.h>
#ifdef __KERNEL__
#include <asm/asm.h>
#include <asm/cpufeature.h>
#include <asm/extable_fixup_types.h>
#include <asm/tsc.h>
#include <asm/trapnr.h>
#include <linux/mm.h>
#else
#include <sys/cdefs.h>		/* __always_inline, as the kernel has it */
#include <stdbool.h>
#endif

#define CLEARPAGE_PAGE_SIZE 4096UL
#define CLEARPAGE_LINE_SIZE 64UL

struct clearpage_cpu {
	char vendor[13];
	unsigned int family;
	unsigned int model;
	unsigned int stepping;
	unsigned int has_erms : 1;
	unsigned int has_clzero : 1;
	/*
	 * The cache line size CPUID reports (leaf 1 EBX[15:8] * 8). clzero
	 * clears one line; a CPU (or hypervisor) that reports anything but 64
	 * bytes does not get the strategy: stepping by a larger size would
	 * leave lines of every page uncleared.
	 */
	unsigned int line_size;
	/*
	 * The largest data or unified cache CPUID's deterministic cache
	 * parameters describe (leaf 4, or 0x8000001d on AMD with TOPOEXT), in
	 * bytes; 0 where it has none. What a reclear must come within (see
	 * clearpage_recent_reach_pages()).
	 */
	unsigned long llc_bytes;
};

static inline void clearpage_cpuid(unsigned int leaf, unsigned int subleaf,
				   unsigned int *a, unsigned int *b,
				   unsigned int *c, unsigned int *d)
{
	__asm__ __volatile__("cpuid"
		     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
		     : "a"(leaf), "c"(subleaf));
}

/*
 * Whether clzero may be used: CPUID says the instruction exists and the line
 * it clears is the 64 bytes the routine steps by.
 */
static inline int clearpage_clzero_trusted(unsigned int cpuid_bit,
					   unsigned int line_size)
{
	return cpuid_bit && line_size == CLEARPAGE_LINE_SIZE;
}

/*
 * The largest cache of CPUID @leaf's deterministic cache parameters (4, or
 * AMD's 0x8000001d; 0: none): subleaves until a null type, instruction
 * caches (type 2) left out.
 */
static inline unsigned long clearpage_cache_bytes(unsigned int leaf)
{
	unsigned int a, b, c, d, i;
	unsigned long size, largest = 0;

	for (i = 0; leaf && i < 16; i++) {
		clearpage_cpuid(leaf, i, &a, &b, &c, &d);
		if (!(a & 0x1f))
			break;
		if ((a & 0x1f) == 2)
			continue;
		size = (unsigned long)((b >> 22) + 1) *
		       (((b >> 12) & 0x3ff) + 1) * ((b & 0xfff) + 1) *
		       ((unsigned long)c + 1);
		if (size > largest)
			largest = size;
	}
	return largest;
}

static inline void clearpage_cpu_detect(struct clearpage_cpu *cpu)
{
	unsigned int a, b, c, d, max_leaf, max_ext, line, i;

	clearpage_cpuid(0, 0, &max_leaf, &b, &c, &d);
	for (i = 0; i < 4; i++) {
		cpu->vendor[i] = (char)(b >> (8 * i));
		cpu->vendor[4 + i] = (char)(d >> (8 * i));
		cpu->vendor[8 + i] = (char)(c >> (8 * i));
	}
	cpu->vendor[12] = '\0';

	clearpage_cpuid(1, 0, &a, &b, &c, &d);
	cpu->stepping = a & 0xf;
	cpu->family = (a >> 8) & 0xf;
	cpu->model = (a >> 4) & 0xf;
	if (cpu->family == 0xf)
		cpu->family += (a >> 20) & 0xff;
	if (cpu->family >= 6)
		cpu->model |= ((a >> 16) & 0xf) << 4;
	line = ((b >> 8) & 0xff) * 8;
	cpu->line_size = line;

	cpu->has_erms = 0;
	if (max_leaf >= 7) {
		clearpage_cpuid(7, 0, &a, &b, &c, &d);
		cpu->has_erms = (b >> 9) & 1;
	}

	cpu->has_clzero = 0;
	clearpage_cpuid(0x80000000, 0, &max_ext, &b, &c, &d);
	if (max_ext >= 0x80000008) {
		clearpage_cpuid(0x80000008, 0, &a, &b, &c, &d);
		cpu->has_clzero = clearpage_clzero_trusted(b & 1, line);
	}
	/*
	 * Intel describes its caches in leaf 4, AMD in 0x8000001d where
	 * TOPOEXT says it does (its leaf 4 reads as zeros), as the kernel's
	 * cacheinfo reads them: the first that names a cache.
	 */
	cpu->llc_bytes = max_leaf >= 4 ? clearpage_cache_bytes(4) : 0;
	if (!cpu->llc_bytes && max_ext >= 0x8000001d) {
		clearpage_cpuid(0x80000001, 0, &a, &b, &c, &d);
		if ((c >> 22) & 1)
			cpu->llc_bytes = clearpage_cache_bytes(0x8000001d);
	}
}

/* Whether @strategy can run on @cpu. "kernel" always can. */
static inline int clearpage_strategy_available(const struct clearpage_cpu *cpu,
					       enum clearpage_strategy strategy)
{
	switch (strategy) {
	/*
	 * rep stosb zeroes correctly on every x86-64 CPU; without ERMS it is
	 * slow, which calibration shows and the live baseline catches.
	 */
	case CLEARPAGE_STRATEGY_KERNEL:
	case CLEARPAGE_STRATEGY_REP_STOSB:
	case CLEARPAGE_STRATEGY_REP_STOSQ:
	case CLEARPAGE_STRATEGY_MOVQ:
	case CLEARPAGE_STRATEGY_MOVNTI:
		return 1;
	case CLEARPAGE_STRATEGY_CLZERO:
		return cpu->has_clzero;
	default:
		return 0;
	}
}

/*
 * Range forms: each clears @bytes (a positive multiple of the page size)
 * from the page-aligned @addr with one string instruction or one loop, so a
 * huge folio is cleared in a few operations rather than one per 4 KiB. The
 * non-temporal ones end with a single sfence for the whole range.
 */
static inline void clearpage_rep_stosb_range(void *addr, unsigned long bytes)
{
	__asm__ __volatile__("rep stosb"
		     : "+c"(bytes), "+D"(addr)
		     : "a"(0)
		     : "memory");
}

static inline void clearpage_rep_stosq_range(void *addr, unsigned long bytes)
{
	unsigned long count = bytes / 8;

	__asm__ __volatile__("rep stosq"
		     : "+c"(count), "+D"(addr)
		     : "a"(0UL)
		     : "memory");
}

static inline void clearpage_movq_range(void *addr, unsigned long bytes)
{
	unsigned long lines = bytes / CLEARPAGE_LINE_SIZE;

	__asm__ __volatile__("1:\n\t"
		     "movq %2, 0x00(%0)\n\t"
		     "movq %2, 0x08(%0)\n\t"
		     "movq %2, 0x10(%0)\n\t"
		     "movq %2, 0x18(%0)\n\t"
		     "movq %2, 0x20(%0)\n\t"
		     "movq %2, 0x28(%0)\n\t"
		     "movq %2, 0x30(%0)\n\t"
		     "movq %2, 0x38(%0)\n\t"
		     "addq $64, %0\n\t"
		     "decq %1\n\t"
		     "jnz 1b"
		     : "+r"(addr), "+r"(lines)
		     : "r"(0UL)
		     : "memory", "cc");
}

static inline void clearpage_movnti_range(void *addr, unsigned long bytes)
{
	unsigned long lines = bytes / CLEARPAGE_LINE_SIZE;

	__asm__ __volatile__("1:\n\t"
		     "movnti %2, 0x00(%0)\n\t"
		     "movnti %2, 0x08(%0)\n\t"
		     "movnti %2, 0x10(%0)\n\t"
		     "movnti %2, 0x18(%0)\n\t"
		     "movnti %2, 0x20(%0)\n\t"
		     "movnti %2, 0x28(%0)\n\t"
		     "movnti %2, 0x30(%0)\n\t"
		     "movnti %2, 0x38(%0)\n\t"
		     "addq $64, %0\n\t"
		     "decq %1\n\t"
		     "jnz 1b\n\t"
		     "sfence"
		     : "+r"(addr), "+r"(lines)
		     : "r"(0UL)
		     : "memory", "cc");
}

/*
 * One clzero clears the 64-byte line holding its address; the step is the
 * line size and nothing else (clearpage_cpu_detect() refuses the strategy
 * on a CPU that reports another).
 */
static inline void clearpage_clzero_range(void *addr, unsigned long bytes)
{
	char *p = (char *)addr;
	char *end = p + bytes;

	for (; p < end; p += CLEARPAGE_LINE_SIZE)
		/* clzero (%rax); spelled as bytes for older assemblers. */
		__asm__ __volatile__(".byte 0x0f, 0x01, 0xfc" : : "a"(p) : "memory");
	__asm__ __volatile__("sfence" : : : "memory");
}

/* Whether @strategy's stores bypass the cache (and end with sfence). */
static inline int clearpage_strategy_non_temporal(int strategy)
{
	return strategy == CLEARPAGE_STRATEGY_MOVNTI ||
	       strategy == CLEARPAGE_STRATEGY_CLZERO;
}

/*
 * Clear @bytes at @addr (page-aligned, a multiple of the page size) with
 * @strategy's routine. Returns 0, or -1 for "kernel" (and anything
 * unknown): the caller runs its own routine then, clear_page() in the
 * module, its user-space stand-in elsewhere.
 */
static inline int clearpage_run_range_routine(int strategy, void *addr,
					      unsigned long bytes)
{
	switch (strategy) {
	case CLEARPAGE_STRATEGY_REP_STOSB:
		clearpage_rep_stosb_range(addr, bytes);
		return 0;
	case CLEARPAGE_STRATEGY_REP_STOSQ:
		clearpage_rep_stosq_range(addr, bytes);
		return 0;
	case CLEARPAGE_STRATEGY_MOVQ:
		clearpage_movq_range(addr, bytes);
		return 0;
	case CLEARPAGE_STRATEGY_MOVNTI:
		clearpage_movnti_range(addr, bytes);
		return 0;
	case CLEARPAGE_STRATEGY_CLZERO:
		clearpage_clzero_range(addr, bytes);
		return 0;
	default:
		return -1;
	}
}

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

/* One 4 KiB page: the range form over one page. */
static inline int clearpage_run_routine(int strategy, void *page)
{
	return clearpage_run_range_routine(strategy, page, CLEARPAGE_PAGE_SIZE);
}

#endif /* _CLEARPAGE_STRATEGIES_H */
