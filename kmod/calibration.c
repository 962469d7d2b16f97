// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration: the hot and cold cost of each strategy on one node's memory,
 * measured on a CPU of that node where it has one.
 *
 * Hot: a 16 KiB buffer cleared over and over, so its lines stay in L1/L2.
 * Cold: a 256 KiB buffer whose lines are flushed out of every cache level
 * (clflush) before each timed pass, so the clear meets memory, as a page
 * fault on a cold page does, whatever the size of the last-level cache.
 * Each figure is the median of several passes, in ns per 4 KiB page.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sort.h>
#include <linux/topology.h>
#include <linux/workqueue.h>
#include <asm/cacheflush.h>

#include "clearpage.h"

#define CALIBRATION_ORDER 6		/* cold buffer: 64 pages */
#define CALIBRATION_HOT_PAGES 4		/* hot buffer: 16 KiB */
#define CALIBRATION_PASSES 15

struct calibration_run {
	void *buffer;
	unsigned int nr_pages;
	struct clearpage_calibration result[CLEARPAGE_STRATEGY_COUNT];
};

static int compare_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 time_pass(int strategy, void *buffer, unsigned int nr_pages)
{
	unsigned int i;
	u64 start, ns;

	preempt_disable();
	start = local_clock();
	for (i = 0; i < nr_pages; i++)
		clearpage_run(strategy, buffer + i * PAGE_SIZE);
	ns = local_clock() - start;
	preempt_enable();
	return div_u64(ns, nr_pages);
}

static u32 median_ns(int strategy, void *buffer, unsigned int nr_pages,
		     bool cold)
{
	u64 passes[CALIBRATION_PASSES];
	int i;

	if (!cold)	/* bring the buffer into the cache first */
		time_pass(strategy, buffer, nr_pages);
	for (i = 0; i < CALIBRATION_PASSES; i++) {
		if (cold)
			clflush_cache_range(buffer, nr_pages * PAGE_SIZE);
		passes[i] = time_pass(strategy, buffer, nr_pages);
		cond_resched();
	}
	sort(passes, CALIBRATION_PASSES, sizeof(passes[0]), compare_u64, NULL);
	/* A clear never takes 0 ns; a coarse clock must not report it. */
	return max_t(u64, passes[CALIBRATION_PASSES / 2], 1);
}

static long calibration_measure(void *arg)
{
	struct calibration_run *run = arg;
	int strategy;

	for (strategy = 1; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++) {
		if (!clearpage_strategy_usable(strategy))
			continue;
		run->result[strategy].hot_ns =
			median_ns(strategy, run->buffer, CALIBRATION_HOT_PAGES,
				  false);
		run->result[strategy].cold_ns =
			median_ns(strategy, run->buffer, run->nr_pages, true);
	}
	return 0;
}

#ifdef CLEARPAGE_TEST_CALIBRATION
/*
 * Test builds only (tests/vm, suite "decide"): emulated CPUs have no cache
 * timing, so their calibration shows hot = cold and clearpaged rightly never
 * acts. This build reports the figures measured on an AMD EPYC (Zen 3)
 * instead, so that the VM tests can watch the daemon decide and apply its
 * decisions through netlink.
 */
static void clearpage_test_calibration(struct clearpage_calibration *result)
{
	static const struct clearpage_calibration epyc[] = {
		[CLEARPAGE_STRATEGY_REP_STOSB] = { 70, 411 },
		[CLEARPAGE_STRATEGY_REP_STOSQ] = { 75, 420 },
		[CLEARPAGE_STRATEGY_MOVQ] = { 90, 423 },
		[CLEARPAGE_STRATEGY_MOVNTI] = { 203, 206 },
		[CLEARPAGE_STRATEGY_CLZERO] = { 175, 124 },
	};
	int strategy;

	for (strategy = 1; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++)
		if (result[strategy].hot_ns)
			result[strategy] = epyc[strategy];
}
#endif

int clearpage_calibrate(struct clearpage_node *node)
{
	struct calibration_run *run;
	struct page *pages;
	int cpu;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	pages = alloc_pages_node(node->nid, GFP_KERNEL | __GFP_THISNODE |
				 __GFP_NOWARN, CALIBRATION_ORDER);
	if (!pages) {
		pr_warn("node%d: no memory to calibrate\n", node->nid);
		kfree(run);
		return -ENOMEM;
	}
	run->buffer = page_address(pages);
	run->nr_pages = 1U << CALIBRATION_ORDER;

	mutex_lock(&node->calibration_lock);
	cpus_read_lock();
	cpu = cpumask_first_and(cpumask_of_node(node->nid), cpu_online_mask);
	if (cpu < nr_cpu_ids)
		work_on_cpu(cpu, calibration_measure, run);
	else
		calibration_measure(run);
	cpus_read_unlock();
#ifdef CLEARPAGE_TEST_CALIBRATION
	clearpage_test_calibration(run->result);
#endif
	memcpy(node->calibration, run->result, sizeof(node->calibration));
	mutex_unlock(&node->calibration_lock);

	__free_pages(pages, CALIBRATION_ORDER);
	kfree(run);
	return 0;
}
