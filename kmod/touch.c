// SPDX-License-Identifier: GPL-2.0
/*
 * The touch probe (clearpage_touch_offset() in probe.h says what it
 * asks): some of the pages and folios a non-temporal routine cleared are
 * held for touch_delay_ms, then one line of each is loaded, timed, on the
 * CPU that cleared it, against the node's probe threshold. Cached: the
 * application touched the line since the clear, and paid the miss the
 * clear moved to it. The node's counters give clearpaged the share without
 * a PMU.
 *
 * Safety: the load only reads, and only a page that is still the
 * application's. The clearing path takes a reference (folio_try_get()) on
 * the folio it has just cleared and still owns, so it can be neither freed
 * nor offlined nor migrated while held, and stays in the direct map (which
 * only free pages leave under DEBUG_PAGEALLOC; secretmem and guest_memfd
 * folios never come through these paths, and hugetlb folios are never
 * held). When the probe is due and the reference is the last one (the
 * application has freed the folio), or memory_failure() has marked the
 * folio poisoned meanwhile, the line is not loaded: the folio is counted
 * skipped and released, for the allocator to retire. The load is the
 * machine-check-safe load of clearpage_load_line() (probe.h): a
 * latent error consumed by it, or a fault, is a skipped folio, never a
 * panic or an oops.
 *
 * Pins, and where they are never taken: a folio in ZONE_MOVABLE or in a
 * zone with CMA pages is never held (memory offline, CMA allocations,
 * compaction and migration must not wait on a sample); nor more than
 * TOUCH_MAX_BYTES per node at once. A CPU going offline releases its held
 * folios unprobed (its hotplug teardown, touch_cpu_offline()) and holds
 * none until it is back; memory going offline in a zone that may hold
 * one (virtio-mem, dax/kmem, a block onlined to ZONE_NORMAL) releases
 * every held folio unprobed and holds none until it is done
 * (touch_memory_notify()), so offline_pages() waits on no sample. What
 * is not released early: alloc_contig_range() without an offline (no
 * notifier tells it) waits at most touch_delay_ms on a held folio; and a memory_failure() of a
 * held folio from another source (a patrol scrub, a consumed error
 * elsewhere) finds the extra reference and fails for that page, as it
 * does for any page the kernel itself holds for a moment; the hold lasts
 * at most touch_delay_ms.
 *
 * Cost and bounds (the parameters are params.c's): one folio in
 * 2^touch_shift non-temporal clears per CPU,
 * and at most one held per CPU and backend (a 4 KiB page, a folio of at
 * most PMD size), at most TOUCH_MAX_BYTES per node, for at most
 * touch_delay_ms (at most 1000). A held folio
 * is only a reference: a write fault on it after fork() copies instead of
 * reusing it, reclaim, compaction and khugepaged pass it by, until it is
 * released.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpuhotplug.h>
#include <linux/jiffies.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/page-flags.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

#include "clearpage.h"

/* At most this much held per node at once: two PMD-sized folios. */
#define TOUCH_MAX_BYTES (4UL << 20)

enum touch_state { SLOT_FREE, SLOT_FILLING, SLOT_HELD };

struct touch_slot {
	int state;		/* enum touch_state, changed with cmpxchg */
	struct folio *folio;	/* a reference held while SLOT_HELD */
	unsigned long offset;	/* of the line to load, in the folio */
	unsigned long due;	/* jiffies */
	struct clearpage_node *node;	/* the folio's; nodes outlive slots */
};

struct touch_cpu {
	struct touch_slot slot[CLEARPAGE_BACKEND_COUNT];
	unsigned int sequence;
	int cpu;
	/* Between its hotplug startup and teardown: it may hold folios. */
	bool online;
	struct delayed_work work;
};

static DEFINE_PER_CPU(struct touch_cpu, touch_cpus);
static bool touch_running;
/* The hotplug state of touch_cpu_online() and touch_cpu_offline(). */
static int touch_hotplug_state;
/* Bytes held per node. */
static atomic_long_t touch_held_bytes[MAX_NUMNODES];
/*
 * Memory that could hold a sample going offline now: nothing held.
 * Offlines are serialised (offline_pages() holds mem_hotplug_lock), so a
 * flag, never a count: MEM_CANCEL_OFFLINE also reaches a notifier whose
 * MEM_GOING_OFFLINE never ran.
 */
static bool touch_offlining;

/* memory_failure() has marked a page of @folio poisoned. */
static bool touch_poisoned(struct folio *folio, unsigned long offset)
{
	return folio_test_hwpoison(folio) ||
	       PageHWPoison(folio_page(folio, offset >> PAGE_SHIFT)) ||
	       (folio_test_large(folio) && folio_test_has_hwpoisoned(folio));
}

/*
 * Whether @folio may be held at all: never where a pin would stall memory
 * offline, a CMA allocation or migration (ZONE_MOVABLE, a zone with CMA
 * pages: the pageblock's own migrate type is not readable from a module,
 * so the whole zone is left out), nor a poisoned one.
 */
static bool touch_holdable(struct folio *folio, unsigned long offset)
{
	struct zone *zone = folio_zone(folio);

	return zone_idx(zone) != ZONE_MOVABLE && !zone_cma_pages(zone) &&
	       !touch_poisoned(folio, offset);
}

/* The node's threshold, 0 when its calibration cannot tell. */
static unsigned long touch_threshold(struct clearpage_node *node)
{
	return READ_ONCE(node->probe_calibration.threshold_ticks);
}

/* Load the held slot's line if its folio is still the application's. */
static void touch_probe_slot(struct touch_slot *slot, int backend)
{
	struct clearpage_node *node = slot->node;
	unsigned long threshold, ticks = CLEARPAGE_LOAD_FAILED;
	int cached;

	threshold = touch_threshold(node);
	if (threshold && folio_ref_count(slot->folio) > 1 &&
	    !touch_poisoned(slot->folio, slot->offset)) {
		preempt_disable();
		ticks = clearpage_timed_load((const char *)folio_address(slot->folio) +
					     slot->offset);
		preempt_enable();
	}
	if (ticks == CLEARPAGE_LOAD_FAILED) {
		this_cpu_inc(node->stats->touch_skipped[backend]);
		return;
	}
	cached = clearpage_test_touch_verdict(ticks < threshold);
	this_cpu_inc(node->stats->touch_probed[backend]);
	if (cached)
		this_cpu_inc(node->stats->touch_cached[backend]);
}

static void touch_release(struct touch_slot *slot)
{
	atomic_long_sub(folio_size(slot->folio),
			&touch_held_bytes[slot->node->nid]);
	folio_put(slot->folio);
	slot->folio = NULL;
	/* Pairs with the cmpxchg() that fills it: the slot is empty first. */
	smp_store_release(&slot->state, SLOT_FREE);
}

/*
 * The CPU's held slots that are due, probed and released; requeued for
 * the rest. Bound to the CPU that held them, and cancelled by its hotplug
 * teardown before it goes (a line in that CPU's cache could look like one
 * from memory from another, and a timer queued on a CPU that is gone
 * never fires).
 */
static void touch_work(struct work_struct *work)
{
	struct touch_cpu *tc = container_of(to_delayed_work(work),
					    struct touch_cpu, work);
	unsigned long next = 0;
	struct touch_slot *slot;
	int backend;

	for (backend = 0; backend < CLEARPAGE_BACKEND_COUNT; backend++) {
		slot = &tc->slot[backend];
		/* Pairs with the release that held it: its fields are set. */
		if (smp_load_acquire(&slot->state) != SLOT_HELD)
			continue;
		if (time_before(jiffies, slot->due) && READ_ONCE(touch_running) &&
		    !touch_poisoned(slot->folio, slot->offset)) {
			if (!next || time_before(slot->due, next))
				next = slot->due;
			continue;
		}
		if (READ_ONCE(touch_running))
			touch_probe_slot(slot, backend);
		touch_release(slot);
	}
	/* Never onto a CPU going offline: its timer would never fire. */
	if (next && READ_ONCE(touch_running) && READ_ONCE(tc->online))
		mod_delayed_work_on(tc->cpu, system_wq, &tc->work,
				    max_t(long, 1, (long)(next - jiffies)));
}

/*
 * @folio, owned by the caller and just cleared, has its line at @offset
 * cleared non-temporally by @backend: hold it for the touch probe, one
 * such clear in 2^touch_shift per CPU (every @trial one: a candidate's
 * trial frames are one in 2^trial_shift already, and they alone tell what
 * a non-temporal candidate would cost the application while the node
 * clears temporally), when this CPU's slot is free. Any context the
 * clearing paths run in (the 4k backend's return handler runs with
 * preemption off).
 */
void clearpage_touch_note(struct clearpage_node *node, struct folio *folio,
			  unsigned long offset, int backend, bool trial)
{
	unsigned int delay = READ_ONCE(clearpage_touch_delay_ms);
	unsigned int shift = READ_ONCE(clearpage_touch_shift);
	struct touch_slot *slot;
	struct touch_cpu *tc;
	int cpu;

	if (!delay || !node || offset == CLEARPAGE_TOUCH_NONE ||
	    !READ_ONCE(touch_running) || !touch_threshold(node) ||
	    folio_test_hugetlb(folio) ||
	    folio_nr_pages(folio) > HPAGE_PMD_NR)
		return;
	cpu = get_cpu();
	tc = this_cpu_ptr(&touch_cpus);
	/* With preemption off: touch_memory_notify() waits for this. */
	if (!READ_ONCE(tc->online) || READ_ONCE(touch_offlining) ||
	    (++tc->sequence & ((1U << shift) - 1) && !trial))
		goto out;
	slot = &tc->slot[backend];
	if (!touch_holdable(folio, offset) ||
	    cmpxchg(&slot->state, SLOT_FREE, SLOT_FILLING) != SLOT_FREE)
		goto out;
	if (atomic_long_add_return(folio_size(folio),
				   &touch_held_bytes[node->nid]) >
	    TOUCH_MAX_BYTES || !folio_try_get(folio)) {
		atomic_long_sub(folio_size(folio), &touch_held_bytes[node->nid]);
		/* Nothing of the slot was written: pairs with the cmpxchg(). */
		smp_store_release(&slot->state, SLOT_FREE);
		goto out;
	}
	slot->folio = folio;
	slot->offset = offset;
	slot->node = node;
	slot->due = jiffies + msecs_to_jiffies(delay);
	/* The fields above before the state: pairs with touch_work()'s acquire. */
	smp_store_release(&slot->state, SLOT_HELD);
	queue_delayed_work_on(cpu, system_wq, &tc->work,
			      msecs_to_jiffies(delay));
out:
	put_cpu();
}

/* Folios of @node held now, for the node's stats. */
unsigned int clearpage_touch_held(struct clearpage_node *node)
{
	unsigned int held = 0;
	int cpu, backend;

	for_each_possible_cpu(cpu) {
		struct touch_cpu *tc = per_cpu_ptr(&touch_cpus, cpu);

		for (backend = 0; backend < CLEARPAGE_BACKEND_COUNT; backend++)
			/* Pairs with the release that held it: node is set. */
			held += smp_load_acquire(&tc->slot[backend].state) ==
					SLOT_HELD &&
				READ_ONCE(tc->slot[backend].node) == node;
	}
	return held;
}

/* @cpu's held folios released unprobed; its work neither queued nor running. */
static void touch_release_cpu(int cpu)
{
	struct touch_cpu *tc = per_cpu_ptr(&touch_cpus, cpu);
	int backend;

	for (backend = 0; backend < CLEARPAGE_BACKEND_COUNT; backend++) {
		struct touch_slot *slot = &tc->slot[backend];

		/* Pairs with the release that held it: its fields are set. */
		if (smp_load_acquire(&slot->state) != SLOT_HELD)
			continue;
		this_cpu_inc(slot->node->stats->touch_skipped[backend]);
		touch_release(slot);
	}
}

/*
 * A CPU going offline (its hotplug thread, on that CPU, the CPU still
 * running): from now on it holds nothing; once every clear that could
 * have seen it online is done (each runs with preemption off), its held
 * folios are released unprobed. Its work is neither queued nor running
 * afterwards, so nothing is left on a CPU whose timers no longer fire.
 */
static int touch_cpu_offline(unsigned int cpu)
{
	struct touch_cpu *tc = per_cpu_ptr(&touch_cpus, cpu);

	WRITE_ONCE(tc->online, false);
	/* At unload the backends are disarmed and drained already. */
	if (READ_ONCE(touch_running))
		synchronize_rcu();
	cancel_delayed_work_sync(&tc->work);
	touch_release_cpu(cpu);
	return 0;
}

/*
 * Memory going offline in a zone a sample may be held in (never
 * ZONE_MOVABLE nor a zone with CMA pages): from now on nothing is held;
 * once every clear that could have missed that is done (each holds with
 * preemption off), every CPU's work is cancelled and its held folios
 * released unprobed, before the kernel isolates and migrates the block's
 * pages. Allowed again once it is offline or the offline failed. (Not
 * alloc_contig_range() without an offline: it sends no notifier, and
 * waits at most touch_delay_ms on a held folio.)
 */
static int touch_memory_notify(struct notifier_block *nb,
			       unsigned long action, void *arg)
{
	const struct memory_notify *mn = arg;
	struct zone *zone;
	int cpu;

	switch (action) {
	case MEM_GOING_OFFLINE:
		zone = page_zone(pfn_to_page(mn->start_pfn));
		if (zone_idx(zone) == ZONE_MOVABLE || zone_cma_pages(zone))
			break;
		WRITE_ONCE(touch_offlining, true);
		synchronize_rcu();
		for_each_possible_cpu(cpu) {
			cancel_delayed_work_sync(&per_cpu_ptr(&touch_cpus,
							      cpu)->work);
			touch_release_cpu(cpu);
		}
		break;
	case MEM_OFFLINE:
	case MEM_CANCEL_OFFLINE:
		WRITE_ONCE(touch_offlining, false);
		break;
	}
	return NOTIFY_OK;
}

static struct notifier_block touch_memory_nb = {
	.notifier_call = touch_memory_notify,
};

static int touch_cpu_online(unsigned int cpu)
{
	WRITE_ONCE(per_cpu_ptr(&touch_cpus, cpu)->online, true);
	return 0;
}

int clearpage_touch_init(void)
{
	int cpu, state, err;

	for_each_possible_cpu(cpu) {
		struct touch_cpu *tc = per_cpu_ptr(&touch_cpus, cpu);

		tc->cpu = cpu;
		INIT_DELAYED_WORK(&tc->work, touch_work);
	}
	err = register_memory_notifier(&touch_memory_nb);
	if (err)
		return err;
	WRITE_ONCE(touch_running, true);
	/* Marks every online CPU online, and each one that comes. */
	state = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "clearpage/touch:online",
				  touch_cpu_online, touch_cpu_offline);
	if (state < 0) {
		WRITE_ONCE(touch_running, false);
		unregister_memory_notifier(&touch_memory_nb);
		return state;
	}
	touch_hotplug_state = state;
	return 0;
}

/*
 * After the backends are disarmed (nothing holds a folio any more): every
 * held folio released, unprobed, before the nodes go.
 */
void clearpage_touch_exit(void)
{
	int cpu, backend;

	WRITE_ONCE(touch_running, false);
	unregister_memory_notifier(&touch_memory_nb);
	/* Each online CPU's teardown: its folios released. */
	cpuhp_remove_state(touch_hotplug_state);
	for_each_possible_cpu(cpu) {
		struct touch_cpu *tc = per_cpu_ptr(&touch_cpus, cpu);

		cancel_delayed_work_sync(&tc->work);
		for (backend = 0; backend < CLEARPAGE_BACKEND_COUNT; backend++)
			/* Pairs with the release that held it: folio is set. */
			if (smp_load_acquire(&tc->slot[backend].state) ==
			    SLOT_HELD)
				touch_release(&tc->slot[backend]);
	}
}
