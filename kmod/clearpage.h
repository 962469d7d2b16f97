/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CLEARPAGE_H
#define _CLEARPAGE_H

#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/types.h>

#include <clearpage/strategies.h>
#include <clearpage/folio.h>
#include <clearpage/probe.h>

/* For clearpage_node_set_*(): every backend at once. */
#define CLEARPAGE_BACKEND_ALL (-1)

/*
 * Per-CPU counters of one node; summed when read, word by word: every
 * member is a u64 (clearpage_node_stats_sum()), touch_skipped the last.
 * The stats file prints them in one sysfs page (105 lines, under 4 KiB
 * with realistic values): more counters belong in netlink only.
 */
struct clearpage_node_stats {
	u64 pages[CLEARPAGE_BACKEND_COUNT][CLEARPAGE_STRATEGY_COUNT];
	/* Range operations of the huge backend: one per chunk, not per page. */
	u64 ranges_huge[CLEARPAGE_STRATEGY_COUNT];
	/* Timed pages (1 in 2^sample_shift) and their summed clear time. */
	u64 samples[CLEARPAGE_BACKEND_COUNT][CLEARPAGE_STRATEGY_COUNT];
	u64 sample_ns[CLEARPAGE_BACKEND_COUNT][CLEARPAGE_STRATEGY_COUNT];
	u64 pages_huge_prezeroed;
	/*
	 * Of pages_huge and ranges_huge, those of the allocator's clear (7.x):
	 * THP and mTHP with init_on_alloc=1, kernel allocations of 16 KiB and
	 * more that the allocator zeroes.
	 */
	u64 pages_huge_allocator;
	u64 ranges_huge_allocator;
	/* Reference frames cleared with the kernel's routine, all timed. */
	u64 reference_pages[CLEARPAGE_BACKEND_COUNT];
	u64 reference_sample_ns[CLEARPAGE_BACKEND_COUNT];
	/* Trial frames cleared with each candidate strategy, all timed. */
	u64 trial_pages[CLEARPAGE_BACKEND_COUNT][CLEARPAGE_STRATEGY_COUNT];
	u64 trial_ns[CLEARPAGE_BACKEND_COUNT][CLEARPAGE_STRATEGY_COUNT];
	u64 latency[CLEARPAGE_LATENCY_BUCKETS];
	/*
	 * Gigantic folios cleared with helpers (helpers.c): the folios, the
	 * pages the helpers cleared, and the helpers that started or that
	 * had not when the faulting task had taken every range.
	 */
	u64 helped_folios;
	u64 helper_pages;
	u64 helpers_started;
	u64 helpers_not_started;
	/*
	 * The temperature probe, per backend (the huge backend's probe mode,
	 * and the sample of every backend outside it): units judged hot and
	 * cold, and the time the probes took.
	 */
	u64 probe_hot[CLEARPAGE_BACKEND_COUNT];
	u64 probe_cold[CLEARPAGE_BACKEND_COUNT];
	u64 probe_ns[CLEARPAGE_BACKEND_COUNT];
	/*
	 * Of probe_hot, the units counted hot only because this CPU cleared
	 * them non-temporally within the recycled rule's reach: their lines
	 * were not cached (in probe mode cleared with the cold strategy).
	 */
	u64 probe_recycled[CLEARPAGE_BACKEND_COUNT];
	/*
	 * The touch probe (touch.c), per backend: lines loaded some time
	 * after a non-temporal clear, those found cached (the application
	 * touched them), and held folios released unprobed (freed by then).
	 */
	u64 touch_probed[CLEARPAGE_BACKEND_COUNT];
	u64 touch_cached[CLEARPAGE_BACKEND_COUNT];
	u64 touch_skipped[CLEARPAGE_BACKEND_COUNT];
};

struct clearpage_calibration {
	u32 hot_ns;
	u32 cold_ns;
};

/*
 * The temperature probe's calibration: the median TSC ticks of a timed load
 * of a cached line and of a line from memory, and the threshold between
 * them (0: the two cannot be told apart, and the probe is refused).
 */
struct clearpage_probe_calibration {
	u32 hot_ticks;
	u32 cold_ticks;
	u32 threshold_ticks;
};

/*
 * A backend's probe mode, in one word so that a clear reads it at once: off
 * (0), or on with the strategy for hot folios and the one for cold folios.
 */
#define CLEARPAGE_PROBE_ON BIT(16)

static inline unsigned int clearpage_probe_mode(int hot, int cold)
{
	return CLEARPAGE_PROBE_ON | (unsigned int)hot << 8 | (unsigned int)cold;
}

static inline int clearpage_probe_hot_strategy(unsigned int mode)
{
	return (mode >> 8) & 0xff;
}

static inline int clearpage_probe_cold_strategy(unsigned int mode)
{
	return mode & 0xff;
}

/* What one backend runs on one node, and who chose it. */
struct clearpage_choice {
	/* Read locklessly by the clearing paths; written under clearpage_lock. */
	int strategy;
	/*
	 * Candidates timed on trial frames (a bit per strategy, never
	 * kernel's): read locklessly, written under clearpage_lock.
	 */
	unsigned int trials;
	/*
	 * clearpage_probe_mode(), or 0: read locklessly, written under
	 * clearpage_lock. Only the huge backend has one.
	 */
	unsigned int probe;
	/* These too: read locklessly, written under clearpage_lock. */
	bool pinned;
	enum clearpage_source last_source;
	u64 last_change_ns;
};

struct clearpage_node {
	int nid;
	struct clearpage_choice choice[CLEARPAGE_BACKEND_COUNT];
	struct clearpage_node_stats __percpu *stats;
	/* Serialises the node's calibrations (load, sysfs, netlink). */
	struct mutex calibration_lock;
	/*
	 * Per backend, in the pattern its clears see: 4k single scattered
	 * pages, huge whole folios cleared as ranges.
	 */
	struct clearpage_calibration
		calibration[CLEARPAGE_BACKEND_COUNT][CLEARPAGE_STRATEGY_COUNT];
	/* Under calibration_lock; threshold_ticks also read locklessly. */
	struct clearpage_probe_calibration probe_calibration;
	/*
	 * How many of the node's other CPUs help clear a gigantic folio: read
	 * locklessly, written under clearpage_lock.
	 */
	unsigned int helpers;
};

/*
 * The module's layers, top to bottom (main.c says more); each file calls
 * only the layers below it.
 */

/* sysfs.c, netlink.c: the ABI */
int clearpage_sysfs_create(void);
void clearpage_sysfs_remove(void);
int clearpage_nl_register(void);
void clearpage_nl_unregister(void);

/* node.c: the managed nodes' changes, strategy and pin per node and backend */
int clearpage_nodes_create(int default_strategy);
void clearpage_nodes_destroy(void);
/* @backend: one, or CLEARPAGE_BACKEND_ALL. */
int clearpage_node_set_strategy(struct clearpage_node *node, int backend,
				int strategy, enum clearpage_source source);
int clearpage_node_set_pinned(struct clearpage_node *node, int backend,
			      bool pinned, enum clearpage_source source);
int clearpage_node_set_trials(struct clearpage_node *node, int backend,
			      unsigned int trials);
/*
 * 0, or -EINVAL when @helpers is more than the node's online CPUs but one,
 * or than CLEARPAGE_HELPERS_MAX.
 */
int clearpage_node_set_helpers(struct clearpage_node *node,
			       unsigned int helpers);
/*
 * The probe mode of @backend (only CLEARPAGE_BACKEND_HUGE: -EOPNOTSUPP for
 * another): @on, hot folios cleared with @hot and cold ones with @cold.
 * Turning it on ends the backend's trials; @source an administrator's pins
 * the backend (which clearpaged respects), the daemon's pins nothing and
 * is refused on a pinned backend with -EBUSY (as a daemon's strategy,
 * which also ends the daemon's probe mode). -EOPNOTSUPP for a strategy
 * that is not usable, -EINVAL when the node's probe calibration cannot tell
 * a cached line from memory; nothing changes then.
 */
int clearpage_node_set_probe(struct clearpage_node *node, int backend, bool on,
			     int hot, int cold, enum clearpage_source source);
int clearpage_node_calibrate(struct clearpage_node *node);
void clearpage_node_stats_sum(struct clearpage_node *node,
			      struct clearpage_node_stats *sum);
/* Who is told of every change, under clearpage_lock: node.c announces. */
enum clearpage_notify {
	CLEARPAGE_NOTIFY_SYSFS,		/* the change uevent */
	CLEARPAGE_NOTIFY_NETLINK,	/* the multicast event */
	CLEARPAGE_NOTIFY_COUNT
};

typedef void (*clearpage_notify_fn)(struct clearpage_node *node, int backend,
				    int old_strategy);
void clearpage_node_set_notify(enum clearpage_notify who,
			       clearpage_notify_fn fn);

/* arming.c: which backends are armed, and when (other livepatches too) */
void clearpage_backends_init(void);
void clearpage_backends_exit(void);
void clearpage_backends_update(void);
int clearpage_backends_describe(char *buf);
int clearpage_backends_describe_paths(char *buf);

/* calibration.c: a bit per strategy that failed its self-test, or -errno */
long clearpage_calibrate(struct clearpage_node *node);

/*
 * backend_huge.c: the livepatch of the huge folio clear, and on 7.x of the
 * allocator's clear of THP and mTHP under init_on_alloc=1 (the latter's
 * path in backend_alloc.c)
 */
struct klp_callbacks;
int clearpage_huge_enable(const struct klp_callbacks *callbacks);
void clearpage_huge_exit(void);
int clearpage_huge_error(void);
bool clearpage_huge_enabled(void);
int clearpage_huge_describe_paths(char *buf, int len);
/* backend_alloc.c (7.x; NULL elsewhere) */
const char *clearpage_huge_alloc_missing(int *error);

/* folio.c: clearing a huge folio, for both huge paths */
/* The pages of a folio being cleared with @strategy, as ranges. */
struct clearpage_ranges {
	struct clearpage_node *node;
	int strategy;
	struct page *page;
};

/*
 * @nr_pages subpages as ranges of at most huge_chunk_kb with @strategy:
 * the faulting subpage @fault last (clearpage_folio_ranges()), or in
 * address order where none faults in them (@fault < 0).
 */
void clearpage_folio_ranges_from(int strategy, long fault,
				 unsigned int nr_pages,
				 void (*clear)(void *ctx, int routine,
					       unsigned long first,
					       unsigned long n),
				 void *ctx);
/* The running kernel's own clear, counted (and timed, for a reference). */
void clearpage_folio_clear_kernel(struct clearpage_node *node,
				  struct page *page, unsigned int fault,
				  unsigned int nr_pages, bool reference);
/* @strategy's ranges, the faulting subpage @fault last, accounted. */
void clearpage_folio_clear_ranges(struct clearpage_node *node, int strategy,
				  struct page *page, unsigned int fault,
				  unsigned int nr_pages);
/*
 * A path's own clear of a folio, or of the rest of a measured one, with
 * @strategy; @fault: the faulting subpage, < 0 unknown.
 */
typedef void (*clearpage_own_fn)(struct clearpage_node *node, int strategy,
				 struct page *page, long fault,
				 unsigned int nr_pages);
/* How clearpage_folio_clear() cleared a folio. */
struct clearpage_folio_way {
	int strategy;		/* the folio's, after the temperature probe */
	int way;		/* its measured part's (@strategy: none) */
	unsigned int first, m;	/* the measured part's subpages (m: 0) */
};

/*
 * The one huge folio clear of a managed node, for both huge paths: the
 * node's @strategy after the temperature probe's pick (the fault at
 * @fault_offset bytes), then a reference or trial folio's huge_measure_kb
 * part that way, timed, and the rest, or all of any other folio, with
 * @strategy by @own, the path's own clear (@allocator: the allocator's,
 * which must not sleep). @fault: the faulting subpage, < 0 unknown.
 */
void clearpage_folio_clear(struct clearpage_node *node, int strategy,
			   struct page *page, long fault,
			   unsigned long fault_offset, unsigned int nr_pages,
			   bool allocator, clearpage_own_fn own,
			   struct clearpage_folio_way *how);

/* backend_4k.c: the kretprobe of the 4 KiB fault allocation */
int clearpage_4k_arm(void);
void clearpage_4k_disarm(void);
bool clearpage_4k_armed(void);
bool clearpage_4k_transition_running(void);
int clearpage_4k_error(void);

/*
 * helpers.c: a gigantic folio cleared by the faulting task and helpers on
 * the node's other CPUs
 */
int clearpage_helpers_init(void);
void clearpage_helpers_exit(void);
/* A folio of this many pages or more is gigantic: helpers may clear it. */
#define CLEARPAGE_GIGANTIC_MIN_PAGES (2 * MAX_ORDER_NR_PAGES)
/*
 * Clear @nr_pages from @page, faulted at subpage @fault, with @strategy
 * (not kernel) and the node's helpers: true when done, false when no helper
 * could be had (none set, no other CPU online, no memory): then the caller
 * clears it alone.
 */
bool clearpage_clear_helped(struct clearpage_node *node, int strategy,
			    struct page *page, unsigned long fault,
			    unsigned long nr_pages);

/*
 * touch.c: the touch probe, lines of non-temporally cleared folios loaded
 * some time after the clear
 */
int clearpage_touch_init(void);
void clearpage_touch_exit(void);
/*
 * @folio, just cleared by @backend and still the caller's, has the line at
 * @offset (CLEARPAGE_TOUCH_NONE: none) cleared non-temporally; @trial: by
 * a trial frame's candidate (held whenever a slot is free: trial frames
 * are a sample already).
 */
void clearpage_touch_note(struct clearpage_node *node, struct folio *folio,
			  unsigned long offset, int backend, bool trial);
unsigned int clearpage_touch_held(struct clearpage_node *node);

/* clear.c: clearing and accounting */
int clearpage_clear_init(void);
void clearpage_clear_exit(void);
int clearpage_node_strategy(struct clearpage_node *node, int backend);
bool clearpage_any_node_intercepted(int backend);
/*
 * The strategy of @node's @backend (running @strategy) for the unit (a
 * page, or a folio) at @kaddr of @nr_pages faulted at byte @fault_offset:
 * in probe mode the hot or the cold one, as the probe finds it (counted),
 * else @strategy (a unit of the temperature sample probed and counted).
 * @frame: the unit's first page frame number, for the table of recent
 * clears.
 */
int clearpage_probe_pick(struct clearpage_node *node, int backend,
			 int strategy, void *kaddr, unsigned long frame,
			 unsigned long nr_pages, unsigned long fault_offset);
void clearpage_run(int strategy, void *kaddr);
void clearpage_run_range(int strategy, void *kaddr, unsigned long bytes);
void clearpage_clear_own_page(struct clearpage_node *node, int strategy,
			      struct page *page, int backend);
int clearpage_clear_page(struct clearpage_node *node, int strategy,
			 struct page *page, int backend);
void clearpage_clear_range(struct clearpage_node *node, int strategy,
			   int routine, struct page *page,
			   unsigned int nr_pages);
void clearpage_clear_measured_page(struct clearpage_node *node, int way,
				   struct page *page, int backend);
void clearpage_clear_reference_range(struct clearpage_node *node,
				     struct page *page, unsigned int nr_pages);
/*
 * The strategy measured on the folio at @pfn of @nr_pages (a frame: 1) of
 * @node's @backend running @strategy: kernel for a reference folio, a
 * candidate for a trial folio; -1 for any other.
 */
int clearpage_measured_way(struct clearpage_node *node, int backend,
			   int strategy, unsigned long pfn,
			   unsigned int nr_pages);
/* The ns since @start, false where the clock went backwards (clear.c). */
bool clearpage_elapsed(u64 start, u64 *ns);
/* A measured clear, timed or (!@timed) counted as @way's pages only. */
void clearpage_measured_done(struct clearpage_node *node, int backend,
			     int way, unsigned int nr_pages, bool timed,
			     u64 ns);
void clearpage_count_prezeroed(struct clearpage_node *node,
			       unsigned int nr_pages);
void clearpage_count_allocator(struct clearpage_node *node,
			       unsigned int nr_pages);
/* A range cleared as clearpage_clear_range() does, never timed. */
void clearpage_clear_range_untimed(struct clearpage_node *node, int strategy,
				   int routine, struct page *page,
				   unsigned int nr_pages);
/*
 * A whole clear of @nr_pages with @strategy that took @ns of wall time
 * (several CPUs clearing it): a timed sample of the backend, no pages (its
 * ranges counted theirs).
 */
void clearpage_count_huge_sample(struct clearpage_node *node, int strategy,
				 unsigned long nr_pages, u64 ns);
/* A folio's clear as the huge backend does it, unaccounted (calibration). */
void clearpage_folio_clear_unaccounted(int strategy, void *kaddr,
				       unsigned int nr_pages,
				       unsigned int fault);

/* table.c: the table of managed nodes, read locklessly */
/* Under clearpage_lock (node.c): @node complete, or NULL. */
void clearpage_node_publish(int nid, struct clearpage_node *node);
struct clearpage_node *clearpage_node_get(int nid);
int clearpage_next_node(int nid, struct clearpage_node **node);
/* Every node clearpage manages, in node id order. */
#define for_each_clearpage_node(node, nid)                                 \
	for ((nid) = clearpage_next_node(-1, &(node)); (nid) < MAX_NUMNODES; \
	     (nid) = clearpage_next_node((nid), &(node)))

/* params.c: the module parameters the clearing paths read */
extern unsigned int clearpage_sample_shift;
extern unsigned int clearpage_reference_shift;
extern unsigned int clearpage_trial_shift;
extern unsigned int clearpage_huge_chunk_pages;
extern unsigned int clearpage_touch_delay_ms;
extern unsigned int clearpage_touch_shift;
extern unsigned int clearpage_probe_shift;
extern unsigned int clearpage_huge_measure_pages;

/* strategy.c: strategies, the CPU, the lock */
extern struct mutex clearpage_lock;
extern struct clearpage_cpu clearpage_cpu;
extern const char *const clearpage_strategy_names[CLEARPAGE_STRATEGY_COUNT];
extern const char *const clearpage_backend_names[CLEARPAGE_BACKEND_COUNT];
bool clearpage_strategy_usable(int strategy);
void clearpage_strategy_refuse(int strategy);
int clearpage_strategy_parse(const char *buf, size_t count);
long clearpage_trials_parse(const char *buf, size_t count);
const char *clearpage_source_name(enum clearpage_source source);

/* testing.c: compiled into test builds only (kmod/build.sh ... test). */
#ifdef CLEARPAGE_TEST
int clearpage_test_init(void);
unsigned int clearpage_test_kernel_version(unsigned int version);
bool clearpage_test_skip_clear(int strategy);
bool clearpage_test_break_self_test(int strategy);
void clearpage_test_calibration(struct clearpage_calibration *result);
const char *clearpage_test_alloc_clear_symbol(const char *name);
u64 clearpage_test_cost(int strategy, unsigned int nr_pages, u64 ns);
void clearpage_test_set_delay(int strategy);
u64 clearpage_test_clock(u64 now);
unsigned long clearpage_test_helper_delay(void);
void clearpage_test_helpers_start(atomic_t *started, unsigned int queued);
void clearpage_test_probe_calibration(struct clearpage_probe_calibration *result);
int clearpage_test_probe_verdict(int hot);
int clearpage_test_touch_verdict(int cached);
#else
static inline int clearpage_test_init(void) { return 0; }
static inline unsigned int clearpage_test_kernel_version(unsigned int version)
{
	return version;
}

static inline bool clearpage_test_skip_clear(int strategy) { return false; }
static inline bool clearpage_test_break_self_test(int strategy)
{
	return false;
}

static inline void
clearpage_test_calibration(struct clearpage_calibration *result) { }
static inline const char *clearpage_test_alloc_clear_symbol(const char *name)
{
	return name;
}

static inline u64 clearpage_test_cost(int strategy, unsigned int nr_pages,
				      u64 ns)
{
	return ns;
}

static inline void clearpage_test_set_delay(int strategy) { }
static inline u64 clearpage_test_clock(u64 now) { return now; }
static inline unsigned long clearpage_test_helper_delay(void) { return 0; }
static inline void clearpage_test_helpers_start(atomic_t *started,
						unsigned int queued) { }
static inline void
clearpage_test_probe_calibration(struct clearpage_probe_calibration *result) { }
static inline int clearpage_test_probe_verdict(int hot) { return hot; }
static inline int clearpage_test_touch_verdict(int cached) { return cached; }
#endif

#endif /* _CLEARPAGE_H */
