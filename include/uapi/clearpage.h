/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * clearpage: per-NUMA-node choice of how the kernel zeroes user pages.
 *
 * This header is the ABI between clearpage.ko and user space.
 *
 * Strategies
 * ----------
 * A strategy is the instruction sequence used to zero one 4 KiB page.
 * Names are what sysfs reads and accepts; ids are stable numbers.
 *
 *   id  name       instructions
 *   0   kernel     whatever the running kernel picked at boot (clear_page)
 *   1   rep_stosb  rep stosb over 4096 bytes (needs ERMS)
 *   2   rep_stosq  rep stosq over 512 quadwords
 *   3   movq       8 x movq per 64-byte line, unrolled loop
 *   4   movnti     8 x movnti per line, sfence at the end (non-temporal)
 *   5   clzero     AMD clzero per cache line, sfence at the end (needs CLZERO)
 *
 * sysfs: /sys/kernel/clearpage/
 * ------------------------------
 *   available_strategies  0444  names this CPU supports, space separated,
 *                               always starting with "kernel".
 *   cpu                   0444  "vendor=<id> family=<n> model=<n> stepping=<n>"
 *                               (decimal numbers, vendor as CPUID reports it).
 *   backends              0444  one line per interception backend:
 *                               "<name> active" or
 *                               "<name> inactive: <reason>".
 *                               Names: "huge" (livepatch of the huge page
 *                               clear), "4k" (kretprobe on the 4 KiB
 *                               anonymous page allocation).
 *   nodeN/                      one directory per node with memory at load.
 *   nodeN/strategy        0644  read: every available name, the current one
 *                               in brackets ("kernel [movnti] clzero").
 *                               write: one name, optionally followed by one
 *                               newline. Anything else: -EINVAL, no change.
 *                               A successful write pins the node.
 *                               Needs CAP_SYS_ADMIN (-EPERM otherwise).
 *   nodeN/pinned          0644  "0" or "1". Writing "0" or "1" (optionally
 *                               followed by one newline) sets it; anything
 *                               else is -EINVAL. A pinned node is changed only
 *                               by an administrator.
 *   nodeN/stats           0444  "key value" lines, values unsigned decimal:
 *       pages_4k_<strategy>     base pages the 4k backend cleared on this
 *                               node with <strategy>
 *       pages_huge_<strategy>   base pages the huge backend cleared on this
 *                               node with <strategy> (a 2 MiB page is 512)
 *       pages_huge_prezeroed    base pages of transparent huge pages whose
 *                               second clear was skipped because the page
 *                               allocator had already zeroed them
 *                               (init_on_alloc=1)
 *       samples_<strategy>      number of timed clears (1 in 2^sample_shift)
 *       sample_ns_<strategy>    sum of their durations in ns, per 4 KiB page
 *                               cleared (so sample_ns / samples = ns/page)
 *       latency_ns_<bound>      log2 histogram of sampled ns per 4 KiB page:
 *                               count of samples below <bound> and at or
 *                               above the previous bound; the last bucket,
 *                               "latency_ns_inf", has no upper bound.
 *   nodeN/calibration     0444  one line per strategy other than kernel:
 *                               "<strategy> <hot_ns_per_page> <cold_ns_per_page>"
 *   nodeN/calibrate       0200  write "1" to measure calibration again.
 *
 * Module parameters: default_strategy (name, default "kernel"),
 * sample_shift (0..20, default 6: one clear in 64 is timed).
 */
#ifndef _UAPI_CLEARPAGE_H
#define _UAPI_CLEARPAGE_H

#define CLEARPAGE_SYSFS_ROOT "/sys/kernel/clearpage"

enum clearpage_strategy {
	CLEARPAGE_STRATEGY_KERNEL = 0,
	CLEARPAGE_STRATEGY_REP_STOSB = 1,
	CLEARPAGE_STRATEGY_REP_STOSQ = 2,
	CLEARPAGE_STRATEGY_MOVQ = 3,
	CLEARPAGE_STRATEGY_MOVNTI = 4,
	CLEARPAGE_STRATEGY_CLZERO = 5,
	CLEARPAGE_STRATEGY_COUNT
};

#define CLEARPAGE_STRATEGY_NAMES \
	{ "kernel", "rep_stosb", "rep_stosq", "movq", "movnti", "clzero" }

/* Who made a change of strategy or pin. */
enum clearpage_source {
	CLEARPAGE_SOURCE_DEFAULT = 0,	/* the module's default at load */
	CLEARPAGE_SOURCE_ADMIN = 1,	/* an administrator (sysfs, CLI) */
	CLEARPAGE_SOURCE_DAEMON = 2,	/* the policy daemon */
	CLEARPAGE_SOURCE_COUNT
};

#define CLEARPAGE_SOURCE_NAMES { "default", "admin", "daemon" }

/* Number of log2 latency buckets in nodeN/stats (bounds 64 ns .. 2^21 ns). */
#define CLEARPAGE_LATENCY_BUCKETS 17
#define CLEARPAGE_LATENCY_FIRST_SHIFT 6

#endif /* _UAPI_CLEARPAGE_H */
