// SPDX-License-Identifier: GPL-2.0
/*
 * clearpaged's manager: the event loop, attaching to the module and
 * detaching, reloads and stop; see manager.h. Stepping the backends is
 * step.c, reporting report.c, the allowlist and the configuration's node
 * settings node-config.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <libudev.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>

#include "manager-internal.h"

static void forget_node(struct node_state *n)
{
	if (n->pmu_open)
		pmu_close_node(&n->pmu);
	memset(n, 0, sizeof(*n));
}

static void forget_nodes(struct manager *m)
{
	int i;

	for (i = 0; i < CONFIG_MAX_NODES; i++)
		forget_node(&m->nodes[i]);
}

static void disconnect(struct manager *m)
{
	m->events_source = sd_event_source_unref(m->events_source);
	cp_events_close(m->events);
	m->events = NULL;
	cp_client_close(m->client);
	m->client = NULL;
	forget_nodes(m);
}

static void detach(struct manager *m, const char *why)
{
	if (!m->client)
		return;
	log_event(LOG_NOTICE, MESSAGE_ID_MODULE,
		  "lost the clearpage module (%s); waiting for it to come back",
		  why);
	disconnect(m);
	sd_notify(0, "STATUS=waiting for the clearpage module");
}

static void on_module_event(const struct cp_event *e, void *arg)
{
	struct manager *m = arg;
	struct backend_state *u;

	if (e->node >= CONFIG_MAX_NODES || e->source != CLEARPAGE_SOURCE_ADMIN ||
	    e->backend < 0 || e->backend >= CLEARPAGE_BACKEND_COUNT)
		return;
	manager_refresh_held(m);
	u = &m->nodes[e->node].backends[e->backend];
	if (e->pinned && !u->pinned) {
		log_event(LOG_NOTICE, MESSAGE_ID_PIN_SEEN,
			  "node %u pinned to %s by an administrator; leaving it alone (%s backend)",
			  e->node, policy_strategy_name(e->strategy),
			  cp_backend_name(e->backend));
		u->pins_seen++;
	}
	else if (!e->pinned && u->pinned && !u->held)
		log_event(LOG_NOTICE, MESSAGE_ID_PIN_SEEN,
			  "node %u unpinned by an administrator; clearpaged manages it again (%s backend)",
			  e->node, cp_backend_name(e->backend));
	u->pinned = e->pinned;
	u->changed_by_us = false;
}

static int on_events_readable(sd_event_source *s, int fd, uint32_t revents,
			      void *arg)
{
	struct manager *m = arg;

	(void)s;
	(void)fd;
	(void)revents;
	if (cp_events_receive(m->events, on_module_event, m) < 0)
		detach(m, "event subscription failed");
	return 0;
}

static int attach(struct manager *m)
{
	int err = cp_client_open(&m->client);

	if (err == -EPROTO) {
		if (!m->waiting_logged)
			log_event(LOG_WARNING, MESSAGE_ID_MODULE,
				  "the loaded clearpage module is older than clearpaged (its netlink interface is before version %d); waiting until it is reloaded (README, Upgrade)",
				  CLEARPAGE_GENL_VERSION);
		m->waiting_logged = true;
		sd_notify(0, "STATUS=waiting for a clearpage module as new as clearpaged");
		return err;
	}
	if (err) {
		if (!m->waiting_logged)
			log_event(LOG_NOTICE, MESSAGE_ID_MODULE,
				  "the clearpage module is not loaded (%s); waiting for it (modprobe clearpage)",
				  strerror(-err));
		m->waiting_logged = true;
		sd_notify(0, "STATUS=waiting for the clearpage module");
		return err;
	}
	m->waiting_logged = false;
	err = cp_events_open(&m->events);
	if (!err)
		err = sd_event_add_io(m->event, &m->events_source,
				      cp_events_fd(m->events), EPOLLIN,
				      on_events_readable, m);
	if (err) {
		log_line(LOG_WARNING, "cannot subscribe to clearpage events: %s",
			 strerror(-err));
		cp_events_close(m->events);
		m->events = NULL;
	}
	log_event(LOG_INFO, MESSAGE_ID_MODULE, "attached to the clearpage module");
	manager_decide_allowlist(m);
	manager_apply_node_config(m);
	return 0;
}

static int on_tick(sd_event_source *s, uint64_t usec, void *arg)
{
	struct manager *m = arg;
	char status[1024] = "";
	uint64_t next, now;
	int count, i;

	if (!m->client && attach(m)) {
		report_metrics(m, 0, false, false);
		report_state(m, 0);
		goto rearm;
	}
	count = cp_dump_nodes(m->client, m->infos, CP_MAX_NODES);
	if (count < 0) {
		detach(m, strerror(-count));
		report_metrics(m, 0, false, false);
		report_state(m, 0);
		goto rearm;
	}
	/*
	 * The module gives the counters only to a reader with CAP_PERFMON
	 * or CAP_SYS_ADMIN; without them every interval would read as
	 * idle. Decide nothing until it does.
	 */
	if (count > 0 && !m->infos[0].has_counters) {
		if (!m->no_counters)
			log_line(LOG_ERR, "the module shows clearpaged no counters: it needs CAP_PERFMON or CAP_SYS_ADMIN (run it as root or from clearpaged.service); deciding nothing until then");
		m->no_counters = true;
		sd_notify(0, "STATUS=no counters: clearpaged needs CAP_PERFMON or CAP_SYS_ADMIN");
		report_state(m, count);
		goto rearm;
	}
	m->no_counters = false;
	manager_refresh_held(m);
	for (i = 0; i < count; i++)
		if (m->infos[i].node < CONFIG_MAX_NODES)
			manager_step_node(m, &m->infos[i], status, sizeof(status));
	sd_notifyf(0, "STATUS=%s%s", m->monitor_only ? "monitoring only: " :
			m->config.dry_run ? "dry run: " : "", status);
	report_metrics(m, count, false, false);
	report_savings(m, count);
	report_state(m, count);
rearm:
	/* After an early tick (udev), the next one is a full interval away. */
	next = usec + (uint64_t)(m->config.interval * 1e6);
	if (sd_event_now(sd_event_source_get_event(s), CLOCK_MONOTONIC, &now) >= 0 &&
	    next <= now)
		next = now + (uint64_t)(m->config.interval * 1e6);
	sd_event_source_set_time(s, next);
	return 0;
}

/* A NUMA node or a CPU came or went: re-read the node, reopen counters. */
static void on_topology(struct manager *m, const char *subsystem,
			const char *action, const char *name)
{
	unsigned int node, i;

	if (strcmp(action, "online") && strcmp(action, "offline") &&
	    strcmp(action, "add") && strcmp(action, "remove"))
		return;
	if (!strcmp(subsystem, "node") && sscanf(name, "node%u", &node) == 1) {
		log_line(LOG_NOTICE, "NUMA node %u: %s", node, action);
		if (node < CONFIG_MAX_NODES)
			forget_node(&m->nodes[node]);
	} else if (!strcmp(subsystem, "cpu")) {
		log_line(LOG_INFO, "%s: %s; reopening the cache-miss counters",
			 name, action);
		/* The nodes' CPU lists changed: counters start afresh. */
		for (i = 0; i < CONFIG_MAX_NODES; i++) {
			if (m->nodes[i].pmu_open)
				pmu_close_node(&m->nodes[i].pmu);
			m->nodes[i].pmu_open = false;
		}
	} else {
		return;
	}
	m->pmu_unavailable = false;
	if (m->client)
		sd_event_source_set_time(m->timer, 0);
}

/*
 * The module came or went, or a node or CPU went on- or offline: act now
 * rather than at the next tick.
 */
static int on_udev(sd_event_source *s, int fd, uint32_t revents, void *arg)
{
	struct manager *m = arg;
	struct udev_device *dev = udev_monitor_receive_device(m->udev_monitor);
	const char *action, *name, *subsystem;

	(void)s;
	(void)fd;
	(void)revents;
	if (!dev)
		return 0;
	action = udev_device_get_action(dev);
	name = udev_device_get_sysname(dev);
	subsystem = udev_device_get_subsystem(dev);
	if (!action || !name || !subsystem)
		goto out;
	if (!strcmp(subsystem, "module") && !strcmp(name, "clearpage")) {
		if (!strcmp(action, "remove"))
			detach(m, "module removed");
		else if (!strcmp(action, "add") && !m->client)
			sd_event_source_set_time(m->timer, 0);
	} else {
		on_topology(m, subsystem, action, name);
	}
out:
	udev_device_unref(dev);
	return 0;
}

/*
 * After a reload: what clearpaged set goes back to kernel where it would
 * no longer guard or choose it (a dry run changes nothing, so it would not
 * return it on stop either; a monitor-only CPU or an allowlist without the
 * strategy leaves the policy no pair to move it with).
 */
static void release_unguarded(struct manager *m)
{
	int node, b;

	for (node = 0; node < CONFIG_MAX_NODES; node++) {
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
			struct backend_state *u = &m->nodes[node].backends[b];
			int s = u->policy.node.strategy;
			char why[96], what[96];
			int err;

			if (!u->known || !u->changed_by_us || u->pinned ||
			    (s == CLEARPAGE_STRATEGY_KERNEL &&
			     !u->policy.node.split))
				continue;
			if (m->config.dry_run)
				snprintf(why, sizeof(why),
					 "a dry run changes nothing and returns nothing on stop");
			else if (m->monitor_only)
				snprintf(why, sizeof(why),
					 "the CPU is monitored only now");
			else if (!(m->allowed & (1U << s)))
				snprintf(why, sizeof(why),
					 "the allowlist no longer allows %s here",
					 policy_strategy_name(s));
			else
				continue;
			snprintf(what, sizeof(what),
				 "returning %s to kernel after the reload",
				 policy_strategy_name(s));
			err = manager_set_backend(m, (unsigned int)node, b, u,
						  NULL, what);
			if (err)
				continue;
			u->changed_by_us = false;
			policy_node_init(&u->policy.node, CLEARPAGE_STRATEGY_KERNEL);
			u->policy.have_last = false;
			log_event(LOG_NOTICE, MESSAGE_ID_REVERT,
				  "node %d %s: returned %s to kernel: %s",
				  node, cp_backend_name(b),
				  policy_strategy_name(s), why);
		}
	}
}

static int on_reload(sd_event_source *s, const struct signalfd_siginfo *si,
		     void *arg)
{
	struct manager *m = arg;
	char error[4096] = "", *line, *next;
	char old_metrics[sizeof(m->config.metrics_file)];
	int err;

	(void)s;
	(void)si;
	sd_notify(0, "RELOADING=1");
	memcpy(old_metrics, m->config.metrics_file, sizeof(old_metrics));
	err = config_load(&m->config, m->config_root, NULL, NULL, error,
			  sizeof(error));
	if (err) {
		/* One entry per error: the files' every error, one per line. */
		for (line = error; line; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			log_line(LOG_ERR, "configuration not reloaded, keeping the one in use: %s",
				 line);
		}
	} else {
		config_apply_overrides(&m->config, &m->overrides);
		/* A file no longer written says so, or it reads "up" forever. */
		if (strcmp(old_metrics, m->config.metrics_file))
			report_metrics_stopped(m, old_metrics, false);
		log_set_level(m->config.log_level);
		log_line(LOG_NOTICE, "configuration reloaded%s",
			 m->overrides.dry_run ?
			 " (dry run: --dry-run on the command line)" : "");
		if (m->client) {
			manager_decide_allowlist(m);
			release_unguarded(m);
			manager_apply_node_config(m);
		}
		/* A reload hands back what clearpagectl reset held. */
		if (cp_held_write(m->held_file, NULL, 0) == 0)
			manager_refresh_held(m);
	}
	sd_notify(0, "READY=1");
	return 0;
}

/* On stop, nodes the policy changed go back to the module's default. */
static void restore(struct manager *m)
{
	int node, b;

	if (!m->client || m->config.dry_run)
		return;
	for (node = 0; node < CONFIG_MAX_NODES; node++) {
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
			struct backend_state *u = &m->nodes[node].backends[b];

			/* Trials end with the daemon (none where none ran). */
			if (u->known)
				cp_set_trials(m->client, node, b, 0);
			if (!u->changed_by_us || u->pinned)
				continue;
			/* Silent on failure: the module may be gone by now. */
			if (manager_set_backend(m, (unsigned int)node, b, u,
						NULL, NULL) == 0)
				log_line(LOG_INFO, "node %d %s returned to kernel",
					 node, cp_backend_name(b));
		}
	}
}

static int on_stop(sd_event_source *s, const struct signalfd_siginfo *si,
		   void *arg)
{
	(void)si;
	(void)arg;
	sd_notify(0, "STOPPING=1");
	return sd_event_exit(sd_event_source_get_event(s), 0);
}

static int setup_udev(struct manager *m)
{
	m->udev = udev_new();
	if (!m->udev)
		return -ENOMEM;
	m->udev_monitor = udev_monitor_new_from_netlink(m->udev, "kernel");
	if (!m->udev_monitor ||
	    udev_monitor_filter_add_match_subsystem_devtype(m->udev_monitor,
							    "module", NULL) < 0 ||
	    udev_monitor_filter_add_match_subsystem_devtype(m->udev_monitor,
							    "node", NULL) < 0 ||
	    udev_monitor_filter_add_match_subsystem_devtype(m->udev_monitor,
							    "cpu", NULL) < 0 ||
	    udev_monitor_enable_receiving(m->udev_monitor) < 0)
		return -EIO;
	return sd_event_add_io(m->event, &m->udev_source,
			       udev_monitor_get_fd(m->udev_monitor), EPOLLIN,
			       on_udev, m);
}

/*
 * Where clearpagectl finds the savings: the unit's RuntimeDirectory=
 * (/run/clearpaged), or that directory made here when run by hand.
 */
static void savings_path(struct manager *m)
{
	const char *dir = getenv("RUNTIME_DIRECTORY");

	if (!dir || !dir[0] || strchr(dir, ':')) {
		dir = CP_SAVINGS_DIR;
		mkdir("/run", 0755);
		mkdir(dir, 0755);
	}
	snprintf(m->savings_file, sizeof(m->savings_file), "%s/savings", dir);
	snprintf(m->state_file, sizeof(m->state_file), "%s/state", dir);
	snprintf(m->held_file, sizeof(m->held_file), "%s/held", dir);
}

/* Everything manager_new() and manager_start() made; NULL is fine. */
static void manager_free(struct manager *m)
{
	if (!m)
		return;
	if (m->client)
		disconnect(m);
	sd_event_source_unref(m->udev_source);
	udev_monitor_unref(m->udev_monitor);
	udev_unref(m->udev);
	sd_event_source_unref(m->timer);
	sd_event_unref(m->event);
	if (m->allowlist_loaded)
		allowlist_free(&m->allowlist);
	free(m);
}

static struct manager *manager_new(const struct daemon_config *config,
				   const char *config_root,
				   const struct daemon_overrides *overrides)
{
	struct manager *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->config = *config;
	m->config_root = config_root;
	m->overrides = *overrides;
	savings_path(m);
	return m;
}

/* The event sources: signals, the interval, udev; then attach. */
static int manager_start(struct manager *m)
{
	sigset_t mask;
	int err;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);

	/* sd-event calls return a negative errno, or 0 or more on success. */
	err = sd_event_default(&m->event);
	if (err >= 0)
		err = sd_event_add_signal(m->event, NULL, SIGTERM, on_stop, m);
	if (err >= 0)
		err = sd_event_add_signal(m->event, NULL, SIGINT, on_stop, m);
	if (err >= 0)
		err = sd_event_add_signal(m->event, NULL, SIGHUP, on_reload, m);
	if (err >= 0)
		err = sd_event_add_time(m->event, &m->timer, CLOCK_MONOTONIC, 0,
					0, on_tick, m);
	if (err >= 0)
		err = sd_event_source_set_enabled(m->timer, SD_EVENT_ON);
	if (err >= 0)
		err = sd_event_source_set_description(m->timer, "interval");
	if (err >= 0)
		err = sd_event_set_watchdog(m->event, true);
	if (err < 0) {
		log_line(LOG_ERR, "cannot set up the event loop: %s",
			 strerror(-err));
		return err;
	}
	if (setup_udev(m) < 0)
		log_line(LOG_WARNING, "no udev monitor: module loads and CPU or node hotplug are noticed at the next interval");
	attach(m);
	return 0;
}

int manager_run(const struct daemon_config *config, const char *config_root,
		const struct daemon_overrides *overrides)
{
	struct manager *m = manager_new(config, config_root, overrides);
	int err;

	if (!m) {
		log_line(LOG_ERR, "cannot start: out of memory");
		return 1;
	}
	err = manager_start(m);
	if (err < 0) {
		/* A start that failed: said, not left as the last run's stop. */
		report_metrics_stopped(m, m->config.metrics_file, true);
		manager_free(m);
		return 1;
	}
	sd_notify(0, "READY=1");
	log_line(LOG_INFO, "started%s, interval %gs",
		 m->config.dry_run ? " in dry-run mode" : "", m->config.interval);

	err = sd_event_loop(m->event);
	restore(m);
	/* Says it stopped; a crash leaves a time that is not renewed. */
	report_metrics(m, 0, true, err < 0);
	unlink(m->state_file);
	log_line(LOG_INFO, "stopped");
	manager_free(m);
	return err < 0 ? 1 : 0;
}
