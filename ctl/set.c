// SPDX-License-Identifier: GPL-2.0
/*
 * clearpagectl set, pin, unpin, calibrate, release, reset: changes, one
 * node or all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "state-file.h"
#include "ctl.h"

static struct cp_node_info targets[CP_MAX_NODES];

/* An unknown strategy: name the ones this CPU has (from node @n). */
static int bad_strategy(const char *name, const struct cp_node_info *n)
{
	int i;

	fprintf(stderr, "clearpagectl: strategy '%s' is not available; available:", name);
	for (i = 0; i < n->nr_strategies; i++)
		fprintf(stderr, " %s", cp_strategy_name(n->strategies[i].strategy));
	fprintf(stderr, "\n");
	return EXIT_USAGE;
}

/* Checked before any request: an unknown strategy name. */
static int check_strategy_name(const char *name)
{
	int i;

	if (cp_strategy_from_name(name) >= 0)
		return EXIT_OK;
	fprintf(stderr, "clearpagectl: '%s' is not a strategy; strategies:", name);
	for (i = 0; i < CLEARPAGE_STRATEGY_COUNT; i++)
		fprintf(stderr, " %s", cp_strategy_name(i));
	fprintf(stderr, "\n");
	return EXIT_USAGE;
}

static int for_nodes(int argc, char **argv, int want_args, const char *usage,
		     int (*apply)(struct cp_client *c, struct cp_node_info *n,
				  char **argv, const struct ctl_options *o),
		     const struct ctl_options *o)
{
	struct cp_client *client;
	int count, i, rc;

	if (argc != want_args) {
		fprintf(stderr, "clearpagectl: usage: clearpagectl %s\n", usage);
		return EXIT_USAGE;
	}
	rc = ctl_check_node_arg(argc ? argv[0] : "all");
	if (rc)
		return rc;
	rc = ctl_open(&client);
	if (rc)
		return rc;
	rc = ctl_parse_nodes(client, argc ? argv[0] : "all", targets, &count);
	for (i = 0; !rc && i < count; i++)
		rc = apply(client, &targets[i], argv + 1, o);
	cp_client_close(client);
	return rc;
}

static int apply_set(struct cp_client *c, struct cp_node_info *n, char **argv,
		     const struct ctl_options *o)
{
	int strategy = cp_strategy_from_name(argv[0]), err;
	char what[64];

	if (strategy < 0 || !cp_node_strategy(n, strategy))
		return bad_strategy(argv[0], n);
	snprintf(what, sizeof(what), "setting node %u (%s) to %s", n->node,
		 cp_backend_name(o->backend), argv[0]);
	err = cp_set_strategy(c, n->node, o->backend, strategy,
			      CLEARPAGE_SOURCE_ADMIN);
	return err ? ctl_fail(c, err, what) : EXIT_OK;
}

static int apply_pin(struct cp_client *c, struct cp_node_info *n, int backend,
		     bool pinned)
{
	char what[64];
	int err;

	snprintf(what, sizeof(what), "%s node %u (%s)",
		 pinned ? "pinning" : "unpinning", n->node,
		 cp_backend_name(backend));
	err = cp_set_pinned(c, n->node, backend, pinned);
	return err ? ctl_fail(c, err, what) : EXIT_OK;
}

static int apply_pin_on(struct cp_client *c, struct cp_node_info *n,
			char **argv, const struct ctl_options *o)
{
	(void)argv;
	return apply_pin(c, n, o->backend, true);
}

/*
 * The held file (state-file.h) with @node's @backend (or both) added or
 * taken out; nothing to do where clearpaged is not running.
 */
static int update_held(unsigned int node, int backend, bool hold)
{
	static struct cp_held held[CP_MAX_NODES * CLEARPAGE_BACKEND_COUNT];
	const int max = CP_MAX_NODES * CLEARPAGE_BACKEND_COUNT;
	struct stat st;
	int count, i, b, err;

	if (stat(CP_SAVINGS_DIR, &st))
		return 0;
	count = cp_held_read(CP_HELD_FILE, held, max);
	if (count < 0)
		count = 0;	/* unreadable: rewritten from scratch */
	for (i = 0; i < count; i++) {
		if (held[i].node == node &&
		    (backend == CP_BACKEND_ALL || held[i].backend == backend))
			held[i--] = held[--count];
	}
	for (b = 0; hold && b < CLEARPAGE_BACKEND_COUNT && count < max; b++)
		if (backend == CP_BACKEND_ALL || backend == b)
			held[count++] = (struct cp_held){ node, b };
	err = cp_held_write(CP_HELD_FILE, held, count);
	if (err)
		fprintf(stderr, "clearpagectl: telling clearpaged (%s): %s%s\n",
			CP_HELD_FILE, strerror(-err),
			err == -EACCES || err == -EPERM ? ": run it as root" : "");
	return err;
}

static int apply_pin_off(struct cp_client *c, struct cp_node_info *n,
			 char **argv, const struct ctl_options *o)
{
	int rc;

	(void)argv;
	rc = apply_pin(c, n, o->backend, false);
	/* Unpinned: clearpaged's again, reset or not. */
	if (!rc && update_held(n->node, o->backend, false))
		rc = EXIT_FAILED;
	return rc;
}

static int apply_calibrate(struct cp_client *c, struct cp_node_info *n,
			   char **argv, const struct ctl_options *o)
{
	struct cp_node_info result;
	char what[64];
	int err;

	(void)argv;
	snprintf(what, sizeof(what), "calibrating node %u", n->node);
	err = cp_calibrate(c, n->node, &result);
	if (err)
		return ctl_fail(c, err, what);
	return print_nodes(&result, 1, o->json, true);
}

int cmd_set(int argc, char **argv, const struct ctl_options *o)
{
	if (argc == 2 && check_strategy_name(argv[1]))
		return EXIT_USAGE;
	return for_nodes(argc, argv, 2, "set NODE|all STRATEGY [--backend 4k|huge|all]",
			 apply_set, o);
}

int cmd_pin(int argc, char **argv, const struct ctl_options *o)
{
	return for_nodes(argc, argv, 1, "pin NODE|all [--backend 4k|huge|all]",
			 apply_pin_on, o);
}

int cmd_unpin(int argc, char **argv, const struct ctl_options *o)
{
	return for_nodes(argc, argv, 1, "unpin NODE|all [--backend 4k|huge|all]",
			 apply_pin_off, o);
}

static int apply_helpers(struct cp_client *c, struct cp_node_info *n,
			 char **argv, const struct ctl_options *o)
{
	unsigned long helpers = strtoul(argv[0], NULL, 10);
	char what[64];
	int err;

	(void)o;
	if (!n->has_helpers) {
		fprintf(stderr, "clearpagectl: this clearpage module has no gigantic page helpers: update clearpage-dkms\n");
		return EXIT_FAILED;
	}
	snprintf(what, sizeof(what), "setting node %u's gigantic helpers to %lu",
		 n->node, helpers);
	err = cp_set_helpers(c, n->node, helpers);
	return err ? ctl_fail(c, err, what) : EXIT_OK;
}

int cmd_helpers(int argc, char **argv, const struct ctl_options *o)
{
	if (argc == 2 && ctl_check_helpers_arg(argv[1]))
		return EXIT_USAGE;
	return for_nodes(argc, argv, 2, "helpers NODE|all COUNT", apply_helpers,
			 o);
}

static int apply_probe(struct cp_client *c, struct cp_node_info *n,
		       char **argv, const struct ctl_options *o)
{
	bool on = strcmp(argv[0], "off") != 0;
	int hot = on ? cp_strategy_from_name(argv[0]) : 0;
	int cold = on ? cp_strategy_from_name(argv[1]) : 0;
	char what[96];
	int err;

	(void)o;
	if (!n->backend[CLEARPAGE_BACKEND_HUGE].has_probe) {
		fprintf(stderr, "clearpagectl: this clearpage module has no probe mode: update clearpage-dkms\n");
		return EXIT_FAILED;
	}
	if (on)
		snprintf(what, sizeof(what), "probing node %u's huge folios (hot: %s, cold: %s)",
			 n->node, argv[0], argv[1]);
	else
		snprintf(what, sizeof(what), "turning node %u's huge probe off",
			 n->node);
	err = cp_set_probe(c, n->node, CLEARPAGE_BACKEND_HUGE, on, hot, cold,
			   CLEARPAGE_SOURCE_ADMIN);
	if (err)
		return ctl_fail(c, err, what);
	if (on)
		printf("node %u huge: probe on, hot folios %s, cold folios %s (pinned)\n",
		       n->node, argv[0], argv[1]);
	else
		printf("node %u huge: probe off\n", n->node);
	return EXIT_OK;
}

int cmd_probe(int argc, char **argv, const struct ctl_options *o)
{
	const char *usage = "probe NODE|all HOT COLD|off";

	if (o->backend != CP_BACKEND_ALL && o->backend != CLEARPAGE_BACKEND_HUGE) {
		fprintf(stderr, "clearpagectl: probe: only the huge backend has a probe mode\n");
		return EXIT_USAGE;
	}
	if (argc == 2 && !strcmp(argv[1], "off"))
		return for_nodes(argc, argv, 2, usage, apply_probe, o);
	if (argc == 3 && (check_strategy_name(argv[1]) ||
			  check_strategy_name(argv[2])))
		return EXIT_USAGE;
	return for_nodes(argc, argv, 3, usage, apply_probe, o);
}

/* for_nodes() of one optional NODE|all argument, all by default. */
static int for_nodes_or_all(int argc, char **argv, const char *usage,
			    int (*apply)(struct cp_client *c,
					 struct cp_node_info *n, char **argv,
					 const struct ctl_options *o),
			    const struct ctl_options *o)
{
	if (argc == 0)
		return for_nodes(1, (char *[]){ "all", NULL }, 1, usage, apply,
				 o);
	return for_nodes(argc, argv, 1, usage, apply, o);
}

int cmd_calibrate(int argc, char **argv, const struct ctl_options *o)
{
	return for_nodes_or_all(argc, argv, "calibrate [NODE|all]",
				apply_calibrate, o);
}

/*
 * What clearpaged set, back to kernel: every backend it changed last and
 * nobody pinned (the module refuses the daemon's source on a pinned one),
 * and every trial ended. The unit's ExecStopPost= runs it after any end of
 * the daemon, a crash or SIGKILL too, so no node stays on a strategy no
 * running daemon guards.
 */
static int apply_release(struct cp_client *c, struct cp_node_info *n,
			 char **argv, const struct ctl_options *o)
{
	char what[96];
	int b, err;

	(void)argv;
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
		const struct cp_backend_info *be = &n->backend[b];

		if (o->backend != CP_BACKEND_ALL && o->backend != b)
			continue;
		if (be->has_trials && be->trials) {
			snprintf(what, sizeof(what), "ending the trials of node %u (%s)",
				 n->node, cp_backend_name(b));
			err = cp_set_trials(c, n->node, b, 0);
			if (err)
				return ctl_fail(c, err, what);
		}
		if (be->source != CLEARPAGE_SOURCE_DAEMON || be->pinned ||
		    (be->strategy == CLEARPAGE_STRATEGY_KERNEL && !be->probe))
			continue;
		snprintf(what, sizeof(what), "returning node %u (%s) to kernel",
			 n->node, cp_backend_name(b));
		err = cp_set_strategy(c, n->node, b, CLEARPAGE_STRATEGY_KERNEL,
				      CLEARPAGE_SOURCE_DAEMON);
		if (err == -EBUSY)	/* pinned since: the admin's now */
			continue;
		if (err)
			return ctl_fail(c, err, what);
		printf("node %u %s: %s -> kernel (set by clearpaged)\n", n->node,
		       cp_backend_name(b), cp_strategy_name(be->strategy));
	}
	return EXIT_OK;
}

int cmd_release(int argc, char **argv, const struct ctl_options *o)
{
	return for_nodes_or_all(argc, argv,
				"release [NODE|all] [--backend 4k|huge|all]",
				apply_release, o);
}

/*
 * Everything back as the module loads: kernel, unpinned, no trials. Where
 * clearpaged runs it is told first (the held file), so it leaves the
 * backends alone until clearpagectl unpin or a reload hands them back.
 */
static int apply_reset(struct cp_client *c, struct cp_node_info *n,
		       char **argv, const struct ctl_options *o)
{
	char what[64];
	int b, err;

	(void)argv;
	if (update_held(n->node, o->backend, true))
		return EXIT_FAILED;
	snprintf(what, sizeof(what), "resetting node %u (%s)", n->node,
		 cp_backend_name(o->backend));
	/* An admin set pins and ends trials; then the pin goes. */
	err = cp_set_strategy(c, n->node, o->backend, CLEARPAGE_STRATEGY_KERNEL,
			      CLEARPAGE_SOURCE_ADMIN);
	if (!err && o->backend != CLEARPAGE_BACKEND_4K &&
	    n->backend[CLEARPAGE_BACKEND_HUGE].probe)
		err = cp_set_probe(c, n->node, CLEARPAGE_BACKEND_HUGE, false, 0,
				   0, CLEARPAGE_SOURCE_ADMIN);
	if (!err)
		err = cp_set_pinned(c, n->node, o->backend, false);
	if (err)
		return ctl_fail(c, err, what);
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
		if (o->backend == CP_BACKEND_ALL || o->backend == b)
			printf("node %u %s: %s -> kernel, not pinned%s\n", n->node,
			       cp_backend_name(b),
			       cp_strategy_name(n->backend[b].strategy),
			       n->backend[b].pinned ? " (was pinned)" : "");
	return EXIT_OK;
}

int cmd_reset(int argc, char **argv, const struct ctl_options *o)
{
	struct stat st;
	int rc = for_nodes_or_all(argc, argv,
				  "reset [NODE|all] [--backend 4k|huge|all]",
				  apply_reset, o);

	if (!rc && !stat(CP_SAVINGS_DIR, &st))
		printf("clearpaged leaves them on kernel until 'clearpagectl unpin' or 'systemctl reload clearpaged' hands them back\n");
	return rc;
}
