// SPDX-License-Identifier: GPL-2.0
/* The time stamp counter's ticks in ns; see tsc.h. */
#include <errno.h>
#include <stdbool.h>
#include <time.h>
#include <x86intrin.h>

#include "tsc.h"

uint64_t cp_tsc_read(void)
{
	uint64_t t;

	_mm_lfence();
	t = __rdtsc();
	_mm_lfence();
	return t;
}

static int now_ns(uint64_t *ns)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return -1;
	*ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	return 0;
}

double cp_ns_per_tick(void)
{
	static double ns_per_tick;
	static bool measured;
	struct timespec left = { .tv_nsec = 20000000 };
	uint64_t t0, t1, c0, c1;

	/* Once, a failure too: callers ask every interval. */
	if (measured)
		return ns_per_tick;
	measured = true;
	/*
	 * Each clock read beside its TSC read, after the sleep as before it:
	 * a late wakeup lengthens both sides alike.
	 */
	if (now_ns(&t0))
		return 0;
	c0 = cp_tsc_read();
	while (nanosleep(&left, &left) && errno == EINTR)
		;
	c1 = cp_tsc_read();
	if (now_ns(&t1) || c1 <= c0 || t1 <= t0)
		return 0;
	ns_per_tick = (double)(t1 - t0) / (double)(c1 - c0);
	return ns_per_tick;
}
