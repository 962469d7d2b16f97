// SPDX-License-Identifier: GPL-2.0
/*
 * The backends as a whole: which are armed, and when. The huge backend's
 * livepatch is enabled once at load; the 4k backend's kretprobe is armed
 * exactly while
 *  - some node's 4k backend runs a strategy other than kernel,
 *  - the page allocator does not zero every page anyway (init_on_alloc=0),
 *  - and no livepatch transition runs, clearpage's or another module's.
 * The last: a transition walks every task's stack, and on 6.1 a preempted
 * task inside the probed function has a rethook return address that the
 * reliable unwinder WARNs about (rethook_find_ret_addr(), fixed upstream in
 * later kernels). So the kretprobe is armed only once clearpage's patch is
 * fully applied, disarmed and drained before its unpatch transition starts,
 * and disarmed from the moment another livepatch module starts loading
 * (before its init can start a transition) until no transition runs. A
 * transition nothing announces (started or reversed through sysfs) finds
 * the probe armed but stripping nothing: see backend_4k.c. Nothing
 * stripped, except a request already in flight as such a transition
 * starts: on 6.1 its check of a task preempted in that request WARNs (found
 * with the vCPUs in parallel, the flip suite). So on 6.1 the probe also
 * stays disarmed while another livepatch is present at all (a livepatch
 * module other than clearpage is loaded: foreign_present()), which any
 * write to its enabled file could take through a transition.
 *
 * A livepatch in replace mode (kpatch, a vendor's cumulative patch)
 * replaces clearpage's without calling its pre_unpatch callback: huge folios
 * are then back on the kernel's clear, and `backends` says so, until
 * clearpage is reloaded.
 *
 * Whether a transition runs is read from the patch state of the worker that
 * polls: the livepatch core sets it in every task when a transition starts
 * and resets it only when the transition, the unpatching of the patches it
 * replaced included, is complete.
 *
 * Everything here runs under clearpage_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/livepatch.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "clearpage.h"
#include "compat.h"

/* clearpage's patch is fully applied: none of its transitions runs. */
static bool huge_patched;

struct foreign_livepatch {
	struct list_head list;
	struct module *mod;
};

/* Livepatch modules between COMING and LIVE or GOING. */
static LIST_HEAD(foreign_loading);
/* A livepatch of another module is loading or in transition. */
static bool foreign_busy;
/* The last one seen, for the log and `backends`. */
static char foreign_name[MODULE_NAME_LEN];

/* Our patch is gone though we never unpatched it: another one replaced it. */
static bool huge_replaced(void)
{
	return huge_patched && !clearpage_huge_enabled();
}

#if CLEARPAGE_RETHOOK_WARNS
/*
 * Another module's livepatch is loaded (its name in foreign_name), from
 * the kernel's own list of modules, walked from clearpage's entry: no file
 * is opened, so no mount namespace, credential or LSM of whoever asked can
 * hide one. The list is RCU-protected (a module leaves it with
 * list_del_rcu() and is freed after a grace period): walked under
 * rcu_read_lock(). Its head is not a module: it
 * lies in the kernel image, and every struct module in module memory
 * (MODULES_VADDR to MODULES_END), which tells them apart. Fails closed: a
 * livepatch module counts from the moment it is formed until it goes
 * (the notifier looks again then: a module whose patch still exists
 * cannot be going, the livepatch core holds a reference on it); one
 * still unformed is seen by the module notifier once it is coming.
 */
static bool foreign_present(void)
{
	struct list_head *pos;
	bool found = false;

	/* RCU readers: the kernel's own walks, since RCU is one flavour. */
	rcu_read_lock();
	list_for_each_rcu(pos, &THIS_MODULE->list) {
		struct module *mod;

		if ((unsigned long)pos < MODULES_VADDR ||
		    (unsigned long)pos >= MODULES_END)
			continue;
		mod = list_entry(pos, struct module, list);
		if (mod != THIS_MODULE && is_livepatch_module(mod) &&
		    READ_ONCE(mod->state) != MODULE_STATE_GOING) {
			strscpy(foreign_name, mod->name, sizeof(foreign_name));
			found = true;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}
#else
static bool foreign_present(void)
{
	return false;
}
#endif

/* No livepatch transition runs, ours or another module's. */
static bool settled(void)
{
	return (clearpage_huge_error() || huge_patched) && !foreign_busy;
}

/* 6.1: no other livepatch present either (see the top of this file). */
static bool foreign_patch_present;

/* Arm or disarm to match the nodes' strategies. */
void clearpage_backends_update(void)
{
	bool wanted = clearpage_any_node_intercepted(CLEARPAGE_BACKEND_4K) &&
		      !want_init_on_alloc(0) && settled();

	lockdep_assert_held(&clearpage_lock);
	if (wanted) {
		foreign_patch_present = foreign_present();
		wanted = !foreign_patch_present;
	}
	if (wanted)
		clearpage_4k_arm();
	else
		clearpage_4k_disarm();
}

static void huge_post_patch(struct klp_object *obj)
{
	mutex_lock(&clearpage_lock);
	huge_patched = true;
	clearpage_backends_update();
	mutex_unlock(&clearpage_lock);
}

static void huge_pre_unpatch(struct klp_object *obj)
{
	mutex_lock(&clearpage_lock);
	huge_patched = false;
	clearpage_backends_update();
	mutex_unlock(&clearpage_lock);
}

static void foreign_poll(struct work_struct *work);
static DECLARE_DELAYED_WORK(foreign_work, foreign_poll);

static void foreign_poll(struct work_struct *work)
{
	bool replaced;

	mutex_lock(&clearpage_lock);
	if (!list_empty(&foreign_loading) || clearpage_4k_transition_running()) {
		mutex_unlock(&clearpage_lock);
		schedule_delayed_work(&foreign_work, HZ / 10);
		return;
	}
	foreign_busy = false;
	replaced = huge_replaced();
	clearpage_backends_update();
	mutex_unlock(&clearpage_lock);
	if (replaced)
		pr_warn("livepatch %s replaced clearpage's (replace mode): huge pages keep the kernel's clear until clearpage is reloaded (clearpagectl unload; modprobe clearpage)\n",
			foreign_name);
}

static int foreign_module_event(struct notifier_block *nb,
				unsigned long state, void *data)
{
	struct module *mod = data;
	struct foreign_livepatch *entry, *tmp;

	if (mod == THIS_MODULE || !is_livepatch_module(mod))
		return NOTIFY_DONE;
	mutex_lock(&clearpage_lock);
	if (state == MODULE_STATE_COMING) {
		/* Without memory, stay disarmed until the next livepatch. */
		entry = kmalloc(sizeof(*entry), GFP_KERNEL);
		if (entry) {
			entry->mod = mod;
			list_add(&entry->list, &foreign_loading);
		}
		foreign_busy = true;
		strscpy(foreign_name, mod->name, sizeof(foreign_name));
		if (clearpage_4k_armed())
			pr_info("livepatch %s is loading: the 4k backend is disarmed until its transition is complete\n",
				mod->name);
		clearpage_backends_update();
	} else if (state == MODULE_STATE_LIVE || state == MODULE_STATE_GOING) {
		list_for_each_entry_safe(entry, tmp, &foreign_loading, list) {
			if (entry->mod == mod) {
				list_del(&entry->list);
				kfree(entry);
			}
		}
		/* Settled again, or (6.1) no longer present: look. */
		schedule_delayed_work(&foreign_work, 0);
	}
	mutex_unlock(&clearpage_lock);
	return NOTIFY_OK;
}

static struct notifier_block foreign_module_notifier = {
	.notifier_call = foreign_module_event,
};

/*
 * Watch for other livepatches, enable the huge backend's livepatch and arm
 * the 4k backend if the nodes' strategies want it. A failure to patch
 * leaves the 4k backend and the knob working; `backends` says why the huge
 * backend is off.
 */
void clearpage_backends_init(void)
{
	static const struct klp_callbacks callbacks = {
		.post_patch = huge_post_patch,
		.pre_unpatch = huge_pre_unpatch,
	};
	int err = register_module_notifier(&foreign_module_notifier);

	if (err)
		pr_warn("cannot watch for other livepatches (%d)\n", err);
	clearpage_huge_enable(&callbacks);
	mutex_lock(&clearpage_lock);
	clearpage_backends_update();
	mutex_unlock(&clearpage_lock);
}

/* The huge backend's livepatch was disabled before the module could go. */
void clearpage_backends_exit(void)
{
	struct foreign_livepatch *entry, *tmp;

	unregister_module_notifier(&foreign_module_notifier);
	cancel_delayed_work_sync(&foreign_work);
	clearpage_huge_exit();
	mutex_lock(&clearpage_lock);
	list_for_each_entry_safe(entry, tmp, &foreign_loading, list) {
		list_del(&entry->list);
		kfree(entry);
	}
	clearpage_4k_disarm();
	mutex_unlock(&clearpage_lock);
}

/* The `backends` file: "huge ..." then "4k ...". */
int clearpage_backends_describe(char *buf)
{
	int len = 0, alloc_error = 0;
	const char *missing = clearpage_huge_alloc_missing(&alloc_error);

	mutex_lock(&clearpage_lock);
	if (clearpage_huge_error())
		len += sysfs_emit_at(buf, len,
				     "huge inactive: livepatch of %s failed (error %d)\n",
				     CLEARPAGE_HUGE_SYMBOL, clearpage_huge_error());
	else if (huge_replaced())
		len += sysfs_emit_at(buf, len,
				     "huge inactive: livepatch replaced by %s (replace mode); reload clearpage to restore\n",
				     foreign_name);
	else if (!clearpage_huge_enabled())
		len += sysfs_emit_at(buf, len,
				     "huge inactive: livepatch disabled (remove with clearpagectl unload)\n");
	else if (!huge_patched)
		len += sysfs_emit_at(buf, len,
				     "huge inactive: livepatch transition in progress\n");
	else if (!clearpage_any_node_intercepted(CLEARPAGE_BACKEND_HUGE))
		len += sysfs_emit_at(buf, len,
				     "huge inactive: no strategy other than kernel selected\n");
	else if (missing)
		len += sysfs_emit_at(buf, len,
				     "huge active: not for THP and mTHP, which the allocator clears (%s not found, error %d)\n",
				     missing, alloc_error);
	else
		len += sysfs_emit_at(buf, len, "huge active\n");

	if (want_init_on_alloc(0))
		len += sysfs_emit_at(buf, len,
				     "4k inactive: init_on_alloc=1 (the page allocator zeroes every page; boot with init_on_alloc=0 to enable)\n");
	else if (clearpage_4k_armed() && clearpage_4k_transition_running())
		len += sysfs_emit_at(buf, len,
				     "4k paused: a livepatch transition runs (4 KiB pages keep the kernel's clear until it is complete)\n");
	else if (clearpage_4k_armed())
		len += sysfs_emit_at(buf, len, "4k active\n");
	else if (!clearpage_any_node_intercepted(CLEARPAGE_BACKEND_4K))
		len += sysfs_emit_at(buf, len,
				     "4k inactive: no strategy other than kernel selected\n");
	else if (foreign_busy)
		len += sysfs_emit_at(buf, len,
				     "4k inactive: livepatch %s is loading or in transition\n",
				     foreign_name);
	else if (foreign_patch_present)
		len += sysfs_emit_at(buf, len,
				     "4k inactive: livepatch %s is present; on this kernel a transition it starts through sysfs could WARN at a 4 KiB request in flight (remove it to enable)\n",
				     foreign_name);
	else if (!settled())
		len += sysfs_emit_at(buf, len,
				     "4k inactive: the livepatch is in transition or disabled\n");
	else
		len += sysfs_emit_at(buf, len,
				     "4k inactive: kretprobe on %s failed (error %d)\n",
				     CLEARPAGE_ALLOC_SYMBOL, clearpage_4k_error());
	if (!clearpage_timing_ordered())
		len += sysfs_emit_at(buf, len,
				     "probes off: this CPU has neither rdtscp nor a serialising lfence to time a load with\n");
	mutex_unlock(&clearpage_lock);
	return len;
}

/*
 * The `paths` file: one line per kernel function a backend intercepts,
 * whether it is intercepted now and what goes through it on this kernel.
 */
int clearpage_backends_describe_paths(char *buf)
{
	int len;

	mutex_lock(&clearpage_lock);
	len = clearpage_huge_describe_paths(buf, 0);
	len += sysfs_emit_at(buf, len, "4k %s %s: anonymous 4 KiB faults%s\n",
			     CLEARPAGE_ALLOC_SYMBOL,
			     clearpage_4k_armed() ? "probed" : "not probed",
			     want_init_on_alloc(0) ?
			     " (never with init_on_alloc=1)" : "");
	mutex_unlock(&clearpage_lock);
	return len;
}
