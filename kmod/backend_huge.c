// SPDX-License-Identifier: GPL-2.0
/*
 * The huge page backend: a livepatch of clear_huge_page() (<= 6.10) or
 * folio_zero_user() (>= 6.11), the function that zeroes THP, mTHP and hugetlb
 * folios at fault time and in hugetlbfs fallocate. The replacement clears
 * each subpage with the strategy of the folio's node, in the kernel's order
 * (the subpage that faulted last, so its lines stay hot), with cond_resched()
 * between subpages as the original does.
 *
 * With init_on_alloc=1 the page allocator has already zeroed a freshly
 * allocated THP, so on managed nodes the second clear is skipped and counted
 * in pages_huge_prezeroed. hugetlb folios are always cleared: they are
 * recycled through the hugetlb pool without passing the allocator.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hugetlb.h>
#include <linux/livepatch.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sysfs.h>

#include "clearpage.h"
#include "compat.h"

static int huge_enable_error;
/* The patch is fully applied: no livepatch transition of ours is running. */
static bool huge_patched;

/* True when the page allocator zeroes every page it hands out. */
static bool allocator_zeroes_pages(void)
{
	return want_init_on_alloc(0) && !want_init_on_free();
}

static void clear_subpage(struct clearpage_node *node, int strategy,
			  struct page *page, unsigned int index)
{
	cond_resched();
	clearpage_clear_page(node, strategy, nth_page(page, index),
			     CLEARPAGE_BACKEND_HUGE);
}

/*
 * Same order as the kernel's process_huge_page(): subpages far from the
 * faulting address first, then converging on it from both sides.
 */
static void clear_huge(struct page *page, unsigned long addr_hint,
		       unsigned int nr_pages)
{
	struct clearpage_node *node = clearpage_node_get(page_to_nid(page));
	int strategy = clearpage_node_strategy(node);
	unsigned long addr = ALIGN_DOWN(addr_hint, (unsigned long)nr_pages
						   << PAGE_SHIFT);
	int i, n, base, l;

	if (node && strategy != CLEARPAGE_STRATEGY_KERNEL &&
	    !folio_test_hugetlb(page_folio(page)) && allocator_zeroes_pages()) {
		clearpage_count_prezeroed(node, nr_pages);
		return;
	}

	might_sleep();
	if (nr_pages > MAX_ORDER_NR_PAGES) {
		for (i = 0; i < nr_pages; i++)
			clear_subpage(node, strategy, page, i);
		return;
	}

	n = (addr_hint - addr) / PAGE_SIZE;
	if (2 * n <= nr_pages) {
		base = 0;
		l = n;
		for (i = nr_pages - 1; i >= 2 * n; i--)
			clear_subpage(node, strategy, page, i);
	} else {
		base = nr_pages - 2 * (nr_pages - n);
		l = nr_pages - n;
		for (i = 0; i < base; i++)
			clear_subpage(node, strategy, page, i);
	}
	for (i = 0; i < l; i++) {
		clear_subpage(node, strategy, page, base + i);
		clear_subpage(node, strategy, page, base + 2 * l - 1 - i);
	}
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

static struct klp_func clearpage_huge_funcs[] = {
	{
		.old_name = CLEARPAGE_HUGE_SYMBOL,
		.new_func = CLEARPAGE_HUGE_REPLACEMENT,
	},
	{}
};

/*
 * The 4k backend's kretprobe must not be armed while a livepatch transition
 * walks task stacks: on 6.1, a preempted task inside the probed function has
 * a rethook return address that the reliable unwinder WARNs about
 * (rethook_find_ret_addr(), fixed upstream in later kernels). So it is armed
 * only once the patch is fully applied, and disarmed and drained before the
 * unpatch transition starts.
 */
static void huge_post_patch(struct klp_object *obj)
{
	mutex_lock(&clearpage_lock);
	huge_patched = true;
	clearpage_4k_update();
	mutex_unlock(&clearpage_lock);
}

static void huge_pre_unpatch(struct klp_object *obj)
{
	mutex_lock(&clearpage_lock);
	huge_patched = false;
	clearpage_4k_update();
	mutex_unlock(&clearpage_lock);
}

static struct klp_object clearpage_huge_objs[] = {
	{
		/* name NULL: vmlinux */
		.funcs = clearpage_huge_funcs,
		.callbacks = {
			.post_patch = huge_post_patch,
			.pre_unpatch = huge_pre_unpatch,
		},
	},
	{}
};

static struct klp_patch clearpage_huge_patch = {
	.mod = THIS_MODULE,
	.objs = clearpage_huge_objs,
};

/*
 * A failure to patch leaves the 4k backend and the knob working; `backends`
 * reports why the huge backend is off.
 */
void clearpage_huge_init(void)
{
	huge_enable_error = klp_enable_patch(&clearpage_huge_patch);
	if (huge_enable_error)
		pr_warn("livepatch of %s failed (%d): huge pages keep the kernel's clear\n",
			CLEARPAGE_HUGE_SYMBOL, huge_enable_error);
}

/* Whether other probes may be armed: no livepatch transition of ours runs. */
bool clearpage_huge_settled(void)
{
	lockdep_assert_held(&clearpage_lock);
	return huge_enable_error || huge_patched;
}

int clearpage_huge_describe(char *buf, int at)
{
	if (huge_enable_error)
		return sysfs_emit_at(buf, at,
				     "huge inactive: livepatch of %s failed (error %d)\n",
				     CLEARPAGE_HUGE_SYMBOL, huge_enable_error);
	if (!clearpage_huge_patch.enabled)
		return sysfs_emit_at(buf, at,
				     "huge inactive: livepatch disabled (remove with clearpagectl unload)\n");
	if (!huge_patched)
		return sysfs_emit_at(buf, at,
				     "huge inactive: livepatch transition in progress\n");
	if (!clearpage_any_node_intercepted())
		return sysfs_emit_at(buf, at,
				     "huge inactive: no strategy other than kernel selected\n");
	return sysfs_emit_at(buf, at, "huge active\n");
}
