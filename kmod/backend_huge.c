// SPDX-License-Identifier: GPL-2.0
/*
 * The huge page backend: a livepatch of clear_huge_page() (<= 6.10) or
 * folio_zero_user() (>= 6.11), the function that zeroes THP, mTHP and hugetlb
 * folios at fault time and in hugetlbfs fallocate.
 *
 * On a node whose strategy is not "kernel" the folio is cleared as Linux 7.0
 * clears it, with the node's strategy: in address order, as ranges of up to
 * huge_chunk_kb (one string instruction or loop per chunk, one sfence per
 * chunk for the non-temporal strategies, cond_resched() between chunks, so a
 * 1 GiB page never holds the CPU for long): first the subpages right of the
 * faulting one, then those left of it, and last the faulting subpage and
 * its two neighbours on each side, always with a temporal routine so the
 * faulting process finds them in cache. "kernel" keeps the kernel's own
 * walk exactly (one subpage at a time, converging on the faulting one): the
 * baseline.
 *
 * With init_on_alloc=1 the page allocator has already zeroed a freshly
 * allocated THP, so on managed nodes the second clear is skipped and counted
 * in pages_huge_prezeroed. hugetlb folios are always cleared: they are
 * recycled through the hugetlb pool without passing the allocator.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hugetlb.h>
#include <linux/livepatch.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "clearpage.h"
#include "compat.h"

/* Ranges are cleared through the direct map, which has no highmem holes. */
static_assert(!IS_ENABLED(CONFIG_HIGHMEM));

static int huge_enable_error;
/* The patch is fully applied: no livepatch transition of ours is running. */
static bool huge_patched;

/* True when the page allocator zeroes every page it hands out. */
static bool allocator_zeroes_pages(void)
{
	return want_init_on_alloc(0) && !want_init_on_free();
}

struct walk {
	struct clearpage_node *node;
	struct page *page;
	/* A reference folio: every subpage timed, as the live baseline. */
	bool reference;
};

/* One subpage of the kernel's walk. */
static void clear_subpage(void *arg, unsigned long index)
{
	struct walk *walk = arg;
	struct page *page = nth_page(walk->page, index);

	cond_resched();
	if (walk->reference)
		clearpage_clear_reference_page(walk->node, page,
					       CLEARPAGE_BACKEND_HUGE);
	else
		clearpage_clear_page(walk->node, CLEARPAGE_STRATEGY_KERNEL,
				     page, CLEARPAGE_BACKEND_HUGE);
}

static void clear_huge_walk(struct clearpage_node *node, struct page *page,
			    unsigned int fault, unsigned int nr_pages,
			    bool reference)
{
	struct walk walk = { node, page, reference };

	clearpage_kernel_walk(fault, nr_pages, MAX_ORDER_NR_PAGES,
			      clear_subpage, &walk);
}

struct ranges {
	struct clearpage_node *node;
	int strategy;
	struct page *page;
};

/* One range of the folio, accounted, after a chance to reschedule. */
static void clear_range(void *arg, int routine, unsigned long first,
			unsigned long n)
{
	struct ranges *r = arg;

	cond_resched();
	clearpage_clear_range(r->node, r->strategy, routine,
			      nth_page(r->page, first), n);
}

/* As ranges of at most huge_chunk_kb. */
static void clear_huge_ranges(struct clearpage_node *node, int strategy,
			      struct page *page, unsigned int fault,
			      unsigned int nr_pages)
{
	struct ranges r = { node, strategy, page };

	clearpage_folio_ranges(strategy, fault, nr_pages,
			       READ_ONCE(clearpage_huge_chunk_pages),
			       clear_range, &r);
}

static void clear_range_unaccounted(void *kaddr, int routine,
				    unsigned long first, unsigned long n)
{
	clearpage_run_range(routine, kaddr + first * PAGE_SIZE, n * PAGE_SIZE);
}

static void clear_subpage_unaccounted(void *kaddr, unsigned long index)
{
	clearpage_run(CLEARPAGE_STRATEGY_KERNEL, kaddr + index * PAGE_SIZE);
}

/*
 * The same clear of @nr_pages at @kaddr (direct map), unaccounted, without
 * cond_resched(): the calibration times it. kernel: the kernel's walk.
 */
void clearpage_huge_clear_unaccounted(int strategy, void *kaddr,
				      unsigned int nr_pages,
				      unsigned int fault)
{
	if (strategy == CLEARPAGE_STRATEGY_KERNEL) {
		clearpage_kernel_walk(fault, nr_pages, MAX_ORDER_NR_PAGES,
				      clear_subpage_unaccounted, kaddr);
		return;
	}
	clearpage_folio_ranges(strategy, fault, nr_pages,
			       READ_ONCE(clearpage_huge_chunk_pages),
			       clear_range_unaccounted, kaddr);
}

static void clear_huge(struct page *page, unsigned long addr_hint,
		       unsigned int nr_pages)
{
	struct clearpage_node *node = clearpage_node_get(page_to_nid(page));
	int strategy = clearpage_node_strategy(node, CLEARPAGE_BACKEND_HUGE);
	unsigned long addr = ALIGN_DOWN(addr_hint, (unsigned long)nr_pages
						   << PAGE_SHIFT);
	unsigned int fault = min_t(unsigned long,
				   (addr_hint - addr) >> PAGE_SHIFT,
				   nr_pages - 1);

	if (node && strategy != CLEARPAGE_STRATEGY_KERNEL &&
	    !folio_test_hugetlb(page_folio(page)) && allocator_zeroes_pages()) {
		clearpage_count_prezeroed(node, nr_pages);
		return;
	}

	might_sleep();
	if (!node || strategy == CLEARPAGE_STRATEGY_KERNEL) {
		clear_huge_walk(node, page, fault, nr_pages, false);
		return;
	}
	/* The live baseline: one folio in 2^reference_shift, as the kernel. */
	if (clearpage_reference_folio(strategy, page_to_pfn(page), nr_pages)) {
		clear_huge_walk(node, page, fault, nr_pages, true);
		return;
	}
	clear_huge_ranges(node, strategy, page, fault, nr_pages);
}

#if CLEARPAGE_HAVE_FOLIO_ZERO_USER
static void clearpage_folio_zero_user(struct folio *folio,
				      unsigned long addr_hint)
{
	clear_huge(&folio->page, addr_hint, folio_nr_pages(folio));
}
#define CLEARPAGE_HUGE_REPLACEMENT clearpage_folio_zero_user
#else
static void clearpage_clear_huge_page(struct page *page,
				      unsigned long addr_hint,
				      unsigned int pages_per_huge_page)
{
	clear_huge(page, addr_hint, pages_per_huge_page);
}
#define CLEARPAGE_HUGE_REPLACEMENT clearpage_clear_huge_page
#endif

static struct klp_func clearpage_huge_funcs[] = {
	{
		.old_name = CLEARPAGE_HUGE_SYMBOL,
		.new_func = CLEARPAGE_HUGE_REPLACEMENT,
	},
	{}
};

/*
 * The 4k backend's kretprobe must not be armed while a livepatch transition
 * walks task stacks: on 6.1, a preempted task inside the probed function has
 * a rethook return address that the reliable unwinder WARNs about
 * (rethook_find_ret_addr(), fixed upstream in later kernels). So it is armed
 * only once the patch is fully applied, and disarmed and drained before the
 * unpatch transition starts.
 */
static void huge_post_patch(struct klp_object *obj)
{
	mutex_lock(&clearpage_lock);
	huge_patched = true;
	clearpage_4k_update();
	mutex_unlock(&clearpage_lock);
}

static void huge_pre_unpatch(struct klp_object *obj)
{
	mutex_lock(&clearpage_lock);
	huge_patched = false;
	clearpage_4k_update();
	mutex_unlock(&clearpage_lock);
}

static struct klp_object clearpage_huge_objs[] = {
	{
		/* name NULL: vmlinux */
		.funcs = clearpage_huge_funcs,
		.callbacks = {
			.post_patch = huge_post_patch,
			.pre_unpatch = huge_pre_unpatch,
		},
	},
	{}
};

static struct klp_patch clearpage_huge_patch = {
	.mod = THIS_MODULE,
	.objs = clearpage_huge_objs,
};

/*
 * Other livepatches. Their transitions walk every task's stack just as ours
 * do, so the 4k backend's kretprobe is disarmed from the moment a livepatch
 * module starts loading (before its init can start a transition) until no
 * transition runs any more. And a livepatch in replace mode (kpatch, a
 * vendor's cumulative patch) replaces ours without calling our pre_unpatch
 * callback: then huge folios are back on the kernel's clear, and `backends`
 * says so, until clearpage is reloaded.
 *
 * Whether a transition runs is read from the patch state of the worker that
 * polls: the livepatch core sets it in every task when a transition starts
 * and resets it only when the transition, the unpatching of the patches it
 * replaced included, is complete.
 */
struct foreign_livepatch {
	struct list_head list;
	struct module *mod;
};

/* Livepatch modules between COMING and LIVE or GOING; under clearpage_lock. */
static LIST_HEAD(foreign_loading);
/* A livepatch of another module is loading or in transition. */
static bool foreign_busy;
/* The last one seen, for the log and `backends`. */
static char foreign_name[MODULE_NAME_LEN];

static void foreign_poll(struct work_struct *work);
static DECLARE_DELAYED_WORK(foreign_work, foreign_poll);

static bool livepatch_transition_running(void)
{
	return READ_ONCE(current->patch_state) != KLP_TRANSITION_IDLE;
}

/* Our patch is gone though we never unpatched it: another one replaced it. */
static bool huge_replaced(void)
{
	return huge_patched && !READ_ONCE(clearpage_huge_patch.enabled);
}

static void foreign_poll(struct work_struct *work)
{
	bool replaced;

	mutex_lock(&clearpage_lock);
	if (!list_empty(&foreign_loading) || livepatch_transition_running()) {
		mutex_unlock(&clearpage_lock);
		schedule_delayed_work(&foreign_work, HZ / 10);
		return;
	}
	foreign_busy = false;
	replaced = huge_replaced();
	clearpage_4k_update();
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
		clearpage_4k_update();
	} else if (state == MODULE_STATE_LIVE || state == MODULE_STATE_GOING) {
		list_for_each_entry_safe(entry, tmp, &foreign_loading, list) {
			if (entry->mod == mod) {
				list_del(&entry->list);
				kfree(entry);
			}
		}
		if (foreign_busy)
			schedule_delayed_work(&foreign_work, 0);
	}
	mutex_unlock(&clearpage_lock);
	return NOTIFY_OK;
}

static struct notifier_block foreign_module_notifier = {
	.notifier_call = foreign_module_event,
};

/*
 * A failure to patch leaves the 4k backend and the knob working; `backends`
 * reports why the huge backend is off.
 */
void clearpage_huge_init(void)
{
	int err = register_module_notifier(&foreign_module_notifier);

	if (err)
		pr_warn("cannot watch for other livepatches (%d)\n", err);
	huge_enable_error = klp_enable_patch(&clearpage_huge_patch);
	if (huge_enable_error)
		pr_warn("livepatch of %s failed (%d): huge pages keep the kernel's clear\n",
			CLEARPAGE_HUGE_SYMBOL, huge_enable_error);
}

void clearpage_huge_exit(void)
{
	struct foreign_livepatch *entry, *tmp;

	unregister_module_notifier(&foreign_module_notifier);
	cancel_delayed_work_sync(&foreign_work);
	list_for_each_entry_safe(entry, tmp, &foreign_loading, list) {
		list_del(&entry->list);
		kfree(entry);
	}
}

/*
 * Whether other probes may be armed: no livepatch transition runs, ours or
 * another module's.
 */
bool clearpage_huge_settled(void)
{
	lockdep_assert_held(&clearpage_lock);
	return (huge_enable_error || huge_patched) && !foreign_busy;
}

/* Why the 4k backend waits, when clearpage_huge_settled() is false. */
int clearpage_huge_describe_wait(char *buf, int at)
{
	if (foreign_busy)
		return sysfs_emit_at(buf, at,
				     "4k inactive: livepatch %s is loading or in transition\n",
				     foreign_name);
	return sysfs_emit_at(buf, at,
			     "4k inactive: the livepatch is in transition or disabled\n");
}

int clearpage_huge_describe(char *buf, int at)
{
	if (huge_enable_error)
		return sysfs_emit_at(buf, at,
				     "huge inactive: livepatch of %s failed (error %d)\n",
				     CLEARPAGE_HUGE_SYMBOL, huge_enable_error);
	if (huge_replaced())
		return sysfs_emit_at(buf, at,
				     "huge inactive: livepatch replaced by %s (replace mode); reload clearpage to restore\n",
				     foreign_name);
	if (!clearpage_huge_patch.enabled)
		return sysfs_emit_at(buf, at,
				     "huge inactive: livepatch disabled (remove with clearpagectl unload)\n");
	if (!huge_patched)
		return sysfs_emit_at(buf, at,
				     "huge inactive: livepatch transition in progress\n");
	if (!clearpage_any_node_intercepted(CLEARPAGE_BACKEND_HUGE))
		return sysfs_emit_at(buf, at,
				     "huge inactive: no strategy other than kernel selected\n");
	return sysfs_emit_at(buf, at, "huge active\n");
}
