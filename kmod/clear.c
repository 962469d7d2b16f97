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
	switch (strategy) {
	case CLEARPAGE_STRATEGY_REP_STOSB:
		clearpage_rep_stosb(kaddr);
		break;
	case CLEARPAGE_STRATEGY_REP_STOSQ:
		clearpage_rep_stosq(kaddr);
		break;
	case CLEARPAGE_STRATEGY_MOVQ:
#ifdef CLEARPAGE_TEST_BROKEN_CLEAR
		/*
		 * Test builds only (tests/vm, suite "broken"): movq clears
		 * nothing for the checker process, to prove the zero-page
		 * checks catch a missed clear. Other processes are spared so
		 * the test VM keeps running.
		 */
		if (!strcmp(current->comm, "cptest-victim"))
			break;
#endif
		clearpage_movq(kaddr);
		break;
	case CLEARPAGE_STRATEGY_MOVNTI:
		clearpage_movnti(kaddr);
		break;
	case CLEARPAGE_STRATEGY_CLZERO:
		clearpage_clzero(kaddr, clearpage_cpu.clzero_size);
		break;
	default:
		clear_page(kaddr);
		break;
	}
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
 * Clear @page with @strategy. @node may be NULL for a node clearpage does not
 * manage (hot-added after load): then the kernel's routine runs, uncounted.
 */
void clearpage_clear_page(struct clearpage_node *node, int strategy,
			  struct page *page, enum clearpage_backend backend)
{
	void *kaddr;
	bool sample;
	u64 start = 0, ns = 0;

	if (!node) {
		clear_highpage(page);
		return;
	}

	sample = clearpage_sample_now();
	kaddr = kmap_local_page(page);
	if (sample)
		start = local_clock();
	clearpage_run(strategy, kaddr);
	if (sample)
		ns = local_clock() - start;
	kunmap_local(kaddr);

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
