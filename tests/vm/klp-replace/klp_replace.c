// SPDX-License-Identifier: GPL-2.0
/*
 * A trivial livepatch in replace mode, as kpatch and vendors' cumulative
 * patches are: it replaces every livepatch applied before it, clearpage's
 * included, without calling their unpatch callbacks. It patches
 * /proc/cmdline, so the VM suite "replace" can see it is in effect.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/seq_file.h>

static int replaced_cmdline_proc_show(struct seq_file *m, void *v)
{
	seq_puts(m, "klp_replace is in effect\n");
	return 0;
}

static struct klp_func funcs[] = {
	{
		.old_name = "cmdline_proc_show",
		.new_func = replaced_cmdline_proc_show,
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
	.replace = true,
};

static int __init klp_replace_init(void)
{
	return klp_enable_patch(&patch);
}

static void __exit klp_replace_exit(void)
{
}

module_init(klp_replace_init);
module_exit(klp_replace_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test: a livepatch in replace mode");
MODULE_INFO(livepatch, "Y");
