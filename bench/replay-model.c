// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench replay: the module and the workload on this CPU. The
 * calibration, the pools, the clears of an interval as the backend replayed
 * clears them (samples, reference and trial frames, the probes), and an arm
 * over the whole workload, the adaptive one stepped by the policy.
 *
 * A workload is a list of phases, each some intervals long; an interval
 * clears --pages pages taken from the hot pool (a few pages recycled, so
 * their lines stay cached) or the cold pool (far larger than the
 * last-level cache, visited in a shuffled order), and touches each page
 * after clearing it as an application would (none, the first line of the
 * faulting page, that page, or the whole folio). With --backend 4k (the
 * default) the pages are single 4 KiB pages cleared as the 4k backend
 * clears them, and a fault touches at least one line; with --backend huge
 * they are 2 MiB folios cleared as the huge backend clears them (ranges,
 * faulting subpage 0 last), with two kernel arms: the 6.x kernel's 4 KiB
 * walk and the 7.x kernel's extents (--kernel says which one the module's
 * own kernel clears replay). Each interval the policy gets what the
 * daemon gets from the module: timed clears of the current strategy (one
 * page in --sample-every), their mean cost, and timed reference clears
 * with the kernel's own way (its routine; its walk or extents for folios)
 * while any other strategy runs: the live baseline. Reference clears go
 * to fixed frames (frame number % --reference-every == 0), which
 * therefore stay in the state the hot strategy would keep them in: a
 * non-temporal clear would have evicted a recycled page, and a reference
 * clear on it would measure the eviction rather than the workload. The
 * policy then chooses the strategy for the next interval.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "replay.h"

#define CAL_PASSES 15
#define CAL_ROUNDS 5

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

/*
 * Before an arm, untimed: @strategy clears (and the application touches)
 * twice the last-level cache's worth of cold units, the last of the
 * shuffled order, so that the arm starts from its own state and not from
 * the one the arm before it left: the dirty lines of a temporal clear, or
 * the stores of a non-temporal one still in flight. Without it, the arm
 * after clzero paid 3-4% more than the same strategy after rep_stosq (AMD
 * EPYC, 4 KiB mix75 sustained, 9 repeats), and the adaptive arm always
 * came after clzero.
 */
static void settle(struct replay *r, int strategy)
{
	uint64_t units = r->cold_pages / r->unit_pages;
	uint64_t unit_bytes = r->unit_pages * BENCH_PAGE;
	uint64_t llc = bench_cpu.llc_bytes ? bench_cpu.llc_bytes : 32ULL << 20;
	uint64_t n = 2 * llc / unit_bytes;

	if (n < 1)
		n = 1;
	if (n > units)
		n = units;
	for (uint64_t i = units - n; i < units; i++) {
		char *unit = r->cold_pool + r->order[i] * unit_bytes;

		clear_unit(r, strategy, unit);
		touch(r, unit);
	}
	_mm_sfence();
}

/* What one interval cleared, as the module counts it. */
struct interval_count {
	uint64_t main_ticks, main_n;
	uint64_t ref_ticks, ref_n;
	uint64_t trial_ticks[CLEARPAGE_STRATEGY_COUNT];
	uint64_t trial_n[CLEARPAGE_STRATEGY_COUNT];
	/*
	 * Not the module's: the application's read after a sampled clear of
	 * the strategy's own, and after each measured one (index 0: the
	 * reference), in ticks and units: what a measured clear costs the
	 * application beyond its own time (the line a non-temporal trial
	 * evicted).
	 */
	uint64_t own_touch_ticks, own_touch_n;
	uint64_t touch_ticks[CLEARPAGE_STRATEGY_COUNT];
	uint64_t touch_n[CLEARPAGE_STRATEGY_COUNT];
};

/*
 * The way the module clears @frame of a backend running @strategy with
 * @trials: the module's frame rule (clearpage_frame_way()), with the
 * replay's --reference-every and --trial-every.
 */
static int measured_way(const struct replay *r, int strategy,
			unsigned int trials, uint64_t frame)
{
	return clearpage_frame_way(frame, strategy, trials, r->reference_every,
				   r->trial_every, !r->huge);
}

/*
 * Whether @frame is a reference frame or a trial frame of some candidate
 * in any arm (clearpage_frame_way()).
 */
static bool measurable_frame(const struct replay *r, uint64_t frame)
{
	unsigned long candidate;

	if (r->reference_every && !clearpage_frame_mod(frame, r->reference_every))
		return true;
	if (!r->trial_every)
		return false;
	candidate = clearpage_frame_mod(frame, r->trial_every);
	return candidate != CLEARPAGE_STRATEGY_KERNEL &&
	       candidate < CLEARPAGE_STRATEGY_COUNT;
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
		bool sampled = false;
		uint64_t r0;

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
			sampled = true;
		} else {
			clear_unit(r, s, page);
		}
		if (way >= 0 || sampled || measurable_frame(r, frame)) {
			/*
			 * Timed after the sampled and measured clears, and on
			 * every frame that could be a reference or a trial in
			 * any arm, so that every arm pays the timer alike.
			 */
			r0 = bench_ticks();
			touch(r, page);
			r0 = bench_ticks() - r0;
			if (way >= 0) {
				c->touch_ticks[way] += r0;
				c->touch_n[way]++;
			} else if (sampled) {
				c->own_touch_ticks += r0;
				c->own_touch_n++;
			}
		} else {
			touch(r, page);
		}
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
	now->probe_recycled = r->probes.probe_recycled;
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
	/*
	 * ... and beyond what the application's read after them costs (an
	 * interval without a sampled clear: the last interval's).
	 */
	double own_touch;

	if (c->own_touch_n)
		r->own_touch_ns = c->own_touch_ticks * ns_per_tick / c->own_touch_n;
	own_touch = r->own_touch_ns;

	r->knowing_ns += c->ref_ticks * ns_per_tick - own * c->ref_n;
	/* Control frames (@strategy's own) are its clears, not knowing. */
	for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (s != strategy)
			r->knowing_ns += c->trial_ticks[s] * ns_per_tick -
					 own * c->trial_n[s];
	for (int s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (s != strategy)
			r->knowing_touch_ns += c->touch_ticks[s] * ns_per_tick -
					       own_touch * c->touch_n[s];
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

/* What clearpaged has the module do: the strategy, or the probe mode. */
struct module_set {
	struct replay *r;
	int *strategy;
};

static bool module_apply(void *ctx, const struct policy_decision *d)
{
	struct module_set *set = ctx;

	*set->strategy = d->to;
	set->r->split = d->split;
	if (d->split) {
		set->r->split_hot = d->split_hot;
		set->r->split_cold = d->split_cold;
	}
	return true;
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
double replay_run_arm(struct replay *r, int arm, double *phase_ns,
		      bool record)
{
	/* The policy's state and the module's counters, as clearpaged keeps them. */
	struct policy_backend backend = { .known = true };
	struct policy_counters now = { 0 };
	const struct policy_extra extra = {
		.trials = r->trial_every != 0,
		.touch = r->probes.threshold && r->probes.touch_every,
		.can_split = r->huge && r->probes.threshold,
		.fault_line_ns = policy_fault_line_ns(r->huge ? CLEARPAGE_BACKEND_HUGE :
								CLEARPAGE_BACKEND_4K,
						      r->probe_hot_ticks,
						      r->probe_cold_ticks,
						      r->probes.threshold,
						      bench_ns_per_tick()),
	};
	double total = 0;
	/* The first interval has no trials: clearpaged sets them after it. */
	unsigned int interval = 0, trials = 0, timed;
	int strategy = arm == ADAPTIVE ? r->hot : arm, was;
	struct module_set set = { r, &strategy };
	/* The module's sample sequence counts the strategy's own clears. */
	uint64_t seq = 0;

	policy_node_init(&backend.node, strategy);
	settle(r, strategy);
	r->hot_cursor = 0;
	r->cold_cursor = 0;
	r->mix_seed = 1;
	r->split = false;
	replay_probes_reset(&r->probes);
	bench_flush(r->hot_pool, r->hot_pages * BENCH_PAGE);
	r->units = r->hot_units = 0;
	if (record) {
		r->switches = r->reverts = 0;
		r->knowing_ns = r->knowing_touch_ns = r->clear_ns = 0;
		r->own_touch_ns = 0;
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

			ns = clear_interval(r, strategy, trials,
					    r->phases[ph].hot_share, &c, &seq);
			phase_ns[ph] += ns;
			total += ns;
			if (arm != ADAPTIVE)
				continue;
			count_interval(r, strategy, &c, &now);
			timed = trials;
			was = strategy;
			trials = policy_backend_step(&r->config, r->allowed,
						     &r->calibration, &backend,
						     &now, &extra, POLICY_R_NONE,
						     module_apply, &set, &sample,
						     &d);
			if (record)
				record_interval(r, interval, ph, was, timed,
						&c, ns, &sample, &d);
		}
	}
	if (record) {
		r->probed = r->probes;
		r->recorded_units = r->units;
		r->hot_units_recorded = r->hot_units;
	}
	return total;
}

int replay_setup(struct replay *r, unsigned long cold_mb, int node)
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
	r->probes.reach_pages = clearpage_recent_reach_pages(&bench_cpu);
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
