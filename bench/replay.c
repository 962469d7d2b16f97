// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench replay: the real policy (lib/policy.c) driving real
 * clears on this CPU, for one backend; what an interval clears and how
 * the adaptive arm is stepped: replay-model.c. Arms, each settled first
 * (untimed clears of its own), run in a balanced order (arm_at(): every
 * arm first equally often and after every other equally often over n
 * repeats of n arms, 2n for odd n) after one untimed warm-up run of the
 * first static arm: adaptive, every static strategy, and the oracle (the
 * best static strategy of each phase, from the static arms of the same
 * repeat). Totals are wall time of the clears and touches; ratios are of
 * medians over the repeats (replay-report.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

/*
 * The arm in place @k of repeat @rep, of @n: a Williams design, the
 * sequence 0, 1, n-1, 2, n-2, ... shifted by the repeat (relabelled w to
 * n-1-w in every second round of n repeats where n is odd), so that over
 * n repeats every arm comes first once and after every other arm once
 * (odd n: over 2n repeats, twice each; n alone leaves some pairs out).
 * What an arm leaves behind that its settling does not absorb then falls
 * on every arm alike; in a plain rotation each arm always came after
 * the same one (the adaptive arm after clzero).
 */
static int arm_at(int n, unsigned long rep, int k)
{
	int w = k % 2 ? (k + 1) / 2 : n - k / 2;

	if (n % 2 && (rep / n) % 2)
		w = n - 1 - w;
	return (int)((w % n + rep) % n);
}

/*
 * The pools, the calibration, the load; then every arm once per repeat,
 * in the order arm_at() gives, and the oracle of each repeat. 0 or the exit
 * status.
 */
static int replay_arms(struct replay *r, struct replay_run *run)
{
	unsigned long repeats = run->repeats;
	struct bench_load *load = NULL;
	double *warmup;
	int err;

	if (run->args.cpu != ~0UL && bench_bind_cpu((int)run->args.cpu))
		return 1;
	bench_progress("replay: mapping %lu MiB and calibrating", run->cold_mb);
	err = replay_setup(r, run->cold_mb,
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
	run->place = calloc(run->nr_arms * repeats, sizeof(*run->place));
	warmup = calloc(r->nr_phases, sizeof(*warmup));
	if (!run->totals || !run->phase_ns || !run->oracle || !run->place ||
	    !warmup) {
		free(warmup);
		bench_load_stop(load);
		return 1;
	}
	/*
	 * One static arm untimed first: whichever arm came first after the
	 * calibration paid 10-15% more than in any later place (AMD EPYC,
	 * 4 KiB cold sustained), and with one repeat that was always the
	 * adaptive arm.
	 */
	bench_progress("replay: warming up with %s", replay_arm_name(r, run->arms[1]));
	replay_run_arm(r, run->arms[1], warmup, false);
	free(warmup);
	for (unsigned long rep = 0; rep < repeats; rep++) {
		for (int k = 0; k < run->nr_arms; k++) {
			int a = arm_at(run->nr_arms, rep, k);
			int arm = run->arms[a];

			run->place[a * repeats + rep] = k;
			bench_progress("replay: repeat %lu/%lu, %s", rep + 1, repeats,
				       replay_arm_name(r, arm));
			run->totals[a * repeats + rep] =
				replay_run_arm(r, arm, &run->phase_ns[((size_t)a * repeats + rep) * r->nr_phases],
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
				   "arm,repeat,place,total_ms"))
		err = 1;
	if (!err) {
		replay_medians(&r, &run, &out);
		replay_print(&r, &run);
		json_object_object_add(out.root, "results", replay_json(&r, &run));
		err = replay_write_timeline(&r, &out);
		if (!err)
			bench_out_plot(&out, replay_plot);
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
	free(run.place);
	return err ? 1 : 0;
}
