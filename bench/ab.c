// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench ab: the macro A/B harness. Two arms, each an optional
 * setup command (e.g. "clearpagectl set all movnti") and a workload command;
 * N repeats interleaved A B A B ... so that drift falls on both arms alike.
 * Per arm: mean, standard deviation, min and max of the workload's wall
 * time (and of perf stat counters with --perf, where the PMU has them);
 * %change of B against A; Welch's t-test; a verdict, "significant" or "in
 * the noise", at the stated confidence. Printed in the LKP style:
 *
 *   base ±%stddev  %change  new ±%stddev  metric
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>

#include "bench.h"

#define MAX_METRICS 8

struct metric {
	char name[64];
	double *a, *b;
	size_t na, nb;
	bool missing;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: clearpage-bench ab --a CMD --b CMD [--a-setup CMD] [--b-setup CMD]\n"
		"                          [--repeats N] [--confidence C] [--perf]\n"
		"                          [--name-a NAME] [--name-b NAME] [--out DIR]\n"
		"  --a, --b          the workload of each arm (sh -c), timed\n"
		"  --a-setup, --b-setup  run before each run of the arm, not timed\n"
		"  --repeats         runs per arm, interleaved ABAB... (default 10)\n"
		"  --confidence      for the verdict (default 0.95)\n"
		"  --perf            also count cycles, instructions, cache-misses with\n"
		"                    perf stat, where the PMU has them\n"
		"  --out             directory for ab.{json,csv,svg} (default bench-results)\n");
}

/* sh -c @cmd; with @perf_file, under perf stat writing CSV there. */
static int run_command(const char *cmd, const char *perf_file)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* The workload's output goes to stderr: stdout is the table. */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		if (perf_file)
			execlp("perf", "perf", "stat", "-x,", "-o", perf_file,
			       "-e", "cycles,instructions,cache-references,cache-misses",
			       "--", "sh", "-c", cmd, (char *)NULL);
		else
			execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (!WIFEXITED(status))
		return -EINTR;
	return WEXITSTATUS(status);
}

static struct metric *metric_get(struct metric *m, int *nr, const char *name,
				 size_t repeats)
{
	for (int i = 0; i < *nr; i++)
		if (!strcmp(m[i].name, name))
			return &m[i];
	if (*nr == MAX_METRICS)
		return NULL;
	snprintf(m[*nr].name, sizeof(m[*nr].name), "%s", name);
	m[*nr].a = calloc(repeats, sizeof(double));
	m[*nr].b = calloc(repeats, sizeof(double));
	return &m[(*nr)++];
}

/* perf stat -x, lines: value,unit,event,... ("<not supported>" values). */
static void read_perf(const char *path, struct metric *m, int *nr,
		      size_t repeats, bool arm_b)
{
	char line[512];
	FILE *f = fopen(path, "re");

	while (f && fgets(line, sizeof(line), f)) {
		char *rest = line, *value, *event;
		struct metric *x;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		value = strsep(&rest, ",");
		strsep(&rest, ",");		/* unit */
		event = strsep(&rest, ",");
		if (!value || !event || !*event)
			continue;
		event[strcspn(event, "\n:")] = '\0';
		x = metric_get(m, nr, event, repeats);
		if (!x)
			continue;
		if (value[0] == '<') {
			x->missing = true;
			continue;
		}
		if (arm_b)
			x->b[x->nb++] = strtod(value, NULL);
		else
			x->a[x->na++] = strtod(value, NULL);
	}
	if (f)
		fclose(f);
}

/* Welch's t-test, two-sided. Returns the p-value, or 1 when undefined. */
static double welch_p(const double *a, size_t na, const double *b, size_t nb,
		      double *t_out)
{
	double ma = bench_mean(a, na), mb = bench_mean(b, nb);
	double va = na > 1 ? pow(bench_stddev(a, na), 2) / na : 0;
	double vb = nb > 1 ? pow(bench_stddev(b, nb), 2) / nb : 0;
	double t, df;

	*t_out = 0;
	if (na < 2 || nb < 2)
		return 1;
	if (va + vb == 0)
		return ma == mb ? 1 : 0;
	t = (mb - ma) / sqrt(va + vb);
	df = (va + vb) * (va + vb) /
	     (va * va / (na - 1) + vb * vb / (nb - 1));
	*t_out = t;
	return 2 * gsl_cdf_tdist_Q(fabs(t), df);
}

static const char plot[] =
	"set title 'clearpage-bench ab: each run in the order it ran'\n"
	"set xlabel 'run'\nset ylabel 'seconds'\nset grid\nset key outside right\n"
	"plot csv using (strcol(1) eq 'A' ? $2 : 1/0):3 with linespoints pt 7 title 'A', "
	"csv using (strcol(1) eq 'B' ? $2 : 1/0):3 with linespoints pt 5 title 'B'\n";

/* One A/B comparison: what the command line asked for, and what ran. */
struct ab {
	const char *cmd[2], *setup[2], *name[2];
	unsigned long repeats;
	double confidence;
	bool perf;
	struct metric metrics[MAX_METRICS];
	int nr_metrics;
	char perf_file[640];
};

/* One of ab's own options (bench_parse()). */
static int ab_option(int opt, const char *arg, void *ctx)
{
	struct ab *ab = ctx;
	char *end;

	switch (opt) {
	case 'a': ab->cmd[0] = arg; return 0;
	case 'b': ab->cmd[1] = arg; return 0;
	case 'A': ab->setup[0] = arg; return 0;
	case 'B': ab->setup[1] = arg; return 0;
	case '1': ab->name[0] = arg; return 0;
	case '2': ab->name[1] = arg; return 0;
	case 'r':
		/* At least 2 runs per arm for a t-test. */
		return bench_parse_range(arg, "--repeats", 2, 10000,
					 &ab->repeats) ? 2 : 0;
	case 'c':
		ab->confidence = strtod(arg, &end);
		if (*end || end == arg ||
		    !(ab->confidence > 0.5 && ab->confidence < 1)) {
			bench_error("--confidence: '%s' is not a number between 0.5 and 1 (e.g. 0.95)",
				    arg);
			return 2;
		}
		return 0;
	case 'p': ab->perf = true; return 0;
	}
	return BENCH_GO_ON;
}

/* The command line into @ab and @args; BENCH_GO_ON, or the exit status. */
static int ab_parse(int argc, char **argv, struct ab *ab,
		    struct bench_args *args)
{
	static const struct option options[] = {
		{ "a", required_argument, NULL, 'a' },
		{ "b", required_argument, NULL, 'b' },
		{ "a-setup", required_argument, NULL, 'A' },
		{ "b-setup", required_argument, NULL, 'B' },
		{ "name-a", required_argument, NULL, '1' },
		{ "name-b", required_argument, NULL, '2' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "confidence", required_argument, NULL, 'c' },
		{ "perf", no_argument, NULL, 'p' },
		BENCH_OPTION_OUT, BENCH_OPTION_HELP,
		{}
	};
	int err = bench_parse(argc, argv, options, args, usage, ab_option, ab);

	if (err != BENCH_GO_ON)
		return err;
	if (!ab->cmd[0] || !ab->cmd[1]) {
		bench_error("ab needs both --a and --b workloads (see clearpage-bench ab --help)");
		return 2;
	}
	return BENCH_GO_ON;
}

/* The arms interleaved A B A B ..., each run timed (and counted); 0 or -errno. */
static int ab_run(struct ab *ab, struct bench_out *out)
{
	int err = 0;

	bench_out_path(out, "-perf.txt", ab->perf_file, sizeof(ab->perf_file));
	metric_get(ab->metrics, &ab->nr_metrics, "seconds", ab->repeats);
	for (unsigned long i = 0; i < 2 * ab->repeats && !err; i++) {
		int arm = (int)(i % 2);
		struct metric *t = &ab->metrics[0];
		uint64_t t0;
		int rc;

		bench_progress("ab: run %lu/%lu (%s)", i / 2 + 1, ab->repeats,
			       ab->name[arm]);
		if (ab->setup[arm]) {
			rc = run_command(ab->setup[arm], NULL);
			if (rc) {
				bench_error("the setup of %s failed (exit %d): %s",
					    ab->name[arm], rc, ab->setup[arm]);
				err = -EIO;
				break;
			}
		}
		t0 = bench_now_ns();
		rc = run_command(ab->cmd[arm], ab->perf ? ab->perf_file : NULL);
		if (rc == 127 && ab->perf) {
			bench_error("--perf: perf not found or the workload not runnable (apt-get install linux-perf)");
			err = -ENOENT;
			break;
		}
		if (rc) {
			bench_error("the workload of %s failed (exit %d): %s",
				    ab->name[arm], rc, ab->cmd[arm]);
			err = -EIO;
			break;
		}
		if (arm)
			t->b[t->nb++] = (double)(bench_now_ns() - t0) / 1e9;
		else
			t->a[t->na++] = (double)(bench_now_ns() - t0) / 1e9;
		bench_out_csv(out, "%s,%lu,%.6f", arm ? "B" : "A", i,
			      arm ? t->b[t->nb - 1] : t->a[t->na - 1]);
		if (ab->perf)
			read_perf(ab->perf_file, ab->metrics, &ab->nr_metrics,
				  ab->repeats, arm);
	}
	bench_progress_done();
	return err;
}

/* One metric's line of the table and its JSON object. */
static void ab_report_metric(const struct ab *ab, const struct metric *m,
			     json_object *list)
{
	double ma, mb, sa, sb, change, p, t, lo_a, hi_a, lo_b, hi_b;
	const char *verdict;
	json_object *o;

	ma = bench_mean(m->a, m->na);
	mb = bench_mean(m->b, m->nb);
	sa = bench_stddev(m->a, m->na);
	sb = bench_stddev(m->b, m->nb);
	p = welch_p(m->a, m->na, m->b, m->nb, &t);
	change = ma ? (mb - ma) / ma * 100 : 0;
	verdict = p < 1 - ab->confidence ? "significant" : "in the noise";
	printf("%14.6g %7.1f%% %+8.1f%% %14.6g %7.1f%%  %-16s %9.3g  %s\n",
	       ma, ma ? sa / ma * 100 : 0, change, mb, mb ? sb / mb * 100 : 0,
	       m->name, p, verdict);
	bench_summary(m->a, m->na, &t, &lo_a, &hi_a);
	bench_summary(m->b, m->nb, &t, &lo_b, &hi_b);
	o = json_object_new_object();
	json_object_object_add(o, "metric", json_object_new_string(m->name));
	json_object_object_add(o, "a_mean", json_object_new_double(ma));
	json_object_object_add(o, "a_stddev", json_object_new_double(sa));
	json_object_object_add(o, "a_min", json_object_new_double(lo_a));
	json_object_object_add(o, "a_max", json_object_new_double(hi_a));
	json_object_object_add(o, "b_mean", json_object_new_double(mb));
	json_object_object_add(o, "b_stddev", json_object_new_double(sb));
	json_object_object_add(o, "b_min", json_object_new_double(lo_b));
	json_object_object_add(o, "b_max", json_object_new_double(hi_b));
	json_object_object_add(o, "change_percent", json_object_new_double(change));
	json_object_object_add(o, "p_value", json_object_new_double(p));
	json_object_object_add(o, "verdict", json_object_new_string(verdict));
	json_object_array_add(list, o);
}

/* The table on standard output, the results in the JSON, the plot. */
static void ab_report(const struct ab *ab, struct bench_out *out)
{
	json_object *results = json_object_new_object(), *list;

	json_object_object_add(out->root, "results", results);
	json_object_object_add(results, "a", json_object_new_string(ab->name[0]));
	json_object_object_add(results, "b", json_object_new_string(ab->name[1]));
	json_object_object_add(results, "repeats", json_object_new_int64((int64_t)ab->repeats));
	json_object_object_add(results, "confidence", json_object_new_double(ab->confidence));
	list = json_object_new_array();
	json_object_object_add(results, "metrics", list);
	printf("A: %s%s%s\nB: %s%s%s\n%lu runs each, interleaved; verdict at %.0f%% confidence (Welch's t-test)\n\n",
	       ab->name[0], ab->setup[0] ? " after " : "",
	       ab->setup[0] ? ab->setup[0] : "",
	       ab->name[1], ab->setup[1] ? " after " : "",
	       ab->setup[1] ? ab->setup[1] : "",
	       ab->repeats, ab->confidence * 100);
	printf("%14s %8s %9s %14s %8s  %-16s %9s  %s\n", "base", "±%stddev",
	       "%change", "new", "±%stddev", "metric", "p", "verdict");
	for (int i = 0; i < ab->nr_metrics; i++) {
		const struct metric *m = &ab->metrics[i];

		if (m->missing || m->na < 2 || m->nb < 2) {
			if (ab->perf && i)
				printf("%14s %8s %9s %14s %8s  %-16s %9s  %s\n", "-", "", "",
				       "-", "", m->name, "", "not counted (no PMU)");
			continue;
		}
		ab_report_metric(ab, m, list);
	}
	bench_out_plot(out, plot);
}

int bench_ab(int argc, char **argv)
{
	static struct ab ab;
	struct bench_args args = BENCH_ARGS(1);
	struct bench_out out;
	int err;

	ab = (struct ab){
		.name = { "A", "B" }, .repeats = 10, .confidence = 0.95,
	};
	err = ab_parse(argc, argv, &ab, &args);
	if (err != BENCH_GO_ON)
		return err;
	if (bench_out_open(&out, args.out, "ab", argc, argv, "arm,run,seconds"))
		return 1;
	err = ab_run(&ab, &out);
	if (!err)
		ab_report(&ab, &out);
	for (int i = 0; i < ab.nr_metrics; i++) {
		free(ab.metrics[i].a);
		free(ab.metrics[i].b);
	}
	if (err) {
		bench_out_close(&out);
		return 1;
	}
	return bench_out_close(&out) ? 1 : 0;
}
