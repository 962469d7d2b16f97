// SPDX-License-Identifier: GPL-2.0
/*
 * Clearing one page with a strategy, and the accounting around it: every page
 * is counted per node, strategy and backend; one clear in 2^sample_shift is
 * timed with local_clock(), the clock the scheduler uses.
 */
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>

#include "clearpage.h"

static DEFINE_PER_CPU(unsigned int, clearpage_sample_sequence);

void clearpage_run(int strategy, void *kaddr)
{
#ifdef CLEARPAGE_TEST_BROKEN_CLEAR
	/*
	 * Test builds only (tests/vm, suite "broken"): movq clears nothing
	 * for the checker process, to prove the zero-page checks catch a
	 * missed clear. Other processes are spared so the test VM keeps
	 * running.
	 */
	if (strategy == CLEARPAGE_STRATEGY_MOVQ &&
	    !strcmp(current->comm, "cptest-victim"))
		return;
#endif
	if (clearpage_run_routine(&clearpage_cpu, strategy, kaddr))
		clear_page(kaddr);
}

static bool clearpage_sample_now(void)
{
	unsigned int mask = (1U << READ_ONCE(clearpage_sample_shift)) - 1;

	return (this_cpu_inc_return(clearpage_sample_sequence) & mask) == 0;
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
 * Reference frames. A non-temporal strategy costs the same on hot and cold
 * pages, so its own timing cannot tell the policy when pages turn hot again.
 * While a node runs one, the frames whose pfn is a multiple of
 * 2^reference_shift are cleared with the kernel's routine instead, and every
 * such clear is timed: their cost is that of the hot strategy on this
 * node's pages. Fixed frames, not a sample of clears: a recycled page
 * evicted by an earlier non-temporal clear would otherwise look cold to the
 * reference clear whatever the workload does.
 */
static bool clearpage_reference_frame(int strategy, struct page *page)
{
	unsigned int shift = READ_ONCE(clearpage_reference_shift);

	if (!shift || (strategy != CLEARPAGE_STRATEGY_MOVNTI &&
		       strategy != CLEARPAGE_STRATEGY_CLZERO))
		return false;
	return !(page_to_pfn(page) & ((1UL << shift) - 1));
}

/*
 * Clear @page with @strategy. @node may be NULL for a node clearpage does not
 * manage (hot-added after load): then the kernel's routine runs, uncounted.
 */
void clearpage_clear_page(struct clearpage_node *node, int strategy,
			  struct page *page, enum clearpage_backend backend)
{
	void *kaddr;
	bool reference, sample;
	u64 start = 0, ns = 0;

	if (!node) {
		clear_highpage(page);
		return;
	}

	reference = clearpage_reference_frame(strategy, page);
	sample = reference || clearpage_sample_now();
	kaddr = kmap_local_page(page);
	if (sample)
		start = local_clock();
	clearpage_run(reference ? CLEARPAGE_STRATEGY_KERNEL : strategy, kaddr);
	if (sample)
		ns = local_clock() - start;
	kunmap_local(kaddr);

	if (reference) {
		this_cpu_inc(node->stats->reference_pages);
		this_cpu_add(node->stats->reference_sample_ns, ns);
		return;
	}
	if (backend == CLEARPAGE_BACKEND_4K)
		this_cpu_inc(node->stats->pages_4k[strategy]);
	else
		this_cpu_inc(node->stats->pages_huge[strategy]);
	if (sample) {
		this_cpu_inc(node->stats->samples[strategy]);
		this_cpu_add(node->stats->sample_ns[strategy], ns);
		this_cpu_inc(node->stats->latency[clearpage_latency_bucket(ns)]);
	}
}

void clearpage_count_prezeroed(struct clearpage_node *node,
			       unsigned int nr_pages)
{
	this_cpu_add(node->stats->pages_huge_prezeroed, nr_pages);
}
