// SPDX-License-Identifier: GPL-2.0
/*
 * The huge backend's allocator path, on 7.x: the livepatch of
 * clear_highpages_kasan_tagged(), through which the page allocator zeroes
 * THP and mTHP folios when init_on_alloc=1 (since 6.13 their faults no
 * longer call folio_zero_user() then), and the kprobe on the 2 MiB THP
 * fault handler that tells it the faulting address.
 *
 * The allocator's clear runs in any context, atomic included: the ranges
 * follow each other without cond_resched(), as the allocator's own single
 * clear_pages() does. A 2 MiB THP gets its faulting subpage last and
 * temporal, as at a fault; mTHP and kernel allocations (16 KiB and more:
 * they are zeroed the same way, which is correct) are cleared in address
 * order. The folio goes through the fault path's one huge clear
 * (folio.c, clearpage_folio_clear()): probed and measured as at a fault.
 *
 * On kernels without that path (CLEARPAGE_HAVE_ALLOC_CLEAR 0) only
 * clearpage_huge_alloc_missing() is left here, and backend_alloc.h has
 * stubs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kasan.h>
#include <linux/kprobes.h>
#include <linux/livepatch.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sysfs.h>

#include "clearpage.h"
#include "backend_alloc.h"

#if CLEARPAGE_HAVE_ALLOC_CLEAR

/*
 * The smallest folio the allocator's clear takes over: order 2, the smallest
 * mTHP. Smaller clears (4 KiB and 8 KiB kernel allocations) keep the
 * kernel's clear_pages().
 */
#define ALLOC_MIN_PAGES 4

/* The 2 MiB THP fault this CPU's task is in, from the kprobe below. */
struct fault_hint {
	struct task_struct *task;
	unsigned long address;
};

static DEFINE_PER_CPU(struct fault_hint, fault_hint);
static struct kprobe fault_hint_probe;
static bool fault_hint_registered;
static int fault_hint_error;
static int alloc_clear_error = -ENOENT;
/* CLEARPAGE_ALLOC_CLEAR_SYMBOL (test builds may name another). */
static const char *alloc_clear_symbol = CLEARPAGE_ALLOC_CLEAR_SYMBOL;

/* do_huge_pmd_anonymous_page(struct vm_fault *vmf): runs preempt-disabled. */
static int fault_hint_entry(struct kprobe *p, struct pt_regs *regs)
{
	struct vm_fault *vmf = (struct vm_fault *)regs->di;
	struct fault_hint *hint = this_cpu_ptr(&fault_hint);

	hint->task = current;
	hint->address = vmf->address;
	return 0;
}

/*
 * The faulting subpage of the 2 MiB folio of @nr_pages being cleared for
 * the current task, or -1 when unknown. Only a hint: a wrong one changes
 * the order of the clear, never what is cleared.
 */
static long fault_hint_take(unsigned int nr_pages)
{
	struct fault_hint *hint;
	long fault = -1;

	if (!fault_hint_registered || nr_pages != HPAGE_PMD_NR)
		return -1;
	hint = get_cpu_ptr(&fault_hint);
	if (hint->task == current) {
		fault = (hint->address >> PAGE_SHIFT) & (nr_pages - 1);
		hint->task = NULL;
	}
	put_cpu_ptr(&fault_hint);
	return fault;
}

/* One range of an allocated folio: no cond_resched(), any context. */
static void clear_range_atomic(void *arg, int routine, unsigned long first,
			       unsigned long n)
{
	struct clearpage_ranges *r = arg;

	clearpage_clear_range(r->node, r->strategy, routine,
			      nth_page(r->page, first), n);
	clearpage_count_allocator(r->node, n);
}

/*
 * The allocator's clear of @nr_pages from @page with @strategy, the faulting
 * subpage last where it is known (@fault >= 0).
 */
static void clear_allocated_own(struct clearpage_node *node, int strategy,
				struct page *page, long fault,
				unsigned int nr_pages)
{
	struct clearpage_ranges r = { node, strategy, page };

	if (strategy == CLEARPAGE_STRATEGY_KERNEL)
		clear_range_atomic(&r, strategy, 0, nr_pages);
	else
		clearpage_folio_ranges_from(strategy, fault, nr_pages,
					    clear_range_atomic, &r);
}

/*
 * A folio the allocator zeroes, on a managed node: "kernel" as the
 * allocator does (one clear_pages() over the folio, address order),
 * counted; any other strategy as ranges, with the faulting subpage last
 * when it is known; of a reference or trial folio huge_measure_kb that
 * way, timed, the rest as the others.
 */
static void clear_allocated(struct clearpage_node *node, struct page *page,
			    unsigned int nr_pages)
{
	int strategy = clearpage_node_strategy(node, CLEARPAGE_BACKEND_HUGE);
	/* Taken even where unused ("kernel"): it must not outlive the fault. */
	long fault = fault_hint_take(nr_pages);
	struct clearpage_folio_way how;

	clearpage_folio_clear(node, strategy, page, fault,
			      fault < 0 ? 0 : (unsigned long)fault << PAGE_SHIFT,
			      nr_pages, true, clear_allocated_own, &how);
}

/* clear_highpages_kasan_tagged(page, numpages), as 7.x has it (!HIGHMEM). */
static void clearpage_clear_highpages_kasan_tagged(struct page *page,
						   int numpages)
{
	struct clearpage_node *node = NULL;

	if (numpages >= ALLOC_MIN_PAGES)
		node = clearpage_node_get(page_to_nid(page));
	kasan_disable_current();
	if (node)
		clear_allocated(node, page, numpages);
	else
		clearpage_kernel_clear_pages(kasan_reset_tag(page_address(page)),
					     numpages);
	kasan_enable_current();
}

/* 0 when the running kernel has @name where a kprobe can find it. */
static int symbol_lookup(const char *name)
{
	struct kprobe kp = { .symbol_name = name };
	int err = register_kprobe(&kp);

	if (!err)
		unregister_kprobe(&kp);
	return err;
}

/*
 * Add the allocator's clear to the huge backend's livepatch as @func, if
 * the running kernel has it where a kprobe can find it.
 */
void clearpage_alloc_prepare(struct klp_func *func)
{
	alloc_clear_symbol = clearpage_test_alloc_clear_symbol(alloc_clear_symbol);
	alloc_clear_error = symbol_lookup(alloc_clear_symbol);
	if (alloc_clear_error) {
		pr_warn("%s not found (%d): with init_on_alloc=1, THP and mTHP keep the allocator's clear\n",
			alloc_clear_symbol, alloc_clear_error);
		return;
	}
	*func = (struct klp_func){
		.old_name = alloc_clear_symbol,
		.new_func = clearpage_clear_highpages_kasan_tagged,
	};
}

/* Once the livepatch is enabled: the fault hint's kprobe. */
void clearpage_alloc_register(void)
{
	if (alloc_clear_error)
		return;
	fault_hint_probe.symbol_name = CLEARPAGE_THP_FAULT_SYMBOL;
	fault_hint_probe.pre_handler = fault_hint_entry;
	fault_hint_error = register_kprobe(&fault_hint_probe);
	fault_hint_registered = !fault_hint_error;
	if (fault_hint_error)
		pr_warn("kprobe on %s failed (%d): THP cleared by the allocator have no fault locality\n",
			CLEARPAGE_THP_FAULT_SYMBOL, fault_hint_error);
}

/* Before the module goes. */
void clearpage_alloc_exit(void)
{
	if (fault_hint_registered)
		unregister_kprobe(&fault_hint_probe);
	fault_hint_registered = false;
}

/*
 * On 7.x booted with init_on_alloc=1, where THP and mTHP are zeroed by the
 * allocator: the allocator's clear function that could not be found, and
 * its error; NULL otherwise.
 */
const char *clearpage_huge_alloc_missing(int *error)
{
	if (alloc_clear_error && want_init_on_alloc(0)) {
		*error = alloc_clear_error;
		return alloc_clear_symbol;
	}
	return NULL;
}

int clearpage_alloc_describe_paths(char *buf, int len, const char *state)
{
	bool alloc_zeroes = want_init_on_alloc(0);
	const char *kept = alloc_zeroes ?
		": THP and mTHP faults keep the allocator's clear" : "";

	if (alloc_clear_error)
		len += sysfs_emit_at(buf, len, "huge %s not found (error %d)%s\n",
				     alloc_clear_symbol, alloc_clear_error,
				     kept);
	else
		len += sysfs_emit_at(buf, len, "huge %s %s: %sallocations of 16 KiB and more zeroed by the allocator (init_on_alloc, __GFP_ZERO); fault locality: %s\n",
				     alloc_clear_symbol, state,
				     alloc_zeroes ? "THP and mTHP faults, " : "",
				     fault_hint_registered ? "2 MiB THP" : "none");
	return len;
}

#else /* !CLEARPAGE_HAVE_ALLOC_CLEAR */

const char *clearpage_huge_alloc_missing(int *error)
{
	return NULL;
}

#endif /* CLEARPAGE_HAVE_ALLOC_CLEAR */
