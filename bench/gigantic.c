// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench gigantic: a 1 GiB folio cleared by 1, 2, 4 ... threads,
 * as clearpage.ko clears one with the node's gigantic helpers
 * (kmod/helpers.c): ranges of --chunk taken from one counter by every
 * thread, the faulting subpage's range last by the first thread (the
 * faulting one) with its neighbourhood temporal. Beside it the running
 * kernel's own clear on one CPU (6.x: the 4 KiB walk; 7.x: the extents,
 * one rep stos each), and the other series' for reference.
 *
 * In three regimes: burst (the folio flushed first, memory otherwise
 * idle), sustained (folios of a 2 GiB pool cleared back to back, nothing
 * flushed) and loaded (sustained, with a memory-bandwidth load on
 * --load). Threads run on the node's CPUs this process may use, the first
 * on --cpu, never on the load's CPU. Figures: ms per 1 GiB, median of
 * --runs, and the speed-up over the running kernel's clear.
 *
 * The helper count to set: per strategy, the thread count after which one
 * more step adds less than 10% (the memory bandwidth limit), less the
 * faulting thread; printed for the best strategy of each regime.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "bench.h"
#include "gigantic.h"

/* One parallel clear: what every thread shares. */
struct job {
	int strategy;
	char *folio;
	unsigned long chunk_pages, nr_chunks, fault, fault_chunk;
	atomic_long next;
	atomic_int go, done;
};

struct worker {
	pthread_t thread;
	int cpu;
	struct job *job;
};

/* Take and clear shared ranges until none is left (kmod/helpers.c). */
static void clear_shared(struct job *j)
{
	long k;

	while ((k = atomic_fetch_add(&j->next, 1)) < (long)j->nr_chunks - 1) {
		unsigned long i = clearpage_helped_range(k, j->fault_chunk,
							 j->nr_chunks);
		unsigned long first = i * j->chunk_pages;
		unsigned long n = j->chunk_pages;

		if (first + n > GIGANTIC_PAGES)
			n = GIGANTIC_PAGES - first;
		bench_clear_range(j->strategy, j->folio + first * BENCH_PAGE,
				  n * BENCH_PAGE);
	}
	_mm_sfence();
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (!atomic_load(&w->job->go))
		_mm_pause();
	clear_shared(w->job);
	atomic_fetch_add(&w->job->done, 1);
	return NULL;
}

/* The faulting range's clear, last (clearpage_folio_ranges() order). */
static void fault_range(void *ctx, int routine, unsigned long first,
			unsigned long n)
{
	struct job *j = ctx;
	char *base = j->folio + j->fault_chunk * j->chunk_pages * BENCH_PAGE;

	bench_clear_range(routine, base + first * BENCH_PAGE, n * BENCH_PAGE);
}

/*
 * Clear @folio with @strategy on @threads threads (the calling thread,
 * bound to g->cpus[0], and helpers on the next CPUs); ns it took.
 */
static double clear_parallel(const struct gigantic *g, int strategy,
			     char *folio, int threads)
{
	struct worker w[MAX_THREADS];
	struct job j = {
		.strategy = strategy, .folio = folio,
		.chunk_pages = g->chunk_pages,
		.nr_chunks = (GIGANTIC_PAGES + g->chunk_pages - 1) /
			     g->chunk_pages,
		.fault = GIGANTIC_PAGES / 2,
	};
	unsigned long base;
	uint64_t t0;
	int i;

	j.fault_chunk = j.fault / j.chunk_pages;
	atomic_init(&j.next, 0);
	atomic_init(&j.go, 0);
	atomic_init(&j.done, 0);
	for (i = 1; i < threads; i++) {
		w[i] = (struct worker){ .cpu = g->cpus[i], .job = &j };
		if (pthread_create(&w[i].thread, NULL, worker_run, &w[i])) {
			bench_error("cannot start a thread: %s", strerror(errno));
			threads = i;
			break;
		}
	}
	t0 = bench_now_ns();
	atomic_store(&j.go, 1);
	clear_shared(&j);
	while (atomic_load(&j.done) < threads - 1)
		_mm_pause();
	base = j.fault_chunk * j.chunk_pages;
	clearpage_folio_ranges(strategy, j.fault - base,
			       base + j.chunk_pages > GIGANTIC_PAGES ?
			       GIGANTIC_PAGES - base : j.chunk_pages,
			       j.chunk_pages, fault_range, &j);
	_mm_sfence();
	t0 = bench_now_ns() - t0;
	for (i = 1; i < threads; i++)
		pthread_join(w[i].thread, NULL);
	return (double)t0;
}

/* A kernel arm: the series' own clear, one CPU. */
static double clear_kernel(int arm, char *folio)
{
	uint64_t t0 = bench_now_ns();

	bench_clear_folio(arm, folio, GIGANTIC_PAGES, GIGANTIC_PAGES / 2,
			  GIGANTIC_PAGES);
	_mm_sfence();
	return (double)(bench_now_ns() - t0);
}

/* One arm: a strategy with its thread count, or a kernel arm (threads 1). */
struct point {
	int regime, arm, threads;
	double ns[1000];
	double median, min, max, speedup;
};

/* Every point of @g, in output order. */
static int plan(const struct gigantic *g, struct point *pts, int max)
{
	int n = 0;

	for (int r = 0; r < REGIMES; r++) {
		if (!g->regime[r])
			continue;
		for (int a = 0; a < 2 && n < max; a++)
			pts[n++] = (struct point){ .regime = r, .threads = 1,
				.arm = a ? BENCH_ARM_KERNEL_7X : BENCH_ARM_KERNEL_6X };
		for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
			for (int t = 0; (g->mask & 1U << s) && t < g->nr_threads &&
					n < max; t++)
				pts[n++] = (struct point){ .regime = r, .arm = s,
							   .threads = g->threads[t] };
	}
	return n;
}

/* One run of @pt: burst flushes its folio; the others go through @pool. */
static double measure(const struct gigantic *g, const struct point *pt,
		      char *folio, char *pool, unsigned long *turn,
		      struct bench_load *load)
{
	char *f = folio;
	double ns;

	if (pt->regime == 0) {
		bench_flush(folio, GIGANTIC);
	} else {
		f = pool + (*turn)++ % 2 * GIGANTIC;
		bench_load_pause(load, pt->regime != 2);
	}
	ns = pt->arm >= CLEARPAGE_STRATEGY_COUNT ? clear_kernel(pt->arm, f) :
		clear_parallel(g, pt->arm, f, pt->threads);
	bench_load_pause(load, true);
	return ns;
}

/* A 1 GiB folio, and the 2 GiB pool of the sustained and loaded regimes. */
struct buffers {
	char *folio, *pool;
};

static void unmap_buffers(struct buffers *b)
{
	bench_unmap(b->pool, 2 * GIGANTIC);
	bench_unmap(b->folio, GIGANTIC);
}

/* What @g's regimes clear in, on @node; -1 when memory is not there. */
static int map_buffers(const struct gigantic *g, int node, struct buffers *b)
{
	bool pooled = g->regime[1] || g->regime[2];

	b->folio = bench_map(GIGANTIC, node, true, true);
	b->pool = pooled ? bench_map(2 * GIGANTIC, node, true, true) : NULL;
	if (b->folio && (!pooled || b->pool))
		return 0;
	unmap_buffers(b);
	return -1;
}

/* Every point, every run, arms side by side; then each point's median. */
static void measure_points(const struct gigantic *g, struct point *pts,
			   int n, const struct buffers *b,
			   struct bench_load *load, const char *what)
{
	unsigned long turn = 0;

	for (unsigned long r = 0; r < g->args.runs; r++) {
		bench_progress("%s: run %lu of %lu", what, r + 1, g->args.runs);
		for (int i = 0; i < n; i++)
			pts[i].ns[r] = measure(g, &pts[i], b->folio, b->pool,
					       &turn, load);
	}
	bench_progress_done();
	for (int i = 0; i < n; i++)
		bench_summary(pts[i].ns, g->args.runs, &pts[i].median,
			      &pts[i].min, &pts[i].max);
}

/*
 * The helper count of strategy @s in regime @r: its thread counts in
 * order, stopping where the next adds less than 10%; -1 if unmeasured.
 */
static int helpers_for(const struct point *pts, int n, int r, int s,
		       double *ms)
{
	const struct point *best = NULL;

	for (int i = 0; i < n; i++) {
		if (pts[i].regime != r || pts[i].arm != s)
			continue;
		if (best && best->median < ENOUGH * pts[i].median)
			break;
		if (!best || pts[i].median < best->median)
			best = &pts[i];
	}
	if (!best)
		return -1;
	*ms = best->median / 1e6;
	return best->threads - 1;
}

static void report(struct bench_out *out, struct point *pts, int n)
{
	int kernel = bench_running_kernel_arm() == BENCH_ARM_KERNEL_7X ?
		     BENCH_ARM_KERNEL_7X : BENCH_ARM_KERNEL_6X;
	json_object *results = json_object_new_array(), *advice;
	double base[REGIMES] = { 0 };

	for (int i = 0; i < n; i++)
		if (pts[i].arm == kernel)
			base[pts[i].regime] = pts[i].median;
	json_object_object_add(out->root, "results", results);
	printf("%-9s %-10s %7s %9s %9s %9s %8s\n", "regime", "arm", "threads",
	       "ms/GiB", "min", "max", "speedup");
	for (int i = 0; i < n; i++) {
		struct point *pt = &pts[i];
		const char *arm = bench_arm_name(pt->arm, true);
		json_object *j = json_object_new_object();

		pt->speedup = base[pt->regime] / pt->median;
		printf("%-9s %-10s %7d %9.2f %9.2f %9.2f %8.2f\n",
		       gigantic_regimes[pt->regime], arm, pt->threads,
		       pt->median / 1e6, pt->min / 1e6, pt->max / 1e6,
		       pt->speedup);
		bench_out_csv(out, "%s,%s,%d,%.3f,%.3f,%.3f,%.4f",
			      gigantic_regimes[pt->regime], arm, pt->threads,
			      pt->median / 1e6, pt->min / 1e6, pt->max / 1e6,
			      pt->speedup);
		json_object_object_add(j, "regime", json_object_new_string(gigantic_regimes[pt->regime]));
		json_object_object_add(j, "arm", json_object_new_string(arm));
		json_object_object_add(j, "threads", json_object_new_int(pt->threads));
		json_object_object_add(j, "ms_median", json_object_new_double(pt->median / 1e6));
		json_object_object_add(j, "ms_min", json_object_new_double(pt->min / 1e6));
		json_object_object_add(j, "ms_max", json_object_new_double(pt->max / 1e6));
		json_object_object_add(j, "speedup_over_running_kernel",
				       json_object_new_double(pt->speedup));
		json_object_array_add(results, j);
	}
	advice = json_object_new_array();
	json_object_object_add(out->root, "helpers", advice);
	printf("\nthe running kernel's own clear: %s, one CPU\n",
	       bench_arm_name(kernel, true));
	for (int r = 0; r < REGIMES; r++) {
		const struct point *best = NULL;
		int best_s = -1, helpers = -1;
		double ms = 0, chosen = INFINITY, h_ms;
		json_object *a;

		for (int i = 0; i < n; i++)
			if (pts[i].regime == r && pts[i].arm < CLEARPAGE_STRATEGY_COUNT &&
			    (!best || pts[i].median < best->median))
				best = &pts[i];
		for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
			int h = helpers_for(pts, n, r, s, &h_ms);

			if (h >= 0 && h_ms < chosen) {
				chosen = h_ms;
				helpers = h;
				best_s = s;
			}
		}
		if (!best || best_s < 0)
			continue;
		ms = best->median / 1e6;
		printf("%s: best %s on %d threads, %.2f ms (%.2fx the kernel's); GiganticHelpers=%d with %s: %.2f ms (%.2fx, within %.0f%% of the best)\n",
		       gigantic_regimes[r], policy_strategy_name(best->arm),
		       best->threads, ms, best->speedup, helpers,
		       policy_strategy_name(best_s), chosen,
		       base[r] / (chosen * 1e6), (chosen / ms - 1) * 100);
		a = json_object_new_object();
		json_object_object_add(a, "regime", json_object_new_string(gigantic_regimes[r]));
		json_object_object_add(a, "strategy", json_object_new_string(policy_strategy_name(best_s)));
		json_object_object_add(a, "gigantic_helpers", json_object_new_int(helpers));
		json_object_object_add(a, "ms", json_object_new_double(chosen));
		json_object_object_add(a, "best_strategy", json_object_new_string(policy_strategy_name(best->arm)));
		json_object_object_add(a, "best_threads", json_object_new_int(best->threads));
		json_object_object_add(a, "best_ms", json_object_new_double(ms));
		json_object_array_add(advice, a);
	}
}

/*
 * The median of @strategy on @threads in regime @r; @threads 0: the
 * fastest thread count's. 0 when not measured.
 */
static double median_of(const struct point *pts, int n, int r, int strategy,
			int threads)
{
	double best = 0;

	for (int i = 0; i < n; i++) {
		if (pts[i].regime != r || pts[i].arm != strategy)
			continue;
		if (threads && pts[i].threads == threads)
			return pts[i].median;
		if (!threads && (!best || pts[i].median < best))
			best = pts[i].median;
	}
	return best;
}

int bench_gigantic_helpers(int node, int cpu, int strategy,
			   unsigned long runs, struct gigantic_advice *a)
{
	static struct point pts[2 * (2 + MAX_THREADS)];
	struct gigantic g = { .chunk_pages = BENCH_HUGE / BENCH_PAGE,
			      .mask = 1U << strategy,
			      .regime = { true, true, false },
			      .args = BENCH_ARGS(runs) };
	struct buffers b;
	int n;

	memset(a, 0, sizeof(*a));
	a->helpers = -1;
	g.nr_cpus = gigantic_node_cpus(node, cpu, -1, g.cpus);
	if (!g.nr_cpus || gigantic_threads(&g) || bench_bind_cpu(g.cpus[0]))
		return -1;
	n = plan(&g, pts, (int)(sizeof(pts) / sizeof(pts[0])));
	if (map_buffers(&g, node, &b))
		return -1;
	measure_points(&g, pts, n, &b, NULL, "advise: a 1 GiB page on the node's CPUs");
	unmap_buffers(&b);
	/*
	 * Each regime's count; of those, the one whose worse regime is
	 * closest to that regime's fastest (a count that helps one regime
	 * must not cost the other).
	 */
	for (int r = 0; r < 2; r++) {
		double ms, worst = 0;
		int h = helpers_for(pts, n, r, strategy, &ms);

		for (int q = 0; h >= 0 && q < 2; q++) {
			double t = median_of(pts, n, q, strategy, h + 1),
			       best = median_of(pts, n, q, strategy, 0);

			if (t / best > worst)
				worst = t / best;
		}
		if (h >= 0 && (a->helpers < 0 || worst < a->worst)) {
			a->helpers = h;
			a->worst = worst;
		}
	}
	for (int r = 0; a->helpers >= 0 && r < 2; r++) {
		a->alone_ms[r] = median_of(pts, n, r, strategy, 1) / 1e6;
		a->helped_ms[r] = median_of(pts, n, r, strategy,
					    a->helpers + 1) / 1e6;
	}
	a->cpus = g.nr_cpus;
	return a->helpers >= 0 ? 0 : -1;
}

static const char plot[] =
	"set title 'clearpage-bench gigantic: a 1 GiB clear over the running kernel'\n"
	"set ylabel 'speed-up over the running kernel (median)'\n"
	"set grid ytics\nset style fill solid 0.6\nset boxwidth 0.8\nset key off\n"
	"set xtics rotate by 90 right font ',7'\nset bmargin 10\n"
	"plot csv every ::1 using 0:7:xtic(stringcolumn(1).' '.stringcolumn(2).' '."
	"stringcolumn(3)) with boxes, 1 with lines lc 'black'\n";

int bench_gigantic(int argc, char **argv)
{
	static struct point pts[3 * (2 + CLEARPAGE_STRATEGY_COUNT * MAX_THREADS)];
	struct bench_load *load = NULL;
	struct gigantic g;
	struct bench_out out;
	struct buffers b;
	int n, err = 1, node;

	err = gigantic_parse(argc, argv, &g);
	if (err != BENCH_GO_ON)
		return err;
	err = 1;
	node = g.args.node != ~0UL ? (int)g.args.node : 0;
	if (bench_bind_cpu(g.cpus[0]))
		return 1;
	n = plan(&g, pts, (int)(sizeof(pts) / sizeof(pts[0])));
	if (map_buffers(&g, node, &b))
		return 1;
	if (g.regime[2]) {
		load = bench_load_start((int)g.args.load_cpu, GIGANTIC);
		if (!load)
			goto out;
		bench_load_pause(load, true);
	}
	if (bench_out_open(&out, g.args.out, "gigantic", argc, argv,
			   "regime,arm,threads,ms_median,ms_min,ms_max,speedup"))
		goto out;
	measure_points(&g, pts, n, &b, load, "gigantic");
	if (load) {
		double rate = bench_load_stop(load);

		load = NULL;
		printf("the loaded regime: a load on CPU %lu wrote and read %.1f GB/s while it ran\n",
		       g.args.load_cpu, rate / 1e9);
		json_object_object_add(out.root, "load_bytes_per_second",
				       json_object_new_double(rate));
	}
	printf("a 1 GiB folio, %lu KiB ranges, threads on CPUs", g.chunk_pages * 4);
	for (int i = 0; i < g.nr_cpus; i++)
		printf("%s%d", i ? "," : " ", g.cpus[i]);
	printf(" (the first faults)\n");
	report(&out, pts, n);
	fflush(stdout);
	bench_out_plot(&out, plot);
	err = bench_out_close(&out) ? 1 : 0;
out:
	bench_load_stop(load);
	unmap_buffers(&b);
	return err;
}
