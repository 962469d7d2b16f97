// SPDX-License-Identifier: GPL-2.0
/* clearpagectl status: a table per node, or JSON for scripts. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "savings-file.h"
#include "state-file.h"
#include "ctl.h"

/*
 * clearpaged's state, from its state file (status only): 0 read, else
 * -errno (-ENOENT: not running); daemon_alive: its process is there.
 */
static struct cp_daemon_state daemon_state;
static int daemon_state_error = -ENOENT;
static bool daemon_alive, with_daemon;

static const struct cp_backend_state *daemon_backend(unsigned int node,
						     int backend)
{
	int i;

	for (i = 0; !daemon_state_error && i < daemon_state.count; i++)
		if (daemon_state.backends[i].node == node &&
		    daemon_state.backends[i].backend == backend)
			return &daemon_state.backends[i];
	return NULL;
}

static void print_daemon_table(void)
{
	const struct cp_daemon_state *d = &daemon_state;
	char when[64];

	if (daemon_state_error == -ENOENT) {
		ctl_wrapped(8, "clearpaged: not running (systemctl start clearpaged); the nodes keep what the module has");
		printf("\n");
		return;
	}
	if (daemon_state_error) {
		ctl_wrapped(8, "clearpaged: state unknown (%s: %s)", CP_STATE_FILE,
			    strerror(-daemon_state_error));
		printf("\n");
		return;
	}
	ctl_format_epoch(d->updated, when, sizeof(when));
	if (!daemon_alive) {
		ctl_wrapped(8, "clearpaged: not running (pid %d, last update %s: it did not stop cleanly)",
			    d->pid, when);
		printf("\n");
		return;
	}
	printf("clearpaged: running, pid %d, %s\n", d->pid,
	       d->attached ? "attached to the module" : "waiting for the module");
	if (d->monitor_only)
		ctl_wrapped(8, "  monitoring only: %s", d->monitor_reason);
	else if (d->dry_run)
		printf("  dry run: decisions are logged, not applied\n");
	else
		printf("  acting: switches unpinned backends\n");
	printf("  last update %s\n\n", when);
}

/* Seconds since the epoch, as every JSON time is: nanoseconds. */
static unsigned long long unix_ns(long long seconds)
{
	return seconds > 0 ? (unsigned long long)seconds * 1000000000ULL : 0;
}

static void daemon_json(struct json_object *root)
{
	const struct cp_daemon_state *d = &daemon_state;
	struct json_object *o = ctl_json_child(root, "daemon");

	ctl_json_bool(o, "running", !daemon_state_error && daemon_alive);
	if (daemon_state_error)
		return;
	ctl_json_int(o, "pid", d->pid);
	ctl_json_uint(o, "updated_unix_ns", unix_ns(d->updated));
	ctl_json_bool(o, "attached", d->attached);
	ctl_json_bool(o, "dry_run", d->dry_run);
	ctl_json_bool(o, "monitor_only", d->monitor_only);
	if (d->monitor_only)
		ctl_json_string(o, "monitor_reason", d->monitor_reason);
}

#define CP_MODULE_VERSION_FILE "/sys/module/clearpage/version"

/*
 * The loaded module's version (MODULE_VERSION, meson's) into @version: 0,
 * "" when the module carries none (built before it did), or -errno.
 */
static int module_version(char *version, size_t size)
{
	errno = 0;
	if (ctl_read_line(CP_MODULE_VERSION_FILE, version, size))
		return 0;
	/* No file, or an empty one: a module without a version. */
	*version = '\0';
	return errno && errno != ENOENT ? -errno : 0;
}

bool ctl_module_verdict(char *buf, size_t size)
{
	char v[64];
	int err = module_version(v, sizeof(v));

	if (err)
		snprintf(buf, size, "clearpage loaded, version unknown (%s: %s)",
			 CP_MODULE_VERSION_FILE, strerror(-err));
	else if (!*v)
		snprintf(buf, size, "clearpage loaded, older than these tools (%s, which know its version): reload it (README, Upgrade)",
			 CLEARPAGE_VERSION);
	else if (strcmp(v, CLEARPAGE_VERSION))
		snprintf(buf, size, "clearpage %s loaded, the tools are %s: reload it (README, Upgrade)",
			 v, CLEARPAGE_VERSION);
	else
		snprintf(buf, size, "clearpage %s loaded, as these tools", v);
	return !err && !strcmp(v, CLEARPAGE_VERSION);
}

static void print_module_table(bool loaded)
{
	char verdict[256];

	if (!loaded) {
		ctl_wrapped(8, "module: not loaded: modprobe clearpage (clearpagectl check says why it would not load)");
		return;
	}
	ctl_module_verdict(verdict, sizeof(verdict));
	ctl_wrapped(8, "module: %s", verdict);
	printf("\n");
}

static void module_json(struct json_object *root, bool loaded)
{
	struct json_object *o = ctl_json_child(root, "module");
	char v[64];
	bool known = loaded && !module_version(v, sizeof(v)) && *v;

	ctl_json_bool(o, "loaded", loaded);
	ctl_json_string(o, "version", known ? v : NULL);
	ctl_json_string(o, "tools", CLEARPAGE_VERSION);
	ctl_json_bool(o, "current", known && !strcmp(v, CLEARPAGE_VERSION));
}

/* What clearpaged saved, from its savings file; none when it is not running. */
static struct cp_savings savings[CP_MAX_NODES * CLEARPAGE_BACKEND_COUNT];
static int nr_savings;

static const struct cp_savings *savings_of(unsigned int node, int backend)
{
	int i;

	for (i = 0; i < nr_savings; i++)
		if (savings[i].node == node && savings[i].backend == backend)
			return &savings[i];
	return NULL;
}

/* "saved 1.234 s ± 0.010 s of the kernel routine's 10.2 s (12.0%) over 1234 pages" */
static void format_saved(const struct cp_savings *v, char *buf, size_t size)
{
	size_t used;

	used = snprintf(buf, size, "saved %.3f s", v->saved_ns / 1e9);
	if (v->uncertainty_ns >= 0 && used < size)
		used += snprintf(buf + used, size - used, " \u00b1 %.3f s",
				 v->uncertainty_ns / 1e9);
	if (v->kernel_ns > 0 && used < size)
		used += snprintf(buf + used, size - used,
				 " of the kernel routine's %.3f s (%.1f%%)",
				 v->kernel_ns / 1e9,
				 v->saved_ns / v->kernel_ns * 100);
	if (used < size)
		snprintf(buf + used, size - used, " over %llu pages",
			 (unsigned long long)v->pages);
}

/* The node's gigantic page helpers (a module without them: nothing). */
static void print_helpers(const struct cp_node_info *n)
{
	if (!n->has_helpers)
		return;
	if (!n->helpers && !n->helped_folios && !n->helpers_started) {
		printf("  gigantic helpers 0: 1 GiB pages are cleared by one CPU\n");
		return;
	}
	ctl_wrapped(8, "  gigantic helpers %u: %llu folios helped, %llu pages cleared by helpers, %llu helpers started, %llu did not start in time",
		    n->helpers, (unsigned long long)n->helped_folios,
		    (unsigned long long)n->helper_pages,
		    (unsigned long long)n->helpers_started,
		    (unsigned long long)n->helpers_not_started);
}

/*
 * The huge backend's probe mode and its calibration, and what the
 * temperature probe judged (a module without one: nothing).
 */
static void print_probe(const struct cp_node_info *n)
{
	const struct cp_backend_info *be = &n->backend[CLEARPAGE_BACKEND_HUGE];
	unsigned long long folios = be->probe_hot_folios + be->probe_cold_folios;
	char line[512];
	size_t used;

	if (!be->has_probe)
		return;
	if (be->probe)
		used = snprintf(line, sizeof(line),
				"  huge  probe on: hot folios %s, cold folios %s",
				cp_strategy_name(be->probe_hot),
				cp_strategy_name(be->probe_cold));
	else
		used = snprintf(line, sizeof(line), "  huge  probe off");
	/* Without the counters, the mode alone: the rest is root's. */
	if (n->has_counters && n->probe.threshold_ticks)
		used += snprintf(line + used, sizeof(line) - used,
				 " (a line loads in %u ticks cached, %u from memory; threshold %u)",
				 n->probe.hot_ticks, n->probe.cold_ticks,
				 n->probe.threshold_ticks);
	else if (n->has_counters)
		used += snprintf(line + used, sizeof(line) - used,
				 " (cannot tell a cached line from memory: %u vs %u ticks)",
				 n->probe.hot_ticks, n->probe.cold_ticks);
	if (n->has_counters && folios) {
		used += snprintf(line + used, sizeof(line) - used,
				 "; %llu folios hot",
				 (unsigned long long)be->probe_hot_folios);
		if (be->probe_recycled_folios)
			used += snprintf(line + used, sizeof(line) - used,
					 " (%llu of them recycled: cleared non-temporally just before, not cached)",
					 (unsigned long long)be->probe_recycled_folios);
		snprintf(line + used, sizeof(line) - used,
			 ", %llu cold, %llu ns per probe",
			 (unsigned long long)be->probe_cold_folios,
			 (unsigned long long)(be->probe_ns / folios));
	}
	ctl_wrapped(8, "%s", line);
	if (!n->has_counters)
		return;
	/* The 4k backend's temperature sample, once it has judged a page. */
	be = &n->backend[CLEARPAGE_BACKEND_4K];
	folios = be->probe_hot_folios + be->probe_cold_folios;
	if (be->has_probe && folios)
		ctl_wrapped(8, "  4k    temperature sample: %llu pages hot (%llu recycled), %llu cold, %llu ns per probe",
			    (unsigned long long)be->probe_hot_folios,
			    (unsigned long long)be->probe_recycled_folios,
			    (unsigned long long)be->probe_cold_folios,
			    (unsigned long long)(be->probe_ns / folios));
}

/* Each backend's touch probe, once it has loaded a line. */
static void print_touch(const struct cp_node_info *n)
{
	int b;

	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
		const struct cp_backend_info *be = &n->backend[b];
		char share[16] = "";

		if (!be->has_touch || !(be->touch_probed + be->touch_skipped))
			continue;
		if (be->touch_probed)
			snprintf(share, sizeof(share), " (%.0f%%)",
				 100.0 * (double)be->touch_cached /
				 (double)be->touch_probed);
		ctl_wrapped(8, "  %-5s touch probe: %llu of %llu lines cached after a non-temporal clear%s; %llu freed before their probe",
			    cp_backend_name(b),
			    (unsigned long long)be->touch_cached,
			    (unsigned long long)be->touch_probed, share,
			    (unsigned long long)be->touch_skipped);
	}
}

/*
 * A reader without CAP_PERFMON or CAP_SYS_ADMIN: the module tells it the
 * strategies and choices, not the counters and calibrations (they time
 * other processes' clears). The strategies, with each backend's mark and
 * its trial candidates, and what is left out.
 */
static void print_strategy_names(const struct cp_node_info *n,
				 bool calibration_only)
{
	int i, b;

	printf("  strategies:");
	for (i = 0; i < n->nr_strategies; i++) {
		int strategy = n->strategies[i].strategy;

		printf(" %s", cp_strategy_name(strategy));
		for (b = 0; !calibration_only && b < CLEARPAGE_BACKEND_COUNT; b++)
			if (n->backend[b].strategy == strategy)
				printf("%s", b == CLEARPAGE_BACKEND_4K ? "[4]" : "[H]");
	}
	printf("\n");
	for (b = 0; !calibration_only && b < CLEARPAGE_BACKEND_COUNT; b++) {
		const struct cp_backend_info *be = &n->backend[b];

		if (!be->trials)
			continue;
		printf("  %s trial candidates:", cp_backend_name(b));
		for (i = 1; i < CLEARPAGE_STRATEGY_COUNT; i++)
			if (be->trials & (1U << i))
				printf(" %s", cp_strategy_name(i));
		printf("\n");
	}
}

/* Whether some node's 4k backend runs a strategy: only then is 4k watched. */
static bool watching_4k;

/*
 * What happens to a backend, in a few words: acting (clearpaged decides
 * it), dry run, held by reset, pinned, or not watched (4k, see
 * clearpaged(8)).
 */
static void backend_verdict(const struct cp_node_info *n, int b, char *buf,
			    size_t size)
{
	const struct cp_backend_info *be = &n->backend[b];
	const struct cp_backend_state *d = daemon_backend(n->node, b);

	if (d && d->held)
		snprintf(buf, size, "held by clearpagectl reset");
	else if (be->pinned)
		snprintf(buf, size, "pinned to %s", cp_strategy_name(be->strategy));
	else if (b == CLEARPAGE_BACKEND_4K && !watching_4k)
		snprintf(buf, size, "not watched while every node's 4k is on kernel (clearpaged(8))");
	else if (daemon_state.dry_run)
		snprintf(buf, size, "dry run");
	else
		snprintf(buf, size, "acting");
}

/*
 * The node's verdict, first: whether clearpaged decides its backends, and
 * if not, why.
 */
static void node_verdict(const struct cp_node_info *n, char *buf,
			 size_t size)
{
	char v[CLEARPAGE_BACKEND_COUNT][128];
	int b;

	if (daemon_state_error && daemon_state_error != -ENOENT) {
		snprintf(buf, size, "node %u: unknown (clearpaged's state is unreadable): 4k %s, huge %s",
			 n->node,
			 cp_strategy_name(n->backend[CLEARPAGE_BACKEND_4K].strategy),
			 cp_strategy_name(n->backend[CLEARPAGE_BACKEND_HUGE].strategy));
		return;
	}
	if (daemon_state_error || !daemon_alive) {
		snprintf(buf, size, "node %u: not managed (clearpaged is not running): 4k %s, huge %s",
			 n->node,
			 cp_strategy_name(n->backend[CLEARPAGE_BACKEND_4K].strategy),
			 cp_strategy_name(n->backend[CLEARPAGE_BACKEND_HUGE].strategy));
		return;
	}
	if (!daemon_state.attached) {
		snprintf(buf, size, "node %u: not managed yet: clearpaged is waiting for the module",
			 n->node);
		return;
	}
	if (daemon_state.monitor_only) {
		snprintf(buf, size, "node %u: monitoring only (see clearpaged above)",
			 n->node);
		return;
	}
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
		backend_verdict(n, b, v[b], sizeof(v[b]));
	if (!strcmp(v[0], v[1]))
		snprintf(buf, size, "node %u: %s, 4k and huge", n->node, v[0]);
	else
		snprintf(buf, size, "node %u: 4k %s; huge %s", n->node, v[0],
			 v[1]);
}

static void print_verdict(const struct cp_node_info *n)
{
	char verdict[512];

	node_verdict(n, verdict, sizeof(verdict));
	ctl_wrapped(8, "%s", verdict);
}

/*
 * A count in at most @width characters: as it is while it fits, then in
 * thousands, millions, ... with the suffix (the JSON has it exact).
 */
static const char *format_count(char *buf, size_t size, unsigned long long v,
				int width)
{
	static const char suffix[] = "kMGTPE";
	int i;

	snprintf(buf, size, "%llu", v);
	for (i = 0; (int)strlen(buf) > width && suffix[i]; i++) {
		v /= 1000;
		snprintf(buf, size, "%llu%c", v, suffix[i]);
	}
	return buf;
}

/* Per strategy: live clears and calibration, 80 columns, with a legend. */
static void print_counters(const struct cp_node_info *n, bool calibration_only)
{
	const int k4 = CLEARPAGE_BACKEND_4K, huge = CLEARPAGE_BACKEND_HUGE;
	int i, b;

	printf("     %-10s %9s %5s %10s %6s %6s %10s %10s\n", "STRATEGY",
	       "PAGES_4K", "NS", "PAGES_HUGE", "RANGES", "NS", "CAL_4K",
	       "CAL_HUGE");
	for (i = 0; i < n->nr_strategies; i++) {
		const struct cp_strategy_info *s = &n->strategies[i];
		char cal[2][24] = { "-", "-" }, avg[2][24] = { "-", "-" };
		char p4k[24], phuge[24], ranges[24];
		bool on4k = s->strategy == n->backend[k4].strategy;
		bool onhuge = s->strategy == n->backend[huge].strategy;

		for (b = 0; s->has_calibration && b < CLEARPAGE_BACKEND_COUNT; b++)
			snprintf(cal[b], sizeof(cal[b]), "%u/%u", s->hot_ns[b],
				 s->cold_ns[b]);
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
			if (s->samples[b])
				snprintf(avg[b], sizeof(avg[b]), "%llu",
					 (unsigned long long)(s->sample_ns[b] /
							      s->samples[b]));
		printf("  %c%c %-10s %9s %5s %10s %6s %6s %10s %10s\n",
		       !calibration_only && on4k ? '4' : ' ',
		       !calibration_only && onhuge ? 'H' : ' ',
		       cp_strategy_name(s->strategy),
		       format_count(p4k, sizeof(p4k), s->pages[k4], 9), avg[k4],
		       format_count(phuge, sizeof(phuge), s->pages[huge], 10),
		       format_count(ranges, sizeof(ranges), s->ranges_huge, 6),
		       avg[huge], cal[k4], cal[huge]);
	}
	if (!calibration_only)
		printf("  4, H: the 4k, huge backend's strategy. PAGES: 4 KiB pages cleared (k, M,\n  G, T: thousands, millions, billions, trillions).\n");
	printf("  NS: ns per 4 KiB page, timed live; CAL: calibrated, hot/cold.\n");
}

/* Each backend: last decision, reset, reference and trial frames, savings. */
static void print_backend_detail(const struct cp_node_info *n, int b)
{
	const struct cp_backend_info *be = &n->backend[b];
	const struct cp_backend_state *d =
		daemon_alive ? daemon_backend(n->node, b) : NULL;
	const struct cp_savings *v = savings_of(n->node, b);
	const char *name = cp_backend_name(b);
	char when[64], line[512], now[96] = "";
	const char *sep = ":";
	size_t used = 0;
	bool timed = false;
	int i;

	if (d && d->held)
		ctl_wrapped(8, "  %-5s reset by clearpagectl: clearpaged leaves it until 'clearpagectl unpin' or a reload",
			    name);
	if (d && d->decided) {
		ctl_format_epoch(d->decided, when, sizeof(when));
		ctl_wrapped(8, "  %-5s last decision %s: %s %s -> %s: %s", name,
			    when, d->action, cp_strategy_name(d->from),
			    cp_strategy_name(d->to), d->reason);
	}
	if (!n->has_counters)
		return;
	if (be->reference_pages)
		ctl_wrapped(8, "  %-5s reference frames cleared by the kernel's routine: %llu, %llu ns/page",
			    name, (unsigned long long)be->reference_pages,
			    (unsigned long long)(be->reference_sample_ns /
						 be->reference_pages));
	for (i = 0; i < n->nr_strategies; i++) {
		const struct cp_strategy_info *s = &n->strategies[i];

		timed |= s->trial_pages[b] > 0;
		if (be->trials & (1U << s->strategy))
			snprintf(now + strlen(now), sizeof(now) - strlen(now),
				 "%s%s", now[0] ? " " : "",
				 cp_strategy_name(s->strategy));
	}
	if (timed || be->trials) {
		used = snprintf(line, sizeof(line),
				"  %-5s trial frames (candidates now: %s)", name,
				now[0] ? now : "none");
		for (i = 0; i < n->nr_strategies && used < sizeof(line); i++) {
			const struct cp_strategy_info *s = &n->strategies[i];

			if (!s->trial_pages[b])
				continue;
			used += snprintf(line + used, sizeof(line) - used,
					 "%s %s%s %llu, %llu ns/page", sep,
					 cp_strategy_name(s->strategy),
					 s->strategy == be->strategy ?
					 " (its own, control frames)" : "",
					 (unsigned long long)s->trial_pages[b],
					 (unsigned long long)(s->trial_ns[b] /
							      s->trial_pages[b]));
			sep = ";";
		}
		ctl_wrapped(8, "%s", line);
	}
	if (v && v->since) {
		ctl_format_epoch(v->since, when, sizeof(when));
		format_saved(v, line, sizeof(line));
		ctl_wrapped(8, "  %-5s %s since %s", name, line, when);
	}
}

static void print_table(const struct cp_node_info *n, bool calibration_only)
{
	char when[64];
	int b;

	if (calibration_only)
		printf("node %u\n", n->node);
	else
		print_verdict(n);
	for (b = 0; !calibration_only && b < CLEARPAGE_BACKEND_COUNT; b++) {
		const struct cp_backend_info *be = &n->backend[b];

		ctl_format_time(be->last_change_ns, when, sizeof(when));
		ctl_wrapped(8, "  %-5s %s, %s (last change: %s, %s)",
			    cp_backend_name(b), cp_strategy_name(be->strategy),
			    be->pinned ? "pinned" : "not pinned",
			    cp_source_name(be->source), when);
	}
	if (!calibration_only) {
		print_probe(n);
		print_touch(n);
		if (n->has_counters)
			print_helpers(n);
		else if (n->has_helpers)
			printf("  gigantic helpers %u\n", n->helpers);
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
			print_backend_detail(n, b);
	}
	if (!n->has_counters) {
		print_strategy_names(n, calibration_only);
		return;
	}
	if (!calibration_only && n->pages_huge_prezeroed)
		printf("  huge pages already zeroed by the allocator: %llu\n",
		       (unsigned long long)n->pages_huge_prezeroed);
	print_counters(n, calibration_only);
}

/* What clearpaged says of the backend, in its JSON object. */
static void backend_daemon_json(struct json_object *o, unsigned int node,
				int backend)
{
	const struct cp_backend_state *d =
		daemon_alive ? daemon_backend(node, backend) : NULL;
	struct json_object *last;

	if (!d)
		return;
	ctl_json_bool(o, "held", d->held);
	if (!d->decided)
		return;
	last = ctl_json_child(o, "last_decision");
	ctl_json_uint(last, "time_unix_ns", unix_ns(d->decided));
	ctl_json_string(last, "action", d->action);
	ctl_json_string(last, "from", cp_strategy_name(d->from));
	ctl_json_string(last, "to", cp_strategy_name(d->to));
	ctl_json_string(last, "reason", d->reason);
}

/* The probe's choice for the backend: {hot, cold}, or null when it is off. */
static void probe_choice_json(struct json_object *o,
			      const struct cp_backend_info *be)
{
	struct json_object *p;

	if (!be->probe) {
		ctl_json_null(o, "probe");
		return;
	}
	p = ctl_json_child(o, "probe");
	ctl_json_string(p, "hot", cp_strategy_name(be->probe_hot));
	ctl_json_string(p, "cold", cp_strategy_name(be->probe_cold));
}

/* A trials mask as an array of names. */
static void trials_json(struct json_object *o, unsigned int trials)
{
	struct json_object *a = ctl_json_array(o, "trials");
	int i;

	for (i = 1; i < CLEARPAGE_STRATEGY_COUNT; i++)
		if (trials & (1U << i))
			ctl_json_append_string(a, cp_strategy_name(i));
}

/* A backend's choice; with @counters, what the module counted too. */
static void backend_json(struct json_object *backends,
			 const struct cp_node_info *n, int b, bool counters)
{
	const struct cp_backend_info *be = &n->backend[b];
	struct json_object *o = ctl_json_child(backends, cp_backend_name(b));

	ctl_json_string(o, "strategy", cp_strategy_name(be->strategy));
	ctl_json_bool(o, "pinned", be->pinned);
	ctl_json_string(o, "source", cp_source_name(be->source));
	ctl_json_uint(o, "last_change_unix_ns", be->last_change_ns);
	if (counters) {
		ctl_json_uint(o, "reference_pages", be->reference_pages);
		ctl_json_uint(o, "reference_sample_ns", be->reference_sample_ns);
	}
	trials_json(o, be->trials);
	if (be->has_probe) {
		probe_choice_json(o, be);
		if (counters) {
			ctl_json_uint(o, "probe_hot_folios", be->probe_hot_folios);
			ctl_json_uint(o, "probe_cold_folios", be->probe_cold_folios);
			ctl_json_uint(o, "probe_ns", be->probe_ns);
			ctl_json_uint(o, "probe_recycled_folios",
				      be->probe_recycled_folios);
		}
	}
	if (counters && be->has_touch) {
		ctl_json_uint(o, "touch_probed", be->touch_probed);
		ctl_json_uint(o, "touch_cached", be->touch_cached);
		ctl_json_uint(o, "touch_skipped", be->touch_skipped);
	}
	backend_daemon_json(o, n->node, b);
}

/* A strategy's counters per backend, "pages_4k", "samples_huge", ... */
static void per_backend(struct json_object *o, const char *what, int b,
			unsigned long long v)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_%s", what, cp_backend_name(b));
	ctl_json_uint(o, key, v);
}

/* The strategy's object, or NULL where it could not be made. */
static struct json_object *strategy_json(struct json_object *strategies,
					 const struct cp_strategy_info *s,
					 bool counters)
{
	struct json_object *o = ctl_json_append(strategies);
	int b;

	ctl_json_string(o, "name", cp_strategy_name(s->strategy));
	if (!counters)
		return o;
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
		per_backend(o, "pages", b, s->pages[b]);
		per_backend(o, "samples", b, s->samples[b]);
		per_backend(o, "sample_ns", b, s->sample_ns[b]);
	}
	for (b = 0; s->strategy && b < CLEARPAGE_BACKEND_COUNT; b++) {
		per_backend(o, "trial_pages", b, s->trial_pages[b]);
		per_backend(o, "trial_ns", b, s->trial_ns[b]);
	}
	ctl_json_uint(o, "ranges_huge", s->ranges_huge);
	return o;
}

static void calibration_json(struct json_object *o,
			     const struct cp_strategy_info *s)
{
	int b;

	for (b = 0; s->has_calibration && b < CLEARPAGE_BACKEND_COUNT; b++) {
		per_backend(o, "hot_ns", b, s->hot_ns[b]);
		per_backend(o, "cold_ns", b, s->cold_ns[b]);
	}
}

static void latency_json(struct json_object *node, const struct cp_node_info *n)
{
	struct json_object *o = ctl_json_child(node, "latency_ns");
	char le[32];
	int i;

	for (i = 0; i < CLEARPAGE_LATENCY_BUCKETS - 1; i++) {
		snprintf(le, sizeof(le), "%llu",
			 1ULL << (CLEARPAGE_LATENCY_FIRST_SHIFT + i));
		ctl_json_uint(o, le, n->latency[i]);
	}
	ctl_json_uint(o, "inf", n->latency[CLEARPAGE_LATENCY_BUCKETS - 1]);
}

/*
 * Nanoseconds from clearpaged's estimates, rounded to whole ones; null
 * where there is no figure: not a finite number, beyond what an integer
 * holds, or (@known_if_positive) the -1 clearpaged writes for an
 * uncertainty it could not estimate yet.
 */
static void estimate_json(struct json_object *o, const char *key, double ns,
			  bool known_if_positive)
{
	if (!isfinite(ns) || fabs(ns) > 9e18 || (known_if_positive && ns < 0))
		ctl_json_null(o, key);
	else
		ctl_json_int(o, key, llround(ns));
}

static void savings_json(struct json_object *node, const struct cp_node_info *n)
{
	struct json_object *all = NULL, *o;
	int b;

	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
		const struct cp_savings *v = savings_of(n->node, b);

		if (!v || !v->since)
			continue;
		if (!all)
			all = ctl_json_child(node, "savings");
		o = ctl_json_child(all, cp_backend_name(b));
		ctl_json_uint(o, "since_unix_ns", unix_ns(v->since));
		estimate_json(o, "saved_ns", v->saved_ns, false);
		estimate_json(o, "uncertainty_ns", v->uncertainty_ns, true);
		estimate_json(o, "kernel_ns", v->kernel_ns, false);
		ctl_json_uint(o, "pages", v->pages);
		ctl_json_uint(o, "unestimated_pages", v->unestimated_pages);
		estimate_json(o, "last_interval_saved_ns", v->last_saved_ns,
			      false);
	}
}

static void node_json(struct json_object *nodes, const struct cp_node_info *n,
		      bool calibration_only)
{
	struct json_object *o = ctl_json_append(nodes), *a, *h;
	bool counters = n->has_counters && !calibration_only;
	int i, b;

	ctl_json_uint(o, "node", n->node);
	ctl_json_bool(o, "counters", n->has_counters);
	if (with_daemon) {
		char verdict[512];

		node_verdict(n, verdict, sizeof(verdict));
		ctl_json_string(o, "verdict", verdict);
	}
	if (counters)
		ctl_json_uint(o, "pages_huge_prezeroed", n->pages_huge_prezeroed);
	if (n->has_helpers && !calibration_only) {
		h = ctl_json_child(o, "gigantic_helpers");
		ctl_json_uint(h, "helpers", n->helpers);
		if (counters) {
			ctl_json_uint(h, "helped_folios", n->helped_folios);
			ctl_json_uint(h, "helper_pages", n->helper_pages);
			ctl_json_uint(h, "started", n->helpers_started);
			ctl_json_uint(h, "not_started", n->helpers_not_started);
		}
	}
	if (!calibration_only) {
		a = ctl_json_child(o, "backends");
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
			backend_json(a, n, b, counters);
	}
	a = ctl_json_array(o, "strategies");
	for (i = 0; i < n->nr_strategies; i++) {
		struct json_object *s = strategy_json(a, &n->strategies[i],
						      counters);

		if (n->has_counters)
			calibration_json(s, &n->strategies[i]);
	}
	if (!n->has_counters)
		return;
	if (!calibration_only) {
		latency_json(o, n);
		savings_json(o, n);
	}
	if (n->probe.present) {
		h = ctl_json_child(o, "probe_calibration");
		ctl_json_uint(h, "hot_ticks", n->probe.hot_ticks);
		ctl_json_uint(h, "cold_ticks", n->probe.cold_ticks);
		ctl_json_uint(h, "threshold_ticks", n->probe.threshold_ticks);
	}
}

int print_nodes(const struct cp_node_info *nodes, int count, bool json,
		bool calibration_only)
{
	struct json_object *root, *array;
	int i;

	if (json) {
		root = ctl_json_new();
		array = ctl_json_array(root, "nodes");
		for (i = 0; i < count; i++)
			node_json(array, &nodes[i], calibration_only);
		if (with_daemon) {
			daemon_json(root);
			module_json(root, true);
		}
		return ctl_json_print(root);
	}
	if (with_daemon) {
		print_daemon_table();
		print_module_table(true);
	}
	for (i = 0; i < count; i++)
		if (!nodes[i].has_counters) {
			ctl_wrapped(8, "counters and calibrations not shown: they need CAP_PERFMON or CAP_SYS_ADMIN (run clearpagectl as root)");
			printf("\n");
			break;
		}
	for (i = 0; i < count; i++) {
		printf("%s", i ? "\n" : "");
		print_table(&nodes[i], calibration_only);
	}
	return EXIT_OK;
}

/* Without the module, what there is: clearpaged's side. */
/*
 * Without the module's nodes (-ENOENT: not loaded; another -errno: @what
 * failed): what clearpaged says, and in JSON the error too, so a reader of
 * stdout is never left with nothing. The reason goes to stderr as well.
 */
static void print_without_nodes(bool json, int err, const char *what)
{
	if (json) {
		struct json_object *root = ctl_json_new();

		ctl_json_array(root, "nodes");
		daemon_json(root);
		module_json(root, access("/sys/module/clearpage", F_OK) == 0);
		if (err != -ENOENT) {
			char error[256];

			snprintf(error, sizeof(error), "%s: %s", what,
				 strerror(-err));
			ctl_json_string(root, "error", error);
		}
		ctl_json_print(root);
		return;
	}
	print_daemon_table();
	print_module_table(access("/sys/module/clearpage", F_OK) == 0);
}

int cmd_status(int argc, char **argv, const struct ctl_options *o)
{
	static struct cp_node_info nodes[CP_MAX_NODES], shown[CP_MAX_NODES];
	struct cp_client *client;
	int n, count, i, rc;

	if (argc > 1) {
		fprintf(stderr, "clearpagectl: status takes at most one node (or 'all'), not %d arguments\n",
			argc);
		return EXIT_USAGE;
	}
	if (argc && (rc = ctl_check_node_arg(argv[0])))
		return rc;
	nr_savings = cp_savings_read(CP_SAVINGS_FILE, savings,
				     CP_MAX_NODES * CLEARPAGE_BACKEND_COUNT);
	if (nr_savings < 0)
		nr_savings = 0;
	with_daemon = true;
	daemon_state_error = cp_state_read(CP_STATE_FILE, &daemon_state);
	daemon_alive = !daemon_state_error &&
		       (!kill(daemon_state.pid, 0) || errno == EPERM);
	rc = cp_client_open(&client);
	if (rc == -ENOENT || (rc && o->json))
		print_without_nodes(o->json, rc, "connecting to the module");
	if (rc)
		return ctl_connect_failed(rc);
	n = cp_dump_nodes(client, nodes, CP_MAX_NODES);
	if (n < 0) {
		if (o->json)
			print_without_nodes(true, n, "reading nodes");
		rc = ctl_fail(client, n, "reading nodes");
		goto out;
	}
	for (i = 0; i < n; i++)
		watching_4k |= nodes[i].backend[CLEARPAGE_BACKEND_4K].strategy !=
			       CLEARPAGE_STRATEGY_KERNEL;
	count = n;
	if (argc)
		rc = ctl_parse_nodes(client, argv[0], shown, &count);
	else
		memcpy(shown, nodes, n * sizeof(*nodes));
	if (!rc)
		rc = print_nodes(shown, count, o->json, false);
out:
	cp_client_close(client);
	return rc;
}
