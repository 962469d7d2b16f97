/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU allowlist: which strategies clearpaged may choose on which CPU
 * models. One entry a line:
 *
 *   VENDOR  FAMILY  MODEL  STEPPING  STRATEGY...   # evidence
 *
 * VENDOR as CPUID reports it (GenuineIntel, AuthenticAMD); FAMILY, MODEL and
 * STEPPING a number (decimal or 0x hex), a range LOW-HIGH, or * for any.
 * "kernel" is always allowed. The first matching line wins. A CPU that no
 * line matches is unlisted: the daemon only monitors it.
 */
#ifndef CLEARPAGED_ALLOWLIST_H
#define CLEARPAGED_ALLOWLIST_H

#include <stdbool.h>
#include <stddef.h>

struct allowlist_range {
	unsigned int low;
	unsigned int high;
};

struct allowlist_entry {
	char vendor[16];
	struct allowlist_range family, model, stepping;
	unsigned int strategies;	/* bit per enum clearpage_strategy */
	unsigned int line;
	char file[256];			/* where the line is */
};

struct allowlist {
	struct allowlist_entry *entries;
	size_t count;
	char path[256];
};

/*
 * Parse @text (the file's contents, named @path in messages). Returns 0, or
 * -EINVAL with "path:line: problem" in @error.
 */
int allowlist_parse(struct allowlist *list, const char *path, const char *text,
		    char *error, size_t error_size);
int allowlist_load(struct allowlist *list, const char *path, char *error,
		   size_t error_size);
/*
 * The drop-ins of @dir (*.conf, in lexical order), then @path, as one list:
 * the first matching line wins, so a line measured for this CPU in
 * /etc/clearpaged/cpu-allowlist.d (clearpage-bench advise --write) comes
 * before the shipped list. A missing @dir is no error; a bad drop-in is.
 */
int allowlist_load_all(struct allowlist *list, const char *dir,
		       const char *path, char *error, size_t error_size);
void allowlist_free(struct allowlist *list);

/* The matching entry, or NULL for an unlisted CPU. */
const struct allowlist_entry *allowlist_match(const struct allowlist *list,
					      const char *vendor,
					      unsigned int family,
					      unsigned int model,
					      unsigned int stepping);

/*
 * This CPU as /proc/cpuinfo (@path) gives it, with family and model folded
 * as the kernel (and clearpage.ko's cpu file) fold them. 0 or -errno.
 */
int allowlist_cpu_from_cpuinfo(const char *path, char *vendor,
			       size_t vendor_size, unsigned int *family,
			       unsigned int *model, unsigned int *stepping);

/* "rep_stosb rep_stosq movnti" for @strategies (kernel left out). */
void allowlist_format_strategies(unsigned int strategies, char *buf,
				 size_t size);

#endif /* CLEARPAGED_ALLOWLIST_H */
