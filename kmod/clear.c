// SPDX-License-Identifier: GPL-2.0
/*
 * Clearing a page or a range of pages with a strategy, and the accounting
 * around it: every page is counted per node, strategy and backend, every
 * range operation of the huge backend too; one page in 2^sample_shift is
 * timed with local_clock(), the clock the scheduler uses (a range is timed
 * whole, with a chance that grows with its length).
 */
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>

#include "clearpage.h"
#include "compat.h"

static DEFINE_PER_CPU(unsigned int, clearpage_sample_sequence);

/* A node clearpage does not manage (NULL) clears as the kernel does. */
int clearpage_node_strategy(struct clearpage_node *node, int backend)
{
	return node ? READ_ONCE(node->choice[backend].strategy) :
		      CLEARPAGE_STRATEGY_KERNEL;
}

/* Whether any node's @backend runs a strategy but kernel, trials or a probe. */
bool clearpage_any_node_intercepted(int backend)
{
	struct clearpage_node *node;
	int nid;

	for_each_clearpage_node(node, nid)
		if (READ_ONCE(node->choice[backend].strategy) !=
		    CLEARPAGE_STRATEGY_KERNEL ||
		    READ_ONCE(node->choice[backend].trials) ||
		    READ_ONCE(node->choice[backend].probe))
			return true;
	return false;
}

static DEFINE_PER_CPU(unsigned int, clearpage_probe_sequence);
/*
 * The units each CPU cleared last (clearpage_recent_seen()): 16 KiB a CPU,
 * more than the module's static per-CPU reserve.
 */
static struct clearpage_recent __percpu *clearpage_recent;

int clearpage_clear_init(void)
{
	clearpage_recent = alloc_percpu(struct clearpage_recent);
	return clearpage_recent ? 0 : -ENOMEM;
}

/* Once nothing clears through the module any more. */
void clearpage_clear_exit(void)
{
	free_percpu(clearpage_recent);
	clearpage_recent = NULL;
}

/*
 * Whether the temperature sample takes a unit of @nr_pages: the per-CPU
 * page sequence crosses a multiple of 2^probe_shift (0: never).
 */
static bool clearpage_probe_due(unsigned int nr_pages)
{
	unsigned int shift = READ_ONCE(clearpage_probe_shift);
	unsigned int after;

	if (!shift)
		return false;
	after = this_cpu_add_return(clearpage_probe_sequence, nr_pages);
	return (after >> shift) != ((after - nr_pages) >> shift);
}

/*
 * The temperature probe (clearpage_probe() in probe.h): a few timed
 * loads of the unit's lines against the node's threshold say whether it
 * is cached. It is counted hot if so, or if this CPU last cleared it
 * non-temporally within the last-level cache's reach
 * (clearpage_recent_seen()): a temporal strategy would have found it
 * cached, which is what the node's hot share is for. In the huge
 * backend's probe mode every folio is probed and cleared with the mode's
 * hot strategy if it is cached, else its cold one (a recycled folio's
 * lines are not cached, whatever a temporal clear would have left:
 * clearing it with the hot strategy would pay a cold clear); otherwise the
 * temperature sample probes one unit per 2^probe_shift pages, whatever
 * strategy runs, only to count it, so that the node's hot share is known
 * in every phase (a non-temporal strategy costs the same hot or cold, and
 * its cost cannot tell). The probe runs with preemption off, so that its
 * ticks and the table are one CPU's; a threshold of 0 (a CPU that cannot
 * tell, or a recalibration that could no longer) probes nothing, nor does
 * a unit memory_failure() has marked poisoned (its loads could only
 * consume the error; the clear's stores are what the kernel would do).
 */
static bool probe_poisoned(unsigned long frame)
{
	struct page *page = pfn_to_page(frame);
	struct folio *folio = page_folio(page);

	return PageHWPoison(page) || folio_test_hwpoison(folio) ||
	       (folio_test_large(folio) && folio_test_has_hwpoisoned(folio));
}

int clearpage_probe_pick(struct clearpage_node *node, int backend,
			 int strategy, void *kaddr, unsigned long frame,
			 unsigned long nr_pages, unsigned long fault_offset)
{
	unsigned int mode = READ_ONCE(node->choice[backend].probe);
	unsigned long threshold =
		READ_ONCE(node->probe_calibration.threshold_ticks);
	struct clearpage_recent *recent;
	u64 start, ns = 0;
	int cached, recycled;

	if (!threshold || probe_poisoned(frame))
		return strategy;
	preempt_disable();
	recent = this_cpu_ptr(clearpage_recent);
	recycled = clearpage_recent_seen(recent, frame,
					 clearpage_recent_reach_pages(&clearpage_cpu));
	if (mode || clearpage_probe_due(nr_pages)) {
		start = local_clock();
		cached = clearpage_probe_hot(clearpage_probe(kaddr, nr_pages,
							     fault_offset,
							     threshold, NULL),
					     nr_pages);
		clearpage_elapsed(start, &ns);
		cached = clearpage_test_probe_verdict(cached);
		if (cached || recycled)
			this_cpu_inc(node->stats->probe_hot[backend]);
		else
			this_cpu_inc(node->stats->probe_cold[backend]);
		if (recycled && !cached)
			this_cpu_inc(node->stats->probe_recycled[backend]);
		this_cpu_add(node->stats->probe_ns[backend], ns);
		if (mode)
			strategy = cached ? clearpage_probe_hot_strategy(mode) :
					    clearpage_probe_cold_strategy(mode);
	}
	clearpage_recent_store(recent, frame, nr_pages,
			       clearpage_strategy_non_temporal(strategy));
	preempt_enable();
	return strategy;
}

/* Clear @bytes (whole pages) of the direct map at @kaddr with @strategy. */
void clearpage_run_range(int strategy, void *kaddr, unsigned long bytes)
{
	/* Test builds only (testing.c): a negative control. */
	if (clearpage_test_skip_clear(strategy))
		return;
	if (!clearpage_run_range_routine(strategy, kaddr, bytes))
		return;
	clearpage_kernel_clear_pages(kaddr, bytes >> PAGE_SHIFT);
}

void clearpage_run(int strategy, void *kaddr)
{
	clearpage_run_range(strategy, kaddr, PAGE_SIZE);
}

/*
 * Whether to time a clear of @nr_pages: the per-CPU page sequence crosses a
 * multiple of 2^sample_shift, so one page in 2^sample_shift is timed
 * whatever the lengths of the clears.
 */
static bool clearpage_sample_now(unsigned int nr_pages)
{
	unsigned int shift = READ_ONCE(clearpage_sample_shift);
	unsigned int after = this_cpu_add_return(clearpage_sample_sequence,
						 nr_pages);

	return (after >> shift) != ((after - nr_pages) >> shift);
}

static unsigned int clearpage_latency_bucket(u64 ns)
{
	unsigned int bucket;

	if (ns < (1ULL << CLEARPAGE_LATENCY_FIRST_SHIFT))
		return 0;
	bucket = ilog2(ns) - CLEARPAGE_LATENCY_FIRST_SHIFT + 1;
	return min_t(unsigned int, bucket, CLEARPAGE_LATENCY_BUCKETS - 1);
}

/*
 * The live baseline: reference frames. While a node's backend runs any
 * strategy but kernel, the frames whose pfn is a multiple of
 * 2^reference_shift are cleared with the kernel's own routine instead, and
 * every such clear is timed. Their cost is what the kernel would have spent
 * on this node's pages, measured beside the strategy's own samples on the
 * same workload: clearpaged compares the two to account the time saved and
 * to return a backend to kernel when its strategy is slower. (A non-temporal
 * strategy costs the same on hot and cold pages, so the reference cost is
 * also how the policy sees pages turn hot again.) Fixed frames, not a sample
 * of clears: a recycled page evicted by an earlier non-temporal clear would
 * otherwise look cold to the reference clear whatever the workload does.
 * Huge folios are reference folios by physical position (one folio in
 * 2^reference_shift of its size); of such a folio only a measured part
 * (huge_measure_kb away from the faulting subpage, as
 * clearpage_measured_part() places it) is cleared with the kernel's own
 * clear and timed, the rest the backend's own way.
 *
 * Trial frames: the same for each candidate strategy the backend's trials
 * name (clearpaged sets them), whatever the backend runs, kernel included.
 * Candidate s owns the frames (folio positions) whose number is s modulo
 * 2^trial_shift: fixed frames again, so that each stays in the state its own
 * strategy keeps it in, and disjoint from the reference frames and from
 * each other (trial_shift >= 3; a frame that is both is a reference frame).
 * On the 4k backend the frames of the strategy's own number are timed
 * too while it has trials, counted as its trial pages: the candidates'
 * gains compare fixed frames with fixed frames (clearpage_frame_way()).
 */
int clearpage_measured_way(struct clearpage_node *node, int backend,
			   int strategy, unsigned long pfn,
			   unsigned int nr_pages)
{
	unsigned int reference_shift = READ_ONCE(clearpage_reference_shift);
	unsigned int trial_shift = READ_ONCE(clearpage_trial_shift);

	return clearpage_frame_way(pfn / nr_pages, strategy,
				   READ_ONCE(node->choice[backend].trials),
				   reference_shift ? 1UL << reference_shift : 0,
				   trial_shift ? 1UL << trial_shift : 0,
				   backend == CLEARPAGE_BACKEND_4K && nr_pages == 1);
}

/*
 * The ns since @start in *@ns, or false. local_clock() is monotonic on one
 * CPU only, and the timed regions run preemptible: without a stable TSC a
 * region that migrated may end "before" it began. That is no sample, never
 * a u64 that wrapped.
 */
bool clearpage_elapsed(u64 start, u64 *ns)
{
	s64 delta = (s64)(clearpage_test_clock(local_clock()) - start);

	if (delta < 0)
		return false;
	*ns = delta;
	return true;
}

/*
 * Account @nr_pages cleared the measured way @way in @ns, all timed: a
 * reference clear (kernel) or a trial of a candidate.
 */
static void count_measured(struct clearpage_node *node, int backend, int way,
			   unsigned int nr_pages, u64 ns)
{
	ns = clearpage_test_cost(way, nr_pages, ns);
	if (way == CLEARPAGE_STRATEGY_KERNEL) {
		this_cpu_add(node->stats->reference_pages[backend], nr_pages);
		this_cpu_add(node->stats->reference_sample_ns[backend], ns);
	} else {
		this_cpu_add(node->stats->trial_pages[backend][way], nr_pages);
		this_cpu_add(node->stats->trial_ns[backend][way], ns);
	}
}

/*
 * A measured clear (@way kernel: a reference, else a trial) of @nr_pages:
 * counted with its time @ns, or, where the clock could not say how long it
 * took (!@timed), as @way's pages, untimed.
 */
void clearpage_measured_done(struct clearpage_node *node, int backend,
			     int way, unsigned int nr_pages, bool timed,
			     u64 ns)
{
	if (!timed) {
		this_cpu_add(node->stats->pages[backend][way], nr_pages);
		return;
	}
	count_measured(node, backend, way, nr_pages, ns);
}

/* A timed clear of @nr_pages that took @ns: a sample and its latency. */
static void clearpage_account_sample(struct clearpage_node *node,
				     int strategy, unsigned long nr_pages,
				     u64 ns, int backend)
{
	unsigned int bucket;

	ns = clearpage_test_cost(strategy, nr_pages, ns);
	bucket = clearpage_latency_bucket(div64_u64(ns, nr_pages));
	this_cpu_add(node->stats->samples[backend][strategy], nr_pages);
	this_cpu_add(node->stats->sample_ns[backend][strategy], ns);
	this_cpu_add(node->stats->latency[bucket], nr_pages);
}

static void clearpage_account(struct clearpage_node *node, int strategy,
			      unsigned int nr_pages, bool sample, u64 ns,
			      int backend)
{
	this_cpu_add(node->stats->pages[backend][strategy], nr_pages);
	if (backend == CLEARPAGE_BACKEND_HUGE)
		this_cpu_inc(node->stats->ranges_huge[strategy]);
	if (sample)
		clearpage_account_sample(node, strategy, nr_pages, ns, backend);
}

/*
 * Clear @page with @strategy. @node may be NULL for a node clearpage does not
 * manage (hot-added after load): then the kernel's routine runs, uncounted.
 * Returns the strategy whose routine cleared it (@strategy, or the
 * reference's or a trial's).
 */
int clearpage_clear_page(struct clearpage_node *node, int strategy,
			 struct page *page, int backend)
{
	int way;

	if (!node) {
		clear_highpage(page);
		return CLEARPAGE_STRATEGY_KERNEL;
	}

	way = clearpage_measured_way(node, backend, strategy,
				     page_to_pfn(page), 1);
	if (way >= 0) {
		clearpage_clear_measured_page(node, way, page, backend);
		return way;
	}
	clearpage_clear_own_page(node, strategy, page, backend);
	return strategy;
}

/*
 * Clear @page with @strategy itself, sampled and counted as its own: a
 * subpage of a folio whose way the folio's frame rule already chose. @node
 * NULL (a node clearpage does not manage): the kernel's routine, uncounted.
 */
void clearpage_clear_own_page(struct clearpage_node *node, int strategy,
			      struct page *page, int backend)
{
	void *kaddr;
	bool sample;
	u64 start = 0, ns = 0;

	if (!node) {
		clear_highpage(page);
		return;
	}
	sample = clearpage_sample_now(1);
	kaddr = kmap_local_page(page);
	if (sample)
		start = local_clock();
	clearpage_run(strategy, kaddr);
	if (sample)
		sample = clearpage_elapsed(start, &ns);
	kunmap_local(kaddr);
	clearpage_account(node, strategy, 1, sample, ns, backend);
}

/*
 * Clear @page the measured way @way, timed: kernel's routine as a reference
 * frame, a candidate's as a trial frame, or the strategy's own as a
 * control frame (counted as its trial pages).
 */
void clearpage_clear_measured_page(struct clearpage_node *node, int way,
				   struct page *page, int backend)
{
	void *kaddr = kmap_local_page(page);
	u64 start = local_clock(), ns = 0;
	bool timed;

	clearpage_run(way, kaddr);
	timed = clearpage_elapsed(start, &ns);
	clearpage_measured_done(node, backend, way, 1, timed, ns);
	kunmap_local(kaddr);
}

/*
 * Clear @nr_pages contiguous pages from @page with the kernel's routine as
 * one operation (a 7.x extent, or a folio the allocator clears), timed, as
 * reference pages of the huge backend.
 */
void clearpage_clear_reference_range(struct clearpage_node *node,
				     struct page *page, unsigned int nr_pages)
{
	u64 start = local_clock(), ns = 0;
	bool timed;

	clearpage_run_range(CLEARPAGE_STRATEGY_KERNEL, page_address(page),
			    (unsigned long)nr_pages << PAGE_SHIFT);
	timed = clearpage_elapsed(start, &ns);
	clearpage_measured_done(node, CLEARPAGE_BACKEND_HUGE,
				CLEARPAGE_STRATEGY_KERNEL, nr_pages, timed, ns);
}

/*
 * Clear @nr_pages physically contiguous pages from @page with @routine as
 * one range operation, counted as @strategy's (the huge backend clears the
 * faulting subpage's neighbourhood of a non-temporal strategy with a
 * temporal routine). The caller keeps ranges short enough to run without a
 * cond_resched() and passes a managed @node.
 */
void clearpage_clear_range(struct clearpage_node *node, int strategy,
			   int routine, struct page *page,
			   unsigned int nr_pages)
{
	bool sample = clearpage_sample_now(nr_pages);
	u64 start = 0, ns = 0;

	if (sample)
		start = local_clock();
	/* No highmem on x86-64: the direct map holds the range contiguously. */
	clearpage_run_range(routine, page_address(page),
			    (unsigned long)nr_pages << PAGE_SHIFT);
	if (sample)
		sample = clearpage_elapsed(start, &ns);
	clearpage_account(node, strategy, nr_pages, sample, ns,
			  CLEARPAGE_BACKEND_HUGE);
}

void clearpage_clear_range_untimed(struct clearpage_node *node, int strategy,
				   int routine, struct page *page,
				   unsigned int nr_pages)
{
	clearpage_run_range(routine, page_address(page),
			    (unsigned long)nr_pages << PAGE_SHIFT);
	clearpage_account(node, strategy, nr_pages, false, 0,
			  CLEARPAGE_BACKEND_HUGE);
}

void clearpage_count_huge_sample(struct clearpage_node *node, int strategy,
				 unsigned long nr_pages, u64 ns)
{
	clearpage_account_sample(node, strategy, nr_pages, ns,
				 CLEARPAGE_BACKEND_HUGE);
}

void clearpage_count_prezeroed(struct clearpage_node *node,
			       unsigned int nr_pages)
{
	this_cpu_add(node->stats->pages_huge_prezeroed, nr_pages);
}

/* One range operation of @nr_pages by the allocator's clear (7.x). */
void clearpage_count_allocator(struct clearpage_node *node,
			       unsigned int nr_pages)
{
	this_cpu_add(node->stats->pages_huge_allocator, nr_pages);
	this_cpu_inc(node->stats->ranges_huge_allocator);
}

static void clear_range_unaccounted(void *kaddr, int routine,
				    unsigned long first, unsigned long n)
{
	clearpage_run_range(routine, kaddr + first * PAGE_SIZE, n * PAGE_SIZE);
}

static void clear_subpage_unaccounted(void *kaddr, unsigned long index)
{
	clearpage_run(CLEARPAGE_STRATEGY_KERNEL, kaddr + index * PAGE_SIZE);
}

/*
 * The same clear of @nr_pages at @kaddr (direct map), unaccounted, without
 * cond_resched(): the calibration times it. kernel: the running kernel's
 * own clear (the 6.x walk or the 7.x extents).
 */
void clearpage_folio_clear_unaccounted(int strategy, void *kaddr,
				       unsigned int nr_pages,
				       unsigned int fault)
{
	if (strategy == CLEARPAGE_STRATEGY_KERNEL) {
		clearpage_kernel_folio_clear(CLEARPAGE_KERNEL_CLEAR, fault,
					     nr_pages, MAX_ORDER_NR_PAGES,
					     clearpage_kernel_extent_pages(nr_pages),
					     clear_subpage_unaccounted,
					     clear_range_unaccounted, kaddr);
		return;
	}
	clearpage_folio_ranges(strategy, fault, nr_pages,
			       READ_ONCE(clearpage_huge_chunk_pages),
			       clear_range_unaccounted, kaddr);
}
