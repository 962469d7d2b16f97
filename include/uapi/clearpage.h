/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * clearpage: per-NUMA-node choice of how the kernel zeroes user pages.
 *
 * This header is the ABI between clearpage.ko and user space.
 *
 * Strategies
 * ----------
 * A strategy is the instruction sequence used to zero a page, or a range of
 * whole pages. Names are what sysfs reads and accepts; ids are stable
 * numbers.
 *
 *   id  name       instructions, over a page or a range
 *   0   kernel     whatever the running kernel picked at boot (clear_page);
 *                  huge folios as the running kernel clears them (6.1,
 *                  6.12: its 4 KiB walk; 7.x: three extents, one
 *                  clear_pages() each)
 *   1   rep_stosb  one rep stosb (fast with ERMS)
 *   2   rep_stosq  one rep stosq
 *   3   movq       8 x movq per 64-byte line, unrolled loop
 *   4   movnti     8 x movnti per line, one sfence at the end (non-temporal)
 *   5   clzero     AMD clzero per 64-byte line, one sfence at the end (needs
 *                  CLZERO and a 64-byte cache line)
 *
 * Backends
 * --------
 * Each node has a strategy per interception backend, because the two see
 * different clears: "4k" (id 0) clears single 4 KiB pages that the faulting
 * process touches at once; "huge" (id 1) clears whole huge folios (THP,
 * mTHP, hugetlb), as ranges of whole pages (see doc/ABI).
 *
 * sysfs
 * -----
 * /sys/kernel/clearpage/ is documented in doc/ABI/sysfs-kernel-clearpage
 * (installed in /usr/share/clearpaged/abi/), with the module parameters
 * and the uevent.
 *
 * Generic netlink family "clearpage", version 2
 * ---------------------------------------------
 * Resolve the family id and the multicast group "events" with the generic
 * netlink controller. Every request carries a genlmsghdr with version 2 and
 * one of the commands below; attributes follow. Every attribute has a
 * policy: a missing, wrongly typed or unknown attribute fails the request
 * with -EINVAL, a value out of its range (a strategy, source or backend id
 * beyond the enums below, a node id of MAX_NUMNODES or more) with -ERANGE,
 * each with an extended ack message naming the attribute. Changes need
 * CAP_SYS_ADMIN (-EPERM otherwise). Version 2 made the strategy, pin and
 * counters per backend; version 1 had one strategy per node.
 *
 * Who reads what. Reads (GET_NODE, GET_CALIBRATION, do and dump) are open
 * to everyone, but only a reader with CAP_PERFMON or CAP_SYS_ADMIN gets
 * the counters and calibrations: they time the clears of other
 * processes' pages, and the touch probe's say whether those processes
 * read their freshly faulted pages within milliseconds, a side channel,
 * as perf's counters are. Both the socket's opener and the sender need
 * the capability; a dump is judged once, when it starts. Every other
 * reader gets the same replies with those attributes left out (not
 * zeroed: absent means "not shown", 0 means none counted): it gets
 * CLEARPAGE_A_NODE, _HELPERS, _STRATEGIES with CLEARPAGE_S_STRATEGY alone
 * per available strategy, and _BACKENDS with CLEARPAGE_B_BACKEND,
 * _STRATEGY, _PINNED, _SOURCE, _LAST_CHANGE_NS, _TRIALS, _PROBE,
 * _PROBE_HOT and _PROBE_COLD (GET_CALIBRATION: CLEARPAGE_A_NODE and the
 * strategy ids); everything else below is the counters and calibrations.
 * Such a read takes no lock a change takes, so it never waits for a
 * calibration or holds up a change: each field is read once, and two
 * fields may come from either side of a change in flight. The same
 * split holds in sysfs: nodeN/stats, probe_calibration and calibration_*
 * are mode 0400 (root only: a sysfs read cannot check the reader's
 * capability soundly, so a holder of CAP_PERFMON alone reads them here).
 * The multicast group "events" is open to everyone: an event carries
 * what the world-readable nodeN/strategy_* and pinned_* files and the
 * node's change uevent (which every process may receive) say, no
 * counter and no timing.
 *
 *   CLEARPAGE_CMD_GET_NODE            do: CLEARPAGE_A_NODE required.
 *                                     dump: one reply per managed node.
 *       reply: CLEARPAGE_A_NODE, _PAGES_HUGE_PREZEROED, _HELPERS,
 *              _HELPED_FOLIOS, _HELPER_PAGES, _HELPERS_STARTED,
 *              _HELPERS_NOT_STARTED, _PROBE_HOT_TICKS, _PROBE_COLD_TICKS,
 *              _PROBE_THRESHOLD, _BACKENDS (one
 *              CLEARPAGE_A_ENTRY per backend with every CLEARPAGE_B_*
 *              attribute), _STRATEGIES (one CLEARPAGE_A_ENTRY per available
 *              strategy with every CLEARPAGE_S_* attribute), _LATENCY (one
 *              u64 per bucket, attribute type = bucket index + 1).
 *   CLEARPAGE_CMD_GET_CALIBRATION     do: CLEARPAGE_A_NODE required. dump.
 *       reply: CLEARPAGE_A_NODE, _PROBE_HOT_TICKS, _PROBE_COLD_TICKS,
 *              _PROBE_THRESHOLD, _STRATEGIES (entries with
 *              CLEARPAGE_S_STRATEGY and the four calibration attributes for
 *              each available strategy, kernel first: kernel is measured
 *              as the kernel clears, clear_page() and its folio clear:
 *              the 6.x walk or the 7.x extents).
 *   CLEARPAGE_CMD_SET_STRATEGY        CLEARPAGE_A_NODE, _STRATEGY, _SOURCE
 *                                     (admin or daemon) required;
 *                                     CLEARPAGE_A_BACKEND optional (absent:
 *                                     both backends).
 *       An admin set pins the backend(s), as a sysfs write does. A daemon
 *       set on a pinned backend fails with -EBUSY and changes nothing (with
 *       both backends: nothing, if either is pinned); otherwise it also
 *       ends the backend's probe mode. A strategy this CPU
 *       lacks, or one refused by its self-test, is -EOPNOTSUPP.
 *   CLEARPAGE_CMD_SET_PINNED          CLEARPAGE_A_NODE, _PINNED required;
 *                                     CLEARPAGE_A_BACKEND optional.
 *   CLEARPAGE_CMD_CALIBRATE           CLEARPAGE_A_NODE required; measures the
 *                                     node's calibration again (may take a
 *                                     second); reply as GET_CALIBRATION.
 *                                     -ENOMEM: no pool to measure on; -EIO:
 *                                     a probe load of the pool took a
 *                                     memory error (the page queued for
 *                                     memory_failure()), nothing changed.
 *   CLEARPAGE_CMD_SET_TRIALS          CLEARPAGE_A_NODE, _TRIALS required;
 *                                     CLEARPAGE_A_BACKEND optional (absent:
 *                                     both backends).
 *       The candidates timed on the backend's trial frames (nodeN/trials_4k,
 *       trials_huge in doc/ABI): a bit per strategy, kernel's never (its
 *       frames are the reference frames); 0 ends the trials. A kernel bit
 *       or a bit beyond the strategies is -EINVAL, a strategy this CPU
 *       lacks or refused -EOPNOTSUPP, candidates on a pinned backend
 *       -EBUSY (a pin ends a backend's trials). No event.
 *   CLEARPAGE_CMD_SET_HELPERS         CLEARPAGE_A_NODE, _HELPERS required.
 *       How many of the node's other CPUs help clear a gigantic folio
 *       (nodeN/gigantic_helpers in doc/ABI): 0 (the default) to one less
 *       than the node's online CPUs, and at most CLEARPAGE_HELPERS_MAX;
 *       beyond that -EINVAL with an extended ack naming the limit, and
 *       nothing changes. No event.
 *   CLEARPAGE_CMD_SET_PROBE           CLEARPAGE_A_NODE, _BACKEND required;
 *                                     CLEARPAGE_A_PROBE_HOT and
 *                                     _PROBE_COLD both (on) or neither
 *                                     (off); CLEARPAGE_A_SOURCE optional
 *                                     (absent: admin).
 *       The backend's probe mode (nodeN/probe_huge in doc/ABI): before a
 *       folio is cleared a few timed loads of its lines say whether it is
 *       cached; a hot one is cleared with _PROBE_HOT's strategy, a cold one
 *       with _PROBE_COLD's. Only the huge backend has it (-EOPNOTSUPP for
 *       4k). Turning it on ends the backend's trials, with an event; an
 *       admin's pins the backend, the daemon's (clearpaged per folio) pins
 *       nothing, is refused on a pinned backend with -EBUSY, and ends with
 *       the daemon's next CLEARPAGE_CMD_SET_STRATEGY of the backend. One of
 *       the two attributes alone is -EINVAL; a strategy this CPU lacks or
 *       refused -EOPNOTSUPP; a node whose probe calibration cannot tell a
 *       cached line from memory (CLEARPAGE_A_PROBE_THRESHOLD 0) -EINVAL
 *       with an extended ack saying so. Nothing changes then.
 *   CLEARPAGE_CMD_EVENT               multicast on "events" for every change
 *                                     of a backend's strategy or pin, from
 *                                     sysfs or netlink, one message per
 *                                     backend changed: CLEARPAGE_A_NODE,
 *                                     _BACKEND, _OLD_STRATEGY, _STRATEGY,
 *                                     _PINNED, _SOURCE, _LAST_CHANGE_NS.
 *
 * Errors: -ENODEV for a node id without a nodeN directory (no memory at
 * load or not a node), -EINVAL and -ERANGE for malformed requests, -EPERM
 * for a change without CAP_SYS_ADMIN (checked before the node id and the
 * values: a change from a sender without it is -EPERM whatever it names,
 * once the request passes the policy), -EBUSY as above, -ENOMEM.
 *
 * The attributes are documented beside their enumerators below: the
 * top-level ones (CLEARPAGE_A_*), those of each backend (CLEARPAGE_B_*,
 * inside a CLEARPAGE_A_ENTRY of CLEARPAGE_A_BACKENDS) and those of each
 * strategy (CLEARPAGE_S_*, inside a CLEARPAGE_A_ENTRY of
 * CLEARPAGE_A_STRATEGIES).
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

/* The interception backends; each node has a strategy for each. */
enum clearpage_backend {
	CLEARPAGE_BACKEND_4K = 0,	/* 4 KiB anonymous pages (kretprobe) */
	CLEARPAGE_BACKEND_HUGE = 1,	/* huge folios (livepatch) */
	CLEARPAGE_BACKEND_COUNT
};

#define CLEARPAGE_BACKEND_NAMES { "4k", "huge" }

/* Number of log2 latency buckets in nodeN/stats (bounds 64 ns .. 2^21 ns). */
#define CLEARPAGE_LATENCY_BUCKETS 17
#define CLEARPAGE_LATENCY_FIRST_SHIFT 6

/*
 * The most helpers a node's gigantic folios may have (nodeN/gigantic_helpers,
 * CLEARPAGE_A_HELPERS): with the faulting CPU, 32 CPUs per folio.
 */
#define CLEARPAGE_HELPERS_MAX 31

#define CLEARPAGE_GENL_NAME "clearpage"
#define CLEARPAGE_GENL_VERSION 2
#define CLEARPAGE_GENL_MCGRP_EVENTS "events"

enum clearpage_cmd {
	CLEARPAGE_CMD_UNSPEC,
	CLEARPAGE_CMD_GET_NODE,
	CLEARPAGE_CMD_GET_CALIBRATION,
	CLEARPAGE_CMD_SET_STRATEGY,
	CLEARPAGE_CMD_SET_PINNED,
	CLEARPAGE_CMD_CALIBRATE,
	CLEARPAGE_CMD_EVENT,
	CLEARPAGE_CMD_SET_TRIALS,
	CLEARPAGE_CMD_SET_HELPERS,
	CLEARPAGE_CMD_SET_PROBE,
	__CLEARPAGE_CMD_MAX
};

#define CLEARPAGE_CMD_MAX (__CLEARPAGE_CMD_MAX - 1)

enum clearpage_attr {
	CLEARPAGE_A_UNSPEC,
	CLEARPAGE_A_NODE,		/* u32: node id */
	CLEARPAGE_A_STRATEGY,		/* u8: enum clearpage_strategy */
	CLEARPAGE_A_PINNED,		/* u8: 0 or 1 */
	CLEARPAGE_A_SOURCE,		/* u8: enum clearpage_source of the change */
	CLEARPAGE_A_LAST_CHANGE_NS,	/* u64: CLOCK_REALTIME of the change, ns */
	CLEARPAGE_A_OLD_STRATEGY,	/* u8: the strategy before (events) */
	CLEARPAGE_A_PAGES_HUGE_PREZEROED, /* u64: as in nodeN/stats */
	CLEARPAGE_A_STRATEGIES,		/* nested: CLEARPAGE_A_ENTRY of CLEARPAGE_S_* */
	CLEARPAGE_A_LATENCY,		/* nested: u64 counts, type = bucket + 1, both backends */
	CLEARPAGE_A_PAD,		/* padding for 64-bit attributes */
	CLEARPAGE_A_BACKEND,		/* u8: enum clearpage_backend */
	CLEARPAGE_A_BACKENDS,		/* nested: CLEARPAGE_A_ENTRY of CLEARPAGE_B_* */
	CLEARPAGE_A_TRIALS,		/* u32: a bit per strategy, 1 << enum clearpage_strategy */
	CLEARPAGE_A_HELPERS,		/* u32: the node's gigantic_helpers */
	CLEARPAGE_A_HELPED_FOLIOS,	/* u64: gigantic_helped_folios */
	CLEARPAGE_A_HELPER_PAGES,	/* u64: gigantic_helper_pages */
	CLEARPAGE_A_HELPERS_STARTED,	/* u64: gigantic_helpers_started */
	CLEARPAGE_A_HELPERS_NOT_STARTED, /* u64: gigantic_helpers_not_started */
	CLEARPAGE_A_PROBE_HOT,		/* u8: enum clearpage_strategy for hot folios (SET_PROBE) */
	CLEARPAGE_A_PROBE_COLD,		/* u8: ... for cold folios */
	CLEARPAGE_A_PROBE_HOT_TICKS,	/* u32: nodeN/probe_calibration */
	CLEARPAGE_A_PROBE_COLD_TICKS,	/* u32 */
	CLEARPAGE_A_PROBE_THRESHOLD,	/* u32: threshold_ticks; 0: cannot tell, refused */
	__CLEARPAGE_A_MAX
};

#define CLEARPAGE_A_MAX (__CLEARPAGE_A_MAX - 1)

/* Type of each element of CLEARPAGE_A_STRATEGIES and CLEARPAGE_A_BACKENDS. */
#define CLEARPAGE_A_ENTRY 1

/* Per backend, inside a CLEARPAGE_A_ENTRY of CLEARPAGE_A_BACKENDS. */
enum clearpage_backend_attr {
	CLEARPAGE_B_UNSPEC,
	CLEARPAGE_B_BACKEND,		/* u8: enum clearpage_backend */
	CLEARPAGE_B_STRATEGY,		/* u8: enum clearpage_strategy */
	CLEARPAGE_B_PINNED,		/* u8: 0 or 1 */
	CLEARPAGE_B_SOURCE,		/* u8: enum clearpage_source */
	CLEARPAGE_B_LAST_CHANGE_NS,	/* u64: CLOCK_REALTIME, ns */
	CLEARPAGE_B_REFERENCE_PAGES,	/* u64: reference_pages_<backend> */
	CLEARPAGE_B_REFERENCE_SAMPLE_NS, /* u64: reference_sample_ns_<backend> */
	CLEARPAGE_B_PAD,		/* padding for 64-bit attributes */
	CLEARPAGE_B_TRIALS,		/* u32: the candidates, as CLEARPAGE_A_TRIALS */
	CLEARPAGE_B_PROBE,		/* u8: 1 in probe mode (probe_<backend>) */
	CLEARPAGE_B_PROBE_HOT,		/* u8: its strategy for hot folios, */
	CLEARPAGE_B_PROBE_COLD,		/* u8: and for cold ones (probe mode only) */
	/*
	 * Units (4 KiB pages, folios) the temperature probe judged hot and
	 * cold, in probe mode and in the sample of every backend
	 * (probe_shift), and the time it took:
	 */
	CLEARPAGE_B_PROBE_HOT_FOLIOS,	/* u64: probe_hot_<backend> */
	CLEARPAGE_B_PROBE_COLD_FOLIOS,	/* u64: probe_cold_<backend> */
	CLEARPAGE_B_PROBE_NS,		/* u64: probe_ns_<backend> */
	CLEARPAGE_B_TOUCH_PROBED,	/* u64: touch_probed_<backend> */
	CLEARPAGE_B_TOUCH_CACHED,	/* u64: touch_cached_<backend> */
	CLEARPAGE_B_TOUCH_SKIPPED,	/* u64: touch_skipped_<backend> */
	/*
	 * Of CLEARPAGE_B_PROBE_HOT_FOLIOS, the units counted hot only because
	 * this CPU had cleared them non-temporally moments before (not
	 * cached; cleared with the cold strategy in probe mode).
	 */
	CLEARPAGE_B_PROBE_RECYCLED_FOLIOS, /* u64: probe_recycled_<backend> */
	__CLEARPAGE_B_MAX
};

#define CLEARPAGE_B_MAX (__CLEARPAGE_B_MAX - 1)

/*
 * Per strategy, inside a CLEARPAGE_A_ENTRY of CLEARPAGE_A_STRATEGIES: the
 * counters as in nodeN/stats, the calibration as in nodeN/calibration_4k
 * and nodeN/calibration_huge.
 */
enum clearpage_strategy_attr {
	CLEARPAGE_S_UNSPEC,
	CLEARPAGE_S_STRATEGY,		/* u8: enum clearpage_strategy */
	CLEARPAGE_S_PAGES_4K,		/* u64: pages_4k_<s> */
	CLEARPAGE_S_PAGES_HUGE,		/* u64: pages_huge_<s> */
	CLEARPAGE_S_RANGES_HUGE,	/* u64: ranges_huge_<s> */
	CLEARPAGE_S_SAMPLES_4K,		/* u64: samples_4k_<s> */
	CLEARPAGE_S_SAMPLE_NS_4K,	/* u64: sample_ns_4k_<s> */
	CLEARPAGE_S_SAMPLES_HUGE,	/* u64: samples_huge_<s> */
	CLEARPAGE_S_SAMPLE_NS_HUGE,	/* u64: sample_ns_huge_<s> */
	CLEARPAGE_S_HOT_NS_4K,		/* u32: calibration, ns per page */
	CLEARPAGE_S_COLD_NS_4K,		/* u32 */
	CLEARPAGE_S_HOT_NS_HUGE,	/* u32 */
	CLEARPAGE_S_COLD_NS_HUGE,	/* u32 */
	CLEARPAGE_S_PAD,		/* padding for 64-bit attributes */
	CLEARPAGE_S_TRIAL_PAGES_4K,	/* u64: trial and control frames, all timed */
	CLEARPAGE_S_TRIAL_NS_4K,	/* u64 */
	CLEARPAGE_S_TRIAL_PAGES_HUGE,	/* u64 */
	CLEARPAGE_S_TRIAL_NS_HUGE,	/* u64 */
	__CLEARPAGE_S_MAX
};

#define CLEARPAGE_S_MAX (__CLEARPAGE_S_MAX - 1)

#endif /* _UAPI_CLEARPAGE_H */
