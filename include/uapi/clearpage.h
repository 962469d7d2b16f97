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
 *       reference_pages         base pages on reference frames: while the
 *                               node runs movnti or clzero, frames whose pfn
 *                               is a multiple of 2^reference_shift (module
 *                               parameter, default 5; 0: none) are cleared
 *                               with the kernel's routine instead, and timed.
 *                               These pages are not in pages_*_<strategy>.
 *       reference_sample_ns     sum of their clear times in ns (so
 *                               reference_sample_ns / reference_pages is the
 *                               hot strategy's ns/page on this node's pages)
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
 *
 * Every change of strategy or pin also sends a "change" uevent on nodeN with
 * CLEARPAGE_NODE=, CLEARPAGE_STRATEGY=, CLEARPAGE_SOURCE= and
 * CLEARPAGE_PINNED= in its environment.
 *
 * Generic netlink family "clearpage", version 1
 * ---------------------------------------------
 * Resolve the family id and the multicast group "events" with the generic
 * netlink controller. Every request carries a genlmsghdr with version 1 and
 * one of the commands below; attributes follow. Every attribute has a
 * policy: a missing, wrongly typed, out-of-range or unknown attribute fails
 * the request with -EINVAL and an extended ack message naming it. Reads are
 * open to everyone; changes need CAP_SYS_ADMIN in the sender's credentials
 * (-EPERM otherwise).
 *
 *   CLEARPAGE_CMD_GET_NODE            do: CLEARPAGE_A_NODE required.
 *                                     dump: one reply per managed node.
 *       reply: CLEARPAGE_A_NODE, _STRATEGY, _PINNED, _SOURCE,
 *              _LAST_CHANGE_NS, _PAGES_HUGE_PREZEROED, _REFERENCE_PAGES,
 *              _REFERENCE_SAMPLE_NS, _STRATEGIES (one
 *              CLEARPAGE_A_ENTRY per available strategy with every
 *              CLEARPAGE_S_* attribute), _LATENCY (one u64 per bucket,
 *              attribute type = bucket index + 1).
 *   CLEARPAGE_CMD_GET_CALIBRATION     do: CLEARPAGE_A_NODE required. dump.
 *       reply: CLEARPAGE_A_NODE, _STRATEGIES (entries with
 *              CLEARPAGE_S_STRATEGY, _HOT_NS, _COLD_NS for each available
 *              strategy other than kernel).
 *   CLEARPAGE_CMD_SET_STRATEGY        CLEARPAGE_A_NODE, _STRATEGY, _SOURCE
 *                                     (admin or daemon) required.
 *       An admin set pins the node, as a sysfs write does. A daemon set on
 *       a pinned node fails with -EBUSY and changes nothing. A strategy this
 *       CPU lacks is -EOPNOTSUPP.
 *   CLEARPAGE_CMD_SET_PINNED          CLEARPAGE_A_NODE, _PINNED required.
 *   CLEARPAGE_CMD_CALIBRATE           CLEARPAGE_A_NODE required; measures the
 *                                     node's calibration again (may take a
 *                                     second); reply as GET_CALIBRATION.
 *   CLEARPAGE_CMD_EVENT               multicast on "events" for every change
 *                                     of strategy or pin, from sysfs or
 *                                     netlink: CLEARPAGE_A_NODE,
 *                                     _OLD_STRATEGY, _STRATEGY, _PINNED,
 *                                     _SOURCE, _LAST_CHANGE_NS.
 *
 * Errors: -ENODEV for a node id without a nodeN directory (no memory at
 * load or not a node), -EINVAL for malformed requests, -EPERM without
 * CAP_SYS_ADMIN, -EBUSY as above, -ENOMEM.
 *
 * Attributes (CLEARPAGE_A_*):
 *   NODE                  u32  node id
 *   STRATEGY              u8   enum clearpage_strategy
 *   PINNED                u8   0 or 1
 *   SOURCE                u8   enum clearpage_source of the last change
 *   LAST_CHANGE_NS        u64  CLOCK_REALTIME of the last change, ns
 *   OLD_STRATEGY          u8   strategy before the change (events)
 *   PAGES_HUGE_PREZEROED  u64  as in nodeN/stats
 *   STRATEGIES            nested, CLEARPAGE_A_ENTRY elements
 *   LATENCY               nested, u64 counts
 *   PAD                   padding for 64-bit attributes
 *   REFERENCE_PAGES       u64  as in nodeN/stats
 *   REFERENCE_SAMPLE_NS   u64  as in nodeN/stats
 * Per-strategy attributes (CLEARPAGE_S_*), inside a CLEARPAGE_A_ENTRY:
 *   STRATEGY u8; PAGES_4K, PAGES_HUGE, SAMPLES, SAMPLE_NS u64 (as in
 *   nodeN/stats); HOT_NS, COLD_NS u32 (as in nodeN/calibration).
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

#define CLEARPAGE_GENL_NAME "clearpage"
#define CLEARPAGE_GENL_VERSION 1
#define CLEARPAGE_GENL_MCGRP_EVENTS "events"

enum clearpage_cmd {
	CLEARPAGE_CMD_UNSPEC,
	CLEARPAGE_CMD_GET_NODE,
	CLEARPAGE_CMD_GET_CALIBRATION,
	CLEARPAGE_CMD_SET_STRATEGY,
	CLEARPAGE_CMD_SET_PINNED,
	CLEARPAGE_CMD_CALIBRATE,
	CLEARPAGE_CMD_EVENT,
	__CLEARPAGE_CMD_MAX
};
#define CLEARPAGE_CMD_MAX (__CLEARPAGE_CMD_MAX - 1)

enum clearpage_attr {
	CLEARPAGE_A_UNSPEC,
	CLEARPAGE_A_NODE,
	CLEARPAGE_A_STRATEGY,
	CLEARPAGE_A_PINNED,
	CLEARPAGE_A_SOURCE,
	CLEARPAGE_A_LAST_CHANGE_NS,
	CLEARPAGE_A_OLD_STRATEGY,
	CLEARPAGE_A_PAGES_HUGE_PREZEROED,
	CLEARPAGE_A_STRATEGIES,
	CLEARPAGE_A_LATENCY,
	CLEARPAGE_A_PAD,
	CLEARPAGE_A_REFERENCE_PAGES,
	CLEARPAGE_A_REFERENCE_SAMPLE_NS,
	__CLEARPAGE_A_MAX
};
#define CLEARPAGE_A_MAX (__CLEARPAGE_A_MAX - 1)

/* Type of each element of CLEARPAGE_A_STRATEGIES. */
#define CLEARPAGE_A_ENTRY 1

enum clearpage_strategy_attr {
	CLEARPAGE_S_UNSPEC,
	CLEARPAGE_S_STRATEGY,
	CLEARPAGE_S_PAGES_4K,
	CLEARPAGE_S_PAGES_HUGE,
	CLEARPAGE_S_SAMPLES,
	CLEARPAGE_S_SAMPLE_NS,
	CLEARPAGE_S_HOT_NS,
	CLEARPAGE_S_COLD_NS,
	CLEARPAGE_S_PAD,
	CLEARPAGE_S_RANGES_HUGE,
	CLEARPAGE_S_HUGE_HOT_NS,
	CLEARPAGE_S_HUGE_COLD_NS,
	__CLEARPAGE_S_MAX
};
#define CLEARPAGE_S_MAX (__CLEARPAGE_S_MAX - 1)

#endif /* _UAPI_CLEARPAGE_H */
