/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels clearpage supports (Debian's 6.1, 6.12
 * and 7.3), kept here so the rest of the module reads as if written for one.
 */
#ifndef _CLEARPAGE_COMPAT_H
#define _CLEARPAGE_COMPAT_H

#include <linux/version.h>

/* Allocation profiling (6.10) renamed the function behind vma_alloc_folio(). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define CLEARPAGE_ALLOC_SYMBOL "vma_alloc_folio_noprof"
#else
#define CLEARPAGE_ALLOC_SYMBOL "vma_alloc_folio"
#endif

/*
 * 6.11 replaced clear_huge_page(page, addr_hint, nr_pages) with
 * folio_zero_user(folio, addr_hint).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define CLEARPAGE_HUGE_SYMBOL "folio_zero_user"
#define CLEARPAGE_HAVE_FOLIO_ZERO_USER 1
#else
#define CLEARPAGE_HUGE_SYMBOL "clear_huge_page"
#define CLEARPAGE_HAVE_FOLIO_ZERO_USER 0
#endif

/*
 * 6.18 removed nth_page(): a folio's struct pages are contiguous on every
 * x86-64 memory model (SPARSEMEM_VMEMMAP), as they always were there.
 */
#include <linux/mm.h>
#ifndef nth_page
#define nth_page(page, n) ((page) + (n))
#endif

/*
 * 6.17 added WQ_PERCPU, and later kernels warn when a workqueue names
 * neither it nor WQ_UNBOUND; before, per-CPU was what naming neither meant.
 */
#include <linux/workqueue.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define CLEARPAGE_WQ_PERCPU WQ_PERCPU
#else
#define CLEARPAGE_WQ_PERCPU 0
#endif

/*
 * The kernel's own huge folio clear (folio.h): 6.x walks 4 KiB at a
 * time with clear_page(); 7.0 clears extents with clear_pages(), the whole
 * extent at once under a preemptible model, else 32 MiB at a time.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
#define CLEARPAGE_KERNEL_CLEAR CLEARPAGE_KERNEL_CLEAR_EXTENTS
static inline unsigned long clearpage_kernel_extent_pages(unsigned long nr)
{
	return preempt_model_preemptible() ? nr :
					     PROCESS_PAGES_NON_PREEMPT_BATCH;
}
#else
#define CLEARPAGE_KERNEL_CLEAR CLEARPAGE_KERNEL_CLEAR_WALK
static inline unsigned long clearpage_kernel_extent_pages(unsigned long nr)
{
	return nr;
}
#endif

/* The kernel's clear of @nr pages at @kaddr: one clear_pages() where x86 has it. */
static inline void clearpage_kernel_clear_pages(void *kaddr, unsigned long nr)
{
#ifdef clear_pages
	clear_pages(kaddr, nr);
#else
	unsigned long i;

	for (i = 0; i < nr; i++)
		clear_page(kaddr + i * PAGE_SIZE);
#endif
}

/*
 * 6.13 ("avoid zeroing user movable page twice with init_on_alloc=1"):
 * with init_on_alloc=1, THP and mTHP faults no longer call
 * folio_zero_user(); post_alloc_hook() clears the folio with this local
 * function, which 7.x names clear_highpages_kasan_tagged(page, numpages).
 * The huge backend livepatches it too where the series has it.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
#define CLEARPAGE_HAVE_ALLOC_CLEAR 1
#define CLEARPAGE_ALLOC_CLEAR_SYMBOL "clear_highpages_kasan_tagged"
/* Where a THP fault's address is known: vmf->address, vmf in rdi. */
#define CLEARPAGE_THP_FAULT_SYMBOL "do_huge_pmd_anonymous_page"
#else
#define CLEARPAGE_HAVE_ALLOC_CLEAR 0
#endif

/* 6.9 renamed the task patch state "no transition running". */
#include <linux/livepatch.h>
/*
 * Before the WARN in rethook_find_ret_addr() was dropped upstream ("an
 * expected condition"), a livepatch transition's stack check of a task
 * preempted inside a kretprobed function WARNs (6.1). 6.12 has it no more.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
#define CLEARPAGE_RETHOOK_WARNS 1
#else
#define CLEARPAGE_RETHOOK_WARNS 0
#endif

#ifndef KLP_TRANSITION_IDLE
#define KLP_TRANSITION_IDLE KLP_UNDEFINED
#endif

#endif /* _CLEARPAGE_COMPAT_H */
