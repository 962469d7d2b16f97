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
 * The allocator's clear runs in any context, atomic included: there the
 * ranges follow each other without cond_resched(), as the allocator's own
 * single clear_pages() does. The allocator does not know the faulting
 * address; a kprobe on the 2 MiB THP fault handler records it per CPU, so a
 * 2 MiB THP gets its faulting subpage last and temporal as above; mTHP and
 * kernel allocations (16 KiB and more: they are zeroed the same way, which
 * is correct) are cleared in address order.
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

/* One subpage of the kernel's 6.x walk. */
static void clear_subpage(void *arg, unsigned long index)
{
	struct walk *walk = arg;
	struct page *page = nth_page(walk->page, index);

	cond_resched();
	if (walk->reference)
		clearpage_clear_measured_page(walk->node,
					      CLEARPAGE_STRATEGY_KERNEL, page,
					      CLEARPAGE_BACKEND_HUGE);
	else
		clearpage_clear_page(walk->node, CLEARPAGE_STRATEGY_KERNEL,
				     page, CLEARPAGE_BACKEND_HUGE);
}

/* One extent (or part of one) of the kernel's 7.x clear. */
static void clear_extent(void *arg, int routine, unsigned long first,
			 unsigned long n)
{
	struct walk *walk = arg;
	struct page *page = nth_page(walk->page, first);

	cond_resched();
	if (!walk->node)
		clearpage_run_range(routine, page_address(page),
				    n << PAGE_SHIFT);
	else if (walk->reference)
		clearpage_clear_reference_range(walk->node, page, n);
	else
		clearpage_clear_range(walk->node, CLEARPAGE_STRATEGY_KERNEL,
				      routine, page, n);
}

/* The running kernel's own clear, counted (and timed, for a reference). */
static void clear_huge_kernel(struct clearpage_node *node, struct page *page,
			      unsigned int fault, unsigned int nr_pages,
			      bool reference)
{
	struct walk walk = { node, page, reference };

	clearpage_kernel_folio_clear(CLEARPAGE_KERNEL_CLEAR, fault, nr_pages,
				     MAX_ORDER_NR_PAGES,
				     clearpage_kernel_extent_pages(nr_pages),
				     clear_subpage, clear_extent, &walk);
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

/*
 * As ranges of at most huge_chunk_kb; a gigantic folio with the node's
 * helpers where it has some (helpers.c).
 */
static void clear_huge_ranges(struct clearpage_node *node, int strategy,
			      struct page *page, unsigned int fault,
			      unsigned int nr_pages)
{
	struct ranges r = { node, strategy, page };

	if (nr_pages >= CLEARPAGE_GIGANTIC_MIN_PAGES &&
	    clearpage_clear_helped(node, strategy, page, fault, nr_pages))
		return;

	clearpage_folio_ranges(strategy, fault, nr_pages,
			       READ_ONCE(clearpage_huge_chunk_pages),
			       clear_range, &r);
}

/* A trial folio: the candidate's ranges, every one timed. */
struct trial {
	struct page *page;
	bool resched;			/* a cond_resched() between ranges */
	bool timed;			/* every range's clock went forward */
	u64 ns;
};

static void clear_trial_range(void *arg, int routine, unsigned long first,
			      unsigned long n)
{
	struct trial *t = arg;
	u64 start, ns = 0;

	if (t->resched)
		cond_resched();
	start = local_clock();
	clearpage_run_range(routine, page_address(nth_page(t->page, first)),
			    n << PAGE_SHIFT);
	if (clearpage_elapsed(start, &ns))
		t->ns += ns;
	else
		t->timed = false;
}

/*
 * The measured part of a reference folio (@way kernel) or a trial folio
 * (@way a candidate): @m subpages from @first, cleared that way and timed.
 * The whole folio (@m == @nr_pages) is cleared as the backend would run
 * it, the faulting subpage last; a part, which never holds the faulting
 * subpage, as the kernel's own clear would go over it (the 6.x walk one
 * subpage at a time, a 7.x extent or the allocator's clear in one
 * clear_pages()) or as the candidate's ranges. @fault < 0: unknown (the
 * allocator's clear without a fault hint), address order.
 */
static void clear_measured(struct clearpage_node *node, int way,
			   struct page *page, long fault, unsigned int first,
			   unsigned int m, unsigned int nr_pages, bool resched,
			   bool allocator)
{
	unsigned int chunk = READ_ONCE(clearpage_huge_chunk_pages);
	struct trial t = { nth_page(page, first), resched, true, 0 };
	unsigned int i, n;

	if (way == CLEARPAGE_STRATEGY_KERNEL) {
		if (m == nr_pages && !allocator) {
			clear_huge_kernel(node, page, fault, nr_pages, true);
		} else if (allocator ||
			   CLEARPAGE_KERNEL_CLEAR == CLEARPAGE_KERNEL_CLEAR_EXTENTS) {
			if (resched)
				cond_resched();
			clearpage_clear_reference_range(node, t.page, m);
		} else {
			for (i = 0; i < m; i++) {
				cond_resched();
				clearpage_clear_measured_page(node,
							      CLEARPAGE_STRATEGY_KERNEL,
							      nth_page(t.page, i),
							      CLEARPAGE_BACKEND_HUGE);
			}
		}
		return;
	}
	if (m == nr_pages && fault >= 0) {
		clearpage_folio_ranges(way, fault, nr_pages, chunk,
				       clear_trial_range, &t);
	} else {
		for (i = 0; i < m; i += n) {
			n = min(chunk, m - i);
			clear_trial_range(&t, way, i, n);
		}
	}
	clearpage_measured_done(node, CLEARPAGE_BACKEND_HUGE, way, m, t.timed,
				t.ns);
}

/* The huge_measure_kb part of a folio of @nr_pages: its first subpage. */
static unsigned int measured_part(long fault, unsigned int nr_pages,
				  unsigned int *m)
{
	unsigned long pages = READ_ONCE(clearpage_huge_measure_pages);
	unsigned int first = clearpage_measured_part(fault < 0 ? nr_pages - 1 :
							     fault,
						     nr_pages, &pages);

	/* At most half the folio, or all of it (clearpage_measured_part()). */
	*m = pages;
	return first;
}

/*
 * A path's own clear of a folio, or of the rest of a measured one, with
 * @strategy; @fault: the faulting subpage, < 0 unknown.
 */
typedef void (*clear_own_fn)(struct clearpage_node *node, int strategy,
			     struct page *page, long fault,
			     unsigned int nr_pages);

/*
 * A reference or trial folio (@way): its huge_measure_kb part cleared that
 * way and timed (clear_measured()), the rest with @strategy by @own, the
 * path's own clear (@allocator: the allocator's, which must not sleep).
 * Returns the measured part's first subpage, its length in *@m.
 */
static unsigned int clear_measured_folio(struct clearpage_node *node,
					 int strategy, int way,
					 struct page *page, long fault,
					 unsigned int nr_pages, bool allocator,
					 clear_own_fn own, unsigned int *m)
{
	unsigned int first = measured_part(fault, nr_pages, m), rest;

	clear_measured(node, way, page, fault, first, *m, nr_pages,
		       !allocator, allocator);
	if (*m < nr_pages) {
		/* The measured part never holds the faulting subpage. */
		rest = first ? 0 : *m;
		own(node, strategy, nth_page(page, rest),
		    fault < 0 ? -1 : fault - rest, nr_pages - *m);
	}
	return first;
}

/* The fault path's own clear of a folio (@fault always known there). */
static void clear_huge_own(struct clearpage_node *node, int strategy,
			   struct page *page, long fault,
			   unsigned int nr_pages)
{
	if (strategy == CLEARPAGE_STRATEGY_KERNEL)
		clear_huge_kernel(node, page, (unsigned int)fault, nr_pages,
				  false);
	else
		clear_huge_ranges(node, strategy, page, (unsigned int)fault,
				  nr_pages);
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
	unsigned int first, m;
	int way;

	if (node && (strategy != CLEARPAGE_STRATEGY_KERNEL ||
		     READ_ONCE(node->choice[CLEARPAGE_BACKEND_HUGE].probe)) &&
	    !folio_test_hugetlb(page_folio(page)) && allocator_zeroes_pages()) {
		clearpage_count_prezeroed(node, nr_pages);
		return;
	}

	might_sleep();
	if (!node) {
		clear_huge_kernel(node, page, fault, nr_pages, false);
		return;
	}
	strategy = clearpage_probe_pick(node, CLEARPAGE_BACKEND_HUGE, strategy,
					page_address(page), page_to_pfn(page),
					nr_pages, addr_hint - addr);
	/*
	 * The live baseline and the trials: one folio position in
	 * 2^reference_shift as the kernel, one in 2^trial_shift per candidate,
	 * huge_measure_kb of it; the rest of it as any other folio.
	 */
	way = clearpage_measured_way(node, CLEARPAGE_BACKEND_HUGE, strategy,
				     page_to_pfn(page), nr_pages);
	if (way < 0) {
		clear_huge_own(node, strategy, page, fault, nr_pages);
		touch_note(node, page, addr_hint - addr, nr_pages, strategy,
			   strategy, 0, 0);
		return;
	}
	first = clear_measured_folio(node, strategy, way, page, fault, nr_pages,
				     false, clear_huge_own, &m);
	touch_note(node, page, addr_hint - addr, nr_pages, strategy, way,
		   first, m);
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
	struct ranges *r = arg;

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
	unsigned int chunk = READ_ONCE(clearpage_huge_chunk_pages);
	struct ranges r = { node, strategy, page };
	unsigned int first, n;

	if (strategy == CLEARPAGE_STRATEGY_KERNEL) {
		clear_range_atomic(&r, strategy, 0, nr_pages);
		return;
	}
	if (fault >= 0) {
		clearpage_folio_ranges(strategy, fault, nr_pages, chunk,
				       clear_range_atomic, &r);
		return;
	}
	for (first = 0; first < nr_pages; first += n) {
		n = min(chunk, nr_pages - first);
		clear_range_atomic(&r, strategy, first, n);
	}
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
	unsigned int m;
	int way;

	strategy = clearpage_probe_pick(node, CLEARPAGE_BACKEND_HUGE, strategy,
					page_address(page), page_to_pfn(page),
					nr_pages, fault < 0 ? 0 :
					(unsigned long)fault << PAGE_SHIFT);
	way = clearpage_measured_way(node, CLEARPAGE_BACKEND_HUGE, strategy,
				     page_to_pfn(page), nr_pages);

	if (way < 0) {
		clear_allocated_own(node, strategy, page, fault, nr_pages);
		return;
	}
	clear_measured_folio(node, strategy, way, page, fault, nr_pages, true,
			     clear_allocated_own, &m);
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
#endif /* CLEARPAGE_HAVE_ALLOC_CLEAR */

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
 * Add the allocator's clear to the patch if the running kernel has it, and
 * the fault hint's kprobe once the patch is enabled.
 */
static void alloc_clear_prepare(void)
{
#if CLEARPAGE_HAVE_ALLOC_CLEAR
	alloc_clear_symbol = clearpage_test_alloc_clear_symbol(alloc_clear_symbol);
	alloc_clear_error = symbol_lookup(alloc_clear_symbol);
	if (alloc_clear_error) {
		pr_warn("%s not found (%d): with init_on_alloc=1, THP and mTHP keep the allocator's clear\n",
			alloc_clear_symbol, alloc_clear_error);
		return;
	}
	clearpage_huge_funcs[1] = (struct klp_func){
		.old_name = alloc_clear_symbol,
		.new_func = clearpage_clear_highpages_kasan_tagged,
	};
#endif
}

static void fault_hint_register(void)
{
#if CLEARPAGE_HAVE_ALLOC_CLEAR
	if (alloc_clear_error)
		return;
	fault_hint_probe.symbol_name = CLEARPAGE_THP_FAULT_SYMBOL;
	fault_hint_probe.pre_handler = fault_hint_entry;
	fault_hint_error = register_kprobe(&fault_hint_probe);
	fault_hint_registered = !fault_hint_error;
	if (fault_hint_error)
		pr_warn("kprobe on %s failed (%d): THP cleared by the allocator have no fault locality\n",
			CLEARPAGE_THP_FAULT_SYMBOL, fault_hint_error);
#endif
}

/*
 * Enable the livepatch, with @callbacks run by the livepatch core around
 * its transitions. Returns 0 or the error of klp_enable_patch().
 */
int clearpage_huge_enable(const struct klp_callbacks *callbacks)
{
	clearpage_huge_objs[0].callbacks = *callbacks;
	alloc_clear_prepare();
	huge_enable_error = klp_enable_patch(&clearpage_huge_patch);
	if (huge_enable_error) {
		pr_warn("livepatch of %s failed (%d): huge pages keep the kernel's clear\n",
			CLEARPAGE_HUGE_SYMBOL, huge_enable_error);
		return huge_enable_error;
	}
	fault_hint_register();
	return 0;
}

/* Before the module goes: the fault hint's kprobe. */
void clearpage_huge_exit(void)
{
#if CLEARPAGE_HAVE_ALLOC_CLEAR
	if (fault_hint_registered)
		unregister_kprobe(&fault_hint_probe);
	fault_hint_registered = false;
#endif
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
 * On 7.x booted with init_on_alloc=1, where THP and mTHP are zeroed by the
 * allocator: the allocator's clear function that could not be found, and
 * its error; NULL otherwise.
 */
const char *clearpage_huge_alloc_missing(int *error)
{
#if CLEARPAGE_HAVE_ALLOC_CLEAR
	if (alloc_clear_error && want_init_on_alloc(0)) {
		*error = alloc_clear_error;
		return alloc_clear_symbol;
	}
#endif
	return NULL;
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
#if CLEARPAGE_HAVE_ALLOC_CLEAR
	if (alloc_clear_error)
		len += sysfs_emit_at(buf, len, "huge %s not found (error %d)%s\n",
				     alloc_clear_symbol, alloc_clear_error,
				     alloc_zeroes ? ": THP and mTHP faults keep the allocator's clear" : "");
	else
		len += sysfs_emit_at(buf, len, "huge %s %s: %sallocations of 16 KiB and more zeroed by the allocator (init_on_alloc, __GFP_ZERO); fault locality: %s\n",
				     alloc_clear_symbol, state,
				     alloc_zeroes ? "THP and mTHP faults, " : "",
				     fault_hint_registered ? "2 MiB THP" : "none");
#endif
	return len;
}
