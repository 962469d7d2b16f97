/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time stamp counter the module's probes count in: an ordered read and
 * the length of a tick, so that their calibration (struct
 * cp_probe_calibration, in ticks) can be set against costs in ns.
 */
#ifndef CLEARPAGE_TSC_H
#define CLEARPAGE_TSC_H

#include <stdint.h>

/* lfence; rdtsc; lfence: ordered on every x86-64 CPU, rdtscp or not. */
uint64_t cp_tsc_read(void);

/*
 * ns per tick, measured once against CLOCK_MONOTONIC over a 20 ms sleep
 * (the process's first call pays it); 0 where the clock cannot be read,
 * and then every call after.
 */
double cp_ns_per_tick(void);

#endif /* CLEARPAGE_TSC_H */
