/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The page-clearing routines, one definition each, shared by clearpage.ko and
 * by the user-space tests and benchmarks, so that a benchmark measures exactly
 * the loop the module runs.
 *
 * Every routine zeroes exactly CLEARPAGE_PAGE_SIZE bytes starting at a
 * page-aligned address. Non-temporal routines end with sfence, so the zeroes
 * are globally visible before the caller maps the page.
 *
 * Only plain integer instructions are used: no FPU or vector state, so the
 * kernel may call these without kernel_fpu_begin().
 */
#ifndef _CLEARPAGE_STRATEGIES_H
#define _CLEARPAGE_STRATEGIES_H

#include "../uapi/clearpage.h"

#define CLEARPAGE_PAGE_SIZE 4096UL
#define CLEARPAGE_LINE_SIZE 64UL

struct clearpage_cpu {
	char vendor[13];
	unsigned int family;
	unsigned int model;
	unsigned int stepping;
	unsigned int has_erms : 1;
	unsigned int has_clzero : 1;
	/* Bytes cleared by one clzero (CPUID 1 EBX[15:8] * 8). */
	unsigned int clzero_size;
};

static inline void clearpage_cpuid(unsigned int leaf, unsigned int subleaf,
				   unsigned int *a, unsigned int *b,
				   unsigned int *c, unsigned int *d)
{
	__asm__ __volatile__("cpuid"
		     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
		     : "a"(leaf), "c"(subleaf));
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
	/* A line size that is not a sane power of two is not trusted. */
	if (line < 32 || line > 4096 || (line & (line - 1)))
		line = CLEARPAGE_LINE_SIZE;
	cpu->clzero_size = line;

	cpu->has_erms = 0;
	if (max_leaf >= 7) {
		clearpage_cpuid(7, 0, &a, &b, &c, &d);
		cpu->has_erms = (b >> 9) & 1;
	}

	cpu->has_clzero = 0;
	clearpage_cpuid(0x80000000, 0, &max_ext, &b, &c, &d);
	if (max_ext >= 0x80000008) {
		clearpage_cpuid(0x80000008, 0, &a, &b, &c, &d);
		cpu->has_clzero = b & 1;
	}
}

/* Whether @strategy can run on @cpu. "kernel" always can. */
static inline int clearpage_strategy_available(const struct clearpage_cpu *cpu,
					       enum clearpage_strategy strategy)
{
	switch (strategy) {
	case CLEARPAGE_STRATEGY_KERNEL:
	case CLEARPAGE_STRATEGY_REP_STOSQ:
	case CLEARPAGE_STRATEGY_MOVQ:
	case CLEARPAGE_STRATEGY_MOVNTI:
		return 1;
	case CLEARPAGE_STRATEGY_REP_STOSB:
		return cpu->has_erms;
	case CLEARPAGE_STRATEGY_CLZERO:
		return cpu->has_clzero;
	default:
		return 0;
	}
}

static inline void clearpage_rep_stosb(void *page)
{
	unsigned long count = CLEARPAGE_PAGE_SIZE;

	__asm__ __volatile__("rep stosb"
		     : "+c"(count), "+D"(page)
		     : "a"(0)
		     : "memory");
}

static inline void clearpage_rep_stosq(void *page)
{
	unsigned long count = CLEARPAGE_PAGE_SIZE / 8;

	__asm__ __volatile__("rep stosq"
		     : "+c"(count), "+D"(page)
		     : "a"(0UL)
		     : "memory");
}

static inline void clearpage_movq(void *page)
{
	unsigned long lines = CLEARPAGE_PAGE_SIZE / CLEARPAGE_LINE_SIZE;

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
		     : "+r"(page), "+r"(lines)
		     : "r"(0UL)
		     : "memory", "cc");
}

static inline void clearpage_movnti(void *page)
{
	unsigned long lines = CLEARPAGE_PAGE_SIZE / CLEARPAGE_LINE_SIZE;

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
		     : "+r"(page), "+r"(lines)
		     : "r"(0UL)
		     : "memory", "cc");
}

/* @line_size: cpu->clzero_size, a power of two dividing the page size. */
static inline void clearpage_clzero(void *page, unsigned long line_size)
{
	char *p = (char *)page;
	char *end = p + CLEARPAGE_PAGE_SIZE;

	for (; p < end; p += line_size)
		/* clzero (%rax); spelled as bytes for older assemblers. */
		__asm__ __volatile__(".byte 0x0f, 0x01, 0xfc" : : "a"(p) : "memory");
	__asm__ __volatile__("sfence" : : : "memory");
}

/*
 * Clear @page with @strategy's routine. Returns 0, or -1 for "kernel" (and
 * anything unknown): the caller runs its own routine then, clear_page() in
 * the module, its user-space stand-in elsewhere.
 */
static inline int clearpage_run_routine(const struct clearpage_cpu *cpu,
					int strategy, void *page)
{
	switch (strategy) {
	case CLEARPAGE_STRATEGY_REP_STOSB:
		clearpage_rep_stosb(page);
		return 0;
	case CLEARPAGE_STRATEGY_REP_STOSQ:
		clearpage_rep_stosq(page);
		return 0;
	case CLEARPAGE_STRATEGY_MOVQ:
		clearpage_movq(page);
		return 0;
	case CLEARPAGE_STRATEGY_MOVNTI:
		clearpage_movnti(page);
		return 0;
	case CLEARPAGE_STRATEGY_CLZERO:
		clearpage_clzero(page, cpu->clzero_size);
		return 0;
	default:
		return -1;
	}
}

#endif /* _CLEARPAGE_STRATEGIES_H */
