// SPDX-License-Identifier: GPL-2.0
/*
 * The managed nodes' changes: created and destroyed, per node a strategy,
 * a pin, trials, a probe mode and helpers per backend, and the counters
 * summed. The table itself, which the clearing paths read locklessly once
 * per clear, is table.c's; every change happens here under clearpage_lock,
 * is announced (a uevent and a netlink event per backend changed, through
 * the layers' hooks) and re-evaluates which backends must be armed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "clearpage.h"

/*
 * Who hears of a change: sysfs (the change uevent) and netlink (the
 * multicast event), each registered by its layer while it is up. Called
 * under clearpage_lock, so registration under the lock makes unload safe.
 */
static clearpage_notify_fn clearpage_notify_hooks[CLEARPAGE_NOTIFY_COUNT];

void clearpage_node_set_notify(enum clearpage_notify who, clearpage_notify_fn fn)
{
	lockdep_assert_held(&clearpage_lock);
	clearpage_notify_hooks[who] = fn;
}

/* The one place a change is announced. */
static void clearpage_node_announce(struct clearpage_node *node, int backend,
				    int old_strategy)
{
	int i;

	for (i = 0; i < CLEARPAGE_NOTIFY_COUNT; i++)
		if (clearpage_notify_hooks[i])
			clearpage_notify_hooks[i](node, backend, old_strategy);
}

/* Record a change of @backend on @node and announce it. */
static void clearpage_choice_set(struct clearpage_node *node, int backend,
				 int strategy, bool pinned,
				 enum clearpage_source source)
{
	struct clearpage_choice *choice = &node->choice[backend];
	int old_strategy = choice->strategy;

	lockdep_assert_held(&clearpage_lock);
	/* Each read locklessly too: by netlink's unprivileged readers. */
	WRITE_ONCE(choice->strategy, strategy);
	WRITE_ONCE(choice->pinned, pinned);
	WRITE_ONCE(choice->last_source, source);
	WRITE_ONCE(choice->last_change_ns, ktime_get_real_ns());
	clearpage_node_announce(node, backend, old_strategy);
}

static int first_backend(int backend)
{
	return backend == CLEARPAGE_BACKEND_ALL ? 0 : backend;
}

static int end_backend(int backend)
{
	return backend == CLEARPAGE_BACKEND_ALL ? CLEARPAGE_BACKEND_COUNT :
						  backend + 1;
}

/*
 * An admin change pins the backend; a daemon change of a pinned backend is
 * refused with -EBUSY and changes nothing (for every backend, nothing when
 * one of them is pinned).
 */
int clearpage_node_set_strategy(struct clearpage_node *node, int backend,
				int strategy, enum clearpage_source source)
{
	int b;

	if (!clearpage_strategy_usable(strategy))
		return -EINVAL;
	clearpage_test_set_delay(strategy);

	mutex_lock(&clearpage_lock);
	/*
	 * Again under the lock: a calibration may have refused the routine
	 * and moved every node off it since (clearpage_strategy_withdraw()).
	 */
	if (!clearpage_strategy_usable(strategy)) {
		mutex_unlock(&clearpage_lock);
		return -EINVAL;
	}
	for (b = first_backend(backend); b < end_backend(backend); b++)
		if (source == CLEARPAGE_SOURCE_DAEMON && node->choice[b].pinned) {
			mutex_unlock(&clearpage_lock);
			return -EBUSY;
		}
	for (b = first_backend(backend); b < end_backend(backend); b++) {
		/* The daemon's strategy ends its probe mode (per folio). */
		if (source == CLEARPAGE_SOURCE_DAEMON)
			WRITE_ONCE(node->choice[b].probe, 0);
		/* An administrator's strategy pins: its trials end too. */
		if (source == CLEARPAGE_SOURCE_ADMIN)
			WRITE_ONCE(node->choice[b].trials, 0);
		clearpage_choice_set(node, b, strategy,
				     node->choice[b].pinned ||
				     source == CLEARPAGE_SOURCE_ADMIN, source);
	}
	clearpage_backends_update();
	mutex_unlock(&clearpage_lock);
	return 0;
}

static bool probe_names(unsigned int mode, int strategy)
{
	return mode && (clearpage_probe_hot_strategy(mode) == strategy ||
			clearpage_probe_cold_strategy(mode) == strategy);
}

/*
 * Refuse @strategy, and every backend of every node on it returns to
 * kernel, pinned or not, in one section under clearpage_lock: a set or a
 * trial, which checks that the strategy is usable under the lock too, comes
 * before (and is moved back) or after (and is refused).
 */
static void clearpage_strategy_withdraw(int strategy)
{
	struct clearpage_node *node;
	int nid, b;

	mutex_lock(&clearpage_lock);
	clearpage_strategy_refuse(strategy);
	for_each_clearpage_node(node, nid)
		for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
			WRITE_ONCE(node->choice[b].trials,
				   node->choice[b].trials & ~(1U << strategy));
			if (probe_names(node->choice[b].probe, strategy))
				WRITE_ONCE(node->choice[b].probe, 0);
			if (node->choice[b].strategy == strategy)
				clearpage_choice_set(node, b,
						     CLEARPAGE_STRATEGY_KERNEL,
						     node->choice[b].pinned,
						     CLEARPAGE_SOURCE_DEFAULT);
		}
	clearpage_backends_update();
	mutex_unlock(&clearpage_lock);
}

/*
 * Calibrate @node; a routine that failed its self-test is refused on the
 * machine, and every node running it returns to kernel, pinned or not.
 */
int clearpage_node_calibrate(struct clearpage_node *node)
{
	long failed = clearpage_calibrate(node);
	int strategy;

	if (failed < 0)
		return failed;
	mutex_lock(&clearpage_lock);
	if (!READ_ONCE(node->probe_calibration.threshold_ticks) &&
	    node->choice[CLEARPAGE_BACKEND_HUGE].probe) {
		WRITE_ONCE(node->choice[CLEARPAGE_BACKEND_HUGE].probe, 0);
		clearpage_backends_update();
		pr_warn("node%d: the probe can no longer tell a cached line from memory (%u vs %u ticks): probe_huge is off\n",
			node->nid, node->probe_calibration.hot_ticks,
			node->probe_calibration.cold_ticks);
	}
	mutex_unlock(&clearpage_lock);
	for (strategy = 1; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++) {
		if (!(failed & (1L << strategy)))
			continue;
		clearpage_strategy_withdraw(strategy);
	}
	return 0;
}

/*
 * An administrator's pin also ends the backend's trials: a pinned backend
 * clears every frame with the pinned strategy but its reference frames.
 */
int clearpage_node_set_pinned(struct clearpage_node *node, int backend,
			      bool pinned, enum clearpage_source source)
{
	int b;

	mutex_lock(&clearpage_lock);
	for (b = first_backend(backend); b < end_backend(backend); b++) {
		if (pinned)
			WRITE_ONCE(node->choice[b].trials, 0);
		clearpage_choice_set(node, b, node->choice[b].strategy, pinned,
				     source);
	}
	clearpage_backends_update();
	mutex_unlock(&clearpage_lock);
	return 0;
}

int clearpage_node_set_probe(struct clearpage_node *node, int backend, bool on,
			     int hot, int cold, enum clearpage_source source)
{
	struct clearpage_choice *choice;

	if (backend != CLEARPAGE_BACKEND_HUGE)
		return -EOPNOTSUPP;
	choice = &node->choice[backend];
	mutex_lock(&clearpage_lock);
	if (source == CLEARPAGE_SOURCE_DAEMON && choice->pinned) {
		mutex_unlock(&clearpage_lock);
		return -EBUSY;
	}
	if (!on) {
		WRITE_ONCE(choice->probe, 0);
		clearpage_backends_update();
		mutex_unlock(&clearpage_lock);
		return 0;
	}
	/* Under the lock: see clearpage_strategy_withdraw(). */
	if (!clearpage_strategy_usable(hot) || !clearpage_strategy_usable(cold)) {
		mutex_unlock(&clearpage_lock);
		return -EOPNOTSUPP;
	}
	if (!READ_ONCE(node->probe_calibration.threshold_ticks)) {
		mutex_unlock(&clearpage_lock);
		return -EINVAL;
	}
	WRITE_ONCE(choice->trials, 0);
	WRITE_ONCE(choice->probe, clearpage_probe_mode(hot, cold));
	clearpage_choice_set(node, backend, choice->strategy,
			     choice->pinned || source == CLEARPAGE_SOURCE_ADMIN,
			     source);
	clearpage_backends_update();
	mutex_unlock(&clearpage_lock);
	return 0;
}

/* 0, or why @trials cannot be a backend's candidates (-EINVAL, -EOPNOTSUPP). */
static int trials_check(unsigned int trials)
{
	int s;

	if (trials & 1U << CLEARPAGE_STRATEGY_KERNEL ||
	    trials >> CLEARPAGE_STRATEGY_COUNT)
		return -EINVAL;
	for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
		if (trials & 1U << s && !clearpage_strategy_usable(s))
			return -EOPNOTSUPP;
	return 0;
}

/*
 * The candidates timed on @backend's trial frames (a bit per strategy,
 * never kernel's: its frames are the reference frames). -EBUSY on a pinned
 * backend (for every backend, nothing when one is pinned), except to end
 * the trials.
 */
int clearpage_node_set_trials(struct clearpage_node *node, int backend,
			      unsigned int trials)
{
	int b, err = trials_check(trials);

	if (err)
		return err;
	mutex_lock(&clearpage_lock);
	/* Under the lock too: see clearpage_strategy_withdraw(). */
	err = trials_check(trials);
	if (err) {
		mutex_unlock(&clearpage_lock);
		return err;
	}
	for (b = first_backend(backend); b < end_backend(backend); b++)
		if (trials && node->choice[b].pinned) {
			mutex_unlock(&clearpage_lock);
			return -EBUSY;
		}
	for (b = first_backend(backend); b < end_backend(backend); b++)
		WRITE_ONCE(node->choice[b].trials, trials);
	clearpage_backends_update();
	mutex_unlock(&clearpage_lock);
	return 0;
}

/*
 * How many of the node's other CPUs help clear its gigantic folios: at most
 * the node's online CPUs but one (the faulting task's). CPUs that go
 * offline later only shrink the helpers a clear finds (helpers.c).
 */
int clearpage_node_set_helpers(struct clearpage_node *node,
			       unsigned int helpers)
{
	unsigned int online;

	if (helpers > CLEARPAGE_HELPERS_MAX)
		return -EINVAL;
	mutex_lock(&clearpage_lock);
	cpus_read_lock();
	online = cpumask_weight_and(cpumask_of_node(node->nid),
				    cpu_online_mask);
	cpus_read_unlock();
	if (helpers && helpers >= online) {
		mutex_unlock(&clearpage_lock);
		return -EINVAL;
	}
	WRITE_ONCE(node->helpers, helpers);
	mutex_unlock(&clearpage_lock);
	return 0;
}

void clearpage_node_stats_sum(struct clearpage_node *node,
			      struct clearpage_node_stats *sum)
{
	/* Every counter is a u64: the sum goes word by word. */
	const unsigned int words = sizeof(*sum) / sizeof(u64);
	u64 *to = (u64 *)sum;
	unsigned int i;
	int cpu;

	BUILD_BUG_ON(sizeof(*sum) % sizeof(u64));
	BUILD_BUG_ON(offsetofend(struct clearpage_node_stats, touch_skipped) !=
		     sizeof(*sum));
	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const u64 *from = (const u64 *)per_cpu_ptr(node->stats, cpu);

		for (i = 0; i < words; i++)
			to[i] += READ_ONCE(from[i]);
	}
}

static struct clearpage_node *clearpage_node_alloc(int nid, int strategy)
{
	struct clearpage_node *node;
	int b;

	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		return NULL;
	node->stats = alloc_percpu(struct clearpage_node_stats);
	if (!node->stats) {
		kfree(node);
		return NULL;
	}
	node->nid = nid;
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
		node->choice[b] = (struct clearpage_choice){
			.strategy = strategy,
			.last_source = CLEARPAGE_SOURCE_DEFAULT,
			.last_change_ns = ktime_get_real_ns(),
		};
	mutex_init(&node->calibration_lock);
	return node;
}

static void clearpage_node_free(struct clearpage_node *node)
{
	free_percpu(node->stats);
	kfree(node);
}

int clearpage_nodes_create(int default_strategy)
{
	struct clearpage_node *node;
	int nid, err;

	for_each_node_state(nid, N_MEMORY) {
		/* An earlier node's self-test may have refused the default. */
		node = clearpage_node_alloc(nid,
					    clearpage_strategy_usable(default_strategy) ?
					    default_strategy :
					    CLEARPAGE_STRATEGY_KERNEL);
		if (!node) {
			err = -ENOMEM;
			goto err;
		}
		/* Published only once complete: the clearing paths may look. */
		clearpage_node_publish(nid, node);
		clearpage_node_calibrate(node);
	}
	return 0;
err:
	clearpage_nodes_destroy();
	return err;
}

/* Callers guarantee no backend can reach a node any more. */
void clearpage_nodes_destroy(void)
{
	struct clearpage_node *node;
	int nid;

	for_each_clearpage_node(node, nid) {
		clearpage_node_publish(nid, NULL);
		clearpage_node_free(node);
	}
}
