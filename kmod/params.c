// SPDX-License-Identifier: GPL-2.0
/*
 * The bottom layer, beside strategy.c: the module parameters the clearing
 * paths read (each read with READ_ONCE(), written whole with WRITE_ONCE()).
 * Everything else may use them; they use nothing of the module's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

#include "clearpage.h"

/*
 * An unsigned parameter within @min..@max, or 0 where @zero allows it
 * (anything else: -EINVAL, the value unchanged).
 */
struct uint_param {
	unsigned int *value;
	unsigned int min, max;
	bool zero;
};

static int uint_param_set(const char *val, const struct kernel_param *kp)
{
	const struct uint_param *param = kp->arg;
	unsigned int v;
	int err = kstrtouint(val, 0, &v);

	if (err)
		return err;
	if (!(v == 0 && param->zero) && (v < param->min || v > param->max))
		return -EINVAL;
	WRITE_ONCE(*param->value, v);
	return 0;
}

static int uint_param_get(char *buffer, const struct kernel_param *kp)
{
	const struct uint_param *param = kp->arg;

	return sysfs_emit(buffer, "%u\n", READ_ONCE(*param->value));
}

static const struct kernel_param_ops uint_param_ops = {
	.set = uint_param_set,
	.get = uint_param_get,
};

#define UINT_PARAM(_name, _var, _min, _max, _zero)			\
	static struct uint_param _name##_param = {			\
		.value = &(_var), .min = (_min), .max = (_max),		\
		.zero = (_zero),					\
	};								\
	module_param_cb(_name, &uint_param_ops, &_name##_param, 0644)

unsigned int clearpage_sample_shift = 6;
UINT_PARAM(sample_shift, clearpage_sample_shift, 0, 20, true);
MODULE_PARM_DESC(sample_shift,
		 "time one clear in 2^sample_shift (0..20, default 6)");

/*
 * The temperature sample (clear.c): outside probe mode, one unit in
 * 2^probe_shift pages per CPU probed and counted.
 */
unsigned int clearpage_probe_shift = 8;
UINT_PARAM(probe_shift, clearpage_probe_shift, 0, 20, true);
MODULE_PARM_DESC(probe_shift,
		 "the temperature sample: outside probe mode, probe one 4 KiB page or folio per 2^probe_shift pages each CPU clears and count it hot or cold (1..20, default 8: every 2 MiB folio; 0: none)");

/* The touch probe (touch.c): how long after the clear, and how often. */
unsigned int clearpage_touch_delay_ms = 10;
UINT_PARAM(touch_delay_ms, clearpage_touch_delay_ms, 0, 1000, true);
MODULE_PARM_DESC(touch_delay_ms,
		 "ms after a non-temporal clear the touch probe loads a line (0..1000, 0: none; default 10)");

unsigned int clearpage_touch_shift = 4;
UINT_PARAM(touch_shift, clearpage_touch_shift, 0, 16, true);
MODULE_PARM_DESC(touch_shift,
		 "touch-probe one non-temporal clear in 2^touch_shift per CPU (0..16, default 4)");

unsigned int clearpage_reference_shift = 5;
UINT_PARAM(reference_shift, clearpage_reference_shift, 0, 20, true);
MODULE_PARM_DESC(reference_shift,
		 "the live baseline: while a backend runs a strategy other than kernel, clear one frame (or huge folio position) in 2^reference_shift with the kernel's routine and time it (1..20, default 5; 0: none)");

/* 0, or 3..20: candidates 1..5 need residues of their own. */
unsigned int clearpage_trial_shift = 6;
UINT_PARAM(trial_shift, clearpage_trial_shift, 3, 20, true);
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
