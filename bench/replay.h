/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clearpage-bench replay, shared by its files: replay.c runs the arms,
 * replay-options.c reads the command line, replay-model.c is the module
 * and the workload on this CPU (calibration, clears, probes, the policy's
 * intervals), replay-report.c prints and writes the results.
 */
#ifndef CLEARPAGE_BENCH_REPLAY_H
#define CLEARPAGE_BENCH_REPLAY_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "policy.h"
#include "bench.h"
#include "replay-probes.h"

#define MAX_PHASES 64
#define ADAPTIVE (-1)

enum touch { TOUCH_NONE, TOUCH_LINE, TOUCH_PAGE, TOUCH_FOLIO };
extern const char *const replay_touch_names[4];

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
	 * for the same pages, what the application's read after them took
	 * beyond its read after the strategy's own, and the time of all
	 * clears.
	 */
	double knowing_ns, knowing_touch_ns, clear_ns;
	double own_touch_ns;		/* the read after a sampled clear, last */
	/* Last repeat of the adaptive arm: measured clears per way. */
	double measured_ns[CLEARPAGE_STRATEGY_COUNT];
	uint64_t measured_pages[CLEARPAGE_STRATEGY_COUNT];
	/* ... and its probes: their counts and truth, and their time. */
	struct replay_probes probed;
	uint64_t recorded_units, hot_units_recorded;
	/* The units of the arm running now. */
	uint64_t hot_units, units;
};


/* One replay run: the command line beside struct replay, and its results. */
struct replay_run {
	struct bench_args args;
	const char *workload, *phases;
	unsigned long repeats, cold_mb;
	bool loaded;
	double load_rate;
	int arms[BENCH_ARM_COUNT + 1], nr_arms;
	double *totals, *phase_ns, *oracle;	/* per arm and repeat (and phase) */
	int *place;			/* per arm and repeat: its place */
	double med[BENCH_ARM_COUNT + 1], oracle_med, best_med;
	int best;				/* the best static arm */
};


/* replay-options.c */
const char *replay_phase_name(const struct phase *p, char *buf, size_t size);
int replay_parse(int argc, char **argv, struct replay *r,
		 struct replay_run *run);

/* replay-model.c */
int replay_setup(struct replay *r, unsigned long cold_mb, int node);
double replay_run_arm(struct replay *r, int arm, double *phase_ns,
		      bool record);

/* replay-report.c */
extern const char replay_plot[];
const char *replay_arm_name(const struct replay *r, int arm);
int replay_write_timeline(struct replay *r, struct bench_out *out);
void replay_medians(const struct replay *r, struct replay_run *run,
		    struct bench_out *out);
void replay_print(const struct replay *r, const struct replay_run *run);
json_object *replay_json(const struct replay *r, const struct replay_run *run);

#endif
