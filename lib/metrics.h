/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Prometheus text-format metrics of clearpaged (MetricsFile=), for
 * node_exporter's textfile collector: per node, backend and strategy pages
 * cleared and sampled clear time, and per node and backend the current
 * strategy, pin, cold fraction, last measured ns/page, and the daemon's
 * switches, reverts and pins seen; per node the latency histogram; the
 * daemon's state and build_info. One prefix, clearpage_; the daemon's
 * former clearpaged_ names are written beside theirs one release more. Written
 * to a temporary file in the same directory and renamed over the old one,
 * so a reader never sees half a file.
 */
#ifndef CLEARPAGED_METRICS_H
#define CLEARPAGED_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "clearpage-client.h"

/* The daemon's view of one backend of a node. */
struct metrics_unit {
	double cold_fraction;		/* < 0: unknown */
	double ns_per_page;		/* last interval; <= 0: none */
	uint64_t switches, reverts, pins_seen;
	/* The live baseline, since clearpaged attached to the module. */
	uint64_t slower_returns;	/* returns to kernel of a slower strategy */
	double kernel_estimate_ns;	/* the kernel routine's estimated time */
	double saved_ns;		/* of it, saved */
	double saved_uncertainty_ns;	/* one standard deviation; < 0: unknown */
};

struct metrics_node {
	const struct cp_node_info *info;
	struct metrics_unit unit[CLEARPAGE_BACKEND_COUNT];
};

struct metrics_daemon {
	bool stopped;			/* the last write: clearpaged stopped */
	double now;			/* CLOCK_REALTIME, seconds */
	bool attached;			/* the module is loaded */
	bool monitor_only;
	bool dry_run;
	bool pmu;			/* cache-miss counters in use */
	bool failed;			/* with stopped: on an error */
	double interval;		/* Interval=, seconds */
	const char *version;		/* clearpaged's, for build_info */
	const char *module_version;	/* the loaded module's; NULL: none */
};

void metrics_format(FILE *out, const struct metrics_daemon *daemon,
		    const struct metrics_node *nodes, int count);

/* Returns 0 or a negative errno. */
int metrics_write(const char *path, const struct metrics_daemon *daemon,
		  const struct metrics_node *nodes, int count);

#endif /* CLEARPAGED_METRICS_H */
