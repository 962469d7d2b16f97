// SPDX-License-Identifier: GPL-2.0
/*
 * The 4 KiB backend: a kretprobe on vma_alloc_folio() (vma_alloc_folio_noprof()
 * from 6.10), through which anonymous 4 KiB faults allocate their zeroed page.
 * At entry it removes __GFP_ZERO from an order-0 request; at return it clears
 * the returned page with the strategy of the page's node.
 *
 * The invariant: a request is stripped only inside the entry handler of an
 * allocated kretprobe instance, whose return handler therefore runs, and the
 * probe is never unregistered while a stripped request is in flight:
 *   disarm: stop stripping; synchronize_rcu() so every entry handler that
 *           could have missed that has finished (handlers run with
 *           preemption disabled); wait until every stripped request has been
 *           cleared; only then unregister.
 *
 * Nor is a request stripped while a livepatch transition runs, whoever
 * started it: a module load (arming.c then disarms the probe before the
 * transition starts), a write to /sys/kernel/livepatch/NAME/enabled, or the
 * reversal of a transition, which no notifier announces. The livepatch core
 * marks every task for the whole transition (patch_state), so the entry
 * handler sees it in the faulting task itself: the kernel clears the page
 * and no return address is replaced. A transition walks the stacks of tasks
 * not running, and on 6.1 the unwinder WARNs at a replaced return address
 * of a preempted task (rethook_find_ret_addr()). What remains is a request
 * already in flight when such a transition starts: it lasts one page
 * allocation and clear, against the whole transition before.
 *
 * When it is armed is arming.c's decision; this file only arms, disarms
 * and clears.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/kprobes.h>
#include <linux/livepatch.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "clearpage.h"
#include "compat.h"

static struct kretprobe probe_4k;
static bool probe_4k_registered;
static int probe_4k_error;
static bool stripping;
static DEFINE_PER_CPU(unsigned long, stripped_requests);
static DEFINE_PER_CPU(unsigned long, cleared_requests);

/* A livepatch transition runs, started by whom or however reversed. */
bool clearpage_4k_transition_running(void)
{
	return READ_ONCE(current->patch_state) != KLP_TRANSITION_IDLE;
}

/* What the return handler needs of the request: the faulting address. */
struct alloc_data {
	unsigned long addr;
};

/* vma_alloc_folio(gfp_t gfp, int order, vma, addr, hugepage) */
static int alloc_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	gfp_t gfp = (gfp_t)regs->di;
	int order = (int)regs->si;

	if (!(gfp & __GFP_ZERO) || order != 0 || !READ_ONCE(stripping) ||
	    clearpage_4k_transition_running())
		return 1;	/* nothing stripped: no return handler needed */
	regs->di = (unsigned long)(gfp & ~__GFP_ZERO);
	((struct alloc_data *)ri->data)->addr = regs->cx;
	this_cpu_inc(stripped_requests);
	return 0;
}

static int alloc_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct folio *folio = (struct folio *)regs_return_value(regs);

	if (folio) {
		struct page *page = folio_page(folio, 0);
		struct clearpage_node *node =
			clearpage_node_get(page_to_nid(page));
		int strategy = clearpage_node_strategy(node,
						       CLEARPAGE_BACKEND_4K);
		unsigned long addr = ((struct alloc_data *)ri->data)->addr;
		long i, nr = folio_nr_pages(folio);
		unsigned long offset;
		int way = strategy, trial;

		/* The temperature sample: the faulting line, probed. */
		if (node && nr == 1)
			clearpage_probe_pick(node, CLEARPAGE_BACKEND_4K,
					     strategy, page_address(page),
					     page_to_pfn(page), 1,
					     addr & ~PAGE_MASK);
		/* One node and one strategy for the whole folio. */
		for (i = 0; i < nr; i++)
			way = clearpage_clear_page(node, strategy,
						   nth_page(page, i),
						   CLEARPAGE_BACKEND_4K);
		/*
		 * An order-0 request: one page, cleared with @way (a trial
		 * frame's candidate where it is not @strategy).
		 */
		offset = clearpage_touch_pick(1, addr & ~PAGE_MASK,
					      clearpage_touch_seed(this_cpu_read(cleared_requests)),
					      strategy, way, 0, way != strategy,
					      &trial);
		if (offset != CLEARPAGE_TOUCH_NONE)
			clearpage_touch_note(node, folio, offset,
					     CLEARPAGE_BACKEND_4K, trial);
	}
	/*
	 * Last: the drain waits for this count, and unregister_kretprobe()
	 * then waits with synchronize_rcu() for handlers still returning.
	 */
	this_cpu_inc(cleared_requests);
	return 0;
}

static unsigned long sum_counter(unsigned long __percpu *counter)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(counter, cpu));
	return sum;
}

/* Register the probe and start stripping. Under clearpage_lock. */
int clearpage_4k_arm(void)
{
	lockdep_assert_held(&clearpage_lock);
	if (probe_4k_registered)
		return 0;
	memset(&probe_4k, 0, sizeof(probe_4k));
	probe_4k.kp.symbol_name = CLEARPAGE_ALLOC_SYMBOL;
	probe_4k.entry_handler = alloc_entry;
	probe_4k.handler = alloc_return;
	probe_4k.data_size = sizeof(struct alloc_data);
	/* Allocations may sleep in reclaim: allow many in flight. */
	probe_4k.maxactive = max_t(int, 64, 8 * num_possible_cpus());

	probe_4k_error = register_kretprobe(&probe_4k);
	if (probe_4k_error) {
		pr_warn("kretprobe on %s failed (%d): 4 KiB pages keep the kernel's clear\n",
			CLEARPAGE_ALLOC_SYMBOL, probe_4k_error);
		return probe_4k_error;
	}
	probe_4k_registered = true;
	WRITE_ONCE(stripping, true);
	return 0;
}

/*
 * Stop stripping, wait for every stripped request to be cleared, and
 * unregister. Under clearpage_lock.
 */
void clearpage_4k_disarm(void)
{
	unsigned long stripped;

	lockdep_assert_held(&clearpage_lock);
	if (!probe_4k_registered)
		return;
	WRITE_ONCE(stripping, false);
	synchronize_rcu();
	/* No request can be stripped any more; wait for those that were. */
	stripped = sum_counter(&stripped_requests);
	while (sum_counter(&cleared_requests) != stripped)
		usleep_range(500, 1000);
	unregister_kretprobe(&probe_4k);
	probe_4k_registered = false;
}

bool clearpage_4k_armed(void)
{
	lockdep_assert_held(&clearpage_lock);
	return probe_4k_registered;
}

/* The last registration's error, 0 if none. */
int clearpage_4k_error(void)
{
	return probe_4k_error;
}
