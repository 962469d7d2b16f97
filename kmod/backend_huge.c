// SPDX-License-Identifier: GPL-2.0
/*
 * The huge page backend: a livepatch of clear_huge_page() (<= 6.10) or
 * folio_zero_user() (>= 6.11), the function that zeroes THP, mTHP and hugetlb
 * folios at fault time and in hugetlbfs fallocate.
 *
 * On a node whose strategy is not "kernel" the folio is cleared as Linux 7.0
 * clears it, with the node's strategy: in address order, as ranges of up to
 * huge_chunk_kb (one string instruction or loop per chunk, one sfence per
 * chunk for the non-temporal strategies, cond_resched() between chunks, so a
 * 1 GiB page never holds the CPU for long): first the subpages right of the
 * faulting one, then those left of it, and last the faulting subpage and
 * its two neighbours on each side, always with a temporal routine so the
 * faulting process finds them in cache. "kernel" keeps the kernel's own
 * walk exactly (one subpage at a time, converging on the faulting one): the
 * baseline.
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

#include "clearpage.h"
#include "compat.h"

/* Ranges are cleared through the direct map, which has no highmem holes. */
static_assert(!IS_ENABLED(CONFIG_HIGHMEM));

static int huge_enable_error;

/* True when the page allocator zeroes every page it hands out. */
static bool allocator_zeroes_pages(void)
{
	return want_init_on_alloc(0) && !want_init_on_free();
}

struct walk {
	struct clearpage_node *node;
	struct page *page;
	/* A reference folio: every subpage timed, as the live baseline. */
	bool reference;
};

/* One subpage of the kernel's walk. */
static void clear_subpage(void *arg, unsigned long index)
{
	struct walk *walk = arg;
	struct page *page = nth_page(walk->page, index);

	cond_resched();
	if (walk->reference)
		clearpage_clear_reference_page(walk->node, page,
					       CLEARPAGE_BACKEND_HUGE);
	else
		clearpage_clear_page(walk->node, CLEARPAGE_STRATEGY_KERNEL,
				     page, CLEARPAGE_BACKEND_HUGE);
}

static void clear_huge_walk(struct clearpage_node *node, struct page *page,
			    unsigned int fault, unsigned int nr_pages,
			    bool reference)
{
	struct walk walk = { node, page, reference };

	clearpage_kernel_walk(fault, nr_pages, MAX_ORDER_NR_PAGES,
			      clear_subpage, &walk);
}

struct ranges {
	struct clearpage_node *node;
	int strategy;
	struct page *page;
};

/* One range of the folio, accounted, after a chance to reschedule. */
static void clear_range(void *arg, int routine, unsigned long first,
			unsigned long n)
{
	struct ranges *r = arg;

	cond_resched();
	clearpage_clear_range(r->node, r->strategy, routine,
			      nth_page(r->page, first), n);
}

/* As ranges of at most huge_chunk_kb. */
static void clear_huge_ranges(struct clearpage_node *node, int strategy,
			      struct page *page, unsigned int fault,
			      unsigned int nr_pages)
{
	struct ranges r = { node, strategy, page };

	clearpage_folio_ranges(strategy, fault, nr_pages,
			       READ_ONCE(clearpage_huge_chunk_pages),
			       clear_range, &r);
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

	if (node && strategy != CLEARPAGE_STRATEGY_KERNEL &&
	    !folio_test_hugetlb(page_folio(page)) && allocator_zeroes_pages()) {
		clearpage_count_prezeroed(node, nr_pages);
		return;
	}

	might_sleep();
	if (!node || strategy == CLEARPAGE_STRATEGY_KERNEL) {
		clear_huge_walk(node, page, fault, nr_pages, false);
		return;
	}
	/* The live baseline: one folio in 2^reference_shift, as the kernel. */
	if (clearpage_reference_folio(strategy, page_to_pfn(page), nr_pages)) {
		clear_huge_walk(node, page, fault, nr_pages, true);
		return;
	}
	clear_huge_ranges(node, strategy, page, fault, nr_pages);
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

static struct klp_object clearpage_huge_objs[] = {
	{
		/* name NULL: vmlinux; callbacks: backends.c */
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
	huge_enable_error = klp_enable_patch(&clearpage_huge_patch);
	if (huge_enable_error)
		pr_warn("livepatch of %s failed (%d): huge pages keep the kernel's clear\n",
			CLEARPAGE_HUGE_SYMBOL, huge_enable_error);
	return huge_enable_error;
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
