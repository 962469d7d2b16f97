/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libclearpage: talk to clearpage.ko over its generic netlink family
 * (include/uapi/clearpage.h) with libnl-genl-3. Used by clearpagectl and
 * clearpaged.
 *
 * Every function returns 0 (or a count) on success and a negative errno on
 * failure; cp_client_error() then gives the kernel's extended ack message,
 * if it sent one. cp_client_open() fails with -ENOENT when the module is not
 * loaded, and with -EPROTO when the loaded one registered an older version
 * of the family than CLEARPAGE_GENL_VERSION (an old module still loaded
 * after an upgrade).
 */
#ifndef CLEARPAGE_CLIENT_H
#define CLEARPAGE_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include <uapi/clearpage.h>

#include "policy.h"

struct nl_msg;
struct nlmsghdr;

/* Backend arguments: one of enum clearpage_backend, or every one. */
#define CP_BACKEND_ALL (-1)

struct cp_strategy_info {
	int strategy;
	/* Per backend (enum clearpage_backend). */
	uint64_t pages[CLEARPAGE_BACKEND_COUNT];
	uint64_t samples[CLEARPAGE_BACKEND_COUNT];
	uint64_t sample_ns[CLEARPAGE_BACKEND_COUNT];
	/* Range operations of the huge backend (one per chunk). */
	uint64_t ranges_huge;
	/* Trial frames cleared with this strategy as a candidate, all timed. */
	uint64_t trial_pages[CLEARPAGE_BACKEND_COUNT];
	uint64_t trial_ns[CLEARPAGE_BACKEND_COUNT];
	bool has_calibration;
	uint32_t hot_ns[CLEARPAGE_BACKEND_COUNT];
	uint32_t cold_ns[CLEARPAGE_BACKEND_COUNT];
};

/* What one backend runs on a node. */
struct cp_backend_info {
	int strategy;
	bool pinned;
	int source;
	uint64_t last_change_ns;
	/* Reference frames: kernel clears timed beside movnti/clzero. */
	uint64_t reference_pages;
	uint64_t reference_sample_ns;
	/* Candidates timed on trial frames: a bit per strategy. */
	bool has_trials;		/* the module runs trials (0.3) */
	uint32_t trials;
	/* The probe mode (clearpage.ko 0.4): hot and cold folios' strategies. */
	bool has_probe;
	bool probe;
	int probe_hot;
	int probe_cold;
	uint64_t probe_hot_folios;
	uint64_t probe_cold_folios;
	uint64_t probe_ns;
	/* Of probe_hot_folios, those hot only as recycled (0: a module without). */
	uint64_t probe_recycled_folios;
	/*
	 * The touch probe (clearpage.ko 0.4): lines of non-temporally cleared
	 * pages loaded some time later, those found cached (touched by the
	 * application since), and held pages freed before their probe.
	 */
	bool has_touch;
	uint64_t touch_probed;
	uint64_t touch_cached;
	uint64_t touch_skipped;
};

/* The probe's calibration (nodeN/probe_calibration), TSC ticks. */
struct cp_probe_calibration {
	bool present;			/* the module has a probe (0.4) */
	uint32_t hot_ticks;
	uint32_t cold_ticks;
	uint32_t threshold_ticks;	/* 0: it cannot tell, and is refused */
};

struct cp_node_info {
	uint32_t node;
	/*
	 * The reply had the counters and calibrations: the module gives them
	 * only to a reader with CAP_PERFMON or CAP_SYS_ADMIN. Without, every
	 * counter here reads 0, no strategy has_calibration, probe.present
	 * is false, and has_touch too; the strategies, pins, sources, trials,
	 * probe modes and helpers are there.
	 */
	bool has_counters;
	struct cp_backend_info backend[CLEARPAGE_BACKEND_COUNT];
	uint64_t pages_huge_prezeroed;
	/* Gigantic folios cleared with the node's helpers (clearpage.ko 0.4). */
	bool has_helpers;
	uint32_t helpers;		/* nodeN/gigantic_helpers */
	uint64_t helped_folios;
	uint64_t helper_pages;
	uint64_t helpers_started;
	uint64_t helpers_not_started;
	struct cp_probe_calibration probe;
	int nr_strategies;
	struct cp_strategy_info strategies[CLEARPAGE_STRATEGY_COUNT];
	uint64_t latency[CLEARPAGE_LATENCY_BUCKETS];
};

struct cp_event {
	uint32_t node;
	int backend;
	int old_strategy;
	int strategy;
	bool pinned;
	int source;
	uint64_t time_ns;
};

#define CP_MAX_NODES 1024

struct cp_client;

int cp_client_open(struct cp_client **client);
void cp_client_close(struct cp_client *client);
const char *cp_client_error(const struct cp_client *client);

int cp_get_node(struct cp_client *client, uint32_t node,
		struct cp_node_info *info);
/* Fills up to @max nodes in node order; returns how many. */
int cp_dump_nodes(struct cp_client *client, struct cp_node_info *nodes,
		  int max);
/* @backend: enum clearpage_backend, or CP_BACKEND_ALL. */
int cp_set_strategy(struct cp_client *client, uint32_t node, int backend,
		    int strategy, int source);
int cp_set_pinned(struct cp_client *client, uint32_t node, int backend,
		  bool pinned);
/* The candidates of @backend's trial frames, a bit per strategy; 0: none. */
int cp_set_trials(struct cp_client *client, uint32_t node, int backend,
		  uint32_t trials);
/* How many of the node's other CPUs help clear a gigantic folio. */
int cp_set_helpers(struct cp_client *client, uint32_t node, uint32_t helpers);
/*
 * The probe mode of @backend: @on, hot folios cleared with @hot, cold ones
 * with @cold; off (@on false) ignores both. A negative strategy is left out
 * of the request (which the module refuses). @source: an administrator's
 * (pins the backend) or the daemon's (refused on a pinned backend with
 * -EBUSY, pins nothing).
 */
int cp_set_probe(struct cp_client *client, uint32_t node, int backend, bool on,
		 int hot, int cold, int source);
int cp_calibrate(struct cp_client *client, uint32_t node,
		 struct cp_node_info *info);

/* Events: a separate subscription, pollable through its fd. */
struct cp_events;
typedef void (*cp_event_fn)(const struct cp_event *event, void *arg);
int cp_events_open(struct cp_events **events);
void cp_events_close(struct cp_events *events);
int cp_events_fd(const struct cp_events *events);
/* Receive what is pending (blocking if nothing is) and call @fn per event. */
int cp_events_receive(struct cp_events *events, cp_event_fn fn, void *arg);

/* Message building and parsing, usable without a kernel. */
struct nl_msg *cp_msg_new(int family, uint8_t cmd, int flags);
struct nl_msg *cp_msg_set_strategy(int family, uint32_t node, int backend,
				   int strategy, int source);
struct nl_msg *cp_msg_set_pinned(int family, uint32_t node, int backend,
				 bool pinned);
struct nl_msg *cp_msg_set_trials(int family, uint32_t node, int backend,
				 uint32_t trials);
struct nl_msg *cp_msg_set_helpers(int family, uint32_t node, uint32_t helpers);
struct nl_msg *cp_msg_set_probe(int family, uint32_t node, int backend,
			       bool on, int hot, int cold, int source);
struct nl_msg *cp_msg_node(int family, uint8_t cmd, uint32_t node);
int cp_parse_node(struct nlmsghdr *nlh, struct cp_node_info *info);
/* -ENOMSG: a message of another command; -EINVAL: malformed. */
int cp_parse_event(struct nlmsghdr *nlh, struct cp_event *event);
/* The NLMSGERR_ATTR_MSG of an NLMSG_ERROR, or NULL. */
const char *cp_parse_extack(const struct nlmsghdr *nlh);

/* Names. */
const char *cp_strategy_name(int strategy);
int cp_strategy_from_name(const char *name);
const char *cp_source_name(int source);
/* "4k", "huge"; "all" for CP_BACKEND_ALL. */
const char *cp_backend_name(int backend);
/* A backend name, or "all" (CP_BACKEND_ALL); -EINVAL otherwise. */
int cp_backend_from_name(const char *name);
const struct cp_strategy_info *cp_node_strategy(const struct cp_node_info *info,
						int strategy);

/*
 * What the module counts for @backend of the node (@info), as the policy
 * takes it: every strategy's pages (reference and trial frames are not in
 * them), the current strategy's timed clears (in probe mode the mode's two
 * strategies'), the reference frames, each candidate's trial frames, and
 * the temperature and touch probes' counts.
 */
void cp_backend_counters(const struct cp_node_info *info, int backend,
			 struct policy_counters *counters);

#endif /* CLEARPAGE_CLIENT_H */
