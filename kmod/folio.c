// SPDX-License-Identifier: GPL-2.0
/*
 * Clearing a huge folio, for both of the huge backend's paths (the fault
 * path in backend_huge.c, the 7.x allocator's in backend_alloc.c): the
 * running kernel's own clear (the 6.x walk, the 7.x extents), any strategy
 * as ranges of up to huge_chunk_kb with the faulting subpage last, and a
 * reference or trial folio's measured part, cleared that way and timed.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>

#include "clearpage.h"
#include "compat.h"

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
		/*
		 * The folio's own way is the kernel's: no frame rule per
		 * subpage (a subpage's pfn must not make it a trial).
		 */
		clearpage_clear_own_page(walk->node, CLEARPAGE_STRATEGY_KERNEL,
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
void clearpage_folio_clear_kernel(struct clearpage_node *node,
				  struct page *page, unsigned int fault,
				  unsigned int nr_pages, bool reference)
{
	struct walk walk = { node, page, reference };

	clearpage_kernel_folio_clear(CLEARPAGE_KERNEL_CLEAR, fault, nr_pages,
				     MAX_ORDER_NR_PAGES,
				     clearpage_kernel_extent_pages(nr_pages),
				     clear_subpage, clear_extent, &walk);
}

/* One range of the folio, accounted, after a chance to reschedule. */
static void clear_range(void *arg, int routine, unsigned long first,
			unsigned long n)
{
	struct clearpage_ranges *r = arg;

	cond_resched();
	clearpage_clear_range(r->node, r->strategy, routine,
			      nth_page(r->page, first), n);
}

/*
 * @nr_pages subpages as ranges of at most huge_chunk_kb with @strategy:
 * the faulting subpage @fault last (clearpage_folio_ranges()), or in
 * address order where none faults in them (@fault < 0).
 */
void clearpage_folio_ranges_from(int strategy, long fault,
				 unsigned int nr_pages,
				 void (*clear)(void *ctx, int routine,
					       unsigned long first,
					       unsigned long n),
				 void *ctx)
{
	unsigned int chunk = READ_ONCE(clearpage_huge_chunk_pages);
	unsigned int first, n;

	if (fault >= 0) {
		clearpage_folio_ranges(strategy, fault, nr_pages, chunk, clear,
				       ctx);
		return;
	}
	for (first = 0; first < nr_pages; first += n) {
		n = min(chunk, nr_pages - first);
		clear(ctx, strategy, first, n);
	}
}

/*
 * As ranges of at most huge_chunk_kb; a gigantic folio with the node's
 * helpers where it has some (helpers.c).
 */
void clearpage_folio_clear_ranges(struct clearpage_node *node, int strategy,
				  struct page *page, unsigned int fault,
				  unsigned int nr_pages)
{
	struct clearpage_ranges r = { node, strategy, page };

	if (nr_pages >= CLEARPAGE_GIGANTIC_MIN_PAGES &&
	    clearpage_clear_helped(node, strategy, page, fault, nr_pages))
		return;

	/* Inlined: the hot path's call stays direct. */
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
 * allocator's clear without a fault hint), address order. @allocator: the
 * allocator's clear, which must not sleep (no cond_resched()).
 */
static void clear_measured(struct clearpage_node *node, int way,
			   struct page *page, long fault, unsigned int first,
			   unsigned int m, unsigned int nr_pages,
			   bool allocator)
{
	bool resched = !allocator;
	struct trial t = { nth_page(page, first), resched, true, 0 };
	unsigned int i;

	if (way == CLEARPAGE_STRATEGY_KERNEL) {
		if (m == nr_pages && !allocator) {
			clearpage_folio_clear_kernel(node, page, fault, nr_pages, true);
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
	/* A part never holds the faulting subpage: address order. */
	clearpage_folio_ranges_from(way, m == nr_pages ? fault : -1, m,
				    clear_trial_range, &t);
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
 * A reference or trial folio (@way): its huge_measure_kb part cleared that
 * way and timed (clear_measured()), the rest with @strategy by @own, the
 * path's own clear (@allocator: the allocator's, which must not sleep).
 * Returns the measured part's first subpage, its length in *@m.
 */
static unsigned int folio_measured(struct clearpage_node *node, int strategy,
				   int way, struct page *page, long fault,
				   unsigned int nr_pages, bool allocator,
				   clearpage_own_fn own, unsigned int *m)
{
	unsigned int first = measured_part(fault, nr_pages, m), rest;

	clear_measured(node, way, page, fault, first, *m, nr_pages, allocator);
	if (*m < nr_pages) {
		/* The measured part never holds the faulting subpage. */
		rest = first ? 0 : *m;
		own(node, strategy, nth_page(page, rest),
		    fault < 0 ? -1 : fault - rest, nr_pages - *m);
	}
	return first;
}

void clearpage_folio_clear(struct clearpage_node *node, int strategy,
			   struct page *page, long fault,
			   unsigned long fault_offset, unsigned int nr_pages,
			   bool allocator, clearpage_own_fn own,
			   struct clearpage_folio_way *how)
{
	int way;

	strategy = clearpage_probe_pick(node, CLEARPAGE_BACKEND_HUGE, strategy,
					page_address(page), page_to_pfn(page),
					nr_pages, fault_offset);
	/*
	 * The live baseline and the trials: one folio position in
	 * 2^reference_shift as the kernel, one in 2^trial_shift per candidate,
	 * huge_measure_kb of it; the rest of it as any other folio.
	 */
	way = clearpage_measured_way(node, CLEARPAGE_BACKEND_HUGE, strategy,
				     page_to_pfn(page), nr_pages);
	*how = (struct clearpage_folio_way){ .strategy = strategy,
					     .way = strategy };
	if (way < 0) {
		own(node, strategy, page, fault, nr_pages);
		return;
	}
	how->way = way;
	how->first = folio_measured(node, strategy, way, page, fault, nr_pages,
				    allocator, own, &how->m);
}
