/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels clearpage supports (Debian's 6.1 and
 * 6.12), kept here so the rest of the module reads as if written for one.
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

/* 6.9 renamed the task patch state "no transition running". */
#include <linux/livepatch.h>
#ifndef KLP_TRANSITION_IDLE
#define KLP_TRANSITION_IDLE KLP_UNDEFINED
#endif

#endif /* _CLEARPAGE_COMPAT_H */
