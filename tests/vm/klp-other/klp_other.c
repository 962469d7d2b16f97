// SPDX-License-Identifier: GPL-2.0
/*
 * Another module's livepatch, for the VM suite "replace". It patches
 * /proc/cmdline, so the suite can see it is in effect.
 *
 * replace=1 (the default): in replace mode, as kpatch and vendors'
 * cumulative patches are: it replaces every livepatch applied before it,
 * clearpage's included, without calling their unpatch callbacks.
 *
 * replace=0 with hold=1: a kernel thread sleeps inside the patched
 * function for as long as hold stays 1, so a transition that unpatches it
 * (echo 0 > /sys/kernel/livepatch/klp_other/enabled) stays open until the
 * suite writes hold=0: the suite can then fault pages while a transition
 * started through sysfs runs, for as long as it wants. holding reads 1
 * once the thread is inside the function: a transition started before
 * that would find no task in the function and complete at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/seq_file.h>

static bool replace = true;
module_param(replace, bool, 0444);
MODULE_PARM_DESC(replace, "replace every livepatch applied before (default 1)");

static bool hold;
module_param(hold, bool, 0644);
MODULE_PARM_DESC(hold, "a thread sleeps inside the patched function while 1");

static bool holding;
module_param(holding, bool, 0444);
MODULE_PARM_DESC(holding, "1 while the thread sleeps inside the patched function");

static struct task_struct *holder;

/* With m NULL: the holder, sleeping here while hold is 1. */
static noinline int other_cmdline_proc_show(struct seq_file *m, void *v)
{
	if (!m) {
		WRITE_ONCE(holding, true);
		while (READ_ONCE(hold) && !kthread_should_stop())
			msleep(20);
		WRITE_ONCE(holding, false);
		return 0;
	}
	seq_puts(m, "klp_other is in effect\n");
	return 0;
}

static int holder_fn(void *data)
{
	while (!kthread_should_stop()) {
		if (READ_ONCE(hold))
			other_cmdline_proc_show(NULL, NULL);
		msleep(20);
	}
	return 0;
}

static struct klp_func funcs[] = {
	{
		.old_name = "cmdline_proc_show",
		.new_func = other_cmdline_proc_show,
	},
	{}
};

static struct klp_object objs[] = {
	{
		/* name NULL: vmlinux */
		.funcs = funcs,
	},
	{}
};

static struct klp_patch patch = {
	.mod = THIS_MODULE,
	.objs = objs,
};

static int __init klp_other_init(void)
{
	int err;

	patch.replace = replace;
	if (!replace) {
		holder = kthread_run(holder_fn, NULL, "klp_other_hold");
		if (IS_ERR(holder))
			return PTR_ERR(holder);
	}
	err = klp_enable_patch(&patch);
	if (err && holder)
		kthread_stop(holder);
	return err;
}

static void __exit klp_other_exit(void)
{
	if (holder)
		kthread_stop(holder);
}

module_init(klp_other_init);
module_exit(klp_other_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test: another module's livepatch, in replace mode or held in transition");
MODULE_INFO(livepatch, "Y");
