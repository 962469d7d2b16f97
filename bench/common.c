// SPDX-License-Identifier: GPL-2.0
/* clearpage-bench: messages, clocks and the clears; see bench.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "tsc.h"

struct clearpage_cpu bench_cpu;

static bool progress_shown;

void bench_error(const char *fmt, ...)
{
	va_list ap;

	bench_progress_done();
	fputs("clearpage-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void bench_progress(const char *fmt, ...)
{
	bool tty = isatty(STDERR_FILENO);
	va_list ap;

	fputs(tty ? "\r\033[K" : "", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(tty ? "" : "\n", stderr);
	progress_shown = tty;
}

void bench_progress_done(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
	progress_shown = false;
}

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t bench_ticks(void)
{
	return cp_tsc_read();
}

double bench_ns_per_tick(void)
{
	return cp_ns_per_tick();
}

bool bench_strategy_usable(int strategy)
{
	return strategy > CLEARPAGE_STRATEGY_KERNEL &&
	       strategy < CLEARPAGE_STRATEGY_COUNT &&
	       clearpage_strategy_available(&bench_cpu, strategy);
}

int bench_kernel_routine(void)
{
	return clearpage_kernel_routine(&bench_cpu);
}

void bench_clear(int strategy, void *page)
{
	if (clearpage_run_routine(strategy, page))
		clearpage_run_routine(bench_kernel_routine(), page);
}

void bench_clear_range(int strategy, void *p, size_t bytes)
{
	if (clearpage_run_range_routine(strategy, p, bytes))
		clearpage_run_range_routine(bench_kernel_routine(), p, bytes);
}

static void walk_clear(void *folio, unsigned long index)
{
	bench_clear(CLEARPAGE_STRATEGY_KERNEL, (char *)folio + index * BENCH_PAGE);
}

static void range_clear(void *folio, int routine, unsigned long first,
			unsigned long n)
{
	bench_clear_range(routine, (char *)folio + first * BENCH_PAGE,
			  n * BENCH_PAGE);
}

void bench_clear_folio(int strategy, char *folio, unsigned long nr_pages,
		       unsigned long fault, unsigned long chunk_pages)
{
	if (strategy == BENCH_ARM_KERNEL_ALLOC)
		bench_clear_range(CLEARPAGE_STRATEGY_KERNEL, folio,
				  nr_pages * BENCH_PAGE);
	/* Debian's 7.x is PREEMPT_LAZY: an extent is one operation. */
	else if (strategy == BENCH_ARM_KERNEL_7X)
		clearpage_kernel_folio_clear(CLEARPAGE_KERNEL_CLEAR_EXTENTS, fault,
					     nr_pages, BENCH_MAX_ORDER_PAGES,
					     nr_pages, walk_clear, range_clear,
					     folio);
	else if (strategy == CLEARPAGE_STRATEGY_KERNEL ||
		 strategy == BENCH_ARM_KERNEL_6X)
		clearpage_kernel_folio_clear(CLEARPAGE_KERNEL_CLEAR_WALK, fault,
					     nr_pages, BENCH_MAX_ORDER_PAGES,
					     nr_pages, walk_clear, range_clear,
					     folio);
	else
		clearpage_folio_ranges(strategy, fault, nr_pages, chunk_pages,
				       range_clear, folio);
}

const char *bench_arm_name(int arm, bool folio)
{
	if (arm == BENCH_ARM_KERNEL_7X)
		return "kernel-7.x";
	if (arm == BENCH_ARM_KERNEL_ALLOC)
		return "kernel-alloc";
	if (arm == BENCH_ARM_KERNEL_6X ||
	    (arm == CLEARPAGE_STRATEGY_KERNEL && folio))
		return "kernel-6.x";
	return policy_strategy_name(arm);
}

int bench_running_kernel_arm(void)
{
	struct utsname u;
	unsigned int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return CLEARPAGE_STRATEGY_KERNEL;
	return clearpage_kernel_clear_of(major, minor) ==
	       CLEARPAGE_KERNEL_CLEAR_EXTENTS ? BENCH_ARM_KERNEL_7X :
						CLEARPAGE_STRATEGY_KERNEL;
}
