/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' checks: one "PASS: ..." or "FAIL: ..." line each, and a
 * closing "N passed, M failed, K skipped" line (tests/run-all.sh adds
 * them up), a failure naming its file and line. Every unit test includes
 * this, once per program.
 */
#ifndef CLEARPAGE_TEST_CHECK_H
#define CLEARPAGE_TEST_CHECK_H

#include <stdbool.h>
#include <stdio.h>

static int passed, failed, skipped;

#define CHECK(cond, ...)                                        \
	do {                                                    \
		bool ok_ = (cond);                              \
		if (ok_)                                        \
			passed++;                               \
		else                                            \
			failed++;                               \
		printf(ok_ ? "PASS: " : "FAIL: ");              \
		printf(__VA_ARGS__);                            \
		if (!ok_)                                       \
			printf(" (%s:%d)", __FILE__, __LINE__); \
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
