// SPDX-License-Identifier: GPL-2.0
/*
 * The bottom layer: the strategy table and what makes a strategy usable on
 * this machine (the CPU, the routines refused by a self-test), the module
 * parameters the clearing paths read, and clearpage_lock. Everything else
 * may use it; it uses nothing of the module's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/moduleparam.h>
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

unsigned int clearpage_sample_shift = 6;

static int sample_shift_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, 20);
}

static const struct kernel_param_ops sample_shift_ops = {
	.set = sample_shift_set,
	.get = param_get_uint,
};
module_param_cb(sample_shift, &sample_shift_ops, &clearpage_sample_shift,
		0644);
MODULE_PARM_DESC(sample_shift,
		 "time one clear in 2^sample_shift (0..20, default 6)");

/*
 * The temperature sample (clear.c): outside probe mode, one unit in
 * 2^probe_shift pages per CPU probed and counted.
 */
unsigned int clearpage_probe_shift = 8;

static int probe_shift_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, 20);
}

static const struct kernel_param_ops probe_shift_ops = {
	.set = probe_shift_set,
	.get = param_get_uint,
};
module_param_cb(probe_shift, &probe_shift_ops, &clearpage_probe_shift, 0644);
MODULE_PARM_DESC(probe_shift,
		 "the temperature sample: outside probe mode, probe one 4 KiB page or folio per 2^probe_shift pages each CPU clears and count it hot or cold (1..20, default 8: every 2 MiB folio; 0: none)");

/* The touch probe (touch.c): how long after the clear, and how often. */
unsigned int clearpage_touch_delay_ms = 10;

static int touch_delay_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, 1000);
}

static const struct kernel_param_ops touch_delay_ops = {
	.set = touch_delay_set,
	.get = param_get_uint,
};
module_param_cb(touch_delay_ms, &touch_delay_ops, &clearpage_touch_delay_ms,
		0644);
MODULE_PARM_DESC(touch_delay_ms,
		 "ms after a non-temporal clear the touch probe loads a line (0..1000, 0: none; default 10)");

unsigned int clearpage_touch_shift = 4;

static int touch_shift_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, 16);
}

static const struct kernel_param_ops touch_shift_ops = {
	.set = touch_shift_set,
	.get = param_get_uint,
};
module_param_cb(touch_shift, &touch_shift_ops, &clearpage_touch_shift, 0644);
MODULE_PARM_DESC(touch_shift,
		 "touch-probe one non-temporal clear in 2^touch_shift per CPU (0..16, default 4)");

unsigned int clearpage_reference_shift = 5;

static int reference_shift_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, 20);
}

static const struct kernel_param_ops reference_shift_ops = {
	.set = reference_shift_set,
	.get = param_get_uint,
};
module_param_cb(reference_shift, &reference_shift_ops,
		&clearpage_reference_shift, 0644);
MODULE_PARM_DESC(reference_shift,
		 "the live baseline: while a backend runs a strategy other than kernel, clear one frame (or huge folio position) in 2^reference_shift with the kernel's routine and time it (1..20, default 5; 0: none)");

unsigned int clearpage_trial_shift = 6;

/* 0, or 3..20: candidates 1..5 need residues of their own. */
static int trial_shift_set(const char *val, const struct kernel_param *kp)
{
	unsigned int shift;
	int err = kstrtouint(val, 0, &shift);

	if (err)
		return err;
	if (shift && (shift < 3 || shift > 20))
		return -EINVAL;
	WRITE_ONCE(clearpage_trial_shift, shift);
	return 0;
}

static const struct kernel_param_ops trial_shift_ops = {
	.set = trial_shift_set,
	.get = param_get_uint,
};
module_param_cb(trial_shift, &trial_shift_ops, &clearpage_trial_shift, 0644);
MODULE_PARM_DESC(trial_shift,
		 "trials: clear one frame (or huge folio position) in 2^trial_shift with each candidate strategy a backend's trials name, and time it (3..20, default 6; 0: none)");

/* A size in KiB kept as a count of pages: whole pages up to @max_kb. */
struct kb_pages {
	unsigned int *pages;
	unsigned int max_kb;
};

static int kb_pages_set(const char *val, const struct kernel_param *kp)
{
	const struct kb_pages *param = kp->arg;
	unsigned int kb;
	int err = kstrtouint(val, 0, &kb);

	if (err)
		return err;
	if (kb < PAGE_SIZE / 1024 || kb > param->max_kb ||
	    kb % (PAGE_SIZE / 1024))
		return -EINVAL;
	WRITE_ONCE(*param->pages, kb / (PAGE_SIZE / 1024));
	return 0;
}

static int kb_pages_get(char *buffer, const struct kernel_param *kp)
{
	const struct kb_pages *param = kp->arg;

	return sysfs_emit(buffer, "%u\n", READ_ONCE(*param->pages) *
					  (unsigned int)(PAGE_SIZE / 1024));
}

static const struct kernel_param_ops kb_pages_ops = {
	.set = kb_pages_set,
	.get = kb_pages_get,
};

/* 2 MiB: measured on AMD Zen 5, see huge_chunk_kb in doc/ABI. */
unsigned int clearpage_huge_chunk_pages = 512;
static struct kb_pages huge_chunk_kb = { &clearpage_huge_chunk_pages, 32768 };
module_param_cb(huge_chunk_kb, &kb_pages_ops, &huge_chunk_kb, 0644);
MODULE_PARM_DESC(huge_chunk_kb,
		 "the huge backend clears folios in ranges of this many KiB, with cond_resched() between them (4..32768, a multiple of 4; default 2048)");

/*
 * 256 KiB: the part of a reference or trial folio measured (see
 * huge_measure_kb in doc/ABI).
 */
unsigned int clearpage_huge_measure_pages = 64;
static struct kb_pages huge_measure_kb = { &clearpage_huge_measure_pages,
					   1048576 };
module_param_cb(huge_measure_kb, &kb_pages_ops, &huge_measure_kb, 0644);
MODULE_PARM_DESC(huge_measure_kb,
		 "of a huge reference or trial folio, this many KiB are cleared the measured way and timed, the rest the backend's way (4..1048576, a multiple of 4; default 256; a folio's size or more: all of it)");

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

