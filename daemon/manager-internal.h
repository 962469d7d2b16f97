/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of clearpaged share: the manager (manager.c: the event
 * loop, attach and detach), each backend's state (step.c steps it every
 * interval) and the reports (report.c).
 */
#ifndef CLEARPAGED_MANAGER_INTERNAL_H
#define CLEARPAGED_MANAGER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libudev.h>
#include <systemd/sd-event.h>

#include "allowlist.h"
#include "baseline.h"
#include "clearpage-client.h"
#include "config.h"
#include "log.h"
#include "manager.h"
#include "metrics.h"
#include "pmu.h"
#include "policy.h"
#include "savings-file.h"
#include "state-file.h"

/*
 * What clearpaged keeps of one backend of one node: the two backends clear in
 * different patterns, so each has its own strategy, calibration, samples
 * and decisions.
 */
struct backend_state {
	bool known;
	struct policy_backend policy;	/* the policy's state, the counters */
	bool pinned;
	bool changed_by_us;
	int dry_run_logged;		/* last proposal logged in dry run */
	double cold_fraction;		/* last estimate, for STATUS= */
	double ns_per_page;		/* last interval's, for metrics */
	uint64_t switches, reverts, pins_seen;
	/* The live baseline: time saved; the guard's warning said. */
	struct baseline_savings savings;
	bool slower_warned;		/* said for this window */
	uint64_t slower_returns;
	/* Reset by clearpagectl: left alone until unpin or a reload. */
	bool held;
	/* The last decision, for clearpagectl status. */
	struct {
		long long when;		/* seconds since the epoch; 0: none */
		const char *action;
		int from, to;
		char reason[CP_REASON_MAX];
	} decision;
};

struct node_state {
	struct backend_state backends[CLEARPAGE_BACKEND_COUNT];
	bool pmu_open;
	struct pmu_node pmu;
	uint64_t accounting_since;	/* CLOCK_REALTIME, µs; 0: not yet */
	uint64_t last_summary;		/* CLOCK_MONOTONIC, µs */
};

struct manager {
	struct daemon_config config;
	const char *config_root;
	struct daemon_overrides overrides;	/* the command line's */
	sd_event *event;
	sd_event_source *timer;
	sd_event_source *events_source;
	sd_event_source *udev_source;
	struct udev *udev;
	struct udev_monitor *udev_monitor;
	struct cp_client *client;
	struct cp_events *events;
	struct allowlist allowlist;
	bool allowlist_loaded;
	unsigned int allowed;
	bool monitor_only;
	char monitor_reason[CP_REASON_MAX];
	bool waiting_logged;
	bool pmu_unavailable;		/* said once; retried on CPU hotplug */
	bool no_counters;		/* the module shows us none: said once */
	bool pmu_in_use;
	int metrics_error;		/* last MetricsFile= error, logged once */
	int savings_error;		/* last savings file error, logged once */
	char savings_file[4096];
	/* clearpagectl status's view of the daemon; reset's held backends. */
	char state_file[4096], held_file[4096];
	int state_error;
	struct node_state nodes[CONFIG_MAX_NODES];
	struct cp_node_info infos[CP_MAX_NODES];
};

/* step.c */
void manager_step_node(struct manager *m, const struct cp_node_info *info,
		       char *status, size_t status_size);
void manager_refresh_held(struct manager *m);
int manager_set_backend(struct manager *m, unsigned int node, int backend,
			struct backend_state *u,
			const struct policy_decision *d, const char *what);

/* node-config.c */
void manager_decide_allowlist(struct manager *m);
void manager_apply_node_config(struct manager *m);

/* report.c */
void report_status_line(char *status, size_t size,
			const struct cp_node_info *info,
			const struct node_state *n);
void report_summary(struct manager *m, const struct cp_node_info *info,
		    struct node_state *n);
void report_savings(struct manager *m, int count);
void report_state(struct manager *m, int count);
void report_metrics(struct manager *m, int count, bool stopped,
		    bool failed);
void report_metrics_stopped(struct manager *m, const char *path, bool failed);

#endif /* CLEARPAGED_MANAGER_INTERNAL_H */
