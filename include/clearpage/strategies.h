/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The page-clearing routines and the CPU they run on, one definition each,
 * shared by clearpage.ko and by the user-space tests and benchmarks, so that
 * a benchmark measures exactly the loop the module runs. How a folio is
 * cleared with them (the order, measured parts, frames) is in
 * clearpage/folio.h; the probes that load a folio's lines in
 * clearpage/probe.h.
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

/* One 4 KiB page: the range form over one page. */
static inline int clearpage_run_routine(int strategy, void *page)
{
	return clearpage_run_range_routine(strategy, page, CLEARPAGE_PAGE_SIZE);
}

#endif /* _CLEARPAGE_STRATEGIES_H */
