// SPDX-License-Identifier: GPL-2.0
/* clearpaged's Prometheus metrics; see metrics.h. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "savings-file.h"
#include "metrics.h"
#include "policy.h"

static void family(FILE *out, const char *name, const char *type,
		   const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void value(FILE *out, double v)
{
	if (isnan(v))
		fputs("NaN\n", out);
	else
		fprintf(out, "%.17g\n", v);
}

static const char *strategy_of(const struct metrics_node *node, int k)
{
	return policy_strategy_name(node->info->strategies[k].strategy);
}

static double reference_pages_of(const struct metrics_node *n, int b)
{
	return (double)n->info->backend[b].reference_pages;
}

static double pinned_of(const struct metrics_node *n, int b)
{
	return n->info->backend[b].pinned;
}

static double cold_fraction_of(const struct metrics_node *n, int b)
{
	return n->unit[b].cold_fraction < 0 ? NAN : n->unit[b].cold_fraction;
}

static double seconds_per_page_of(const struct metrics_node *n, int b)
{
	return n->unit[b].ns_per_page > 0 ? n->unit[b].ns_per_page / 1e9 : NAN;
}

static double switches_of(const struct metrics_node *n, int b)
{
	return (double)n->unit[b].switches;
}

static double reverts_of(const struct metrics_node *n, int b)
{
	return (double)n->unit[b].reverts;
}

static double pins_seen_of(const struct metrics_node *n, int b)
{
	return (double)n->unit[b].pins_seen;
}

static double slower_returns_of(const struct metrics_node *n, int b)
{
	return (double)n->unit[b].slower_returns;
}

static double kernel_estimate_of(const struct metrics_node *n, int b)
{
	return n->unit[b].kernel_estimate_ns / 1e9;
}

static double clear_estimate_of(const struct metrics_node *n, int b)
{
	return (n->unit[b].kernel_estimate_ns - n->unit[b].saved_ns) / 1e9;
}

static double saved_of(const struct metrics_node *n, int b)
{
	return n->unit[b].saved_ns / 1e9;
}

static double saved_uncertainty_of(const struct metrics_node *n, int b)
{
	return n->unit[b].saved_uncertainty_ns < 0 ?
	       NAN : n->unit[b].saved_uncertainty_ns / 1e9;
}

/* A family with one value per node and backend. */
static void per_backend(FILE *out, const struct metrics_node *nodes,
			int count, const char *name, const char *type,
			const char *help,
			double (*value_of)(const struct metrics_node *node,
					   int backend))
{
	int i, b;

	family(out, name, type, help);
	for (i = 0; i < count; i++)
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
			fprintf(out, "%s{node=\"%u\",backend=\"%s\"} ", name,
				nodes[i].info->node, cp_backend_name(b));
			value(out, value_of(&nodes[i], b));
		}
}

static double pages_of(const struct cp_strategy_info *s, int backend)
{
	return (double)s->pages[backend];
}

static double ranges_of(const struct cp_strategy_info *s, int backend)
{
	(void)backend;
	return (double)s->ranges_huge;
}

static double samples_of(const struct cp_strategy_info *s, int backend)
{
	return (double)s->samples[backend];
}

static double seconds_of(const struct cp_strategy_info *s, int backend)
{
	return s->sample_ns[backend] / 1e9;
}

/*
 * A counter family per node, backend and strategy; @huge_only: for the huge
 * backend alone.
 */
static void per_strategy(FILE *out, const struct metrics_node *nodes,
			 int count, const char *name, const char *help,
			 double (*value_of)(const struct cp_strategy_info *s,
					    int backend),
			 bool huge_only)
{
	int i, k, b;

	family(out, name, "counter", help);
	for (i = 0; i < count; i++)
		for (k = 0; k < nodes[i].info->nr_strategies; k++)
			for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
				if (huge_only && b != CLEARPAGE_BACKEND_HUGE)
					continue;
				fprintf(out, "%s{node=\"%u\",backend=\"%s\",strategy=\"%s\"} ",
					name, nodes[i].info->node,
					cp_backend_name(b),
					strategy_of(&nodes[i], k));
				value(out, value_of(&nodes[i].info->strategies[k], b));
			}
}

static double helpers_of(const struct cp_node_info *n)
{
	return n->helpers;
}

static double helped_folios_of(const struct cp_node_info *n)
{
	return (double)n->helped_folios;
}

static double helper_pages_of(const struct cp_node_info *n)
{
	return (double)n->helper_pages;
}

static double helpers_not_started_of(const struct cp_node_info *n)
{
	return (double)n->helpers_not_started;
}

/* A family with one value per node, of nodes whose module has helpers. */
static void per_node_helpers(FILE *out, const struct metrics_node *nodes,
			     int count, const char *name, const char *type,
			     const char *help,
			     double (*value_of)(const struct cp_node_info *n))
{
	int i;

	for (i = 0; i < count && !nodes[i].info->has_helpers; i++)
		;
	if (i == count)
		return;
	family(out, name, type, help);
	for (i = 0; i < count; i++) {
		if (!nodes[i].info->has_helpers)
			continue;
		fprintf(out, "%s{node=\"%u\"} ", name, nodes[i].info->node);
		value(out, value_of(nodes[i].info));
	}
}

/* The touch probe of each backend, of nodes whose module has one. */
static void per_backend_touch(FILE *out, const struct metrics_node *nodes,
			      int count)
{
	static const char *const verdicts[] = { "cached", "missed", "skipped" };
	const struct cp_backend_info *be;
	uint64_t lines[3];
	int i, b, v;

	for (i = 0; i < count && !nodes[i].info->backend[0].has_touch; i++)
		;
	if (i == count)
		return;
	family(out, "clearpage_touch_lines_total", "counter",
	       "Lines of non-temporally cleared pages the touch probe loaded some time after the clear, per node and backend: cached (the application touched them since, paying the miss the clear moved to it), missed, or skipped (freed before the probe).");
	for (i = 0; i < count; i++) {
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
			be = &nodes[i].info->backend[b];
			if (!be->has_touch)
				continue;
			lines[0] = be->touch_cached;
			lines[1] = be->touch_probed - be->touch_cached;
			lines[2] = be->touch_skipped;
			for (v = 0; v < 3; v++) {
				fprintf(out, "clearpage_touch_lines_total{node=\"%u\",backend=\"%s\",verdict=\"%s\"} ",
					nodes[i].info->node, cp_backend_name(b),
					verdicts[v]);
				value(out, (double)lines[v]);
			}
		}
	}
}

/* The huge backend's probe, of nodes whose module has one. */
static void per_node_probe(FILE *out, const struct metrics_node *nodes,
			   int count)
{
	const struct cp_backend_info *be;
	int i;

	for (i = 0; i < count && !nodes[i].info->backend[CLEARPAGE_BACKEND_HUGE].has_probe; i++)
		;
	if (i == count)
		return;
	family(out, "clearpage_probe", "gauge",
	       "1 while the node's huge backend is in probe mode (probe_huge): each folio cleared with the mode's hot or cold strategy as its timed loads find it.");
	for (i = 0; i < count; i++) {
		be = &nodes[i].info->backend[CLEARPAGE_BACKEND_HUGE];
		if (be->has_probe)
			fprintf(out, "clearpage_probe{node=\"%u\"} %d\n",
				nodes[i].info->node, be->probe);
	}
	family(out, "clearpage_probe_folios_total", "counter",
	       "Huge folios the probe (its mode, and the temperature sample) judged hot and cold, per node.");
	for (i = 0; i < count; i++) {
		be = &nodes[i].info->backend[CLEARPAGE_BACKEND_HUGE];
		if (!be->has_probe)
			continue;
		fprintf(out, "clearpage_probe_folios_total{node=\"%u\",verdict=\"hot\"} ",
			nodes[i].info->node);
		value(out, (double)be->probe_hot_folios);
		fprintf(out, "clearpage_probe_folios_total{node=\"%u\",verdict=\"cold\"} ",
			nodes[i].info->node);
		value(out, (double)be->probe_cold_folios);
	}
	family(out, "clearpage_probe_pages_total", "counter",
	       "4 KiB pages the 4k backend's temperature sample judged hot and cold, per node.");
	for (i = 0; i < count; i++) {
		be = &nodes[i].info->backend[CLEARPAGE_BACKEND_4K];
		if (!be->has_probe)
			continue;
		fprintf(out, "clearpage_probe_pages_total{node=\"%u\",verdict=\"hot\"} ",
			nodes[i].info->node);
		value(out, (double)be->probe_hot_folios);
		fprintf(out, "clearpage_probe_pages_total{node=\"%u\",verdict=\"cold\"} ",
			nodes[i].info->node);
		value(out, (double)be->probe_cold_folios);
	}
	family(out, "clearpage_probe_seconds_total", "counter",
	       "Time the probe's loads took, per node (both backends).");
	for (i = 0; i < count; i++) {
		be = &nodes[i].info->backend[CLEARPAGE_BACKEND_HUGE];
		if (!be->has_probe)
			continue;
		fprintf(out, "clearpage_probe_seconds_total{node=\"%u\"} ",
			nodes[i].info->node);
		value(out, (be->probe_ns +
			    nodes[i].info->backend[CLEARPAGE_BACKEND_4K].probe_ns) / 1e9);
	}
}

/* A label's value as the text format escapes it. */
static void label_value(FILE *out, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', out);
		if (*v == '\n')
			fputs("\\n", out);
		else
			fputc(*v, out);
	}
}

/*
 * The old name's HELP: deprecated, kept one release more.
 */
static void deprecated_help(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "Deprecated name of %s (kept one release more).",
		 name);
}

/*
 * One of the daemon's counters per node and backend, under its name and,
 * for one release more, under the clearpaged_ name it had.
 */
static void daemon_counter(FILE *out, const struct metrics_node *nodes,
			   int count, const char *name, const char *old,
			   const char *help,
			   double (*value_of)(const struct metrics_node *node,
					      int backend))
{
	char old_help[160];

	per_backend(out, nodes, count, name, "counter", help, value_of);
	deprecated_help(old_help, sizeof(old_help), name);
	per_backend(out, nodes, count, old, "counter", old_help, value_of);
}

/*
 * One of the daemon's gauges, under its name and, for one release more,
 * under the clearpaged_ name it had.
 */
static void daemon_gauge(FILE *out, const char *name, const char *old,
			 const char *help, const char *format, ...)
{
	char v[64], old_help[160];
	va_list ap;

	va_start(ap, format);
	vsnprintf(v, sizeof(v), format, ap);
	va_end(ap);
	family(out, name, "gauge", help);
	fprintf(out, "%s %s\n", name, v);
	deprecated_help(old_help, sizeof(old_help), name);
	family(out, old, "gauge", old_help);
	fprintf(out, "%s %s\n", old, v);
}

/*
 * The module's latency histogram, a Prometheus histogram per node: the
 * time per 4 KiB page of the timed clears, every backend and strategy. A
 * bucket of the module holds the pages below its bound (the first, those
 * below 64 ns); the sum is the timed clears' time, the count their pages.
 */
static void per_node_latency(FILE *out, const struct metrics_node *nodes,
			     int count)
{
	const char *name = "clearpage_clear_page_latency_seconds";
	int i, k, b, bucket;

	family(out, name, "histogram",
	       "Time per 4 KiB page of the timed clears (one in 2^sample_shift), per node, every backend and strategy; the module's log2 buckets from 64 ns, each counting the pages below its bound (exactly 128 ns counts under le=2.56e-07).");
	for (i = 0; i < count; i++) {
		const struct cp_node_info *n = nodes[i].info;
		uint64_t below = 0, ns = 0;

		for (bucket = 0; bucket < CLEARPAGE_LATENCY_BUCKETS - 1;
		     bucket++) {
			below += n->latency[bucket];
			fprintf(out, "%s_bucket{node=\"%u\",le=\"%.9g\"} %llu\n",
				name, n->node,
				(double)(1ULL << (CLEARPAGE_LATENCY_FIRST_SHIFT +
						  bucket)) / 1e9,
				(unsigned long long)below);
		}
		below += n->latency[CLEARPAGE_LATENCY_BUCKETS - 1];
		fprintf(out, "%s_bucket{node=\"%u\",le=\"+Inf\"} %llu\n", name,
			n->node, (unsigned long long)below);
		for (k = 0; k < n->nr_strategies; k++)
			for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
				ns += n->strategies[k].sample_ns[b];
		fprintf(out, "%s_sum{node=\"%u\"} ", name, n->node);
		value(out, ns / 1e9);
		/* The timed pages, as the buckets count them. */
		fprintf(out, "%s_count{node=\"%u\"} %llu\n", name, n->node,
			(unsigned long long)below);
	}
}

void metrics_format(FILE *out, const struct metrics_daemon *d,
		    const struct metrics_node *nodes, int count)
{
	int i, k, b;

	daemon_gauge(out, "clearpage_daemon_up", "clearpaged_up",
		     "1 while clearpaged runs; 0 written as it stops. A 1 that is not renewed (clearpage_daemon_last_update_timestamp_seconds) is a daemon that died.",
		     "%d", !d->stopped);
	daemon_gauge(out, "clearpage_daemon_last_update_timestamp_seconds",
		     "clearpaged_last_update_timestamp_seconds",
		     "When clearpaged last wrote this file (every interval while it runs), in seconds since the epoch.",
		     "%.3f", d->now);
	family(out, "clearpage_daemon_interval_seconds", "gauge",
	       "Interval=: how often clearpaged rewrites this file while it runs (the rules call a file older than 3 intervals, at least 5 minutes, stale).");
	fprintf(out, "clearpage_daemon_interval_seconds %g\n", d->interval);
	family(out, "clearpage_daemon_failed", "gauge",
	       "1 when clearpaged stopped on an error (written as it stops); 0 while it runs and after a stop asked for (systemctl stop).");
	fprintf(out, "clearpage_daemon_failed %d\n", d->stopped && d->failed);
	daemon_gauge(out, "clearpage_daemon_module_attached",
		     "clearpaged_module_attached",
		     "1 when the clearpage module is loaded and clearpaged is attached to it.",
		     "%d", d->attached);
	daemon_gauge(out, "clearpage_daemon_monitor_only",
		     "clearpaged_monitor_only",
		     "1 when clearpaged only monitors: the CPU is not on the allowlist, or the allowlist cannot be read.",
		     "%d", d->monitor_only);
	daemon_gauge(out, "clearpage_daemon_dry_run", "clearpaged_dry_run",
		     "1 when clearpaged decides but changes nothing (DryRun=yes).",
		     "%d", d->dry_run);
	daemon_gauge(out, "clearpage_daemon_cache_miss_counters_in_use",
		     "clearpaged_cache_miss_counters",
		     "1 when clearpaged reads LLC miss counters from the PMU, 0 when it decides without them.",
		     "%d", d->pmu);
	family(out, "clearpage_build_info", "gauge",
	       "1, labelled with clearpaged's version and the loaded module's (empty: not loaded, or a module without one).");
	fputs("clearpage_build_info{version=\"", out);
	label_value(out, d->version ? d->version : "");
	fputs("\",module_version=\"", out);
	label_value(out, d->module_version ? d->module_version : "");
	fputs("\"} 1\n", out);
	if (!count)
		return;

	per_strategy(out, nodes, count, "clearpage_pages_cleared_total",
		     "Base pages cleared by the module, per node, backend (4k or huge) and strategy.",
		     pages_of, false);
	per_strategy(out, nodes, count, "clearpage_range_operations_total",
		     "Range operations of the huge backend (one per chunk of a folio), per node and strategy.",
		     ranges_of, true);
	per_strategy(out, nodes, count, "clearpage_sampled_clears_total",
		     "Timed pages (one in 2^sample_shift), per node, backend and strategy.",
		     samples_of, false);
	per_strategy(out, nodes, count, "clearpage_sampled_clear_seconds_total",
		     "Time spent clearing the timed pages, per node, backend and strategy; divided by clearpage_sampled_clears_total: seconds per 4 KiB page.",
		     seconds_of, false);
	per_backend(out, nodes, count, "clearpage_reference_pages_total", "counter",
		    "Reference frames cleared and timed with the kernel's own routine beside any other strategy (the live baseline), per node and backend.",
		    reference_pages_of);
	family(out, "clearpage_strategy", "gauge",
	       "1 for the strategy the node's backend runs now, 0 for the others available.");
	for (i = 0; i < count; i++)
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
			for (k = 0; k < nodes[i].info->nr_strategies; k++)
				fprintf(out, "clearpage_strategy{node=\"%u\",backend=\"%s\",strategy=\"%s\"} %d\n",
					nodes[i].info->node, cp_backend_name(b),
					strategy_of(&nodes[i], k),
					nodes[i].info->strategies[k].strategy ==
					nodes[i].info->backend[b].strategy);
	per_backend(out, nodes, count, "clearpage_pinned", "gauge",
		    "1 when an administrator pinned the node's backend; clearpaged leaves it alone.",
		    pinned_of);
	per_backend(out, nodes, count, "clearpage_cold_fraction", "gauge",
		    "The policy's estimate of the share of cold pages cleared in the last interval (NaN: unknown).",
		    cold_fraction_of);
	per_backend(out, nodes, count, "clearpage_clear_seconds_per_page", "gauge",
		    "Mean time per page of the timed clears of the last interval with the backend's strategy (NaN: none).",
		    seconds_per_page_of);
	daemon_counter(out, nodes, count, "clearpage_daemon_switches_total",
		       "clearpaged_switches_total",
		       "Strategy switches clearpaged made on the node's backend since it started.",
		       switches_of);
	daemon_counter(out, nodes, count, "clearpage_daemon_reverts_total",
		       "clearpaged_reverts_total",
		       "Switches clearpaged reverted on the node's backend because they did worse.",
		       reverts_of);
	daemon_counter(out, nodes, count, "clearpage_daemon_pins_seen_total",
		       "clearpaged_pins_seen_total",
		       "Administrator pins clearpaged saw on the node's backend.",
		       pins_seen_of);
	daemon_counter(out, nodes, count, "clearpage_daemon_slower_returns_total",
		       "clearpaged_slower_returns_total",
		       "Returns to kernel because the node's backend's strategy was slower than the kernel's routine over the window.",
		       slower_returns_of);
	per_backend(out, nodes, count, "clearpage_kernel_estimate_seconds_total", "counter",
		    "Time the kernel's own routine would have taken to clear the pages the node's backend cleared since clearpaged attached, estimated interval by interval from the live baseline.",
		    kernel_estimate_of);
	per_backend(out, nodes, count, "clearpage_clear_estimate_seconds_total", "counter",
		    "Time the node's backend took for those pages, estimated the same way; the difference of the two is the time saved.",
		    clear_estimate_of);
	per_backend(out, nodes, count, "clearpage_saved_seconds", "gauge",
		    "Time saved against the kernel's routine since clearpaged attached (negative: lost).",
		    saved_of);
	per_backend(out, nodes, count, "clearpage_saved_uncertainty_seconds", "gauge",
		    "One standard deviation of clearpage_saved_seconds (NaN: unknown).",
		    saved_uncertainty_of);
	per_node_helpers(out, nodes, count, "clearpage_gigantic_helpers", "gauge",
			 "How many of the node's other CPUs help clear each 1 GiB page (gigantic_helpers).",
			 helpers_of);
	per_node_helpers(out, nodes, count, "clearpage_gigantic_helped_folios_total", "counter",
			 "1 GiB folios cleared with helpers on the node.",
			 helped_folios_of);
	per_node_helpers(out, nodes, count, "clearpage_gigantic_helper_pages_total", "counter",
			 "Base pages of those folios the helpers cleared (the faulting task cleared the rest).",
			 helper_pages_of);
	per_node_helpers(out, nodes, count, "clearpage_gigantic_helpers_not_started_total", "counter",
			 "Helpers that had not started when every range was taken: cancelled, not waited for (their CPU was busy).",
			 helpers_not_started_of);
	per_node_probe(out, nodes, count);
	per_backend_touch(out, nodes, count);
	per_node_latency(out, nodes, count);
}

struct metrics_args {
	const struct metrics_daemon *daemon;
	const struct metrics_node *nodes;
	int count;
};

static void fill_metrics(FILE *f, const void *arg)
{
	const struct metrics_args *a = arg;

	metrics_format(f, a->daemon, a->nodes, a->count);
}

int metrics_write(const char *path, const struct metrics_daemon *daemon,
		  const struct metrics_node *nodes, int count)
{
	struct metrics_args args = { daemon, nodes, count };

	return cp_file_replace(path, fill_metrics, &args);
}
