// SPDX-License-Identifier: GPL-2.0
/*
 * The huge page backend: a livepatch of clear_huge_page() (<= 6.10) or
 * folio_zero_user() (>= 6.11), the function that zeroes THP, mTHP and hugetlb
 * folios at fault time and in hugetlbfs fallocate; on 7.x also of
 * clear_highpages_kasan_tagged(), through which the page allocator zeroes
 * THP and mTHP folios when init_on_alloc=1 (since 6.13 their faults no
 * longer call folio_zero_user() then).
 *
 * On a node whose strategy is not "kernel" the folio is cleared as Linux 7.0
 * clears it, with the node's strategy: in address order, as ranges of up to
 * huge_chunk_kb (one string instruction or loop per chunk, one sfence per
 * chunk for the non-temporal strategies, cond_resched() between chunks, so a
 * 1 GiB page never holds the CPU for long): first the subpages right of the
 * faulting one, then those left of it, and last the faulting subpage and
 * its two neighbours on each side, always with a temporal routine so the
 * faulting process finds them in cache. "kernel" keeps the running kernel's
 * own clear exactly (the 6.x walk, one subpage at a time converging on the
 * faulting one; the 7.x extents, one clear_pages() each): the baseline.
 *
 * The allocator's clear, its own path and the kprobe that tells it the
 * faulting address, is backend_alloc.c's; this file adds it to the
 * livepatch where the running kernel has it.
 *
 * A gigantic folio (1 GiB) on a node with gigantic_helpers is cleared the
 * same way by the faulting task and helpers on the node's other CPUs
 * (helpers.c).
 *
 * In probe mode (probe_huge) a folio is first probed (clearpage_probe_pick()):
 * a few timed loads of its lines say whether it is cached, and it is
 * cleared with the mode's hot or cold strategy instead of the backend's.
 *
 * With init_on_alloc=1 on 6.1 and 6.12 the page allocator has already
 * zeroed a freshly allocated THP, so on managed nodes the second clear is
 * skipped and counted in pages_huge_prezeroed. hugetlb folios are always
 * cleared: they are recycled through the hugetlb pool without passing the
 * allocator.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hugetlb.h>
#include <linux/kasan.h>
#include <linux/kprobes.h>
#include <linux/livepatch.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sysfs.h>

#include "clearpage.h"
#include "backend_alloc.h"
#include "compat.h"

/* Ranges are cleared through the direct map, which has no highmem holes. */
static_assert(!IS_ENABLED(CONFIG_HIGHMEM));

static int huge_enable_error;

/* True when the page allocator zeroes every page it hands out. */
static bool allocator_zeroes_pages(void)
{
	return want_init_on_alloc(0) && !want_init_on_free();
}

/* The fault path's own clear of a folio (@fault always known there). */
static void clear_huge_own(struct clearpage_node *node, int strategy,
			   struct page *page, long fault,
			   unsigned int nr_pages)
{
	if (strategy == CLEARPAGE_STRATEGY_KERNEL)
		clearpage_folio_clear_kernel(node, page, (unsigned int)fault,
					     nr_pages, false);
	else
		clearpage_folio_clear_ranges(node, strategy, page,
					     (unsigned int)fault, nr_pages);
}

/*
 * The touch probe of a folio just cleared (faulted at byte @fault_offset):
 * its subpages [@first, @first + @m) cleared the measured way @way (@m 0:
 * none), the rest with @strategy; held when clearpage_touch_pick() finds
 * a line cleared non-temporally.
 */
static void touch_note(struct clearpage_node *node, struct page *page,
		       unsigned long fault_offset, unsigned int nr_pages,
		       int strategy, int way, unsigned int first,
		       unsigned int m)
{
	int trial;
	unsigned long offset = clearpage_touch_pick(nr_pages, fault_offset,
						    get_random_u32(), strategy,
						    way, first, m, &trial);

	if (offset != CLEARPAGE_TOUCH_NONE)
		clearpage_touch_note(node, page_folio(page), offset,
				     CLEARPAGE_BACKEND_HUGE, trial);
}

static void clear_huge(struct page *page, unsigned long addr_hint,
		       unsigned int nr_pages)
{
	struct clearpage_node *node = clearpage_node_get(page_to_nid(page));
	int strategy = clearpage_node_strategy(node, CLEARPAGE_BACKEND_HUGE);
	unsigned long addr = ALIGN_DOWN(addr_hint, (unsigned long)nr_pages
						   << PAGE_SHIFT);
	unsigned int fault = min_t(unsigned long,
				   (addr_hint - addr) >> PAGE_SHIFT,
				   nr_pages - 1);
	struct clearpage_folio_way how;

	if (node && (strategy != CLEARPAGE_STRATEGY_KERNEL ||
		     READ_ONCE(node->choice[CLEARPAGE_BACKEND_HUGE].probe)) &&
	    !folio_test_hugetlb(page_folio(page)) && allocator_zeroes_pages()) {
		clearpage_count_prezeroed(node, nr_pages);
		return;
	}

	might_sleep();
	if (!node) {
		clearpage_folio_clear_kernel(node, page, fault, nr_pages, false);
		return;
	}
	clearpage_folio_clear(node, strategy, page, fault, addr_hint - addr,
			      nr_pages, false, clear_huge_own, &how);
	touch_note(node, page, addr_hint - addr, nr_pages, how.strategy,
		   how.way, how.first, how.m);
}

#if CLEARPAGE_HAVE_FOLIO_ZERO_USER
static void clearpage_folio_zero_user(struct folio *folio,
				      unsigned long addr_hint)
{
	clear_huge(&folio->page, addr_hint, folio_nr_pages(folio));
}

#define CLEARPAGE_HUGE_REPLACEMENT clearpage_folio_zero_user
#else
static void clearpage_clear_huge_page(struct page *page,
				      unsigned long addr_hint,
				      unsigned int pages_per_huge_page)
{
	clear_huge(page, addr_hint, pages_per_huge_page);
}

#define CLEARPAGE_HUGE_REPLACEMENT clearpage_clear_huge_page
#endif

/* The huge folio clear, the allocator's clear where found, the end. */
static struct klp_func clearpage_huge_funcs[3] = {
	{
		.old_name = CLEARPAGE_HUGE_SYMBOL,
		.new_func = CLEARPAGE_HUGE_REPLACEMENT,
	},
};

static struct klp_object clearpage_huge_objs[] = {
	{
		/* name NULL: vmlinux; callbacks: arming.c */
		.funcs = clearpage_huge_funcs,
	},
	{}
};

static struct klp_patch clearpage_huge_patch = {
	.mod = THIS_MODULE,
	.objs = clearpage_huge_objs,
};

/*
 * Enable the livepatch, with @callbacks run by the livepatch core around
 * its transitions. Returns 0 or the error of klp_enable_patch().
 */
int clearpage_huge_enable(const struct klp_callbacks *callbacks)
{
	clearpage_huge_objs[0].callbacks = *callbacks;
	clearpage_alloc_prepare(&clearpage_huge_funcs[1]);
	huge_enable_error = klp_enable_patch(&clearpage_huge_patch);
	if (huge_enable_error) {
		pr_warn("livepatch of %s failed (%d): huge pages keep the kernel's clear\n",
			CLEARPAGE_HUGE_SYMBOL, huge_enable_error);
		return huge_enable_error;
	}
	clearpage_alloc_register();
	return 0;
}

/* Before the module goes: the allocator path's kprobe. */
void clearpage_huge_exit(void)
{
	clearpage_alloc_exit();
}

int clearpage_huge_error(void)
{
	return huge_enable_error;
}

/* Whether the livepatch is enabled (false once replaced or disabled). */
bool clearpage_huge_enabled(void)
{
	return !huge_enable_error && READ_ONCE(clearpage_huge_patch.enabled);
}

/*
 * The `paths` lines of the huge backend at @len of @buf: what each patched
 * function covers on the running kernel, and whether it is patched.
 */
int clearpage_huge_describe_paths(char *buf, int len)
{
	const char *state = clearpage_huge_enabled() ? "patched" :
						       "not patched";
	bool alloc_zeroes = want_init_on_alloc(0);

	len += sysfs_emit_at(buf, len, "huge %s %s: hugetlb faults, hugetlbfs fallocate%s\n",
			     CLEARPAGE_HUGE_SYMBOL, state,
			     alloc_zeroes && CLEARPAGE_HAVE_ALLOC_CLEAR ? "" :
			     ", THP and mTHP faults");
	return clearpage_alloc_describe_paths(buf, len, state);
}
