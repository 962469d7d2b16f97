// SPDX-License-Identifier: GPL-2.0
/*
 * clearpaged's Prometheus metrics: the text has every family with HELP and
 * TYPE and the values given; the file is replaced atomically, mode 0644,
 * with no temporary file left; and, where promtool is found (PATH or the
 * directory given as argv[1]), "promtool check metrics" accepts it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "metrics.h"



static char text[65536];

static void format(const struct metrics_daemon *d,
		   const struct metrics_node *nodes, int count)
{
	FILE *f = fmemopen(text, sizeof(text) - 1, "w");

	memset(text, 0, sizeof(text));
	metrics_format(f, d, nodes, count);
	fclose(f);
}

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") &&
					     strcmp(e->d_name, ".."));
	if (d)
		closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	struct cp_node_info info[2] = {
		{ .node = 0, .nr_strategies = 2,
		  .has_helpers = true, .helpers = 3, .helped_folios = 4,
		  .helper_pages = 700000, .helpers_started = 10,
		  .helpers_not_started = 2,
		  /* below 128 ns: 24 pages; below 256 ns: 70 */
		  .latency = { 0, 24, 70 },
		  .backend = {
			[CLEARPAGE_BACKEND_4K] = {
				.strategy = CLEARPAGE_STRATEGY_MOVNTI,
				.reference_pages = 77, .has_touch = true,
				.touch_probed = 50, .touch_cached = 20,
				.touch_skipped = 3, .has_probe = true,
				.probe_hot_folios = 40, .probe_cold_folios = 2,
				.probe_ns = 250000000 },
			[CLEARPAGE_BACKEND_HUGE] = {
				.strategy = CLEARPAGE_STRATEGY_KERNEL,
				.has_probe = true, .probe = true,
				.probe_hot_folios = 6, .probe_cold_folios = 9,
				.probe_ns = 500000000 },
		  },
		  .strategies = {
			{ .strategy = CLEARPAGE_STRATEGY_KERNEL,
			  .pages = { 0, 1024 }, .samples = { 0, 16 },
			  .sample_ns = { 0, 6400 }, .ranges_huge = 1024 },
			{ .strategy = CLEARPAGE_STRATEGY_MOVNTI,
			  .pages = { 4096, 512 }, .samples = { 70, 8 },
			  .sample_ns = { 14000, 800 }, .ranges_huge = 1 },
		  } },
		{ .node = 1, .nr_strategies = 1,
		  .backend = {
			[CLEARPAGE_BACKEND_4K] = {
				.strategy = CLEARPAGE_STRATEGY_KERNEL },
			[CLEARPAGE_BACKEND_HUGE] = {
				.strategy = CLEARPAGE_STRATEGY_KERNEL,
				.pinned = true },
		  },
		  .strategies = { { .strategy = CLEARPAGE_STRATEGY_KERNEL } } },
	};
	struct metrics_node nodes[2] = {
		{ .info = &info[0],
		  .unit = { { .cold_fraction = 0.93, .ns_per_page = 205,
			      .switches = 3, .reverts = 1,
			      .kernel_estimate_ns = 4e6, .saved_ns = 1e6,
			      .saved_uncertainty_ns = 2e5 },
			    { .cold_fraction = -1, .switches = 5 } } },
		{ .info = &info[1],
		  .unit = { { .cold_fraction = -1 },
			    { .cold_fraction = -1, .pins_seen = 2 } } },
	};
	struct metrics_daemon d = { .attached = true, .now = 1764600000.25,
				    .version = "9.8.7",
				    .module_version = "9.8.\"6" };
	char dir[] = "/tmp/test-metrics-XXXXXX", path[256], cmd[1024];
	const char *promtool_dir = argc > 1 ? argv[1] : "";
	struct stat st;
	int err;

	/* --dump: the fixture's metrics on stdout, for the man-page test. */
	if (argc > 1 && !strcmp(argv[1], "--dump")) {
		metrics_format(stdout, &d, nodes, 2);
		return 0;
	}
	format(&d, nodes, 2);
	CHECK(strstr(text, "# TYPE clearpage_pages_cleared_total counter\n") &&
	      strstr(text, "clearpage_pages_cleared_total{node=\"0\",backend=\"4k\",strategy=\"movnti\"} 4096\n") &&
	      strstr(text, "clearpage_pages_cleared_total{node=\"0\",backend=\"huge\",strategy=\"movnti\"} 512\n"),
	      "pages cleared per node, backend and strategy");
	CHECK(strstr(text, "clearpage_range_operations_total{node=\"0\",backend=\"huge\",strategy=\"kernel\"} 1024\n") &&
	      strstr(text, "clearpage_range_operations_total{node=\"0\",backend=\"huge\",strategy=\"movnti\"} 1\n"),
	      "range operations of the huge backend");
	CHECK(strstr(text, "clearpage_sampled_clears_total{node=\"0\",backend=\"4k\",strategy=\"movnti\"} 70\n") &&
	      strstr(text, "clearpage_sampled_clear_seconds_total{node=\"0\",backend=\"4k\",strategy=\"movnti\"} 1.4e-05\n") &&
	      strstr(text, "clearpage_sampled_clears_total{node=\"0\",backend=\"huge\",strategy=\"movnti\"} 8\n"),
	      "sampled clears and their time per backend, in seconds");
	CHECK(strstr(text, "clearpage_strategy{node=\"0\",backend=\"4k\",strategy=\"movnti\"} 1\n") &&
	      strstr(text, "clearpage_strategy{node=\"0\",backend=\"4k\",strategy=\"kernel\"} 0\n") &&
	      strstr(text, "clearpage_strategy{node=\"0\",backend=\"huge\",strategy=\"kernel\"} 1\n") &&
	      strstr(text, "clearpage_pinned{node=\"1\",backend=\"huge\"} 1\n") &&
	      strstr(text, "clearpage_pinned{node=\"1\",backend=\"4k\"} 0\n"),
	      "current strategy per backend as a state set, and pins");
	CHECK(strstr(text, "clearpage_cold_fraction{node=\"0\",backend=\"4k\"} 0.93000000000000005\n") &&
	      strstr(text, "clearpage_cold_fraction{node=\"1\",backend=\"4k\"} NaN\n") &&
	      strstr(text, "clearpage_clear_seconds_per_page{node=\"1\",backend=\"huge\"} NaN\n"),
	      "cold fraction, NaN when unknown");
	CHECK(strstr(text, "clearpage_daemon_switches_total{node=\"0\",backend=\"4k\"} 3\n") &&
	      strstr(text, "clearpage_daemon_switches_total{node=\"0\",backend=\"huge\"} 5\n") &&
	      strstr(text, "clearpage_daemon_reverts_total{node=\"0\",backend=\"4k\"} 1\n") &&
	      strstr(text, "clearpage_daemon_pins_seen_total{node=\"1\",backend=\"huge\"} 2\n") &&
	      strstr(text, "clearpage_reference_pages_total{node=\"0\",backend=\"4k\"} 77\n"),
	      "switches, reverts, pins seen, reference pages per backend");
	CHECK(strstr(text, "# TYPE clearpage_gigantic_helpers gauge\n") &&
	      strstr(text, "clearpage_gigantic_helpers{node=\"0\"} 3\n") &&
	      strstr(text, "clearpage_gigantic_helped_folios_total{node=\"0\"} 4\n") &&
	      strstr(text, "clearpage_gigantic_helper_pages_total{node=\"0\"} 700000\n") &&
	      strstr(text, "clearpage_gigantic_helpers_not_started_total{node=\"0\"} 2\n") &&
	      !strstr(text, "clearpage_gigantic_helpers{node=\"1\"}"),
	      "gigantic helpers per node, only where the module has them");
	CHECK(strstr(text, "# TYPE clearpage_probe gauge\n") &&
	      strstr(text, "clearpage_probe{node=\"0\"} 1\n") &&
	      strstr(text, "clearpage_probe_folios_total{node=\"0\",verdict=\"hot\"} 6\n") &&
	      strstr(text, "clearpage_probe_folios_total{node=\"0\",verdict=\"cold\"} 9\n") &&
	      strstr(text, "clearpage_probe_pages_total{node=\"0\",verdict=\"hot\"} 40\n") &&
	      strstr(text, "clearpage_probe_pages_total{node=\"0\",verdict=\"cold\"} 2\n") &&
	      strstr(text, "clearpage_probe_seconds_total{node=\"0\"} 0.75\n") &&
	      !strstr(text, "clearpage_probe{node=\"1\"}"),
	      "the probe per node, only where the module has one");
	CHECK(strstr(text, "# TYPE clearpage_touch_lines_total counter\n") &&
	      strstr(text, "clearpage_touch_lines_total{node=\"0\",backend=\"4k\",verdict=\"cached\"} 20\n") &&
	      strstr(text, "clearpage_touch_lines_total{node=\"0\",backend=\"4k\",verdict=\"missed\"} 30\n") &&
	      strstr(text, "clearpage_touch_lines_total{node=\"0\",backend=\"4k\",verdict=\"skipped\"} 3\n") &&
	      !strstr(text, "backend=\"huge\",verdict=\"cached\""),
	      "the touch probe per node and backend, only where the module has one");
	CHECK(strstr(text, "clearpage_daemon_module_attached 1\n") != NULL,
	      "module attached");
	CHECK(strstr(text, "clearpage_daemon_up 1\n") &&
	      strstr(text, "clearpage_daemon_last_update_timestamp_seconds 1764600000.250\n") &&
	      strstr(text, "clearpage_daemon_failed 0\n"),
	      "running, and when it last wrote");
	/* One release more, the daemon's former names beside the new ones. */
	CHECK(strstr(text, "# TYPE clearpaged_up gauge\nclearpaged_up 1\n") &&
	      strstr(text, "clearpaged_last_update_timestamp_seconds 1764600000.250\n") &&
	      strstr(text, "clearpaged_module_attached 1\n") &&
	      strstr(text, "clearpaged_cache_miss_counters 0\n") &&
	      strstr(text, "clearpaged_switches_total{node=\"0\",backend=\"4k\"} 3\n") &&
	      strstr(text, "clearpaged_pins_seen_total{node=\"1\",backend=\"huge\"} 2\n") &&
	      strstr(text, "# HELP clearpaged_switches_total Deprecated name of clearpage_daemon_switches_total"),
	      "the former clearpaged_ names, marked deprecated");
	CHECK(strstr(text, "# TYPE clearpage_build_info gauge\n") &&
	      strstr(text, "clearpage_build_info{version=\"9.8.7\",module_version=\"9.8.\\\"6\"} 1\n"),
	      "build_info with both versions, a label value escaped");
	/*
	 * The histogram: node 0's 4k movnti and huge samples in buckets, the
	 * counts cumulative, +Inf the total, the sum the timed clears' time.
	 */
	CHECK(strstr(text, "# TYPE clearpage_clear_page_latency_seconds histogram\n") &&
	      strstr(text, "clearpage_clear_page_latency_seconds_bucket{node=\"0\",le=\"6.4e-08\"} 0\n") &&
	      strstr(text, "clearpage_clear_page_latency_seconds_bucket{node=\"0\",le=\"1.28e-07\"} 24\n") &&
	      strstr(text, "clearpage_clear_page_latency_seconds_bucket{node=\"0\",le=\"2.56e-07\"} 94\n") &&
	      strstr(text, "clearpage_clear_page_latency_seconds_bucket{node=\"0\",le=\"0.002097152\"} 94\n") &&
	      strstr(text, "clearpage_clear_page_latency_seconds_bucket{node=\"0\",le=\"+Inf\"} 94\n") &&
	      strstr(text, "clearpage_clear_page_latency_seconds_sum{node=\"0\"} 2.12e-05\n") &&
	      strstr(text, "clearpage_clear_page_latency_seconds_count{node=\"0\"} 94\n") &&
	      strstr(text, "clearpage_clear_page_latency_seconds_count{node=\"1\"} 0\n"),
	      "the latency histogram per node, in seconds per 4 KiB page");
	d.stopped = true;
	format(&d, NULL, 0);
	CHECK(strstr(text, "clearpage_daemon_up 0\n") &&
	      strstr(text, "clearpage_daemon_failed 0\n") &&
	      !strstr(text, "clearpage_pages_cleared_total"),
	      "the last write as it stops: not running, no per-node series");
	d.failed = true;
	format(&d, NULL, 0);
	CHECK(strstr(text, "clearpage_daemon_up 0\n") &&
	      strstr(text, "clearpage_daemon_failed 1\n"),
	      "a stop on an error says so");
	d.stopped = false;
	d.failed = false;
	d.attached = false;
	format(&d, NULL, 0);
	CHECK(strstr(text, "clearpage_daemon_module_attached 0\n") &&
	      strstr(text, "clearpage_build_info{") &&
	      !strstr(text, "clearpage_pages_cleared_total"),
	      "waiting for the module: the daemon's gauges only");

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/clearpage.prom", dir);
	d.attached = true;
	err = metrics_write(path, &d, nodes, 2);
	CHECK(err == 0 && stat(path, &st) == 0 && (st.st_mode & 0777) == 0644,
	      "written, mode 0644 (%d)", err);
	err = metrics_write(path, &d, nodes, 1);
	CHECK(err == 0 && entries(dir) == 1,
	      "rewritten in place, no temporary file left (%d entries)",
	      entries(dir));
	CHECK(metrics_write("/nonexistent-dir/clearpage.prom", &d, nodes, 2) == -ENOENT,
	      "an unwritable directory: -ENOENT");

	err = metrics_write(path, &d, nodes, 2);
	snprintf(cmd, sizeof(cmd),
		 "PATH=\"%s:$PATH\" command -v promtool >/dev/null", promtool_dir);
	if (system(cmd) != 0) {
		SKIP("promtool check metrics: promtool not found (tests/install-deps.sh extracts it from Debian's prometheus package)");
	} else {
		snprintf(cmd, sizeof(cmd),
			 "PATH=\"%s:$PATH\" promtool check metrics < %s", promtool_dir, path);
		CHECK(err == 0 && system(cmd) == 0, "promtool check metrics accepts it");
	}
	unlink(path);
	rmdir(dir);
	return check_summary();
}
