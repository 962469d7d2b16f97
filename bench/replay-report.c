// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench replay: the results, on standard output, in the JSON and
 * CSV, and the adaptive arm's timeline.
 */
#include <errno.h>
#include <string.h>

#include "replay.h"

const char *replay_arm_name(const struct replay *r, int arm)
{
	return arm == ADAPTIVE ? "adaptive" : bench_arm_name(arm, r->huge);
}

const char replay_plot[] =
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

int replay_write_timeline(struct replay *r, struct bench_out *out)
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
			replay_phase_name(ph, phase, sizeof(phase)), strategy,
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

/* Every run in the CSV; the medians, the oracle's and the best static arm. */
void replay_medians(const struct replay *r, struct replay_run *run,
			   struct bench_out *out)
{
	unsigned long repeats = run->repeats;
	double copy[1000], lo, hi;

	run->best = -1;
	for (int a = 0; a < run->nr_arms; a++) {
		for (unsigned long rep = 0; rep < repeats; rep++) {
			copy[rep] = run->totals[a * repeats + rep];
			bench_out_csv(out, "%s,%lu,%d,%.3f",
				      replay_arm_name(r, run->arms[a]), rep,
				      run->place[a * repeats + rep],
				      run->totals[a * repeats + rep] / 1e6);
		}
		bench_summary(copy, repeats, &run->med[a], &lo, &hi);
		if (a && (run->best < 0 || run->med[a] < run->best_med)) {
			run->best = a;
			run->best_med = run->med[a];
		}
	}
	for (unsigned long rep = 0; rep < repeats; rep++)
		bench_out_csv(out, "oracle,%lu,,%.3f", rep, run->oracle[rep] / 1e6);
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
void replay_print(const struct replay *r, const struct replay_run *run)
{
	double adaptive_med = run->med[0];

	printf("replay: %s backend, %s workload (%s), %lu pages per interval, touch %s, %lu repeats\n",
	       r->huge ? "huge" : "4k", run->workload, run->phases, r->pages,
	       replay_touch_names[r->touch], run->repeats);
	printf("calibration (ns/4K hot/cold):");
	for (int s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (r->calibration.valid[s])
			printf(" %s %.0f/%.0f", policy_strategy_name(s),
			       r->calibration.hot_ns[s], r->calibration.cold_ns[s]);
	printf("\npolicy: hot %s, cold %s; reference clears 1 in %lu%s\n",
	       policy_strategy_name(r->hot),
	       r->cold >= 0 ? policy_strategy_name(r->cold) : "none (holds still)",
	       r->reference_every, r->reference_every ? "" : " (off: probing)");
	printf("regime: %s; trials 1 in %lu per candidate%s; cost of knowing (reference and trial clears, and the application's read after them, beyond the strategy's own, adaptive arm): %.1f%% of its time (%.1f%% the reads)\n",
	       run->loaded ? "loaded" : r->burst ? "burst" : "sustained",
	       r->trial_every, r->trial_every ? "" : " (off: the calibration decides)",
	       r->clear_ns > 0 ? 100 * (r->knowing_ns + r->knowing_touch_ns) /
					 r->clear_ns : 0,
	       r->clear_ns > 0 ? 100 * r->knowing_touch_ns / r->clear_ns : 0);
	if (run->loaded)
		printf("load on CPU %lu: %.1f GB/s written and read\n",
		       run->args.load_cpu, run->load_rate / 1e9);
	replay_print_probes(r);
	printf("%-10s %14s %10s\n", "arm", "total ms", "/ oracle");
	printf("%-10s %14.2f %10.3f\n", "oracle", run->oracle_med / 1e6, 1.0);
	for (int a = 0; a < run->nr_arms; a++)
		printf("%-10s %14.2f %10.3f\n", replay_arm_name(r, run->arms[a]),
		       run->med[a] / 1e6, run->med[a] / run->oracle_med);
	printf("adaptive / oracle = %.3f; adaptive / best static (%s) = %.3f (%+.1f%%); %u switches, %u reverts\n",
	       adaptive_med / run->oracle_med, replay_arm_name(r, run->arms[run->best]),
	       adaptive_med / run->best_med,
	       (adaptive_med / run->best_med - 1) * 100, r->switches, r->reverts);
	if (r->huge)
		printf("adaptive / kernel-6.x walk = %.3f; adaptive / kernel-7.x extents = %.3f (replayed as the module on %s)\n",
		       adaptive_med / run->med[1], adaptive_med / run->med[2],
		       replay_arm_name(r, r->kernel_arm));
}

/* The results object of the JSON. */
json_object *replay_json(const struct replay *r,
				const struct replay_run *run)
{
	json_object *results = json_object_new_object(), *o;
	unsigned long repeats = run->repeats;
	double adaptive_med = run->med[0];

	json_object_object_add(results, "backend", json_object_new_string(r->huge ? "huge" : "4k"));
	json_object_object_add(results, "workload", json_object_new_string(run->workload));
	json_object_object_add(results, "phases", json_object_new_string(run->phases));
	json_object_object_add(results, "pages_per_interval", json_object_new_int64((int64_t)r->pages));
	json_object_object_add(results, "touch", json_object_new_string(replay_touch_names[r->touch]));
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
			       json_object_new_double(r->clear_ns > 0 ?
						      r->knowing_ns / r->clear_ns : 0));
	json_object_object_add(results, "cost_of_knowing_reads",
			       json_object_new_double(r->clear_ns > 0 ?
						      r->knowing_touch_ns / r->clear_ns : 0));
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
		json_object_object_add(o, replay_arm_name(r, run->arms[a]),
				       json_object_new_double(run->med[a] / 1e6));
	json_object_object_add(results, "median_total_ms", o);
	/* Per phase, the last repeat: where the time went. */
	o = json_object_new_object();
	for (int a = 0; a < run->nr_arms; a++) {
		json_object *list = json_object_new_array();

		for (int ph = 0; ph < r->nr_phases; ph++)
			json_object_array_add(list, json_object_new_double(
				run->phase_ns[((size_t)a * repeats + repeats - 1) * r->nr_phases + ph] / 1e6));
		json_object_object_add(o, replay_arm_name(r, run->arms[a]), list);
	}
	json_object_object_add(results, "last_repeat_phase_ms", o);
	json_object_object_add(results, "best_static", json_object_new_string(replay_arm_name(r, run->arms[run->best])));
	json_object_object_add(results, "adaptive_over_oracle", json_object_new_double(adaptive_med / run->oracle_med));
	json_object_object_add(results, "adaptive_over_best_static", json_object_new_double(adaptive_med / run->best_med));
	if (r->huge) {
		json_object_object_add(results, "kernel_replayed",
				       json_object_new_string(replay_arm_name(r, r->kernel_arm)));
		json_object_object_add(results, "adaptive_over_kernel",
				       json_object_new_double(adaptive_med / run->med[1]));
		json_object_object_add(results, "adaptive_over_kernel_7x",
				       json_object_new_double(adaptive_med / run->med[2]));
	}
	o = json_object_new_object();
	json_object_object_add(o, "threshold_ticks", json_object_new_int64((int64_t)r->probes.threshold));
	json_object_object_add(o, "probe_every_pages", json_object_new_int64((int64_t)r->probes.probe_every));
	/* How far back a non-temporal clear makes a unit count hot. */
	json_object_object_add(o, "recent_reach_pages", json_object_new_int64((int64_t)r->probes.reach_pages));
	json_object_object_add(o, "judged_hot", json_object_new_int64((int64_t)r->probed.probe_hot));
	json_object_object_add(o, "judged_cold", json_object_new_int64((int64_t)r->probed.probe_cold));
	json_object_object_add(o, "judged_hot_recycled", json_object_new_int64((int64_t)r->probed.probe_recycled));
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
