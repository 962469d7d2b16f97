/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The huge backend's allocator path (backend_alloc.c), for backend_huge.c:
 * on kernels without it (CLEARPAGE_HAVE_ALLOC_CLEAR 0) these are stubs.
 */
#ifndef _CLEARPAGE_BACKEND_ALLOC_H
#define _CLEARPAGE_BACKEND_ALLOC_H

#include <linux/livepatch.h>

#include "compat.h"

#if CLEARPAGE_HAVE_ALLOC_CLEAR
void clearpage_alloc_prepare(struct klp_func *func);
void clearpage_alloc_register(void);
void clearpage_alloc_exit(void);
/* The allocator path's `paths` lines at @len of @buf; the new length. */
int clearpage_alloc_describe_paths(char *buf, int len, const char *state);
#else
static inline void clearpage_alloc_prepare(struct klp_func *func)
{
}

static inline void clearpage_alloc_register(void)
{
}

static inline void clearpage_alloc_exit(void)
{
}

static inline int clearpage_alloc_describe_paths(char *buf, int len,
						 const char *state)
{
	return len;
}
#endif

#endif /* _CLEARPAGE_BACKEND_ALLOC_H */
