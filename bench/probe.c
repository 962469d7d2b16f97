// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench probe: the temperature probe of clearpage.ko's huge
 * backend (clearpage_probe() in probe.h, the module's own routine) in
 * user space: its calibration as the module measures it, what it costs
 * beside the clear it decides, and how often it judges a hot and a cold
 * unit right, in each memory regime.
 *
 * Units are 2 MiB folios (2m-*) or single 4 KiB pages at scattered
 * addresses (4k-*: the faulting line, as the 4k backend's temperature
 * sample probes a page), from a pool four times the last-level cache (at
 * least 1 GiB), each unit once per turn through it; hot and cold ones
 * interleaved at random, half and half.
 *   burst      a hot unit was just cleared (its lines cached), a cold one
 *              flushed from every cache; memory otherwise idle.
 *   sustained  units in turn through the pool, each cleared right after
 *              its probe, as the module clears it: a cold unit is the next
 *              of the pool, untouched for a whole turn; a hot one was
 *              written just before by the "application" (a folio freed
 *              right after use).
 *   loaded     sustained, with a memory-bandwidth load on another CPU
 *              (--load).
 * The clear after the probe is the kernel's routine (rep stosb with ERMS)
 * over the unit, 2 MiB ranges for folios; cost is the probe's time over
 * that clear's, both medians of the same units.
 *
 * Then what the probe's choice is worth (--mix): 2 MiB folios of which a
 * share P is hot, interleaved at random, no phases to follow, cleared as
 * the huge backend clears them (ranges, the faulting subpage's
 * neighbourhood last) and the faulting subpage read after each, in four
 * arms over the same sequence: the pair's hot strategy for every folio,
 * its cold one for every folio, the probe's pick (its time included), and
 * the oracle (the right one of the two, known). Arms take turns within
 * each run; ns per folio, median of the runs.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum { HOT, COLD };

#define MAX_MIXES 8

struct probe_bench {
	struct bench_args args;
	unsigned long mix[MAX_MIXES];	/* hot shares, % */
	int nr_mixes;
	int pair[2];			/* the strategies for hot and cold folios */
	const char *pool_text;
	uint64_t pool_bytes;
	unsigned long units;		/* per run */
	unsigned long threshold;	/* ticks, from the calibration */
};

struct regime_result {
	const char *name;
	double probe_ns[2];		/* median per unit, hot and cold */
	double clear_ns[2];
	unsigned long right[2], judged[2];
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: clearpage-bench probe [--runs N] [--units N] [--pool SIZE]\n"
		"                             [--mix LIST|none] [--pair HOT,COLD]\n"
		"                             [--cpu C] [--node N] [--load CPU] [--out DIR]\n"
		"  The huge backend's temperature probe: its calibration, its cost beside\n"
		"  the clear, and how often it judges hot and cold 2 MiB folios and 4 KiB\n"
		"  pages right, in the burst, sustained and loaded regimes.\n"
		"  --units   hot and cold units per run, interleaved (default 64)\n"
		"  --mix     hot shares (%%) of the interleaved folios whose clears are\n"
		"            timed with the pair, the probe and the oracle (default\n"
		"            25,50,75; none: leave it out)\n"
		"  --pair    HOT,COLD: the strategies for hot and for cold folios (default\n"
		"            rep_stosb and clzero where the CPU has it, else movnti)\n"
		"  --pool    the pool units come from (default 4 x the last-level cache, at least 1G)\n"
		"  --runs    runs per regime (default 5)\n"
		"  --cpu, --node  run on CPU C, with memory on node N\n"
		"  --load    the loaded regime too: a bandwidth load on this CPU (needs --cpu)\n"
		"  --out     directory for probe.{json,csv,svg} (default bench-results)\n");
}

/* bench_summary()'s median (sorts @v); 0 for no value. */
static double median(double *v, size_t n)
{
	double med, lo, hi;

	if (!n)
		return 0;
	bench_summary(v, n, &med, &lo, &hi);
	return med;
}

/* Make @unit hot or cold as @regime has it, before its probe. */
static void prepare(const char *regime, char *unit, size_t bytes, int class)
{
	bool burst = strstr(regime, "burst") != NULL;

	if (class == HOT && burst)
		bench_clear_range(bench_kernel_routine(), unit, bytes);
	else if (class == HOT)
		memset(unit, 0x5a, bytes);
	else if (burst)
		bench_flush(unit, bytes);
}

/*
 * One regime: --runs runs of --units units of @bytes each from @pool,
 * hot and cold at random; the probe's verdict and time, then the clear's.
 */
static void measure_regime(const struct probe_bench *pb, char *pool,
			   size_t bytes, struct regime_result *r)
{
	unsigned long total = pb->args.runs * pb->units, n[2] = { 0, 0 };
	unsigned long nr_units = pb->pool_bytes / bytes, cursor = 0;
	double *probe[2], *clear[2], tick_ns = bench_ns_per_tick();
	unsigned int seed = 1;

	for (int c = 0; c < 2; c++) {
		probe[c] = calloc(total, sizeof(double));
		clear[c] = calloc(total, sizeof(double));
	}
	for (unsigned long i = 0; i < total && probe[1] && clear[1]; i++) {
		int class = rand_r(&seed) & 1;
		/* Pages scattered by a prime stride, each once per turn. */
		unsigned long index = bytes == BENCH_PAGE ?
				      cursor++ * 104729UL % nr_units :
				      cursor++ % nr_units;
		char *unit = pool + index * bytes;
		unsigned long fault = (unsigned long)rand_r(&seed) % bytes;
		uint64_t t0, t1, t2;
		unsigned int cached;

		if (i % pb->units == 0)
			bench_progress("probe: %s, run %lu", r->name,
				       i / pb->units + 1);
		prepare(r->name, unit, bytes, class);
		t0 = bench_ticks();
		cached = clearpage_probe(unit, bytes / BENCH_PAGE, fault,
					 pb->threshold, NULL);
		t1 = bench_ticks();
		bench_clear_range(bench_kernel_routine(), unit, bytes);
		t2 = bench_ticks();
		r->judged[class]++;
		r->right[class] += clearpage_probe_hot(cached, bytes / BENCH_PAGE) ==
				  (class == HOT);
		probe[class][n[class]] = (double)(t1 - t0) * tick_ns;
		clear[class][n[class]++] = (double)(t2 - t1) * tick_ns;
	}
	for (int c = 0; c < 2; c++) {
		r->probe_ns[c] = probe[c] ? median(probe[c], n[c]) : 0;
		r->clear_ns[c] = clear[c] ? median(clear[c], n[c]) : 0;
		free(probe[c]);
		free(clear[c]);
	}
	bench_progress_done();
}

static double share(double part, double whole)
{
	return whole > 0 ? part / whole : 0;
}

static double rate(unsigned long right, unsigned long judged)
{
	return judged ? (double)right / judged : 0;
}

static void report(struct bench_out *out, json_object *results,
		   const struct regime_result *r)
{
	json_object *o = json_object_new_object();

	printf("%-13s %8.0f %8.0f %10.0f %10.0f %7.2f%% %7.2f%% %6.1f%% %6.1f%%\n",
	       r->name, r->probe_ns[HOT], r->probe_ns[COLD], r->clear_ns[HOT],
	       r->clear_ns[COLD], 100 * share(r->probe_ns[HOT], r->clear_ns[HOT]),
	       100 * share(r->probe_ns[COLD], r->clear_ns[COLD]),
	       100 * rate(r->right[HOT], r->judged[HOT]),
	       100 * rate(r->right[COLD], r->judged[COLD]));
	fflush(stdout);
	bench_out_csv(out, "%s,%.1f,%.1f,%.1f,%.1f,%lu,%lu,%lu,%lu", r->name,
		      r->probe_ns[HOT], r->probe_ns[COLD], r->clear_ns[HOT],
		      r->clear_ns[COLD], r->right[HOT], r->judged[HOT],
		      r->right[COLD], r->judged[COLD]);
	json_object_object_add(o, "regime", json_object_new_string(r->name));
	json_object_object_add(o, "probe_ns_hot", json_object_new_double(r->probe_ns[HOT]));
	json_object_object_add(o, "probe_ns_cold", json_object_new_double(r->probe_ns[COLD]));
	json_object_object_add(o, "clear_ns_hot", json_object_new_double(r->clear_ns[HOT]));
	json_object_object_add(o, "clear_ns_cold", json_object_new_double(r->clear_ns[COLD]));
	json_object_object_add(o, "cost_share_hot",
			       json_object_new_double(share(r->probe_ns[HOT], r->clear_ns[HOT])));
	json_object_object_add(o, "cost_share_cold",
			       json_object_new_double(share(r->probe_ns[COLD], r->clear_ns[COLD])));
	json_object_object_add(o, "hot_right", json_object_new_int64((int64_t)r->right[HOT]));
	json_object_object_add(o, "hot_units", json_object_new_int64((int64_t)r->judged[HOT]));
	json_object_object_add(o, "cold_right", json_object_new_int64((int64_t)r->right[COLD]));
	json_object_object_add(o, "cold_units", json_object_new_int64((int64_t)r->judged[COLD]));
	json_object_array_add(results, o);
}

/* Whether @regime is measured: the loaded ones only with --load. */
static bool regime_measured(const struct probe_bench *pb, const char *regime)
{
	return !strstr(regime, "loaded") || pb->args.load_cpu != ~0UL;
}

/* The loaded regime's bandwidth load in *@load (NULL for another); -1 if it failed. */
static int regime_load(const struct probe_bench *pb, const char *regime,
		       struct bench_load **load)
{
	*load = NULL;
	if (!strstr(regime, "loaded"))
		return 0;
	*load = bench_load_start((int)pb->args.load_cpu,
				 4 * bench_llc_bytes() + (256UL << 20));
	return *load ? 0 : -1;
}

enum { ARM_HOT, ARM_COLD, ARM_PROBE, ARM_ORACLE, ARMS };
static const char *const arm_names[ARMS] = { "hot", "cold", "probe", "oracle" };

/*
 * One arm over the run's sequence of folios (@seed), from @*cursor of the
 * pool: ns per folio, the clear and the read of the faulting subpage (and
 * the probe, for the probe's arm).
 */
static double mix_arm(const struct probe_bench *pb, char *pool, const char *regime,
		      unsigned long share, int arm, unsigned int seed,
		      unsigned long *cursor, unsigned long *right)
{
	unsigned long nr_folios = pb->pool_bytes / BENCH_HUGE, pages = BENCH_HUGE / BENCH_PAGE;
	double ns = 0, tick_ns = bench_ns_per_tick();
	volatile uint64_t sink = 0;

	for (unsigned long i = 0; i < pb->units; i++) {
		int hot = (unsigned long)rand_r(&seed) % 100 < share;
		unsigned long fault = (unsigned long)rand_r(&seed) % pages;
		char *folio = pool + (*cursor)++ % nr_folios * BENCH_HUGE;
		int strategy = pb->pair[hot ? 0 : 1];
		uint64_t t0;

		prepare(regime, folio, BENCH_HUGE, hot ? HOT : COLD);
		t0 = bench_ticks();
		if (arm == ARM_HOT || arm == ARM_COLD) {
			strategy = pb->pair[arm == ARM_HOT ? 0 : 1];
		} else if (arm == ARM_PROBE) {
			int judged = clearpage_probe_hot(clearpage_probe(folio, pages,
				fault * BENCH_PAGE, pb->threshold, NULL), pages);

			*right += judged == hot;
			strategy = pb->pair[judged ? 0 : 1];
		}
		bench_clear_folio(strategy, folio, pages, fault, pages);
		sink += bench_read_lines(folio + fault * BENCH_PAGE, BENCH_PAGE);
		ns += (double)(bench_ticks() - t0) * tick_ns;
	}
	(void)sink;
	return ns / pb->units;
}

/* --mix: every hot share, in each regime measured above. */
static int measure_mixes(const struct probe_bench *pb, char *pool,
			 struct bench_out *out)
{
	static const char *const regimes[] = { "2m-burst", "2m-sustained", "2m-loaded" };
	json_object *mixes = json_object_new_array();
	unsigned long runs = pb->args.runs, cursor = 0;
	double *v[ARMS];
	int err = 0;

	json_object_object_add(out->root, "mix", mixes);
	if (!pb->nr_mixes)
		return 0;
	printf("\nmix: 2 MiB folios, a share hot at random; hot %s, cold %s; ns per folio (clear and the faulting subpage read)\n",
	       policy_strategy_name(pb->pair[0]), policy_strategy_name(pb->pair[1]));
	printf("%-13s %4s %10s %10s %10s %10s %10s %12s %8s\n", "regime", "hot%",
	       policy_strategy_name(pb->pair[0]), policy_strategy_name(pb->pair[1]),
	       "probe", "oracle", "probe/best", "probe/oracle", "judged");
	for (int a = 0; a < ARMS; a++)
		v[a] = calloc(runs, sizeof(double));
	for (size_t g = 0; g < sizeof(regimes) / sizeof(regimes[0]) && v[ARMS - 1]; g++) {
		struct bench_load *load;

		if (!regime_measured(pb, regimes[g]))
			continue;
		err = regime_load(pb, regimes[g], &load);
		if (err)
			break;
		for (int m = 0; m < pb->nr_mixes; m++) {
			unsigned long right = 0;
			double med[ARMS], best;
			json_object *o = json_object_new_object();

			bench_progress("probe: mix %lu%% hot, %s", pb->mix[m], regimes[g]);
			for (unsigned long r = 0; r < runs; r++)
				for (int k = 0; k < ARMS; k++) {
					int a = (int)((k + r) % ARMS);

					v[a][r] = mix_arm(pb, pool, regimes[g], pb->mix[m], a,
							  (unsigned int)(r + 1), &cursor, &right);
				}
			for (int a = 0; a < ARMS; a++)
				med[a] = median(v[a], runs);
			bench_progress_done();
			best = med[ARM_HOT] < med[ARM_COLD] ? med[ARM_HOT] : med[ARM_COLD];
			printf("%-13s %3lu%% %10.0f %10.0f %10.0f %10.0f %10.3f %12.3f %7.1f%%\n",
			       regimes[g], pb->mix[m], med[ARM_HOT], med[ARM_COLD],
			       med[ARM_PROBE], med[ARM_ORACLE], med[ARM_PROBE] / best,
			       med[ARM_PROBE] / med[ARM_ORACLE],
			       100.0 * right / (runs * pb->units));
			fflush(stdout);
			json_object_object_add(o, "regime", json_object_new_string(regimes[g]));
			json_object_object_add(o, "hot_percent", json_object_new_int((int)pb->mix[m]));
			json_object_object_add(o, "hot_strategy",
					       json_object_new_string(policy_strategy_name(pb->pair[0])));
			json_object_object_add(o, "cold_strategy",
					       json_object_new_string(policy_strategy_name(pb->pair[1])));
			for (int a = 0; a < ARMS; a++) {
				char key[32];

				snprintf(key, sizeof(key), "%s_ns", arm_names[a]);
				json_object_object_add(o, key, json_object_new_double(med[a]));
			}
			json_object_object_add(o, "probe_to_best_static",
					       json_object_new_double(med[ARM_PROBE] / best));
			json_object_object_add(o, "probe_to_oracle",
					       json_object_new_double(med[ARM_PROBE] / med[ARM_ORACLE]));
			json_object_object_add(o, "judged_right",
					       json_object_new_double((double)right / (runs * pb->units)));
			json_object_array_add(mixes, o);
		}
		if (load)
			bench_load_stop(load);
	}
	for (int a = 0; a < ARMS; a++)
		free(v[a]);
	return err;
}

static const char plot[] =
	"set title 'clearpage-bench probe: units judged right'\n"
	"set style data histograms\nset style fill solid\nset yrange [0:100]\n"
	"set ylabel '% judged right'\nset datafile separator ','\n"
	"set key outside right\nset xtics rotate by -30\n"
	"plot csv using (100 * $6 / $7):xtic(1) title 'hot', "
	"'' using (100 * $8 / $9) title 'cold'\n";

/* "25,50,75" into @pb->mix; "none": no mix. */
static int parse_mix(struct probe_bench *pb, const char *arg)
{
	char *copy = strdup(arg), *tok, *save;
	int err = 0;

	pb->nr_mixes = 0;
	if (!copy || !strcmp(arg, "none")) {
		free(copy);
		return copy ? 0 : 2;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		if (pb->nr_mixes == MAX_MIXES) {
			bench_error("--mix: at most %d shares", MAX_MIXES);
			err = 2;
		} else if (bench_parse_range(tok, "--mix", 0, 100,
					     &pb->mix[pb->nr_mixes++])) {
			err = 2;
		}
	}
	free(copy);
	return err;
}

static int parse_pair(struct probe_bench *pb, const char *arg)
{
	unsigned int mask;
	const char *comma = strchr(arg, ',');
	char name[32];

	for (int i = 0; i < 2; i++) {
		size_t len = i ? strlen(arg) : (size_t)(comma - arg);

		if (!comma || strchr(comma + 1, ',') || !len || len >= sizeof(name)) {
			bench_error("--pair: '%s' is not HOT,COLD (two strategies)", arg);
			return 2;
		}
		memcpy(name, arg, len);
		name[len] = '\0';
		if (bench_parse_strategies(name, &mask))
			return 2;
		pb->pair[i] = __builtin_ctz(mask);
		if (!bench_strategy_usable(pb->pair[i])) {
			bench_error("--pair: %s is not available on this CPU", name);
			return 2;
		}
		arg = comma + 1;
	}
	return 0;
}

static int probe_option(int opt, const char *arg, void *ctx)
{
	struct probe_bench *pb = ctx;

	switch (opt) {
	case 'm':
		return parse_mix(pb, arg);
	case 'p':
		return parse_pair(pb, arg);
	case 'u':
		return bench_parse_range(arg, "--units", 2, 1000000, &pb->units) ? 2 : 0;
	case 'P':
		if (bench_parse_sizes(arg, &pb->pool_bytes, 1) != 1 ||
		    pb->pool_bytes < 2 * BENCH_HUGE) {
			bench_error("--pool: '%s' is not a size of at least 4M, a multiple of 4K", arg);
			return 2;
		}
		return 0;
	}
	return BENCH_GO_ON;
}

int bench_probe(int argc, char **argv)
{
	static const struct option options[] = {
		{ "units", required_argument, NULL, 'u' },
		{ "pool", required_argument, NULL, 'P' },
		{ "mix", required_argument, NULL, 'm' },
		{ "pair", required_argument, NULL, 'p' },
		BENCH_OPTION_RUNS, BENCH_OPTION_CPU, BENCH_OPTION_NODE,
		BENCH_OPTION_LOAD, BENCH_OPTION_OUT, BENCH_OPTION_HELP,
		{}
	};
	static const char *const regimes[] = { "2m-burst", "2m-sustained",
					       "2m-loaded", "4k-burst",
					       "4k-sustained", "4k-loaded" };
	struct probe_bench pb = {
		.args = BENCH_ARGS(5), .units = 64,
		.mix = { 25, 50, 75 }, .nr_mixes = 3,
		.pair = { CLEARPAGE_STRATEGY_REP_STOSB,
			  bench_strategy_usable(CLEARPAGE_STRATEGY_CLZERO) ?
			  CLEARPAGE_STRATEGY_CLZERO : CLEARPAGE_STRATEGY_MOVNTI },
	};
	struct bench_load *load = NULL;
	struct bench_out out;
	json_object *results, *cal;
	double hot, cold;
	char *pool;
	int node, err, failed = 0;

	err = bench_parse(argc, argv, options, &pb.args, usage, probe_option, &pb);
	if (err != BENCH_GO_ON)
		return err;
	if (!pb.pool_bytes)
		pb.pool_bytes = 4 * bench_llc_bytes() > (1ULL << 30) ?
				4 * bench_llc_bytes() : 1ULL << 30;
	pb.pool_bytes -= pb.pool_bytes % BENCH_HUGE;
	if (pb.args.cpu != ~0UL && bench_bind_cpu((int)pb.args.cpu))
		return 1;
	node = pb.args.node == ~0UL ? -1 : (int)pb.args.node;
	pool = bench_map(pb.pool_bytes, node, true, true);
	if (!pool)
		return 1;
	memset(pool, 1, pb.pool_bytes);
	pb.threshold = bench_probe_calibrate(pool, &hot, &cold);
	printf("probe calibration: a cached line %.0f ticks, a line from memory %.0f, threshold %lu%s\n",
	       hot, cold, pb.threshold,
	       pb.threshold ? "" : " (cannot tell them apart: the module refuses the probe here)");
	if (bench_out_open(&out, pb.args.out, "probe", argc, argv,
			   "regime,probe_ns_hot,probe_ns_cold,clear_ns_hot,clear_ns_cold,hot_right,hot_units,cold_right,cold_units")) {
		bench_unmap(pool, pb.pool_bytes);
		return 1;
	}
	cal = json_object_new_object();
	json_object_object_add(cal, "hot_ticks", json_object_new_double(hot));
	json_object_object_add(cal, "cold_ticks", json_object_new_double(cold));
	json_object_object_add(cal, "threshold_ticks",
			       json_object_new_int64((int64_t)pb.threshold));
	json_object_object_add(out.root, "calibration", cal);
	results = json_object_new_array();
	json_object_object_add(out.root, "results", results);
	printf("%-13s %8s %8s %10s %10s %8s %8s %7s %7s\n", "regime",
	       "probe-h", "probe-c", "clear-h", "clear-c", "cost-h", "cost-c",
	       "hot-ok", "cold-ok");
	for (size_t i = 0; i < sizeof(regimes) / sizeof(regimes[0]) && !failed; i++) {
		struct regime_result r = { .name = regimes[i] };

		if (!regime_measured(&pb, regimes[i]))
			continue;
		failed = regime_load(&pb, regimes[i], &load);
		if (failed)
			break;
		measure_regime(&pb, pool, regimes[i][0] == '2' ? BENCH_HUGE : BENCH_PAGE, &r);
		if (load)
			bench_load_stop(load);
		report(&out, results, &r);
	}
	printf("ns per unit (2m: a 2 MiB folio, 4k: a 4 KiB page), medians; cost: probe / clear (the kernel routine);\n"
	       "ok: units judged right. CPU %s family %u model %u.\n",
	       bench_cpu.vendor, bench_cpu.family, bench_cpu.model);
	if (!failed)
		failed = measure_mixes(&pb, pool, &out);
	bench_unmap(pool, pb.pool_bytes);
	bench_out_plot(&out, plot);
	return bench_out_close(&out) || failed ? 1 : 0;
}
