// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench strategies, fault-like patterns: every strategy in the
 * pattern the kernel's paths really clear in, each beside the kernel's own
 * way of doing it, measured side by side (arms interleaved in every run).
 *
 *   4k-cold  single pages at random, non-adjacent addresses of a pool far
 *            larger than the last-level cache, each flushed first: what an
 *            anonymous 4 KiB fault clears.
 *   4k-hot   4 pages cleared over and over (a recycled, cached page).
 *   2m-cold  whole 2 MiB folios, flushed first, cleared as clearpage.ko's
 *            huge backend clears them (ranges of each --chunks size, the
 *            faulting subpage 0 and its neighbours last); two kernel arms:
 *            kernel-6.x, the 6.1/6.12 walk, 4 KiB at a time, converging on
 *            subpage 0, and kernel-7.x, Linux 7's extents, one rep stos
 *            each; and kernel-alloc, the page allocator's clear of a THP on
 *            7.x with init_on_alloc=1 (one rep stos over the folio, address
 *            order: the faulting subpage 0 first, not last).
 *   2m-hot   the same folio cleared again while it is still cached.
 *   1g-cold  a 1 GiB folio, flushed, in 2 MiB chunks; the 6.x kernel walks
 *            it 4 KiB at a time in address order, 7.x clears it in one
 *            rep stos.
 *
 * The -cold patterns are the burst regime: what is cleared was flushed
 * first and memory is otherwise idle, as a calibration sees it. Memory in
 * use clears differently, so each comes in two more regimes:
 *   4k-sustained, 2m-sustained  the same clears back to back through the
 *            pool (--pool, far larger than the last-level cache), nothing
 *            flushed: the caches are full of the dirty lines of earlier
 *            clears, which must be written back as new ones come in (an
 *            untimed stretch of the same arm's clears first, so that the
 *            arm before leaves no trace). The pool is mapped with huge
 *            pages, as the kernel's direct map through which it clears:
 *            with 4 KiB mappings a page nobody touched for a while costs
 *            a page walk (in a guest, a nested one) before any store,
 *            which a fault's clear does not pay;
 *   4k-loaded, 2m-loaded  the same with a memory-bandwidth load on another
 *            CPU (--load), running only while these are measured.
 *
 * After each clear the "application" touches nothing, the first line
 * (4 KiB), the faulting subpage, every line of the page, or every line of
 * the folio: time spent there counts, because a non-temporal clear moves
 * the cost of the misses to the application. Figures: ns per 4 KiB, median
 * of --runs, and the ratios to the kernel arms of the same pattern and
 * touch (/6.x and /7.x; the same arm for single pages).
 */
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "bench.h"
#include "patterns.h"

#define HOT_PAGES 4
#define SCATTERED_PAGES 2048	/* single pages per 4k-cold run */
#define FOLIOS_PER_RUN 16	/* 2 MiB folios per 2m run (32 MiB) */
#define GIGANTIC (1UL << 30)
#define MAX_CHUNKS 8

enum touch { TOUCH_NONE, TOUCH_LINE, TOUCH_FAULT, TOUCH_PAGE, TOUCH_FOLIO };
static const char *const touch_names[] = { "none", "line", "fault-page",
					   "page", "folio" };

struct point {
	const char *pattern;
	int strategy;		/* or a kernel arm (bench.h) */
	unsigned long chunk;	/* bytes per range; 0: single pages / walk */
	enum touch touch;
	double *ns;		/* per run, ns per 4 KiB */
	double median, min, max, ratio6, ratio7;
};

static volatile uint64_t sink;

static void touch_lines(const char *p, size_t bytes)
{
	sink += bench_read_lines(p, bytes);
}

/* One single page cleared with the point's arm, then touched as it says. */
static void clear_page_touch(const struct point *pt, char *page)
{
	bench_clear(pt->strategy, page);
	if (pt->touch == TOUCH_LINE)
		touch_lines(page, CLEARPAGE_LINE_SIZE);
	else if (pt->touch == TOUCH_PAGE)
		touch_lines(page, BENCH_PAGE);
}

/*
 * One folio of @pages cleared with the point's arm in @chunk ranges, its
 * subpage 0 faulting, then touched as the point says.
 */
static void clear_folio_touch(const struct point *pt, char *folio,
			      unsigned long pages, unsigned long chunk)
{
	bench_clear_folio(pt->strategy, folio, pages, 0, chunk);
	if (pt->touch == TOUCH_FAULT)
		touch_lines(folio, BENCH_PAGE);
	else if (pt->touch == TOUCH_FOLIO)
		touch_lines(folio, pages * BENCH_PAGE);
}

/* 4k-cold: @nr pages of @order, flushed, cleared and touched one by one. */
static double run_scattered(const struct point *pt, char *pool,
			    const uint32_t *order, unsigned long nr,
			    unsigned long *cursor)
{
	uint64_t t0;
	unsigned long i;

	for (i = 0; i < nr; i++)
		bench_flush(pool + (uint64_t)order[(*cursor + i) % nr] * BENCH_PAGE,
			    BENCH_PAGE);
	t0 = bench_now_ns();
	for (i = 0; i < nr; i++) {
		char *page = pool + (uint64_t)order[(*cursor)++ % nr] * BENCH_PAGE;

		clear_page_touch(pt, page);
	}
	_mm_sfence();
	return (double)(bench_now_ns() - t0) / nr;
}

/*
 * 4k-sustained and 4k-loaded: @nr pages of @order cleared and touched one
 * by one, nothing flushed, after an untimed stretch of @nr / 2.
 */
static double run_scattered_sustained(const struct point *pt, char *pool,
				      const uint32_t *order, unsigned long nr,
				      unsigned long span, unsigned long *cursor)
{
	uint64_t t0 = 0;
	unsigned long i;

	for (i = 0; i < nr + nr / 2; i++) {
		char *page = pool + (uint64_t)order[(*cursor)++ % span] * BENCH_PAGE;

		if (i == nr / 2) {
			_mm_sfence();
			t0 = bench_now_ns();
		}
		clear_page_touch(pt, page);
	}
	_mm_sfence();
	return (double)(bench_now_ns() - t0) / nr;
}

/*
 * 2m-sustained and 2m-loaded: @nr folios of a pool of @span, cleared back to
 * back from @cursor, nothing flushed, after an untimed stretch of @nr / 2.
 */
static double run_folios_sustained(const struct point *pt, char *pool,
				   unsigned long nr, unsigned long span,
				   unsigned long *cursor)
{
	unsigned long pages = BENCH_HUGE / BENCH_PAGE, i;
	unsigned long chunk = pt->chunk ? pt->chunk / BENCH_PAGE : 1;
	uint64_t t0 = 0;

	for (i = 0; i < nr + nr / 2; i++) {
		char *folio = pool + (*cursor)++ % span * BENCH_HUGE;

		if (i == nr / 2) {
			_mm_sfence();
			t0 = bench_now_ns();
		}
		clear_folio_touch(pt, folio, pages, chunk);
	}
	_mm_sfence();
	return (double)(bench_now_ns() - t0) / (nr * pages);
}

static bool pattern_is(const struct point *pt, const char *name)
{
	return !strcmp(pt->pattern, name);
}

static double run_hot(const struct point *pt, char *buf)
{
	uint64_t t0;
	int i, pass;

	for (i = 0; i < HOT_PAGES; i++)
		bench_clear(pt->strategy, buf + i * BENCH_PAGE);
	t0 = bench_now_ns();
	for (pass = 0; pass < 64; pass++)
		for (i = 0; i < HOT_PAGES; i++) {
			bench_clear(pt->strategy, buf + i * BENCH_PAGE);
			if (pt->touch == TOUCH_PAGE)
				touch_lines(buf + i * BENCH_PAGE, BENCH_PAGE);
		}
	_mm_sfence();
	return (double)(bench_now_ns() - t0) / (64 * HOT_PAGES);
}

/* Folios of @folio_bytes: @nr of them from @pool, cold or hot. */
static double run_folios(const struct point *pt, char *pool,
			 unsigned long folio_bytes, unsigned long nr, bool cold)
{
	unsigned long pages = folio_bytes / BENCH_PAGE, i;
	unsigned long chunk = pt->chunk ? pt->chunk / BENCH_PAGE : 1;
	uint64_t t0;

	if (cold)
		bench_flush(pool, nr * folio_bytes);
	else
		for (i = 0; i < nr; i++)
			bench_clear_folio(pt->strategy, pool + i * folio_bytes,
					  pages, 0, chunk);
	t0 = bench_now_ns();
	for (i = 0; i < nr; i++) {
		char *folio = pool + i * folio_bytes;

		clear_folio_touch(pt, folio, pages, chunk);
	}
	_mm_sfence();
	return (double)(bench_now_ns() - t0) / (nr * pages);
}

static int add_point(struct point *points, int *n, int max, const char *pattern,
		     int strategy, unsigned long chunk, enum touch touch,
		     unsigned long runs)
{
	if (*n == max)
		return -1;
	points[*n] = (struct point){ .pattern = pattern, .strategy = strategy,
				     .chunk = chunk, .touch = touch,
				     .ns = calloc(runs, sizeof(double)) };
	if (!points[*n].ns)
		return -1;
	(*n)++;
	return 0;
}

/*
 * The kernel arms (both series' for folios), then every strategy (at every
 * chunk size for folios).
 */
static int add_arms(struct point *points, int *n, int max, const char *pattern,
		    unsigned int mask, const uint64_t *chunks, int nr_chunks,
		    enum touch touch, unsigned long runs)
{
	int err = add_point(points, n, max, pattern, CLEARPAGE_STRATEGY_KERNEL,
			    0, touch, runs);

	if (nr_chunks && !err)
		err = add_point(points, n, max, pattern, BENCH_ARM_KERNEL_7X, 0,
				touch, runs);
	/* 2 MiB THP on 7.x with init_on_alloc=1: the allocator clears. */
	if (nr_chunks && strcmp(pattern, "1g-cold") && !err)
		err = add_point(points, n, max, pattern, BENCH_ARM_KERNEL_ALLOC, 0,
				touch, runs);

	for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT && !err; s++) {
		if (!(mask & (1U << s)))
			continue;
		if (!nr_chunks)
			err = add_point(points, n, max, pattern, s, 0, touch, runs);
		for (int c = 0; c < nr_chunks && !err; c++)
			err = add_point(points, n, max, pattern, s, chunks[c],
					touch, runs);
	}
	return err;
}

static void shuffle_even_pages(uint32_t *order, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++)
		order[i] = (uint32_t)(2 * i);
	for (unsigned long i = nr - 1; i > 0; i--) {
		unsigned long j = (unsigned long)random() % (i + 1);
		uint32_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

static const char plot[] =
	"set title 'clearpage-bench strategies: time over the kernel arm (fault-like patterns)'\n"
	"set ylabel 'ns per 4 KiB / kernel arm (median, log scale)'\n"
	"set logscale y\nset grid ytics\n"
	"set style fill solid 0.6\nset boxwidth 0.8\nset key off\n"
	"set xtics rotate by 90 right font ',7'\nset bmargin 14\n"
	"plot csv every ::1 using 0:9:xtic(stringcolumn(1).' '.stringcolumn(2).' '."
	"stringcolumn(4).' '.stringcolumn(5)) with boxes, 1 with lines lc 'black'\n";

/* The points, in output order; -1 when they do not fit in memory. */
static int plan_points(const struct patterns_options *o, struct point *points,
		       int max, int *n)
{
	int err = 0;

	for (enum touch t = TOUCH_NONE; t <= TOUCH_PAGE && !err; t++)
		if (t != TOUCH_FAULT)
			err = add_arms(points, n, max, "4k-cold", o->mask, NULL, 0,
				       t, o->runs);
	for (enum touch t = TOUCH_NONE; t <= TOUCH_PAGE && !err; t += TOUCH_PAGE)
		err = add_arms(points, n, max, "4k-hot", o->mask, NULL, 0, t,
			       o->runs);
	for (enum touch t = TOUCH_NONE; t <= TOUCH_FOLIO && !err; t++)
		if (t == TOUCH_NONE || t == TOUCH_FAULT || t == TOUCH_FOLIO)
			err = add_arms(points, n, max, "2m-cold", o->mask,
				       o->chunks, o->nr_chunks, t, o->runs);
	if (!err)
		err = add_arms(points, n, max, "2m-hot", o->mask, o->chunks,
			       o->nr_chunks, TOUCH_NONE, o->runs);
	for (int regime = 0; regime < 2 && !err; regime++) {
		const char *p4k = regime ? "4k-loaded" : "4k-sustained";
		const char *p2m = regime ? "2m-loaded" : "2m-sustained";

		if (regime ? o->load_cpu < 0 : !o->sustained)
			continue;
		for (enum touch t = TOUCH_NONE; t <= TOUCH_PAGE && !err; t++)
			if (t != TOUCH_FAULT)
				err = add_arms(points, n, max, p4k, o->mask, NULL,
					       0, t, o->runs);
		for (enum touch t = TOUCH_NONE; t <= TOUCH_FOLIO && !err; t++)
			if (t == TOUCH_NONE || t == TOUCH_FAULT || t == TOUCH_FOLIO)
				err = add_arms(points, n, max, p2m, o->mask,
					       o->chunks, o->nr_chunks, t, o->runs);
	}
	for (enum touch t = TOUCH_NONE; o->gigantic && t <= TOUCH_FAULT && !err;
	     t += TOUCH_FAULT) {
		uint64_t two_mb = BENCH_HUGE;

		err = add_arms(points, n, max, "1g-cold", o->mask, &two_mb, 1,
			       t, o->runs);
	}
	return err;
}

/* The buffers every pattern clears in, and where each pattern is in them. */
struct buffers {
	uint64_t pool_bytes;
	char *pool;			/* 4k-cold */
	uint32_t *order;		/* its even pages, shuffled */
	unsigned long pool_pages;	/* in order */
	unsigned long scattered;	/* single pages per run */
	unsigned long cursor;
	char *hot;			/* 4k-hot */
	char *folios;			/* 2m-cold, 2m-hot */
	char *giga;			/* 1g-cold; NULL: left out */
	char *big;			/* the sustained regimes' folio pool */
	unsigned long big_folios, big_cursor, sustained_cursor;
	struct bench_load *load;	/* the loaded regime's, paused */
};

static void unmap_buffers(struct buffers *b)
{
	bench_load_stop(b->load);
	free(b->order);
	bench_unmap(b->big, b->big_folios * BENCH_HUGE);
	bench_unmap(b->giga, GIGANTIC);
	bench_unmap(b->folios, FOLIOS_PER_RUN * BENCH_HUGE);
	bench_unmap(b->hot, HOT_PAGES * BENCH_PAGE);
	bench_unmap(b->pool, b->pool_bytes);
}

/* Map what @o's patterns need, start the load paused; -1 on a failure. */
static int map_buffers(const struct patterns_options *o, struct buffers *b)
{
	*b = (struct buffers){ .pool_bytes = o->pool_bytes,
			       .pool_pages = o->pool_bytes / BENCH_PAGE / 2,
			       .scattered = SCATTERED_PAGES };
	if (b->pool_pages < b->scattered)
		b->scattered = b->pool_pages;
	b->pool = bench_map(b->pool_bytes, o->node, true, false);
	b->hot = bench_map(HOT_PAGES * BENCH_PAGE, o->node, true, false);
	b->folios = bench_map(FOLIOS_PER_RUN * BENCH_HUGE, o->node, true, true);
	b->order = calloc(b->pool_pages, sizeof(*b->order));
	if (o->gigantic) {
		b->giga = bench_map(GIGANTIC, o->node, true, true);
		if (!b->giga)
			bench_error("no 1 GiB buffer: the 1g-cold pattern is left out");
	}
	if (o->sustained || o->load_cpu >= 0) {
		b->big_folios = (b->pool_bytes + BENCH_HUGE - 1) / BENCH_HUGE;
		if (b->big_folios < 2 * FOLIOS_PER_RUN)
			b->big_folios = 2 * FOLIOS_PER_RUN;
		b->big = bench_map(b->big_folios * BENCH_HUGE, o->node, true, true);
		if (!b->big)
			return -1;
	}
	if (o->load_cpu >= 0) {
		b->load = bench_load_start(o->load_cpu, 1UL << 30);
		if (!b->load)
			return -1;
		bench_load_pause(b->load, true);
	}
	if (!b->pool || !b->hot || !b->folios || !b->order)
		return -1;
	shuffle_even_pages(b->order, b->pool_pages);
	return 0;
}

/* One run of one point: ns per 4 KiB. */
static double measure_point(const struct point *pt, struct buffers *b)
{
	double ns = 0;

	if (pattern_is(pt, "4k-cold"))
		return run_scattered(pt, b->pool, b->order, b->scattered,
				     &b->cursor);
	if (pattern_is(pt, "4k-hot"))
		return run_hot(pt, b->hot);
	if (pattern_is(pt, "2m-cold"))
		return run_folios(pt, b->folios, BENCH_HUGE, FOLIOS_PER_RUN,
				  true);
	if (pattern_is(pt, "2m-hot"))
		return run_folios(pt, b->folios, BENCH_HUGE, 1, false);
	if (pattern_is(pt, "1g-cold"))
		return b->giga ? run_folios(pt, b->giga, GIGANTIC, 1, true) : 0;
	/* The sustained and the loaded regimes. */
	bench_load_pause(b->load, !strstr(pt->pattern, "loaded"));
	if (pt->pattern[0] == '4')
		ns = run_scattered_sustained(pt, b->big, b->order, b->scattered,
					     b->pool_pages,
					     &b->sustained_cursor);
	else
		ns = run_folios_sustained(pt, b->big, FOLIOS_PER_RUN,
					  b->big_folios, &b->big_cursor);
	bench_load_pause(b->load, true);
	return ns;
}

/* Each point's median, and its ratios to its pattern's kernel arms. */
static void summarize_points(struct point *points, int n, unsigned long runs)
{
	double base6 = 1, base7 = 1;	/* the kernel arms' medians */

	for (int i = 0; i < n; i++) {
		struct point *pt = &points[i];

		bench_summary(pt->ns, runs, &pt->median, &pt->min, &pt->max);
		/* add_arms() put the kernel arms first in their pattern. */
		if (pt->strategy == CLEARPAGE_STRATEGY_KERNEL)
			base6 = base7 = pt->median;
		else if (pt->strategy == BENCH_ARM_KERNEL_7X)
			base7 = pt->median;
		pt->ratio6 = pt->median / base6;
		pt->ratio7 = pt->median / base7;
	}
	for (int i = 0; i + 1 < n; i++)
		/* The kernel arm's ratio to the 7.x arm comes after it. */
		if (points[i].strategy == CLEARPAGE_STRATEGY_KERNEL &&
		    points[i].pattern[0] != '4')
			points[i].ratio7 = points[i].median / points[i + 1].median;
}

/* One point in the table, the CSV, the JSON and @o's results. */
static void report_point(struct bench_out *out, struct patterns_options *o,
			 json_object *results, const struct point *pt)
{
	const char *arm = bench_arm_name(pt->strategy, pt->pattern[0] != '4');
	char chunk[32] = "-";
	json_object *j;

	if (pt->chunk)
		bench_format_size(pt->chunk, chunk, sizeof(chunk));
	printf("%-8s %-10s %6s %-10s %10.1f %10.1f %10.1f %8.3f %8.3f\n",
	       pt->pattern, arm, chunk, touch_names[pt->touch], pt->median,
	       pt->min, pt->max, pt->ratio6, pt->ratio7);
	bench_out_csv(out, "%s,%s,%lu,%s,%s,%.1f,%.1f,%.1f,%.4f,%.4f",
		      pt->pattern, arm, pt->chunk, chunk,
		      touch_names[pt->touch], pt->median, pt->min,
		      pt->max, pt->ratio6, pt->ratio7);
	j = json_object_new_object();
	json_object_object_add(j, "pattern", json_object_new_string(pt->pattern));
	json_object_object_add(j, "arm", json_object_new_string(arm));
	json_object_object_add(j, "chunk_bytes", json_object_new_int64((int64_t)pt->chunk));
	json_object_object_add(j, "touch", json_object_new_string(touch_names[pt->touch]));
	json_object_object_add(j, "runs", json_object_new_int((int)o->runs));
	json_object_object_add(j, "ns_per_4k_median", json_object_new_double(pt->median));
	json_object_object_add(j, "ns_per_4k_min", json_object_new_double(pt->min));
	json_object_object_add(j, "ns_per_4k_max", json_object_new_double(pt->max));
	json_object_object_add(j, "ratio_to_kernel", json_object_new_double(pt->ratio6));
	json_object_object_add(j, "ratio_to_kernel_7x", json_object_new_double(pt->ratio7));
	json_object_array_add(results, j);
	if (o->results && o->nr_results < o->max_results)
		o->results[o->nr_results++] = (struct pattern_result){
			pt->pattern, pt->strategy, pt->chunk,
			touch_names[pt->touch], pt->median,
			{ pt->ratio6, pt->ratio7 },
		};
}

int bench_patterns(struct bench_out *out, struct patterns_options *o)
{
	struct point points[512];
	struct buffers b;
	json_object *results;
	int n = 0, i, err;

	o->nr_results = 0;
	if (plan_points(o, points, 512, &n)) {
		bench_error("out of memory for the measurement points");
		err = -1;
		goto out_points;
	}
	err = map_buffers(o, &b);
	if (err)
		goto out;

	/* Every run measures every point once: arms side by side. */
	for (unsigned long r = 0; r < o->runs; r++) {
		bench_progress("strategies: fault-like patterns, run %lu of %lu",
			       r + 1, o->runs);
		for (i = 0; i < n; i++)
			points[i].ns[r] = measure_point(&points[i], &b);
	}
	bench_progress_done();
	if (b.load) {
		double rate = bench_load_stop(b.load);

		b.load = NULL;
		printf("the loaded regime: a load on CPU %d wrote and read %.1f GB/s while it ran\n",
		       o->load_cpu, rate / 1e9);
		json_object_object_add(out->root, "load_bytes_per_second",
				       json_object_new_double(rate));
	}

	summarize_points(points, n, o->runs);
	results = json_object_new_array();
	json_object_object_add(out->root, "results", results);
	printf("%-8s %-10s %6s %-10s %10s %10s %10s %8s %8s\n", "pattern", "arm",
	       "chunk", "touch", "median", "min", "max", "/6.x", "/7.x");
	for (i = 0; i < n; i++)
		if (b.giga || !pattern_is(&points[i], "1g-cold"))
			report_point(out, o, results, &points[i]);
	fflush(stdout);
	bench_out_plot(out, plot);
out:
	unmap_buffers(&b);
out_points:
	for (i = 0; i < n; i++)
		free(points[i].ns);
	return err;
}
