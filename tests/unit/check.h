/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' checks: one "PASS: ..." or "FAIL: ..." line each, and a
 * closing "N passed, M failed, K skipped" line (tests/run-all.sh adds
 * them up). One translation unit per test program includes this.
 */
#ifndef CLEARPAGE_TEST_CHECK_H
#define CLEARPAGE_TEST_CHECK_H

#include <stdio.h>

static int passed, failed, skipped;

#define CHECK(cond, ...)                                        \
	do {                                                    \
		if (cond) {                                     \
			passed++;                               \
			printf("PASS: ");                       \
		} else {                                        \
			failed++;                               \
			printf("FAIL: ");                       \
		}                                               \
		printf(__VA_ARGS__);                            \
		printf("\n");                                   \
	} while (0)

#define SKIP(...)                                               \
	do {                                                    \
		skipped++;                                      \
		printf("SKIP: ");                               \
		printf(__VA_ARGS__);                            \
		printf("\n");                                   \
	} while (0)

/* The closing line; returns main()'s exit status. */
static inline int check_summary(void)
{
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}

#endif /* CLEARPAGE_TEST_CHECK_H */
