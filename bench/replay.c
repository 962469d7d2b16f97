// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench replay: the real policy (lib/policy.c) driving real
 * clears on this CPU, for one backend. A workload is a list of phases, each
 * some intervals long; an interval clears --pages pages taken from the hot
 * pool (a few pages recycled, so their lines stay cached) or the cold pool
 * (far larger than the last-level cache, visited in a shuffled order), and
 * touches each page after clearing it as an application would (none, the
 * first line of the faulting page, that page, or the whole folio). With
 * --backend 4k (the default) the pages are single 4 KiB pages cleared as
 * the 4k backend clears them, and a fault touches at least one line; with
 * --backend huge they are 2 MiB folios cleared as the huge backend clears
 * them (ranges, faulting subpage 0 last), with two kernel arms: the 6.x
 * kernel's 4 KiB walk and the 7.x kernel's extents (--kernel says which
 * one the module's own kernel clears replay). Each interval the policy gets what the daemon gets from the
 * module: timed clears of the current strategy (one page in --sample-every),
 * their mean cost, and timed reference clears with the kernel's own way
 * (its routine; its walk or extents for folios) while any other strategy runs: the
 * live baseline. Reference clears go to fixed frames (frame
 * number % --reference-every == 0), which therefore stay in the state the
 * hot strategy would keep them in: a non-temporal clear would have evicted a
 * recycled page, and a reference clear on it would measure the eviction
 * rather than the workload. The policy then chooses the strategy for the
 * next interval.
 *
 * Arms, run in rotated order in each repeat: adaptive, every static
 * strategy, and the oracle (the best static strategy of each phase, from the
 * static arms of the same repeat). Totals are wall time of the clears and
 * touches; ratios are of medians over the repeats.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "config.h"
#include "policy.h"
#include "bench.h"
#include "replay-probes.h"

#define MAX_PHASES 64
#define ADAPTIVE (-1)
#define CAL_PASSES 15
#define CAL_ROUNDS 5

enum touch { TOUCH_NONE, TOUCH_LINE, TOUCH_PAGE, TOUCH_FOLIO };
static const char *const touch_names[] = { "none", "line", "page", "folio" };

struct phase {
	unsigned int hot_share;		/* % of its units from the hot pool */
	unsigned int intervals;
};

struct replay {
	struct phase phases[MAX_PHASES];
	int nr_phases;
	unsigned int nr_intervals;
	unsigned long pages, hot_pages, sample_every, reference_every;
	unsigned long trial_every;	/* 0: no trials, the model decides */
	unsigned long measure_pages;	/* of a measured folio (huge) */
	bool huge;			/* --backend huge */
	/*
	 * --regime burst: every cold unit flushed and memory left idle before
	 * its clear, only the clears and touches timed.
	 */
	bool burst;
	/*
	 * huge: the module's "kernel" (its kernel strategy, reference clears
	 * and calibration row), the clear of the series --kernel names
	 * (default: the running one): BENCH_ARM_KERNEL_6X or _7X.
	 */
	int kernel_arm;
	unsigned long unit_pages;	/* 1, or 512 for a 2 MiB folio */
	enum touch touch;
	char *hot_pool, *cold_pool;
	uint64_t cold_pages;
	uint32_t *order;		/* shuffled cold units */
	uint64_t hot_cursor, cold_cursor;
	struct policy_config config;
	struct policy_calibration calibration;
	unsigned int allowed;
	int hot, cold;
	/* The module's temperature sample and touch probe. */
	struct replay_probes probes;
	/* The adaptive arm's module in probe mode (per folio), and its pair. */
	bool split;
	int split_hot, split_cold;
	double probe_hot_ticks, probe_cold_ticks;
	/* Which units of a mixP phase are hot: the same in every arm. */
	unsigned int mix_seed;
	volatile uint64_t sink;
	/* Adaptive arm of the last repeat, one entry per interval. */
	struct timeline {
		int phase;
		int strategy;
		bool split;		/* per folio (the pair: r's) */
		double cold_fraction;
		double touch_share;
		double ns_per_page;
		unsigned int trials;
		double gain;
		enum policy_action action;
		const char *reason;
	} *timeline;
	unsigned int switches, reverts;
	/*
	 * The cost of knowing, last repeat of the adaptive arm: what the
	 * reference and trial clears took beyond the current strategy's cost
	 * for the same pages, and the time of all clears.
	 */
	double knowing_ns, clear_ns;
	/* Last repeat of the adaptive arm: measured clears per way. */
	double measured_ns[CLEARPAGE_STRATEGY_COUNT];
	uint64_t measured_pages[CLEARPAGE_STRATEGY_COUNT];
	/* ... and its probes: their counts and truth, and their time. */
	struct replay_probes probed;
	uint64_t recorded_units, hot_units_recorded;
	/* The units of the arm running now. */
	uint64_t hot_units, units;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: clearpage-bench replay [--backend 4k|huge] [--workload mixed|hot|cold]\n"
		"                              [--phases LIST] [--pages N]\n"
		"                              [--touch none|line|page|folio]\n"
		"                              [--hot-pages N] [--cold-mb M] [--repeats R]\n"
		"                              [--sample-every N] [--reference-every N]\n"
		"                              [--kernel 6.x|7.x] [--trial-every N]\n"
		"                              [--probe-every N] [--touch-every N] [--touch-delay N]\n"
		"                              [--regime burst|sustained] [--load CPU]\n"
		"                              [--measure-kb K]\n"
		"                              [--config FILE] [--cpu C] [--node N] [--out DIR]\n"
		"  --backend         4k: single pages, as 4 KiB faults clear them (default);\n"
		"                    huge: 2 MiB folios, as the huge backend clears them\n"
		"  --workload        mixed: hot:30,cold:30,hot:30,cold:30 (default);\n"
		"                    hot: hot:120; cold: cold:120\n"
		"  --phases          the phases instead, e.g. hot:10,cold:50; mixP:N: N\n"
		"                    intervals whose units are hot at random, P%% of\n"
		"                    them (e.g. mix50:120)\n"
		"  --pages           pages cleared per interval (default 4096; huge: 65536)\n"
		"  --touch           what the application reads after each clear: the\n"
		"                    faulting page's first line, that page, or the whole\n"
		"                    folio (default line; huge: page)\n"
		"  --hot-pages       hot pool size in pages (default 64: 256 KiB; huge:\n"
		"                    1024, two folios)\n"
		"  --cold-mb         cold pool size (default 4 x LLC, at least 1024)\n"
		"  --repeats         repeats of every arm, medians reported (default 3)\n"
		"  --sample-every    time one clear in N, as the module does with its\n"
		"                    default sample_shift=6 (default 64)\n"
		"  --reference-every frames (one in N) cleared the kernel's own way while\n"
		"                    any other strategy runs, the live baseline; 0: none,\n"
		"                    the policy probes (default 32)\n"
		"  --trial-every     frames (one in N per candidate) cleared with each\n"
		"                    candidate the policy names, as the module's trial\n"
		"                    frames (trial_shift=6: 64, the default); 0: no\n"
		"                    trials, the policy decides from the calibration\n"
		"  --probe-every     the temperature sample: one unit probed before its clear\n"
		"                    per N pages, counted hot or cold (the module's\n"
		"                    probe_shift=8: 256, the default; 0: none)\n"
		"  --touch-every     the touch probe: one non-temporal clear in N (every\n"
		"                    trial one) held, one of its lines loaded\n"
		"                    --touch-delay units later (the module's touch_shift=4:\n"
		"                    16, the default; 0: none)\n"
		"  --touch-delay     units cleared before a held unit's line is loaded\n"
		"                    (default 16)\n"
		"  --measure-kb      huge: of a reference or trial folio, this many KiB are\n"
		"                    cleared that way and timed, the rest as the strategy\n"
		"                    (the module's huge_measure_kb; default 256; 2048: all)\n"
		"  --regime          burst: every cold unit flushed and memory left idle\n"
		"                    before its clear, only clears and touches timed;\n"
		"                    sustained (default): the cold pool back to back\n"
		"  --load            the loaded regime: a memory-bandwidth load on this\n"
		"                    CPU throughout (default none: the cold pool is\n"
		"                    cleared back to back, the sustained regime)\n"
		"  --kernel          huge: the kernel series replayed, whose clear the\n"
		"                    module's kernel strategy and reference clears run:\n"
		"                    6.x (the 4 KiB walk) or 7.x (extents); default: the\n"
		"                    running kernel's. Both are static arms either way\n"
		"  --config          take [Policy] from this clearpaged.conf file\n"
		"  --out             directory for replay.{json,csv,svg} and\n"
		"                    replay-timeline.csv (default bench-results)\n");
}

/* "hot", "cold" or "mixP". */
static const char *phase_name(const struct phase *p, char *buf, size_t size)
{
	if (p->hot_share == 100)
		return "hot";
	if (!p->hot_share)
		return "cold";
	snprintf(buf, size, "mix%u", p->hot_share);
	return buf;
}

static int parse_phases(struct replay *r, const char *text)
{
	char *copy = strdup(text), *tok, *save;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	r->nr_phases = 0;
	r->nr_intervals = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		struct phase *p = &r->phases[r->nr_phases];
		char kind[8];
		unsigned int n;
		int used = 0;

		unsigned int share = 0;

		if (r->nr_phases == MAX_PHASES ||
		    sscanf(tok, "%7[a-z0-9]:%u%n", kind, &n, &used) != 2 ||
		    tok[used] || !n || n > 100000 ||
		    (strcmp(kind, "hot") && strcmp(kind, "cold") &&
		     (sscanf(kind, "mix%u%n", &share, &used) != 1 ||
		      kind[used] || share > 100)))
			err = -EINVAL;
		else {
			p->hot_share = !strcmp(kind, "hot") ? 100 :
				       !strcmp(kind, "cold") ? 0 : share;
			p->intervals = n;
			r->nr_intervals += n;
			r->nr_phases++;
		}
	}
	free(copy);
	if (err || !r->nr_phases) {
		bench_error("--phases: '%s' is not a list of hot:N, cold:N and mixP:N, P%% of 0..100 (at most %d phases)",
			    text, MAX_PHASES);
		return -EINVAL;
	}
	return 0;
}

/*
 * The module's calibration method (kmod/calibration.c) in user space, for
 * the backend replayed. 4k: hot, 4 pages cleared over and over; cold,
 * single pages at non-adjacent, shuffled addresses of a flushed 2 MiB pool.
 * huge: the pool cleared as the huge backend clears a folio, hot right
 * after the last clear, cold after a flush. The median of CAL_PASSES
 * passes. Cold costs of the strategies that read for ownership (rep stos,
 * movq) swing with the memory system's load, so the replay takes the median
 * of CAL_ROUNDS such calibrations, strategies interleaved.
 */
#define CAL_SCATTERED 32

static void clear_unit(const struct replay *r, int s, char *p);

static double calibrate_one(const struct replay *r, int s, char *buf,
			    bool cold)
{
	static const unsigned int hot_pages[] = { 0, 1, 2, 3 };
	static unsigned int scattered[CAL_SCATTERED];
	static bool shuffled;
	const unsigned int *pages = cold ? scattered : hot_pages;
	unsigned int n = cold ? CAL_SCATTERED : 4;
	double passes[CAL_PASSES], median, lo, hi;

	if (!shuffled) {	/* even pages of the pool, shuffled once */
		shuffled = true;
		for (unsigned int i = 0; i < CAL_SCATTERED; i++) {
			unsigned int j = (unsigned int)random() % (i + 1);

			scattered[i] = scattered[j];
			scattered[j] = 2 * i;
		}
	}
	if (r->huge) {
		pages = hot_pages;
		n = 1;
	}
	if (!cold)
		for (unsigned int p = 0; p < n; p++)
			clear_unit(r, s, buf + pages[p] * BENCH_PAGE);
	for (int i = 0; i < CAL_PASSES; i++) {
		uint64_t t0;

		if (cold)
			bench_flush(buf, BENCH_HUGE);
		t0 = bench_now_ns();
		for (unsigned int p = 0; p < n; p++)
			clear_unit(r, s, buf + pages[p] * BENCH_PAGE);
		_mm_sfence();
		passes[i] = (double)(bench_now_ns() - t0) / (n * r->unit_pages);
	}
	bench_summary(passes, CAL_PASSES, &median, &lo, &hi);
	return median;
}

static void calibrate(struct replay *r, char *buf)
{
	double hot[CLEARPAGE_STRATEGY_COUNT][CAL_ROUNDS];
	double cold[CLEARPAGE_STRATEGY_COUNT][CAL_ROUNDS];
	double lo, hi;
	int s;

	memset(&r->calibration, 0, sizeof(r->calibration));
	for (int round = 0; round < CAL_ROUNDS; round++)
		for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
			if (!bench_strategy_usable(s))
				continue;
			hot[s][round] = calibrate_one(r, s, buf, false);
			cold[s][round] = calibrate_one(r, s, buf, true);
		}
	for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		if (!bench_strategy_usable(s))
			continue;
		bench_summary(hot[s], CAL_ROUNDS, &r->calibration.hot_ns[s], &lo, &hi);
		bench_summary(cold[s], CAL_ROUNDS, &r->calibration.cold_ns[s], &lo, &hi);
		r->calibration.valid[s] = true;
		r->allowed |= 1U << s;
	}
	/*
	 * As the module does: kernel is calibrated as the kernel clears, its
	 * routine on 4 KiB pages and its 4 KiB-at-a-time walk on folios.
	 */
	for (int round = 0; round < CAL_ROUNDS; round++) {
		hot[0][round] = calibrate_one(r, CLEARPAGE_STRATEGY_KERNEL, buf, false);
		cold[0][round] = calibrate_one(r, CLEARPAGE_STRATEGY_KERNEL, buf, true);
	}
	bench_summary(hot[0], CAL_ROUNDS, &r->calibration.hot_ns[0], &lo, &hi);
	bench_summary(cold[0], CAL_ROUNDS, &r->calibration.cold_ns[0], &lo, &hi);
	r->calibration.valid[0] = true;
	if (!bench_cpu.has_erms && !r->huge)
		r->allowed |= 1U << CLEARPAGE_STRATEGY_KERNEL;
}

/*
 * One unit (a page, or a folio with its faulting subpage 0) as the backend;
 * on folios "kernel" is the clear of the kernel series replayed.
 */
static void clear_unit(const struct replay *r, int s, char *p)
{
	if (r->huge && s == CLEARPAGE_STRATEGY_KERNEL)
		s = r->kernel_arm;
	if (r->huge)
		bench_clear_folio(s, p, r->unit_pages, 0, r->unit_pages);
	else
		bench_clear(s, p);
}

/*
 * A measured unit (a reference or trial clear) @way, as the module clears
 * it; returns the ticks and pages of the measured part. Folios: only
 * --measure-kb of the folio is cleared that way and timed (the module's
 * huge_measure_kb), the rest with @strategy, untimed, as
 * clearpage_measured_part() splits it (the faulting subpage 0 lies in the
 * rest).
 */
static uint64_t clear_measured(const struct replay *r, int strategy, int way,
			       char *p, uint64_t *pages, unsigned long *part)
{
	unsigned long m = r->measure_pages, first, rest, i;
	uint64_t c0;

	*part = 0;
	if (!r->huge || m >= r->unit_pages) {
		c0 = bench_ticks();
		clear_unit(r, way, p);
		*pages = r->unit_pages;
		return bench_ticks() - c0;
	}
	first = clearpage_measured_part(0, r->unit_pages, &m);
	*part = first;
	if (m == r->unit_pages) {
		c0 = bench_ticks();
		clear_unit(r, way, p);
		*pages = m;
		return bench_ticks() - c0;
	}
	c0 = bench_ticks();
	if (way != CLEARPAGE_STRATEGY_KERNEL)
		bench_clear_range(way, p + first * BENCH_PAGE, m * BENCH_PAGE);
	else if (r->kernel_arm == BENCH_ARM_KERNEL_7X)
		bench_clear_range(CLEARPAGE_STRATEGY_KERNEL, p + first * BENCH_PAGE,
				  m * BENCH_PAGE);
	else
		for (i = 0; i < m; i++)
			bench_clear(CLEARPAGE_STRATEGY_KERNEL,
				    p + (first + i) * BENCH_PAGE);
	c0 = bench_ticks() - c0;
	rest = first ? 0 : m;
	bench_clear_folio(strategy == CLEARPAGE_STRATEGY_KERNEL ? r->kernel_arm :
								  strategy,
			  p + rest * BENCH_PAGE, r->unit_pages - m, 0,
			  r->unit_pages);
	*pages = m;
	return c0;
}

/* The bytes the application reads of a unit after its clear, from its start. */
static inline unsigned long touch_bytes(const struct replay *r)
{
	return r->touch == TOUCH_FOLIO ? r->unit_pages * BENCH_PAGE :
	       r->touch == TOUCH_PAGE ? BENCH_PAGE :
	       r->touch == TOUCH_LINE ? CLEARPAGE_LINE_SIZE : 0;
}

/* What the application reads of a unit after its clear. */
static inline void touch(struct replay *r, const char *unit)
{
	r->sink += bench_read_lines(unit, touch_bytes(r));
}

/*
 * The next unit of the pool, and its frame number: what decides, as the
 * module's pfn / unit does, whether it is a reference or trial frame. A
 * cold unit's is its index in the pool; hot unit i has the cold pool's
 * i-th shuffled index, so a hot pool of a few folios holds measured frames
 * as often as any few folios would, not always (units 0 and 1 are the
 * reference frame and the first candidate's trial frame).
 */
static inline char *next_page(struct replay *r, bool cold, uint64_t *frame)
{
	uint64_t unit_bytes = r->unit_pages * BENCH_PAGE;

	if (!cold) {
		uint64_t i = r->hot_cursor++ % (r->hot_pages / r->unit_pages);

		*frame = r->order[i];
		return r->hot_pool + i * unit_bytes;
	}
	*frame = r->order[r->cold_cursor++ % (r->cold_pages / r->unit_pages)];
	return r->cold_pool + *frame * unit_bytes;
}

/*
 * The burst regime: @unit flushed, then memory left idle for as long as
 * writing it back takes at 10 GB/s, before its clear.
 */
static void burst_idle(const struct replay *r, char *unit)
{
	uint64_t bytes = r->unit_pages * BENCH_PAGE;
	uint64_t until;

	bench_flush(unit, bytes);
	_mm_mfence();
	until = bench_now_ns() + bytes / 10;
	while (bench_now_ns() < until)
		_mm_pause();
}

/* What one interval cleared, as the module counts it. */
struct interval_count {
	uint64_t main_ticks, main_n;
	uint64_t ref_ticks, ref_n;
	uint64_t trial_ticks[CLEARPAGE_STRATEGY_COUNT];
	uint64_t trial_n[CLEARPAGE_STRATEGY_COUNT];
};

/*
 * The way the module clears @frame of a backend running @strategy with
 * @trials: the kernel's for a reference frame, a candidate's for a trial
 * frame (kmod/clear.c clearpage_measured_way()), -1 for any other.
 */
static int measured_way(const struct replay *r, int strategy,
			unsigned int trials, uint64_t frame)
{
	uint64_t candidate;

	if (r->reference_every && strategy != CLEARPAGE_STRATEGY_KERNEL &&
	    frame % r->reference_every == 0)
		return CLEARPAGE_STRATEGY_KERNEL;
	if (!r->trial_every || !trials)
		return -1;
	candidate = frame % r->trial_every;
	if (candidate == CLEARPAGE_STRATEGY_KERNEL ||
	    candidate >= CLEARPAGE_STRATEGY_COUNT ||
	    (int)candidate == strategy || !(trials & (1U << candidate)))
		return -1;
	return (int)candidate;
}

/*
 * One interval's pages cleared with @strategy, the module's measured frames
 * (reference frames, the @trials) cleared its way, counted in @c as the
 * module counts them; @seq numbers the strategy's own clears for sampling.
 * @hot_share: the % of units from the hot pool (0 or 100 but in a mixP
 * phase, where each unit is drawn at random). The module's probes run as
 * the module runs them, their time in the interval's. Returns the ns the
 * interval took (the burst regime: its clears alone).
 */
static double clear_interval(struct replay *r, int strategy,
			     unsigned int trials, unsigned int hot_share,
			     struct interval_count *c, uint64_t *seq)
{
	uint64_t t0 = bench_now_ns(), burst_ticks = 0, b0 = 0;

	for (unsigned long p = 0; p < r->pages / r->unit_pages; p++) {
		bool cold = hot_share == 0 ||
			    (hot_share < 100 &&
			     (unsigned int)rand_r(&r->mix_seed) % 100 >= hot_share);
		uint64_t frame;
		char *page = next_page(r, cold, &frame);
		unsigned long first = 0, m = 0;
		int way, hot, s = strategy;

		if (r->burst) {
			if (cold)
				burst_idle(r, page);
			b0 = bench_ticks();
		}
		r->units++;
		r->hot_units += !cold;
		replay_touch_before(&r->probes, page, r->unit_pages);
		/* The probe first, per folio its pick (clearpage_probe_pick()). */
		hot = replay_probe_sample(&r->probes, page, r->unit_pages, cold,
					  r->split);
		if (r->split && hot >= 0)
			s = hot ? r->split_hot : r->split_cold;
		replay_probe_cleared(&r->probes, page, r->unit_pages, s);
		way = measured_way(r, s, trials, frame);
		if (way >= 0) {
			uint64_t n, t;

			/* A reference clear (the kernel's own way) or a trial. */
			t = clear_measured(r, s, way, page, &n, &first);
			m = n;
			if (way == CLEARPAGE_STRATEGY_KERNEL) {
				c->ref_ticks += t;
				c->ref_n += n;
			} else {
				c->trial_ticks[way] += t;
				c->trial_n[way] += n;
			}
		} else if (r->huge || (*seq)++ % r->sample_every == 0) {
			/* A folio's range is always timed (it spans
			 * 2^sample_shift pages). */
			uint64_t c0 = bench_ticks();

			clear_unit(r, s, page);
			c->main_ticks += bench_ticks() - c0;
			c->main_n += r->unit_pages;
		} else {
			clear_unit(r, s, page);
		}
		touch(r, page);
		replay_touch_step(&r->probes, page, r->unit_pages, s, way, first,
				  m, touch_bytes(r));
		if (r->burst) {
			_mm_sfence();
			burst_ticks += bench_ticks() - b0;
		}
	}
	_mm_sfence();
	return r->burst ? burst_ticks * bench_ns_per_tick() :
			  (double)(bench_now_ns() - t0);
}

/* The module's counters of a backend on @strategy after interval @c. */
static void count_interval(const struct replay *r, int strategy,
			   const struct interval_count *c,
			   struct policy_counters *now)
{
	double ns_per_tick = bench_ns_per_tick();

	now->strategy = strategy;
	/* The rest of measured folios counts as the strategy's. */
	now->pages += r->pages - c->ref_n;
	now->samples += c->main_n;
	now->sample_ns += (uint64_t)(c->main_ticks * ns_per_tick);
	now->ref_pages += c->ref_n;
	now->ref_ns += (uint64_t)(c->ref_ticks * ns_per_tick);
	for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		now->pages -= c->trial_n[s];
		now->trial_pages[s] += c->trial_n[s];
		now->trial_ns[s] += (uint64_t)(c->trial_ticks[s] * ns_per_tick);
	}
	now->split = r->split;
	now->split_hot = r->split_hot;
	now->split_cold = r->split_cold;
	now->probe_hot = r->probes.probe_hot;
	now->probe_cold = r->probes.probe_cold;
	now->touch_probed = r->probes.touch_probed;
	now->touch_cached = r->probes.touch_cached;
}

/* The adaptive arm's interval @at in the report: costs and the decision. */
static void record_interval(struct replay *r, unsigned int at, int phase,
			    int strategy, unsigned int trials,
			    const struct interval_count *c, double ns,
			    const struct policy_sample *sample,
			    const struct policy_decision *d)
{
	double ns_per_tick = bench_ns_per_tick();
	/* Beyond what the strategy's own clears cost. */
	double own = c->main_n ? c->main_ticks * ns_per_tick / c->main_n : 0;

	r->knowing_ns += c->ref_ticks * ns_per_tick - own * c->ref_n;
	for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
		r->knowing_ns += c->trial_ticks[s] * ns_per_tick -
				 own * c->trial_n[s];
	r->clear_ns += ns;
	r->measured_ns[0] += c->ref_ticks * ns_per_tick;
	r->measured_pages[0] += c->ref_n;
	for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		r->measured_ns[s] += c->trial_ticks[s] * ns_per_tick;
		r->measured_pages[s] += c->trial_n[s];
	}
	r->timeline[at] = (struct timeline){
		.phase = phase, .strategy = strategy, .split = r->split,
		.cold_fraction = d->cold_fraction,
		.touch_share = d->touch_share,
		.ns_per_page = policy_mean(sample->sample_ns, sample->samples),
		.trials = trials, .gain = d->predicted_gain,
		.action = d->action, .reason = d->reason,
	};
	r->switches += d->action == POLICY_SWITCH;
	r->reverts += d->action == POLICY_REVERT;
}

/*
 * One arm over the whole workload: total ns, and ns per phase in
 * @phase_ns. @arm is a strategy, or ADAPTIVE.
 *
 * Every arm is instrumented as the module instruments every strategy
 * (timed samples, reference frames beside any strategy but kernel); the
 * adaptive arm also runs the trials its policy asks for, as clearpaged has
 * the module run them, and is stepped as clearpaged steps a backend
 * (policy_backend_step()) on the counters the module would keep.
 */
static double run_arm(struct replay *r, int arm, double *phase_ns,
		      bool record)
{
	/* The policy's state and the module's counters, as clearpaged keeps them. */
	struct policy_backend backend = { .known = true };
	struct policy_counters now = { 0 };
	const struct policy_extra extra = {
		.trials = r->trial_every != 0,
		.touch = r->probes.threshold && r->probes.touch_every,
		.can_split = r->huge && r->probes.threshold,
	};
	double total = 0;
	unsigned int interval = 0, trials = 0;
	int strategy = arm == ADAPTIVE ? r->hot : arm;
	/* The module's sample sequence counts the strategy's own clears. */
	uint64_t seq = 0;

	policy_node_init(&backend.node, strategy);
	r->hot_cursor = 0;
	r->cold_cursor = 0;
	r->mix_seed = 1;
	r->split = false;
	replay_probes_reset(&r->probes);
	bench_flush(r->hot_pool, r->hot_pages * BENCH_PAGE);
	r->units = r->hot_units = 0;
	if (record) {
		r->switches = r->reverts = 0;
		r->knowing_ns = r->clear_ns = 0;
		memset(r->measured_ns, 0, sizeof(r->measured_ns));
		memset(r->measured_pages, 0, sizeof(r->measured_pages));
	}
	for (int ph = 0; ph < r->nr_phases; ph++) {
		phase_ns[ph] = 0;
		for (unsigned int k = 0; k < r->phases[ph].intervals; k++, interval++) {
			struct interval_count c = { 0 };
			struct policy_sample sample;
			struct policy_decision d;
			double ns;

			if (arm == ADAPTIVE)
				trials = policy_trials(&r->config, r->allowed,
						       extra.touch,
						       &r->calibration, &backend.node);
			ns = clear_interval(r, strategy, trials,
					    r->phases[ph].hot_share, &c, &seq);
			phase_ns[ph] += ns;
			total += ns;
			if (arm != ADAPTIVE)
				continue;
			count_interval(r, strategy, &c, &now);
			policy_backend_step(&r->config, r->allowed, &r->calibration,
					    &backend, &now, &extra, false, &sample, &d);
			if (record)
				record_interval(r, interval, ph, strategy, trials,
						&c, ns, &sample, &d);
			if (d.action != POLICY_HOLD) {
				policy_applied(&r->config, &backend.node, &d);
				strategy = backend.node.strategy;
				/* The module's probe mode, as clearpaged sets it. */
				r->split = backend.node.split;
				r->split_hot = backend.node.split_hot;
				r->split_cold = backend.node.split_cold;
			}
		}
	}
	if (record) {
		r->probed = r->probes;
		r->recorded_units = r->units;
		r->hot_units_recorded = r->hot_units;
	}
	return total;
}

static const char *arm_name(const struct replay *r, int arm)
{
	return arm == ADAPTIVE ? "adaptive" : bench_arm_name(arm, r->huge);
}

static const char plot[] =
	"timeline = csv[1:strlen(csv) - 4] . '-timeline.csv'\n"
	"set multiplot layout 2,1 title 'clearpage-bench replay: the adaptive arm'\n"
	"set grid\nset key outside right\nset xlabel 'interval'\n"
	"set ylabel 'fraction'\nset yrange [-0.05:1.05]\n"
	"plot timeline using 1:12 with steps lw 2 title 'cold share of the phase', "
	"timeline using 1:($5 >= 0 ? $5 : 1/0) with points pt 7 ps 0.5 title 'estimated cold fraction'\n"
	"set ylabel 'strategy'\nset yrange [-0.5:6.5]\n"
	"set ytics ('kernel' 0, 'rep_stosb' 1, 'rep_stosq' 2, 'movq' 3, 'movnti' 4, 'clzero' 5, 'per folio' 6)\n"
	"plot timeline using 1:4 with steps lw 2 title 'strategy chosen'\n"
	"unset multiplot\n";

static int write_timeline(struct replay *r, struct bench_out *out)
{
	char path[600];
	FILE *f = fopen(bench_out_path(out, "-timeline.csv", path, sizeof(path)), "we");

	if (!f) {
		bench_error("cannot write %s: %s", path, strerror(errno));
		return -errno;
	}
	fprintf(f, "interval,phase,strategy,strategy_index,cold_fraction,ns_per_page,trials,gain,action,reason,touch_share,phase_cold_share\n");
	for (unsigned int i = 0; i < r->nr_intervals; i++) {
		struct timeline *t = &r->timeline[i];
		const struct phase *ph = &r->phases[t->phase];
		char trials[64] = "", phase[16], strategy[48];

		for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
			if (t->trials & (1U << s))
				snprintf(trials + strlen(trials),
					 sizeof(trials) - strlen(trials), "%s%s",
					 trials[0] ? " " : "", policy_strategy_name(s));
		if (t->split)
			snprintf(strategy, sizeof(strategy), "per-folio %s/%s",
				 policy_strategy_name(r->split_hot),
				 policy_strategy_name(r->split_cold));
		else
			snprintf(strategy, sizeof(strategy), "%s",
				 policy_strategy_name(t->strategy));
		fprintf(f, "%u,%s,%s,%d,%.3f,%.1f,%s,%.4f,%s,\"%s\",%.3f,%.2f\n", i,
			phase_name(ph, phase, sizeof(phase)), strategy,
			t->split ? CLEARPAGE_STRATEGY_COUNT : t->strategy,
			t->cold_fraction, t->ns_per_page,
			trials[0] ? trials : "none", t->gain,
			t->action == POLICY_SWITCH ? "switch" :
			t->action == POLICY_REVERT ? "revert" : "hold",
			t->reason ? t->reason : "", t->touch_share,
			(100 - ph->hot_share) / 100.0);
	}
	return fclose(f) ? -errno : 0;
}

static int setup(struct replay *r, unsigned long cold_mb, int node)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	char *cal;

	uint64_t units;

	r->cold_pages = (cold_mb << 20) / BENCH_PAGE;
	units = r->cold_pages / r->unit_pages;
	r->hot_pool = bench_map(r->hot_pages * BENCH_PAGE, node, true, r->huge);
	r->cold_pool = bench_map(r->cold_pages * BENCH_PAGE, node, true, r->huge);
	cal = bench_map(BENCH_HUGE, node, true, r->huge);
	r->order = malloc(units * sizeof(*r->order));
	r->timeline = calloc(r->nr_intervals, sizeof(*r->timeline));
	if (!r->hot_pool || !r->cold_pool || !cal || !r->order || !r->timeline)
		return -ENOMEM;
	/* A fixed shuffle (xorshift64, Fisher-Yates): faults meet pages in no
	 * order a prefetcher could follow, the same order in every arm. */
	for (uint64_t i = 0; i < units; i++)
		r->order[i] = (uint32_t)i;
	for (uint64_t i = units - 1; i > 0; i--) {
		uint64_t j;
		uint32_t t;

		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		j = seed % (i + 1);
		t = r->order[i];
		r->order[i] = r->order[j];
		r->order[j] = t;
	}
	calibrate(r, cal);
	/* The module's probe calibration: without a threshold, no probe. */
	r->probes.threshold = bench_probe_calibrate(cal, &r->probe_hot_ticks,
						    &r->probe_cold_ticks);
	r->probes.reach_pages = bench_cpu.llc_bytes / BENCH_PAGE;
	bench_unmap(cal, BENCH_HUGE);
	/*
	 * The replay reads no LLC counters: NonTemporal=auto allows movnti and
	 * clzero only where the touch probe measures.
	 */
	if (!policy_pick_strategies(&r->config,
				    policy_allowed(&r->config, r->allowed,
						   r->probes.threshold &&
						   r->probes.touch_every),
				    &r->calibration,
				    &r->hot, &r->cold)) {
		char text[512] = "";

		for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
			if (r->calibration.valid[s])
				snprintf(text + strlen(text), sizeof(text) - strlen(text),
					 " %s %.0f/%.0f", policy_strategy_name(s),
					 r->calibration.hot_ns[s], r->calibration.cold_ns[s]);
		/* A real outcome, not an error: the adaptive arm holds still. */
		bench_error("note: this CPU's calibration (ns/4K hot/cold:%s) shows no usable hot/cold pair (MinSpread %.2f, NonTemporal=%s without counters or a touch probe): the policy holds still on the hot strategy",
			    text, r->config.min_spread,
			    r->config.non_temporal == POLICY_NT_AUTO ? "auto" :
			    r->config.non_temporal == POLICY_NT_YES ? "yes" : "no");
		r->hot = bench_cpu.has_erms ? CLEARPAGE_STRATEGY_REP_STOSB :
					      CLEARPAGE_STRATEGY_KERNEL;
		r->cold = -1;
	}
	return 0;
}

static json_object *calibration_json(const struct replay *r)
{
	json_object *o = json_object_new_object();

	for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		json_object *c;

		if (!r->calibration.valid[s])
			continue;
		c = json_object_new_object();
		json_object_object_add(c, "hot_ns", json_object_new_double(r->calibration.hot_ns[s]));
		json_object_object_add(c, "cold_ns", json_object_new_double(r->calibration.cold_ns[s]));
		json_object_object_add(o, policy_strategy_name(s), c);
	}
	return o;
}

/* One replay run: the command line beside struct replay, and its results. */
struct replay_run {
	struct bench_args args;
	const char *workload, *phases;
	unsigned long repeats, cold_mb;
	bool loaded;
	double load_rate;
	int arms[BENCH_ARM_COUNT + 1], nr_arms;
	double *totals, *phase_ns, *oracle;	/* per arm and repeat (and phase) */
	double med[BENCH_ARM_COUNT + 1], oracle_med, best_med;
	int best;				/* the best static arm */
};

/* --backend, --touch, --kernel, --measure-kb, --regime, --trial-every. */
static int replay_option(int opt, const char *arg, struct replay *r,
			 bool *touch_given)
{
	unsigned long v;

	switch (opt) {
	case 'b':
		if (!strcmp(arg, "huge")) {
			r->huge = true;
			r->unit_pages = BENCH_HUGE / BENCH_PAGE;
			if (!*touch_given)
				r->touch = TOUCH_PAGE;
		} else if (strcmp(arg, "4k")) {
			bench_error("--backend: '%s' is not 4k or huge", arg);
			return 2;
		}
		return 0;
	case 't':
		for (v = 0; v < 4; v++)
			if (!strcmp(arg, touch_names[v]))
				break;
		if (v == 4) {
			bench_error("--touch: '%s' is not none, line, page or folio", arg);
			return 2;
		}
		r->touch = (enum touch)v;
		*touch_given = true;
		return 0;
	case 'k':
		if (!strcmp(arg, "6.x")) {
			r->kernel_arm = BENCH_ARM_KERNEL_6X;
		} else if (!strcmp(arg, "7.x")) {
			r->kernel_arm = BENCH_ARM_KERNEL_7X;
		} else {
			bench_error("--kernel: '%s' is not 6.x or 7.x", arg);
			return 2;
		}
		return 0;
	case 'T':
		if (bench_parse_uint(arg, "--trial-every", 1UL << 20,
				     &r->trial_every))
			return 2;
		if (r->trial_every && r->trial_every < CLEARPAGE_STRATEGY_COUNT) {
			bench_error("--trial-every: %lu leaves no frame of its own to every candidate (0, or %d and more)",
				    r->trial_every, CLEARPAGE_STRATEGY_COUNT);
			return 2;
		}
		return 0;
	case 'M':
		if (bench_parse_uint(arg, "--measure-kb", 1UL << 20, &v))
			return 2;
		if (!v || v % 4) {
			bench_error("--measure-kb: a multiple of 4 from 4 on");
			return 2;
		}
		r->measure_pages = v / 4;
		return 0;
	case 'G':
		if (!strcmp(arg, "burst")) {
			r->burst = true;
		} else if (strcmp(arg, "sustained")) {
			bench_error("--regime: '%s' is not burst or sustained (loaded: --load CPU)", arg);
			return 2;
		}
		return 0;
	}
	return BENCH_GO_ON;
}

/* What replay's options set (bench_parse()'s context). */
struct replay_parsing {
	struct replay *r;
	struct replay_run *run;
	struct daemon_config daemon_config;
	bool touch_given;
};

/* One of replay's own options (bench_parse()). */
static int replay_own_option(int opt, const char *arg, void *ctx)
{
	struct replay_parsing *p = ctx;
	struct replay *r = p->r;
	char error[512];
	int err = replay_option(opt, arg, r, &p->touch_given);

	if (err != BENCH_GO_ON)
		return err;
	switch (opt) {
	case 'w': p->run->workload = arg; return 0;
	case 'p': p->run->phases = arg; return 0;
	case 'P':
		return bench_parse_range(arg, "--pages", 1, 1UL << 24,
					 &r->pages) ? 2 : 0;
	case 'H':
		return bench_parse_range(arg, "--hot-pages", 1, 1UL << 20,
					 &r->hot_pages) ? 2 : 0;
	case 'C':
		return bench_parse_range(arg, "--cold-mb", 1, 1UL << 20,
					 &p->run->cold_mb) ? 2 : 0;
	case 'r':
		return bench_parse_range(arg, "--repeats", 1, 1000,
					 &p->run->repeats) ? 2 : 0;
	case 's':
		return bench_parse_range(arg, "--sample-every", 1, 1UL << 20,
					 &r->sample_every) ? 2 : 0;
	case 'R':
		return bench_parse_uint(arg, "--reference-every", 1UL << 20,
					&r->reference_every) ? 2 : 0;
	case 'e':
		return bench_parse_uint(arg, "--probe-every", 1UL << 20,
					&r->probes.probe_every) ? 2 : 0;
	case 'E':
		return bench_parse_uint(arg, "--touch-every", 1UL << 16,
					&r->probes.touch_every) ? 2 : 0;
	case 'D':
		return bench_parse_uint(arg, "--touch-delay", 1UL << 16,
					&r->probes.touch_delay) ? 2 : 0;
	case 'f':
		if (config_load_file(&p->daemon_config, arg, NULL, NULL,
				     error, sizeof(error))) {
			bench_error("--config: %s", error);
			return 2;
		}
		return 0;
	}
	return BENCH_GO_ON;
}

/* The phases of --workload, or --phases (a "custom" workload). */
static int workload_phases(struct replay *r, struct replay_run *run)
{
	if (run->phases)
		run->workload = "custom";
	else if (!strcmp(run->workload, "mixed"))
		run->phases = "hot:30,cold:30,hot:30,cold:30";
	else if (!strcmp(run->workload, "hot"))
		run->phases = "hot:120";
	else if (!strcmp(run->workload, "cold"))
		run->phases = "cold:120";
	if (!run->phases) {
		bench_error("--workload: '%s' is not mixed, hot or cold",
			    run->workload);
		return -1;
	}
	return parse_phases(r, run->phases) ? -1 : 0;
}

/*
 * The defaults the options left to the machine and the backend, and the
 * checks across options; BENCH_GO_ON, or the exit status.
 */
static int replay_settle(struct replay *r, struct replay_run *run)
{
	if (run->args.load_cpu != ~0UL && r->burst) {
		bench_error("--load is the loaded regime, --regime burst another: choose one");
		return 2;
	}
	if (!r->kernel_arm)
		r->kernel_arm = bench_running_kernel_arm() == BENCH_ARM_KERNEL_7X ?
				BENCH_ARM_KERNEL_7X : BENCH_ARM_KERNEL_6X;
	if (!r->pages)
		r->pages = r->huge ? 65536 : 4096;
	if (!r->hot_pages)
		r->hot_pages = r->huge ? 1024 : 64;
	if (r->touch == TOUCH_FOLIO && !r->huge) {
		bench_error("--touch folio is for --backend huge");
		return 2;
	}
	if (r->pages % r->unit_pages || r->hot_pages % r->unit_pages) {
		bench_error("--pages and --hot-pages: whole 2 MiB folios (multiples of 512) with --backend huge");
		return 2;
	}
	if (workload_phases(r, run))
		return 2;
	if (!run->cold_mb) {
		run->cold_mb = (4 * bench_llc_bytes()) >> 20;
		if (run->cold_mb < 1024)
			run->cold_mb = 1024;
	}
	/* Hot units are numbered from the cold pool's shuffle. */
	if (r->hot_pages > (run->cold_mb << 20) / BENCH_PAGE) {
		bench_error("--hot-pages: %lu pages do not fit the cold pool of %lu MiB (--cold-mb)",
			    r->hot_pages, run->cold_mb);
		return 2;
	}
	return BENCH_GO_ON;
}

/* The command line into @r and @run; BENCH_GO_ON, or the exit status. */
static int replay_parse(int argc, char **argv, struct replay *r,
			struct replay_run *run)
{
	static const struct option options[] = {
		{ "backend", required_argument, NULL, 'b' },
		{ "workload", required_argument, NULL, 'w' },
		{ "phases", required_argument, NULL, 'p' },
		{ "pages", required_argument, NULL, 'P' },
		{ "touch", required_argument, NULL, 't' },
		{ "hot-pages", required_argument, NULL, 'H' },
		{ "cold-mb", required_argument, NULL, 'C' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "sample-every", required_argument, NULL, 's' },
		{ "reference-every", required_argument, NULL, 'R' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "trial-every", required_argument, NULL, 'T' },
		{ "regime", required_argument, NULL, 'G' },
		{ "measure-kb", required_argument, NULL, 'M' },
		{ "probe-every", required_argument, NULL, 'e' },
		{ "touch-every", required_argument, NULL, 'E' },
		{ "touch-delay", required_argument, NULL, 'D' },
		{ "config", required_argument, NULL, 'f' },
		BENCH_OPTION_CPU, BENCH_OPTION_NODE, BENCH_OPTION_LOAD,
		BENCH_OPTION_OUT, BENCH_OPTION_HELP,
		{}
	};
	static struct replay_parsing p;
	int err;

	p = (struct replay_parsing){ .r = r, .run = run };
	config_defaults(&p.daemon_config);
	err = bench_parse(argc, argv, options, &run->args, usage,
			  replay_own_option, &p);
	if (err != BENCH_GO_ON)
		return err;
	r->config = p.daemon_config.policy;
	return replay_settle(r, run);
}

/*
 * The pools, the calibration, the load; then every arm once per repeat,
 * in an order that rotates, and the oracle of each repeat. 0 or the exit
 * status.
 */
static int replay_arms(struct replay *r, struct replay_run *run)
{
	unsigned long repeats = run->repeats;
	struct bench_load *load = NULL;
	int err;

	if (run->args.cpu != ~0UL && bench_bind_cpu((int)run->args.cpu))
		return 1;
	bench_progress("replay: mapping %lu MiB and calibrating", run->cold_mb);
	err = setup(r, run->cold_mb,
		    run->args.node == ~0UL ? -1 : (int)run->args.node);
	bench_progress_done();
	if (err) {
		if (err == -ENOMEM)
			bench_error("replay: out of memory for a %lu MiB cold pool (--cold-mb)",
				    run->cold_mb);
		return 1;
	}
	if (run->args.load_cpu != ~0UL) {
		load = bench_load_start((int)run->args.load_cpu,
					4 * (run->cold_mb << 20) > (1UL << 30) ?
					(1UL << 30) : 4 * (run->cold_mb << 20));
		if (!load)
			return 1;
	}
	run->arms[run->nr_arms++] = ADAPTIVE;
	/* Huge: both kernel series' own clears, the baselines. */
	if (r->huge) {
		run->arms[run->nr_arms++] = BENCH_ARM_KERNEL_6X;
		run->arms[run->nr_arms++] = BENCH_ARM_KERNEL_7X;
	}
	for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (r->allowed & (1U << s))
			run->arms[run->nr_arms++] = s;
	run->totals = calloc(run->nr_arms * repeats, sizeof(*run->totals));
	run->phase_ns = calloc((size_t)run->nr_arms * repeats * r->nr_phases,
			       sizeof(*run->phase_ns));
	run->oracle = calloc(repeats, sizeof(*run->oracle));
	if (!run->totals || !run->phase_ns || !run->oracle) {
		bench_load_stop(load);
		return 1;
	}
	for (unsigned long rep = 0; rep < repeats; rep++) {
		for (int k = 0; k < run->nr_arms; k++) {
			int a = (int)((k + rep) % run->nr_arms);	/* rotate the order */
			int arm = run->arms[a];

			bench_progress("replay: repeat %lu/%lu, %s", rep + 1, repeats,
				       arm_name(r, arm));
			run->totals[a * repeats + rep] =
				run_arm(r, arm, &run->phase_ns[((size_t)a * repeats + rep) * r->nr_phases],
					arm == ADAPTIVE && rep == repeats - 1);
		}
		/* The oracle: per phase, the best static arm of this repeat. */
		for (int ph = 0; ph < r->nr_phases; ph++) {
			double phase_best = 0;

			for (int a = 1; a < run->nr_arms; a++) {
				double x = run->phase_ns[((size_t)a * repeats + rep) * r->nr_phases + ph];

				if (a == 1 || x < phase_best)
					phase_best = x;
			}
			run->oracle[rep] += phase_best;
		}
	}
	bench_progress_done();
	run->load_rate = bench_load_stop(load);
	run->loaded = load != NULL;
	return 0;
}

/* Every run in the CSV; the medians, the oracle's and the best static arm. */
static void replay_medians(const struct replay *r, struct replay_run *run,
			   struct bench_out *out)
{
	unsigned long repeats = run->repeats;
	double copy[1000], lo, hi;

	run->best = -1;
	for (int a = 0; a < run->nr_arms; a++) {
		for (unsigned long rep = 0; rep < repeats; rep++) {
			copy[rep] = run->totals[a * repeats + rep];
			bench_out_csv(out, "%s,%lu,%.3f", arm_name(r, run->arms[a]),
				      rep, run->totals[a * repeats + rep] / 1e6);
		}
		bench_summary(copy, repeats, &run->med[a], &lo, &hi);
		if (a && (run->best < 0 || run->med[a] < run->best_med)) {
			run->best = a;
			run->best_med = run->med[a];
		}
	}
	for (unsigned long rep = 0; rep < repeats; rep++)
		bench_out_csv(out, "oracle,%lu,%.3f", rep, run->oracle[rep] / 1e6);
	memcpy(copy, run->oracle, repeats * sizeof(*run->oracle));
	bench_summary(copy, repeats, &run->oracle_med, &lo, &hi);
}

static double ratio(double part, double whole)
{
	return whole > 0 ? part / whole : 0;
}

/* The adaptive arm's probes (last repeat): what they judged, and their cost. */
static void replay_print_probes(const struct replay *r)
{
	const struct replay_probes *p = &r->probed;
	uint64_t judged = p->probe_hot + p->probe_cold;

	if (!r->probes.threshold) {
		printf("probes: none (the probe calibration cannot tell a cached line from memory here: %.0f vs %.0f ticks)\n",
		       r->probe_hot_ticks, r->probe_cold_ticks);
		return;
	}
	printf("temperature sample (one unit per %lu pages, threshold %lu ticks): %llu units judged, %.1f%% right; %.1f%% judged hot, %.1f%% were; cost %.2f%% of the clears\n",
	       r->probes.probe_every, r->probes.threshold,
	       (unsigned long long)judged, 100 * ratio(p->probe_right, judged),
	       100 * ratio(p->probe_hot, judged),
	       100 * ratio(r->hot_units_recorded, r->recorded_units),
	       100 * ratio(p->probe_ticks * bench_ns_per_tick(), r->clear_ns));
	printf("touch probe (one non-temporal clear in %lu, loaded %lu units later): %llu lines, %.1f%% cached; the application had read %.1f%%\n",
	       r->probes.touch_every, r->probes.touch_delay,
	       (unsigned long long)p->touch_probed,
	       100 * ratio(p->touch_cached, p->touch_probed),
	       100 * ratio(p->touch_truth, p->touch_probed));
}

/* The report on standard output. */
static void replay_print(const struct replay *r, const struct replay_run *run)
{
	double adaptive_med = run->med[0];

	printf("replay: %s backend, %s workload (%s), %lu pages per interval, touch %s, %lu repeats\n",
	       r->huge ? "huge" : "4k", run->workload, run->phases, r->pages,
	       touch_names[r->touch], run->repeats);
	printf("calibration (ns/4K hot/cold):");
	for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (r->calibration.valid[s])
			printf(" %s %.0f/%.0f", policy_strategy_name(s),
			       r->calibration.hot_ns[s], r->calibration.cold_ns[s]);
	printf("\npolicy: hot %s, cold %s; reference clears 1 in %lu%s\n",
	       policy_strategy_name(r->hot),
	       r->cold >= 0 ? policy_strategy_name(r->cold) : "none (holds still)",
	       r->reference_every, r->reference_every ? "" : " (off: probing)");
	printf("regime: %s; trials 1 in %lu per candidate%s; cost of knowing (reference and trial clears beyond the strategy's own cost, adaptive arm): %.1f%% of its time\n",
	       run->loaded ? "loaded" : r->burst ? "burst" : "sustained",
	       r->trial_every, r->trial_every ? "" : " (off: the calibration decides)",
	       r->clear_ns > 0 ? 100 * r->knowing_ns / r->clear_ns : 0);
	if (run->loaded)
		printf("load on CPU %lu: %.1f GB/s written and read\n",
		       run->args.load_cpu, run->load_rate / 1e9);
	replay_print_probes(r);
	printf("%-10s %14s %10s\n", "arm", "total ms", "/ oracle");
	printf("%-10s %14.2f %10.3f\n", "oracle", run->oracle_med / 1e6, 1.0);
	for (int a = 0; a < run->nr_arms; a++)
		printf("%-10s %14.2f %10.3f\n", arm_name(r, run->arms[a]),
		       run->med[a] / 1e6, run->med[a] / run->oracle_med);
	printf("adaptive / oracle = %.3f; adaptive / best static (%s) = %.3f (%+.1f%%); %u switches, %u reverts\n",
	       adaptive_med / run->oracle_med, arm_name(r, run->arms[run->best]),
	       adaptive_med / run->best_med,
	       (adaptive_med / run->best_med - 1) * 100, r->switches, r->reverts);
	if (r->huge)
		printf("adaptive / kernel-6.x walk = %.3f; adaptive / kernel-7.x extents = %.3f (replayed as the module on %s)\n",
		       adaptive_med / run->med[1], adaptive_med / run->med[2],
		       arm_name(r, r->kernel_arm));
}

/* The results object of the JSON. */
static json_object *replay_json(const struct replay *r,
				const struct replay_run *run)
{
	json_object *results = json_object_new_object(), *o;
	unsigned long repeats = run->repeats;
	double adaptive_med = run->med[0];

	json_object_object_add(results, "backend", json_object_new_string(r->huge ? "huge" : "4k"));
	json_object_object_add(results, "workload", json_object_new_string(run->workload));
	json_object_object_add(results, "phases", json_object_new_string(run->phases));
	json_object_object_add(results, "pages_per_interval", json_object_new_int64((int64_t)r->pages));
	json_object_object_add(results, "touch", json_object_new_string(touch_names[r->touch]));
	json_object_object_add(results, "hot_pool_pages", json_object_new_int64((int64_t)r->hot_pages));
	json_object_object_add(results, "cold_pool_mb", json_object_new_int64((int64_t)run->cold_mb));
	json_object_object_add(results, "sample_every", json_object_new_int64((int64_t)r->sample_every));
	json_object_object_add(results, "reference_every", json_object_new_int64((int64_t)r->reference_every));
	json_object_object_add(results, "repeats", json_object_new_int64((int64_t)repeats));
	json_object_object_add(results, "trial_every", json_object_new_int64((int64_t)r->trial_every));
	json_object_object_add(results, "regime", json_object_new_string(run->loaded ? "loaded" : r->burst ? "burst" : "sustained"));
	json_object_object_add(results, "load_bytes_per_second", json_object_new_double(run->load_rate));
	json_object_object_add(results, "measure_kb", json_object_new_int64((int64_t)r->measure_pages * 4));
	o = json_object_new_object();
	for (int s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (r->measured_pages[s])
			json_object_object_add(o, s ? policy_strategy_name(s) : "kernel",
					       json_object_new_double(r->measured_ns[s] /
								      r->measured_pages[s]));
	json_object_object_add(results, "measured_ns_per_page", o);
	json_object_object_add(results, "cost_of_knowing",
			       json_object_new_double(r->clear_ns > 0 ? r->knowing_ns / r->clear_ns : 0));
	json_object_object_add(results, "calibration", calibration_json(r));
	json_object_object_add(results, "hot_strategy", json_object_new_string(policy_strategy_name(r->hot)));
	json_object_object_add(results, "cold_strategy",
			       r->cold >= 0 ? json_object_new_string(policy_strategy_name(r->cold)) : NULL);
	json_object_object_add(results, "non_temporal",
			       json_object_new_string(r->config.non_temporal == POLICY_NT_AUTO ? "auto" :
						      r->config.non_temporal == POLICY_NT_YES ? "yes" : "no"));
	o = json_object_new_object();
	json_object_object_add(o, "oracle", json_object_new_double(run->oracle_med / 1e6));
	for (int a = 0; a < run->nr_arms; a++)
		json_object_object_add(o, arm_name(r, run->arms[a]),
				       json_object_new_double(run->med[a] / 1e6));
	json_object_object_add(results, "median_total_ms", o);
	/* Per phase, the last repeat: where the time went. */
	o = json_object_new_object();
	for (int a = 0; a < run->nr_arms; a++) {
		json_object *list = json_object_new_array();

		for (int ph = 0; ph < r->nr_phases; ph++)
			json_object_array_add(list, json_object_new_double(
				run->phase_ns[((size_t)a * repeats + repeats - 1) * r->nr_phases + ph] / 1e6));
		json_object_object_add(o, arm_name(r, run->arms[a]), list);
	}
	json_object_object_add(results, "last_repeat_phase_ms", o);
	json_object_object_add(results, "best_static", json_object_new_string(arm_name(r, run->arms[run->best])));
	json_object_object_add(results, "adaptive_over_oracle", json_object_new_double(adaptive_med / run->oracle_med));
	json_object_object_add(results, "adaptive_over_best_static", json_object_new_double(adaptive_med / run->best_med));
	if (r->huge) {
		json_object_object_add(results, "kernel_replayed",
				       json_object_new_string(arm_name(r, r->kernel_arm)));
		json_object_object_add(results, "adaptive_over_kernel",
				       json_object_new_double(adaptive_med / run->med[1]));
		json_object_object_add(results, "adaptive_over_kernel_7x",
				       json_object_new_double(adaptive_med / run->med[2]));
	}
	o = json_object_new_object();
	json_object_object_add(o, "threshold_ticks", json_object_new_int64((int64_t)r->probes.threshold));
	json_object_object_add(o, "probe_every_pages", json_object_new_int64((int64_t)r->probes.probe_every));
	json_object_object_add(o, "judged_hot", json_object_new_int64((int64_t)r->probed.probe_hot));
	json_object_object_add(o, "judged_cold", json_object_new_int64((int64_t)r->probed.probe_cold));
	json_object_object_add(o, "judged_right", json_object_new_int64((int64_t)r->probed.probe_right));
	json_object_object_add(o, "hot_share_true",
			       json_object_new_double(ratio(r->hot_units_recorded, r->recorded_units)));
	json_object_object_add(o, "cost_share",
			       json_object_new_double(ratio(r->probed.probe_ticks * bench_ns_per_tick(),
							    r->clear_ns)));
	json_object_object_add(o, "touch_every", json_object_new_int64((int64_t)r->probes.touch_every));
	json_object_object_add(o, "touch_lines", json_object_new_int64((int64_t)r->probed.touch_probed));
	json_object_object_add(o, "touch_cached", json_object_new_int64((int64_t)r->probed.touch_cached));
	json_object_object_add(o, "touch_read_true", json_object_new_int64((int64_t)r->probed.touch_truth));
	json_object_object_add(results, "probes", o);
	json_object_object_add(results, "switches", json_object_new_int((int)r->switches));
	json_object_object_add(results, "reverts", json_object_new_int((int)r->reverts));
	return results;
}

int bench_replay(int argc, char **argv)
{
	static struct replay r;
	static struct replay_run run;
	struct bench_out out;
	int err;

	memset(&r, 0, sizeof(r));
	r.touch = TOUCH_LINE;
	r.unit_pages = 1;
	r.sample_every = 64;
	r.reference_every = 32;
	r.trial_every = 64;
	r.measure_pages = 64;
	r.probes.probe_every = 256;
	r.probes.touch_every = 16;
	r.probes.touch_delay = 16;
	run = (struct replay_run){
		.args = BENCH_ARGS(1), .workload = "mixed", .repeats = 3,
	};
	err = replay_parse(argc, argv, &r, &run);
	if (err != BENCH_GO_ON)
		return err;
	err = replay_arms(&r, &run);
	if (!err && bench_out_open(&out, run.args.out, "replay", argc, argv,
				   "arm,repeat,total_ms"))
		err = 1;
	if (!err) {
		replay_medians(&r, &run, &out);
		replay_print(&r, &run);
		json_object_object_add(out.root, "results", replay_json(&r, &run));
		err = write_timeline(&r, &out);
		if (!err)
			bench_out_plot(&out, plot);
		if (bench_out_close(&out))
			err = -EIO;
	}
	bench_unmap(r.hot_pool, r.hot_pages * BENCH_PAGE);
	bench_unmap(r.cold_pool, r.cold_pages * BENCH_PAGE);
	free(r.order);
	free(r.timeline);
	free(run.totals);
	free(run.phase_ns);
	free(run.oracle);
	return err ? 1 : 0;
}
