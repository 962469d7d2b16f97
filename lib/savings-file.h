/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time clearpaged saved against the kernel's routine, per node and
 * backend, as it writes it every interval for clearpagectl status:
 * CP_SAVINGS_FILE, one line per node and backend after a comment line,
 *
 *   NODE BACKEND SINCE SAVED_NS UNCERTAINTY_NS KERNEL_NS PAGES UNESTIMATED
 *   LAST_SAVED_NS
 *
 * SINCE: when accounting began (seconds since the epoch); UNCERTAINTY_NS:
 * one standard deviation, -1 while unknown; KERNEL_NS: what the kernel's
 * routine would have taken for the PAGES estimated; UNESTIMATED: pages
 * cleared in intervals with too few timed clears to estimate; LAST_SAVED_NS:
 * what the last interval saved (0 when it could not be estimated). Written to
 * a temporary name and renamed, so a reader never sees half of it.
 */
#ifndef CLEARPAGE_SAVINGS_FILE_H
#define CLEARPAGE_SAVINGS_FILE_H

#include <stdint.h>
#include <stdio.h>

#define CP_SAVINGS_DIR "/run/clearpaged"
#define CP_SAVINGS_FILE CP_SAVINGS_DIR "/savings"

struct cp_savings {
	unsigned int node;
	int backend;			/* enum clearpage_backend */
	long long since;
	double saved_ns;
	double uncertainty_ns;		/* < 0: unknown */
	double kernel_ns;
	uint64_t pages;
	uint64_t unestimated_pages;
	double last_saved_ns;		/* the last interval's */
};

/*
 * Replace @path with what @fill writes, mode 0644, through a hidden
 * temporary name in the same directory and a rename, so a reader never sees
 * half a file (and node_exporter, which reads *.prom, never the temporary
 * one). No fsync: these files are rewritten every interval. 0 or -errno.
 */
int cp_file_replace(const char *path, void (*fill)(FILE *f, const void *arg),
		    const void *arg);

/* Returns 0 or a negative errno. */
int cp_savings_write(const char *path, const struct cp_savings *entries,
		     int count);
/*
 * Fills up to @max entries; returns how many, or a negative errno (-ENOENT:
 * no file, clearpaged is not running; -EINVAL: not in this format).
 */
int cp_savings_read(const char *path, struct cp_savings *entries, int max);

#endif /* CLEARPAGE_SAVINGS_FILE_H */
