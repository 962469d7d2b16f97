// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage.ko: per-NUMA-node choice of how user pages are zeroed.
 *
 * This file only wires module load and unload together. The layers, each
 * calling only those below it:
 *
 *   main.c
 *   sysfs.c, netlink.c        the ABI
 *   node.c                    the nodes' changes: strategy, pin, trials,
 *                             probe mode and helpers per node and backend
 *   arming.c, calibration.c   arming the backends (beside other
 *                             livepatches); measuring a node
 *   backend_4k.c, backend_huge.c (its 7.x allocator path: backend_alloc.c)
 *   folio.c                   clearing a huge folio, for both huge paths
 *   helpers.c                 gigantic folios cleared by the node's CPUs
 *   touch.c                   the touch probe of non-temporal clears
 *   clear.c                   clearing and accounting
 *   table.c                   the node table, read locklessly
 *   testing.c                 the test build's hooks (never shipped)
 *   params.c                  the module parameters the clearing paths read
 *   strategy.c                strategies, CPU, clearpage_lock
 *
 * sysfs.c owns its kobjects (a directory per node pointing at it); node.c
 * knows none. One call goes up, through documented hooks: node.c, the one
 * place a change is announced, tells sysfs.c (the change uevent) and
 * netlink.c (the multicast event) through clearpage_node_set_notify(). The
 * livepatch core calls arming.c's callbacks around the huge backend's
 * transitions.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#include "clearpage.h"

static char *default_strategy = "kernel";
module_param(default_strategy, charp, 0444);
MODULE_PARM_DESC(default_strategy,
		 "strategy of every node at load (default: kernel)");

/*
 * The kernel series whose internals this module was checked against: the
 * register layout of the probed allocator, the contract of the livepatched
 * function and the init_on_alloc skip. DKMS builds it for these only
 * (dkms.conf: BUILD_EXCLUSIVE_KERNEL; ctl/check.c says the same, and
 * tests/doc/test-series.sh checks the three agree); built by hand for
 * another series, it loads only when the administrator says so.
 */
static const unsigned int clearpage_tested_series[] = {
	KERNEL_VERSION(6, 1, 0),
	KERNEL_VERSION(6, 12, 0),
	KERNEL_VERSION(7, 3, 0),
};

static bool allow_untested_kernel;
module_param(allow_untested_kernel, bool, 0444);
MODULE_PARM_DESC(allow_untested_kernel,
		 "load on a kernel series other than 6.1, 6.12 and 7.3, which this module was not tested on (default 0)");

static int clearpage_check_kernel(void)
{
	unsigned int version = clearpage_test_kernel_version(LINUX_VERSION_CODE);
	unsigned int series = version & ~0xffU;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(clearpage_tested_series); i++)
		if (series == clearpage_tested_series[i])
			return 0;
	if (allow_untested_kernel) {
		pr_warn("kernel %u.%u is not a tested series (6.1, 6.12, 7.3); loading because allow_untested_kernel=1\n",
			version >> 16, (version >> 8) & 0xff);
		return 0;
	}
	pr_err("kernel %u.%u is not a tested series (6.1, 6.12, 7.3): the probed and livepatched functions may differ there; to load anyway: modprobe clearpage allow_untested_kernel=1\n",
	       version >> 16, (version >> 8) & 0xff);
	return -EOPNOTSUPP;
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

	/*
	 * Bottom up: the table of recent clears, the helpers, the nodes
	 * (calibrated), their files, the family.
	 */
	err = clearpage_clear_init();
	if (err)
		return err;
	err = clearpage_helpers_init();
	if (err)
		goto out_clear;
	err = clearpage_touch_init();
	if (err)
		goto out_touch;
	err = clearpage_nodes_create(strategy);
	if (err)
		goto out_helpers;
	err = clearpage_sysfs_create();
	if (err)
		goto out_nodes;
	err = clearpage_nl_register();
	if (err)
		goto out_sysfs;
	/* Arms the 4k backend now if the livepatch could not be enabled. */
	clearpage_backends_init();
	return 0;

out_sysfs:
	clearpage_sysfs_remove();
out_nodes:
	clearpage_nodes_destroy();
out_helpers:
	clearpage_touch_exit();
out_touch:
	clearpage_helpers_exit();
out_clear:
	clearpage_clear_exit();
	return err;
}

static void __exit clearpage_exit(void)
{
	/*
	 * Order matters for the zero-page invariant: first no new writer can
	 * arm a backend (netlink and sysfs gone), then the 4k backend stops
	 * stripping __GFP_ZERO and drains, and only then the nodes are freed.
	 * The huge backend's livepatch was disabled before the module could be
	 * removed.
	 */
	clearpage_nl_unregister();
	clearpage_sysfs_remove();
	clearpage_backends_exit();
	/* No backend holds a folio any more: release those held. */
	clearpage_touch_exit();
	clearpage_nodes_destroy();
	clearpage_helpers_exit();
	clearpage_clear_exit();
}

module_init(clearpage_init);
module_exit(clearpage_exit);
MODULE_LICENSE("GPL");
MODULE_VERSION(CLEARPAGE_VERSION);
MODULE_DESCRIPTION("Per-NUMA-node choice of the page zeroing routine");
MODULE_INFO(livepatch, "Y");
