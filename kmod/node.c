// SPDX-License-Identifier: GPL-2.0
/*
 * Per-node state: the strategy, the pin, and the counters. The clearing paths
 * read a node's strategy locklessly once per clear; every change happens under
 * clearpage_lock, is announced with a uevent, and re-evaluates which
 * backends must be armed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "clearpage.h"

DEFINE_MUTEX(clearpage_lock);

static struct clearpage_node *clearpage_nodes[MAX_NUMNODES];

struct clearpage_node *clearpage_node_get(int nid)
{
	if (nid < 0 || nid >= MAX_NUMNODES)
		return NULL;
	return READ_ONCE(clearpage_nodes[nid]);
}

/* The next managed node after @nid, or MAX_NUMNODES. */
int clearpage_next_node(int nid, struct clearpage_node **node)
{
	for (nid++; nid < MAX_NUMNODES; nid++) {
		*node = clearpage_node_get(nid);
		if (*node)
			break;
	}
	return nid;
}

/* A node clearpage does not manage (NULL) clears as the kernel does. */
int clearpage_node_strategy(struct clearpage_node *node)
{
	return node ? READ_ONCE(node->strategy) : CLEARPAGE_STRATEGY_KERNEL;
}

bool clearpage_any_node_intercepted(void)
{
	struct clearpage_node *node;
	int nid;

	for_each_clearpage_node(node, nid)
		if (READ_ONCE(node->strategy) != CLEARPAGE_STRATEGY_KERNEL)
			return true;
	return false;
}

static void clearpage_node_announce(struct clearpage_node *node,
				    int old_strategy)
{
	char env_node[32], env_strategy[48], env_source[48], env_pinned[32];
	char *envp[] = { env_node, env_strategy, env_source, env_pinned, NULL };

	snprintf(env_node, sizeof(env_node), "CLEARPAGE_NODE=%d", node->nid);
	snprintf(env_strategy, sizeof(env_strategy), "CLEARPAGE_STRATEGY=%s",
		 clearpage_strategy_names[node->strategy]);
	snprintf(env_source, sizeof(env_source), "CLEARPAGE_SOURCE=%s",
		 clearpage_source_name(node->last_source));
	snprintf(env_pinned, sizeof(env_pinned), "CLEARPAGE_PINNED=%d",
		 node->pinned);
	kobject_uevent_env(&node->kobj, KOBJ_CHANGE, envp);
	clearpage_nl_notify(node, old_strategy);
}

/*
 * An admin change pins the node; a daemon change of a pinned node is refused
 * with -EBUSY and changes nothing.
 */
int clearpage_node_set_strategy(struct clearpage_node *node, int strategy,
				enum clearpage_source source)
{
	int old_strategy;

	if (!clearpage_strategy_usable(strategy))
		return -EINVAL;

	mutex_lock(&clearpage_lock);
	if (source == CLEARPAGE_SOURCE_DAEMON && node->pinned) {
		mutex_unlock(&clearpage_lock);
		return -EBUSY;
	}
	old_strategy = node->strategy;
	WRITE_ONCE(node->strategy, strategy);
	if (source == CLEARPAGE_SOURCE_ADMIN)
		node->pinned = true;
	node->last_source = source;
	node->last_change_ns = ktime_get_real_ns();
	clearpage_4k_update();
	clearpage_node_announce(node, old_strategy);
	mutex_unlock(&clearpage_lock);
	return 0;
}

/* Every node on @strategy returns to kernel, whatever its pin. */
void clearpage_nodes_leave(int strategy)
{
	struct clearpage_node *node;
	int nid;

	mutex_lock(&clearpage_lock);
	for_each_clearpage_node(node, nid) {
		if (node->strategy != strategy)
			continue;
		WRITE_ONCE(node->strategy, CLEARPAGE_STRATEGY_KERNEL);
		node->last_source = CLEARPAGE_SOURCE_DEFAULT;
		node->last_change_ns = ktime_get_real_ns();
		clearpage_node_announce(node, strategy);
	}
	clearpage_4k_update();
	mutex_unlock(&clearpage_lock);
}

int clearpage_node_set_pinned(struct clearpage_node *node, bool pinned,
			      enum clearpage_source source)
{
	mutex_lock(&clearpage_lock);
	node->pinned = pinned;
	node->last_source = source;
	node->last_change_ns = ktime_get_real_ns();
	clearpage_node_announce(node, node->strategy);
	mutex_unlock(&clearpage_lock);
	return 0;
}

void clearpage_node_stats_sum(struct clearpage_node *node,
			      struct clearpage_node_stats *sum)
{
	int cpu, i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		struct clearpage_node_stats *s = per_cpu_ptr(node->stats, cpu);

		for (i = 0; i < CLEARPAGE_STRATEGY_COUNT; i++) {
			sum->pages_4k[i] += READ_ONCE(s->pages_4k[i]);
			sum->pages_huge[i] += READ_ONCE(s->pages_huge[i]);
			sum->ranges_huge[i] += READ_ONCE(s->ranges_huge[i]);
			sum->samples[i] += READ_ONCE(s->samples[i]);
			sum->sample_ns[i] += READ_ONCE(s->sample_ns[i]);
		}
		sum->pages_huge_prezeroed += READ_ONCE(s->pages_huge_prezeroed);
		sum->reference_pages += READ_ONCE(s->reference_pages);
		sum->reference_sample_ns += READ_ONCE(s->reference_sample_ns);
		for (i = 0; i < CLEARPAGE_LATENCY_BUCKETS; i++)
			sum->latency[i] += READ_ONCE(s->latency[i]);
	}
}

static struct clearpage_node *clearpage_node_alloc(int nid, int strategy)
{
	struct clearpage_node *node;

	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		return NULL;
	node->stats = alloc_percpu(struct clearpage_node_stats);
	if (!node->stats) {
		kfree(node);
		return NULL;
	}
	node->nid = nid;
	node->strategy = strategy;
	node->last_source = CLEARPAGE_SOURCE_DEFAULT;
	node->last_change_ns = ktime_get_real_ns();
	mutex_init(&node->calibration_lock);
	return node;
}

/* kobject release: the last reference to a node is gone. */
void clearpage_node_release(struct kobject *kobj)
{
	struct clearpage_node *node =
		container_of(kobj, struct clearpage_node, kobj);

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
		err = clearpage_sysfs_add_node(node);
		if (err) {
			kobject_put(&node->kobj);
			goto err;
		}
		/* Published only once complete: the clearing paths may look. */
		WRITE_ONCE(clearpage_nodes[nid], node);
		clearpage_calibrate(node);
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
		WRITE_ONCE(clearpage_nodes[nid], NULL);
		kobject_put(&node->kobj);
	}
}
