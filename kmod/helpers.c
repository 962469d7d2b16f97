// SPDX-License-Identifier: GPL-2.0
/*
 * Gigantic folios (1 GiB hugetlb pages) cleared by the node's CPUs: one core
 * stores a fraction of what the node's memory can take, and a fault on a
 * gigantic page otherwise clears all of it on the faulting CPU while the
 * node's other CPUs idle.
 *
 * The folio is cut into ranges of huge_chunk_kb. The faulting task queues
 * up to nodeN/gigantic_helpers work items, one on each of the node's other
 * online CPUs after its own (a workqueue bound to CPUs, CPU-intensive, so
 * that a helper runs on the CPU it was given and never holds back the
 * CPU's other work items). Then the faulting task and every helper that
 * has started take ranges from one counter, each clearing the range it
 * took with the node's huge strategy, cond_resched() between ranges, until
 * none is left: a fast helper takes more, a slow one fewer. The range that
 * holds the faulting subpage is not in the counter: the faulting task
 * clears it last, its neighbourhood with a temporal routine, as the backend
 * clears any folio.
 *
 * No helper is waited for before it has started: once the counter is
 * empty, a helper still queued (its CPU busy, or offline since) is
 * cancelled, its share already cleared by the others; one that started is
 * waited for, which is at most the range it is clearing. So a fault never
 * waits on a helper that never runs, and never returns before every range
 * is cleared. Runs only where the fault may sleep (the huge backend's
 * folio clear; never the allocator's clear, which may be atomic).
 *
 * Accounting: every range counts its pages as the strategy's, untimed; the
 * folio's clear is one timed sample of its wall time, so the latency
 * histogram and the live baseline see what the fault waited.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/workqueue.h>

#include "clearpage.h"
#include "compat.h"

static struct workqueue_struct *clearpage_helpers_wq;

struct helped_clear;

struct helper {
	struct delayed_work work;
	struct helped_clear *clear;
	bool started;
};

/* One gigantic folio's clear, shared by the faulting task and its helpers. */
struct helped_clear {
	struct clearpage_node *node;
	int strategy;
	struct page *page;
	unsigned long nr_pages;
	unsigned long chunk;		/* pages per range */
	unsigned long nr_chunks;
	unsigned long fault_chunk;	/* the faulting task's, cleared last */
	atomic_long_t next;		/* the next shared range to take */
	atomic_t started;		/* helpers that have started */
	unsigned int nr_helpers;
	struct helper helper[];
};

/*
 * Take and clear shared ranges until none is left: the ranges right of the
 * faulting one, then those left of it. Returns the pages cleared.
 */
static unsigned long clear_shared(struct helped_clear *c)
{
	unsigned long shared = c->nr_chunks - 1, pages = 0;
	long k;

	while ((k = atomic_long_inc_return(&c->next) - 1) < (long)shared) {
		unsigned long i = clearpage_helped_range(k, c->fault_chunk,
							 c->nr_chunks);
		unsigned long first = i * c->chunk;
		unsigned long n = min(c->chunk, c->nr_pages - first);

		cond_resched();
		clearpage_clear_range_untimed(c->node, c->strategy, c->strategy,
					      nth_page(c->page, first), n);
		pages += n;
	}
	return pages;
}

static void helper_work(struct work_struct *work)
{
	struct helper *h = container_of(to_delayed_work(work), struct helper,
					work);
	struct helped_clear *c = h->clear;

	WRITE_ONCE(h->started, true);
	atomic_inc(&c->started);
	this_cpu_add(c->node->stats->helper_pages, clear_shared(c));
}

/* The faulting range, last: its neighbourhood temporal, as any folio. */
static void clear_fault_range(void *arg, int routine, unsigned long first,
			      unsigned long n)
{
	struct helped_clear *c = arg;
	unsigned long base = c->fault_chunk * c->chunk;

	cond_resched();
	clearpage_clear_range_untimed(c->node, c->strategy, routine,
				      nth_page(c->page, base + first), n);
}

/*
 * Queue up to @want helpers, one on each of the node's online CPUs after
 * @self (the faulting task's); returns how many were queued.
 */
static unsigned int queue_helpers(struct helped_clear *c, unsigned int want,
				  int self)
{
	unsigned long delay = clearpage_test_helper_delay();
	unsigned int n = 0;
	int cpu;

	for_each_cpu_wrap(cpu, cpumask_of_node(c->node->nid), self) {
		if (n == want)
			break;
		if (cpu == self || !cpu_online(cpu))
			continue;
		c->helper[n].clear = c;
		INIT_DELAYED_WORK(&c->helper[n].work, helper_work);
		queue_delayed_work_on(cpu, clearpage_helpers_wq,
				      &c->helper[n].work, delay);
		n++;
	}
	return n;
}

bool clearpage_clear_helped(struct clearpage_node *node, int strategy,
			    struct page *page, unsigned long fault,
			    unsigned long nr_pages)
{
	unsigned int want = READ_ONCE(node->helpers);
	unsigned long chunk = READ_ONCE(clearpage_huge_chunk_pages);
	unsigned int i, started = 0;
	struct helped_clear *c;
	u64 start, ns;

	might_sleep();
	if (!want || !clearpage_helpers_wq || nr_pages < 2 * chunk)
		return false;
	c = kzalloc(struct_size(c, helper, want), GFP_KERNEL | __GFP_NOWARN);
	if (!c)
		return false;
	c->node = node;
	c->strategy = strategy;
	c->page = page;
	c->nr_pages = nr_pages;
	c->chunk = chunk;
	c->nr_chunks = DIV_ROUND_UP(nr_pages, chunk);
	c->fault_chunk = fault / chunk;
	atomic_long_set(&c->next, 0);
	atomic_set(&c->started, 0);
	start = local_clock();
	c->nr_helpers = queue_helpers(c, want, raw_smp_processor_id());
	if (!c->nr_helpers) {
		kfree(c);
		return false;
	}
	clearpage_test_helpers_start(&c->started, c->nr_helpers);
	clear_shared(c);
	/* Every shared range is taken: none is waited for before it starts. */
	for (i = 0; i < c->nr_helpers; i++) {
		cancel_delayed_work_sync(&c->helper[i].work);
		started += READ_ONCE(c->helper[i].started);
	}
	clearpage_folio_ranges(strategy, fault - c->fault_chunk * chunk,
			       min(chunk, nr_pages - c->fault_chunk * chunk),
			       chunk, clear_fault_range, c);
	if (clearpage_elapsed(start, &ns))
		clearpage_count_huge_sample(node, strategy, nr_pages, ns);
	this_cpu_inc(node->stats->helped_folios);
	this_cpu_add(node->stats->helpers_started, started);
	this_cpu_add(node->stats->helpers_not_started,
		     c->nr_helpers - started);
	kfree(c);
	return true;
}

int clearpage_helpers_init(void)
{
	clearpage_helpers_wq = alloc_workqueue("clearpage_helpers",
					       CLEARPAGE_WQ_PERCPU |
					       WQ_CPU_INTENSIVE, 0);
	return clearpage_helpers_wq ? 0 : -ENOMEM;
}

void clearpage_helpers_exit(void)
{
	if (clearpage_helpers_wq)
		destroy_workqueue(clearpage_helpers_wq);
	clearpage_helpers_wq = NULL;
}
