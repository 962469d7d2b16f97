// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage.ko: per-NUMA-node choice of how user pages are zeroed.
 *
 * This file only wires module load and unload together; each concern lives
 * in its own file (node.c, clear.c, sysfs.c, backend_*.c, calibration.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#include "clearpage.h"

struct clearpage_cpu clearpage_cpu;
const char *const clearpage_strategy_names[CLEARPAGE_STRATEGY_COUNT] =
	CLEARPAGE_STRATEGY_NAMES;
static const char *const clearpage_source_names[CLEARPAGE_SOURCE_COUNT] =
	CLEARPAGE_SOURCE_NAMES;
const char *const clearpage_backend_names[CLEARPAGE_BACKEND_COUNT] =
	CLEARPAGE_BACKEND_NAMES;

static char *default_strategy = "kernel";
module_param(default_strategy, charp, 0444);
MODULE_PARM_DESC(default_strategy,
		 "strategy of every node at load (default: kernel)");

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

/* 2 MiB: measured on AMD Zen 5, see huge_chunk_kb in doc/ABI. */
unsigned int clearpage_huge_chunk_pages = 512;

static int huge_chunk_kb_set(const char *val, const struct kernel_param *kp)
{
	unsigned int kb;
	int err = kstrtouint(val, 0, &kb);

	if (err)
		return err;
	if (kb < PAGE_SIZE / 1024 || kb > 32768 || kb % (PAGE_SIZE / 1024))
		return -EINVAL;
	WRITE_ONCE(clearpage_huge_chunk_pages, kb / (PAGE_SIZE / 1024));
	return 0;
}

static int huge_chunk_kb_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%u\n", READ_ONCE(clearpage_huge_chunk_pages) *
					  (unsigned int)(PAGE_SIZE / 1024));
}

static const struct kernel_param_ops huge_chunk_kb_ops = {
	.set = huge_chunk_kb_set,
	.get = huge_chunk_kb_get,
};
module_param_cb(huge_chunk_kb, &huge_chunk_kb_ops, NULL, 0644);
MODULE_PARM_DESC(huge_chunk_kb,
		 "the huge backend clears folios in ranges of this many KiB, with cond_resched() between them (4..32768, a multiple of 4; default 2048)");

/*
 * The kernel series whose internals this module was checked against: the
 * register layout of the probed allocator, the contract of the livepatched
 * function and the init_on_alloc skip. DKMS builds the module for any
 * kernel; on another series it loads only when the administrator says so.
 */
static const unsigned int clearpage_tested_series[] = {
	KERNEL_VERSION(6, 1, 0),
	KERNEL_VERSION(6, 12, 0),
};

static bool allow_untested_kernel;
module_param(allow_untested_kernel, bool, 0444);
MODULE_PARM_DESC(allow_untested_kernel,
		 "load on a kernel series other than 6.1 and 6.12, which this module was not tested on (default 0)");

static int clearpage_check_kernel(void)
{
	unsigned int version = clearpage_test_kernel_version(LINUX_VERSION_CODE);
	unsigned int series = version & ~0xffU;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(clearpage_tested_series); i++)
		if (series == clearpage_tested_series[i])
			return 0;
	if (allow_untested_kernel) {
		pr_warn("kernel %u.%u is not a tested series (6.1, 6.12); loading because allow_untested_kernel=1\n",
			version >> 16, (version >> 8) & 0xff);
		return 0;
	}
	pr_err("kernel %u.%u is not a tested series (6.1, 6.12): the probed and livepatched functions may differ there; to load anyway: modprobe clearpage allow_untested_kernel=1\n",
	       version >> 16, (version >> 8) & 0xff);
	return -EOPNOTSUPP;
}

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
 * non-zero. Nodes running it, pinned or not, return to "kernel" at once.
 */
void clearpage_strategy_refuse(int strategy)
{
	if (strategy == CLEARPAGE_STRATEGY_KERNEL)
		return;
	set_bit(strategy, &clearpage_refused);
	clearpage_nodes_leave(strategy);
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

const char *clearpage_source_name(enum clearpage_source source)
{
	if (source >= CLEARPAGE_SOURCE_COUNT)
		return "unknown";
	return clearpage_source_names[source];
}

static int __init clearpage_init(void)
{
	int strategy, err;

	err = clearpage_test_init();
	if (err)
		return err;
	err = clearpage_check_kernel();
	if (err)
		return err;
	clearpage_cpu_detect(&clearpage_cpu);
	strategy = clearpage_strategy_parse(default_strategy,
					    strlen(default_strategy));
	if (strategy < 0) {
		pr_err("default_strategy=%s is not available on this CPU\n",
		       default_strategy);
		return -EINVAL;
	}

	err = clearpage_sysfs_create();
	if (err)
		return err;
	err = clearpage_nodes_create(strategy);
	if (err) {
		clearpage_sysfs_remove();
		return err;
	}
	err = clearpage_nl_register();
	if (err) {
		clearpage_sysfs_remove();
		clearpage_nodes_destroy();
		return err;
	}
	clearpage_huge_init();
	/* Arms the 4k backend now if the livepatch could not be enabled. */
	mutex_lock(&clearpage_lock);
	clearpage_4k_update();
	mutex_unlock(&clearpage_lock);
	return 0;
}

static void __exit clearpage_exit(void)
{
	/*
	 * Order matters for the zero-page invariant: first no new writer can
	 * arm a backend (netlink and sysfs gone), then the 4k backend stops stripping
	 * __GFP_ZERO and drains, and only then the nodes are freed. The huge
	 * backend's livepatch was disabled before the module could be removed.
	 */
	clearpage_nl_unregister();
	clearpage_sysfs_remove();
	clearpage_huge_exit();
	clearpage_4k_exit();
	clearpage_nodes_destroy();
}

module_init(clearpage_init);
module_exit(clearpage_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Per-NUMA-node choice of the page zeroing routine");
MODULE_INFO(livepatch, "Y");
