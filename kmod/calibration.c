// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration: the hot and cold cost of each strategy on one node's memory,
 * per backend, measured on a CPU of that node where it has one, in the
 * pattern that backend's clears really see.
 *
 * 4k: a 4 KiB fault clears one page at an address unrelated to the last
 * one. Cold: single pages at non-adjacent addresses of a pool flushed from
 * every cache level (clflush), cleared in shuffled order, so neither the
 * prefetchers nor the open DRAM pages of the previous clear help, as they
 * do not help a fault. Hot: a 16 KiB buffer cleared over and over.
 * huge: the pool as one folio (2 MiB where the node has a free order-9
 * block), cleared exactly as the huge backend clears it (ranges of
 * huge_chunk_kb, the faulting subpage's neighbourhood last); cold after a
 * flush, hot right after the previous clear.
 *
 * Each figure is the median of several passes, in ns per 4 KiB page.
 *
 * The temperature probe's calibration: the TSC ticks of clearpage_probe()'s
 * timed loads over 64 KiB of the pool just written (cached) and just
 * flushed (from memory), the median of every line of every pass, and the
 * threshold between them (clearpage_probe_threshold(): 0 when they are too
 * close to tell apart, and the probe mode is refused).
 *
 * Calibration is also a self-test: before it is timed, every routine clears
 * the pool filled with a pattern in both patterns, and the pool must then
 * read zero. A strategy that leaves one byte is refused on this machine
 * (clearpage_strategy_refuse()): it disappears from available_strategies,
 * and nodes running it return to "kernel".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/workqueue.h>
#include <asm/cacheflush.h>

#include "clearpage.h"

#define CALIBRATION_MAX_ORDER 9		/* pool: a 2 MiB folio ... */
#define CALIBRATION_MIN_ORDER 6		/* ... or at least 256 KiB */
#define CALIBRATION_HOT_PAGES 4		/* hot 4k buffer: 16 KiB */
#define CALIBRATION_SCATTERED 32	/* single pages per cold 4k pass */
#define CALIBRATION_PASSES 15
#define CALIBRATION_PATTERN 0xa5
#define CALIBRATION_PROBE_PAGES 16	/* the probe's region: 64 KiB */
#define CALIBRATION_PROBE_LOADS (CALIBRATION_PASSES * CLEARPAGE_PROBE_LINES)

struct calibration_run {
	void *buffer;
	unsigned int nr_pages;
	/* Page indexes of the cold 4k pass: even (non-adjacent), shuffled. */
	unsigned int scattered[CALIBRATION_SCATTERED];
	unsigned int nr_scattered;
	struct clearpage_calibration
		result[CLEARPAGE_BACKEND_COUNT][CLEARPAGE_STRATEGY_COUNT];
	struct clearpage_probe_calibration probe;
	u64 probe_loads[CALIBRATION_PROBE_LOADS];
	/* Strategies that left bytes non-zero, and how many bytes. */
	unsigned long failed;
	unsigned long failed_bytes[CLEARPAGE_STRATEGY_COUNT];
	/* A probe load of the pool took a machine check: no more loads. */
	bool poisoned;
};

static int compare_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u32 median_of(u64 *passes)
{
	sort(passes, CALIBRATION_PASSES, sizeof(passes[0]), compare_u64, NULL);
	/* A clear never takes 0 ns; a coarse clock must not report it. */
	return max_t(u64, passes[CALIBRATION_PASSES / 2], 1);
}

/* ns per page of clearing @nr single pages at @index of the pool. */
static u64 time_pages(const struct calibration_run *run, int strategy,
		      const unsigned int *index, unsigned int nr)
{
	unsigned int i;
	u64 start, ns;

	preempt_disable();
	start = local_clock();
	for (i = 0; i < nr; i++)
		clearpage_run(strategy, run->buffer + index[i] * PAGE_SIZE);
	ns = local_clock() - start;
	preempt_enable();
	return div_u64(ns, nr);
}

/* ns per page of clearing the pool as the huge backend clears a folio. */
static u64 time_folio(const struct calibration_run *run, int strategy)
{
	u64 start, ns;

	preempt_disable();
	start = local_clock();
	clearpage_folio_clear_unaccounted(strategy, run->buffer, run->nr_pages,
					  0);
	ns = local_clock() - start;
	preempt_enable();
	return div_u64(ns, run->nr_pages);
}

static void flush_pool(const struct calibration_run *run)
{
	clflush_cache_range(run->buffer, run->nr_pages * PAGE_SIZE);
}

static void measure_4k(struct calibration_run *run, int strategy)
{
	struct clearpage_calibration *out =
		&run->result[CLEARPAGE_BACKEND_4K][strategy];
	static const unsigned int hot[CALIBRATION_HOT_PAGES] = { 0, 1, 2, 3 };
	u64 passes[CALIBRATION_PASSES];
	int i;

	time_pages(run, strategy, hot, CALIBRATION_HOT_PAGES);
	for (i = 0; i < CALIBRATION_PASSES; i++) {
		passes[i] = time_pages(run, strategy, hot,
				       CALIBRATION_HOT_PAGES);
		cond_resched();
	}
	out->hot_ns = median_of(passes);
	for (i = 0; i < CALIBRATION_PASSES; i++) {
		flush_pool(run);
		passes[i] = time_pages(run, strategy, run->scattered,
				       run->nr_scattered);
		cond_resched();
	}
	out->cold_ns = median_of(passes);
}

static void measure_huge(struct calibration_run *run, int strategy)
{
	struct clearpage_calibration *out =
		&run->result[CLEARPAGE_BACKEND_HUGE][strategy];
	u64 passes[CALIBRATION_PASSES];
	int i;

	time_folio(run, strategy);
	for (i = 0; i < CALIBRATION_PASSES; i++) {
		passes[i] = time_folio(run, strategy);
		cond_resched();
	}
	out->hot_ns = median_of(passes);
	for (i = 0; i < CALIBRATION_PASSES; i++) {
		flush_pool(run);
		passes[i] = time_folio(run, strategy);
		cond_resched();
	}
	out->cold_ns = median_of(passes);
}

/*
 * The median ticks of the probe's loads, the region cached or flushed; 0
 * and run->poisoned when any load failed (a memory error in the pool,
 * already queued for memory_failure()).
 */
static u32 time_probe(struct calibration_run *run, bool cached)
{
	unsigned long bytes = CALIBRATION_PROBE_PAGES * PAGE_SIZE;
	unsigned long ticks[CLEARPAGE_PROBE_LINES];
	u64 *loads = run->probe_loads;
	unsigned int pass, i;

	for (pass = 0; pass < CALIBRATION_PASSES; pass++) {
		memset(run->buffer, 0, bytes);
		if (!cached)
			clflush_cache_range(run->buffer, bytes);
		preempt_disable();
		clearpage_probe(run->buffer, CALIBRATION_PROBE_PAGES,
				pass * PAGE_SIZE % bytes, ULONG_MAX, ticks);
		preempt_enable();
		for (i = 0; i < CLEARPAGE_PROBE_LINES; i++) {
			if (ticks[i] == CLEARPAGE_LOAD_FAILED) {
				run->poisoned = true;
				return 0;
			}
			loads[pass * CLEARPAGE_PROBE_LINES + i] = ticks[i];
		}
		cond_resched();
	}
	sort(loads, CALIBRATION_PROBE_LOADS, sizeof(loads[0]), compare_u64,
	     NULL);
	return min_t(u64, loads[CALIBRATION_PROBE_LOADS / 2], U32_MAX);
}

static void measure_probe(struct calibration_run *run)
{
	struct clearpage_probe_calibration *out = &run->probe;

	/* No ordered end to a timed load: no probe (see `backends`). */
	if (!clearpage_timing_ordered()) {
		memset(out, 0, sizeof(*out));
		return;
	}
	out->hot_ticks = time_probe(run, true);
	if (!run->poisoned)
		out->cold_ticks = time_probe(run, false);
	out->threshold_ticks = clearpage_probe_threshold(out->hot_ticks,
							 out->cold_ticks);
}

static unsigned long nonzero_bytes(const char *p, unsigned long bytes)
{
	unsigned long count = 0, i;

	if (!memchr_inv(p, 0, bytes))
		return 0;
	for (i = 0; i < bytes; i++)
		count += p[i] != 0;
	return count;
}

/*
 * Fill the pool with a pattern, clear it with @strategy in both backends'
 * patterns, and count the bytes left non-zero.
 */
static unsigned long self_test(struct calibration_run *run, int strategy)
{
	unsigned long bytes = run->nr_pages * PAGE_SIZE, wrong = 0;
	unsigned int i;

	memset(run->buffer, CALIBRATION_PATTERN, bytes);
	/* Test builds only (testing.c): a routine that fails its self-test. */
	if (clearpage_test_break_self_test(strategy))
		return nonzero_bytes(run->buffer, bytes);
	for (i = 0; i < run->nr_pages; i++)
		clearpage_run(strategy, run->buffer + i * PAGE_SIZE);
	wrong += nonzero_bytes(run->buffer, bytes);
	memset(run->buffer, CALIBRATION_PATTERN, bytes);
	clearpage_folio_clear_unaccounted(strategy, run->buffer, run->nr_pages,
					  run->nr_pages / 2);
	wrong += nonzero_bytes(run->buffer, bytes);
	return wrong;
}

static long calibration_measure(void *arg)
{
	struct calibration_run *run = arg;
	unsigned long wrong;
	int strategy;

	measure_probe(run);
	/* A bad pool: the self-tests' plain loads must not touch it. */
	if (run->poisoned)
		return 0;
	/* kernel: the kernel's own clear_page() and huge folio walk. */
	measure_4k(run, CLEARPAGE_STRATEGY_KERNEL);
	measure_huge(run, CLEARPAGE_STRATEGY_KERNEL);
	for (strategy = 1; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++) {
		if (!clearpage_strategy_usable(strategy))
			continue;
		wrong = self_test(run, strategy);
		if (wrong) {
			run->failed |= 1UL << strategy;
			run->failed_bytes[strategy] = wrong;
			continue;
		}
		measure_4k(run, strategy);
		measure_huge(run, strategy);
	}
	return 0;
}

/* Every other page of the pool, in random order: no two adjacent. */
static void choose_scattered(struct calibration_run *run)
{
	unsigned int candidates = run->nr_pages / 2, i, j, tmp;
	unsigned int order[256];

	for (i = 0; i < candidates; i++)
		order[i] = 2 * i;
	for (i = candidates - 1; i > 0; i--) {
		j = get_random_u32_below(i + 1);
		tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	run->nr_scattered = min_t(unsigned int, candidates,
				  CALIBRATION_SCATTERED);
	memcpy(run->scattered, order, run->nr_scattered * sizeof(order[0]));
}

static struct page *alloc_pool(int nid, unsigned int *order)
{
	struct page *pages;

	for (*order = CALIBRATION_MAX_ORDER; *order >= CALIBRATION_MIN_ORDER;
	     (*order)--) {
		pages = alloc_pages_node(nid, GFP_KERNEL | __GFP_THISNODE |
					 __GFP_NOWARN | __GFP_NORETRY, *order);
		if (pages)
			return pages;
	}
	return NULL;
}

/*
 * Measure @node's calibration. Returns the strategies whose routine failed
 * its self-test (a bit per strategy; the caller refuses them), or -errno.
 */
long clearpage_calibrate(struct clearpage_node *node)
{
	long failed;
	struct calibration_run *run;
	struct page *pages;
	unsigned int order;
	int cpu, strategy;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	pages = alloc_pool(node->nid, &order);
	if (!pages) {
		pr_warn("node%d: no memory to calibrate\n", node->nid);
		kfree(run);
		return -ENOMEM;
	}
	run->buffer = page_address(pages);
	run->nr_pages = 1U << order;
	choose_scattered(run);

	mutex_lock(&node->calibration_lock);
	cpus_read_lock();
	cpu = cpumask_first_and(cpumask_of_node(node->nid), cpu_online_mask);
	if (cpu < nr_cpu_ids)
		work_on_cpu(cpu, calibration_measure, run);
	else
		calibration_measure(run);
	cpus_read_unlock();
	if (run->poisoned) {
		/*
		 * Nothing changes; the pool stays out of the allocator (it
		 * frees a poisoned page of an order-N block as a bad page)
		 * for memory_failure() to retire the page.
		 */
		mutex_unlock(&node->calibration_lock);
		pr_warn("node%d: a memory error in the calibration pool; calibration unchanged, its %u KiB kept out of use; calibrate again\n",
			node->nid, run->nr_pages * 4);
		kfree(run);
		return -EIO;
	}
	/* Test builds only (testing.c): a real CPU's figures. */
	clearpage_test_calibration(run->result[CLEARPAGE_BACKEND_4K]);
	clearpage_test_calibration(run->result[CLEARPAGE_BACKEND_HUGE]);
	clearpage_test_probe_calibration(&run->probe);
	memcpy(node->calibration, run->result, sizeof(node->calibration));
	node->probe_calibration.hot_ticks = run->probe.hot_ticks;
	node->probe_calibration.cold_ticks = run->probe.cold_ticks;
	WRITE_ONCE(node->probe_calibration.threshold_ticks,
		   run->probe.threshold_ticks);
	mutex_unlock(&node->calibration_lock);

	for (strategy = 1; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++) {
		if (!(run->failed & (1UL << strategy)))
			continue;
		pr_err("node%d: %s left %lu bytes of a %u KiB pool non-zero in its self-test; %s is refused until the module is reloaded\n",
		       node->nid, clearpage_strategy_names[strategy],
		       run->failed_bytes[strategy], run->nr_pages * 4,
		       clearpage_strategy_names[strategy]);
	}
	failed = run->failed;
	__free_pages(pages, order);
	kfree(run);
	return failed;
}
