// SPDX-License-Identifier: GPL-2.0
/*
 * The bottom layer: the strategy table and what makes a strategy usable on
 * this machine (the CPU, the routines refused by a self-test), and
 * clearpage_lock. Everything else may use it; it uses nothing of the
 * module's. The module parameters beside it: params.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "clearpage.h"

/* Serialises every change of strategy, pin and arming. */
DEFINE_MUTEX(clearpage_lock);

struct clearpage_cpu clearpage_cpu;
const char *const clearpage_strategy_names[CLEARPAGE_STRATEGY_COUNT] =
	CLEARPAGE_STRATEGY_NAMES;
static const char *const clearpage_source_names[CLEARPAGE_SOURCE_COUNT] =
	CLEARPAGE_SOURCE_NAMES;
const char *const clearpage_backend_names[CLEARPAGE_BACKEND_COUNT] =
	CLEARPAGE_BACKEND_NAMES;

/* Strategies whose routine failed a calibration self-test. */
static unsigned long clearpage_refused;

bool clearpage_strategy_usable(int strategy)
{
	return strategy >= 0 && strategy < CLEARPAGE_STRATEGY_COUNT &&
	       !test_bit(strategy, &clearpage_refused) &&
	       clearpage_strategy_available(&clearpage_cpu, strategy);
}

/*
 * Never use @strategy again until the module is reloaded: it left bytes
 * non-zero. (The nodes running it leave it: clearpage_node_calibrate().)
 */
void clearpage_strategy_refuse(int strategy)
{
	if (strategy == CLEARPAGE_STRATEGY_KERNEL)
		return;
	set_bit(strategy, &clearpage_refused);
}

/*
 * Parse a strategy name as written to sysfs: exactly one available name,
 * optionally followed by a single newline. Returns the id or -EINVAL.
 */
int clearpage_strategy_parse(const char *buf, size_t count)
{
	int strategy;

	if (count && buf[count - 1] == '\n')
		count--;
	for (strategy = 0; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++) {
		const char *name = clearpage_strategy_names[strategy];

		if (strlen(name) == count && !memcmp(name, buf, count))
			return clearpage_strategy_usable(strategy) ? strategy :
								    -EINVAL;
	}
	return -EINVAL;
}

/*
 * Parse a list of candidates as written to a trials file: available
 * strategy names but kernel, separated by single spaces, or "none",
 * optionally followed by a single newline. Returns a bit per strategy, or
 * -EINVAL (an unknown, unavailable or repeated name, kernel, anything else).
 */
long clearpage_trials_parse(const char *buf, size_t count)
{
	long trials = 0;
	size_t len;
	int strategy;

	if (count && buf[count - 1] == '\n')
		count--;
	if (count == 4 && !memcmp(buf, "none", 4))
		return 0;
	while (count) {
		for (len = 0; len < count && buf[len] != ' '; len++)
			;
		strategy = clearpage_strategy_parse(buf, len);
		if (strategy <= CLEARPAGE_STRATEGY_KERNEL ||
		    trials & (1L << strategy))
			return -EINVAL;
		trials |= 1L << strategy;
		if (len == count)
			break;
		/* One space, then another name. */
		if (len + 1 == count)
			return -EINVAL;
		buf += len + 1;
		count -= len + 1;
	}
	return count ? trials : -EINVAL;
}

const char *clearpage_source_name(enum clearpage_source source)
{
	if (source >= CLEARPAGE_SOURCE_COUNT)
		return "unknown";
	return clearpage_source_names[source];
}

