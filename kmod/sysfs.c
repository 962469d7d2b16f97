// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/clearpage/: the ABI documented in doc/ABI/sysfs-kernel-clearpage.
 * Every store validates its whole input before changing anything.
 */
#include <linux/capability.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "clearpage.h"

/* A kset, so that the nodes' change uevents have somewhere to go. */
static struct kset *clearpage_kset;

/*
 * A node's directory: sysfs's own object, pointing at the node, which
 * node.c owns and frees (after clearpage_sysfs_remove(), which waits for
 * every show and store in flight). By node id, for the change uevents.
 */
struct clearpage_node_kobj {
	struct kobject kobj;
	struct clearpage_node *node;
};

static struct clearpage_node_kobj *clearpage_node_kobjs[MAX_NUMNODES];

static ssize_t available_strategies_show(struct kobject *kobj,
					 struct kobj_attribute *attr,
					 char *buf)
{
	int strategy, len = 0;

	for (strategy = 0; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++)
		if (clearpage_strategy_usable(strategy))
			len += sysfs_emit_at(buf, len, "%s%s", len ? " " : "",
					     clearpage_strategy_names[strategy]);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t cpu_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "vendor=%s family=%u model=%u stepping=%u\n",
			  clearpage_cpu.vendor, clearpage_cpu.family,
			  clearpage_cpu.model, clearpage_cpu.stepping);
}

static ssize_t backends_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return clearpage_backends_describe(buf);
}

static ssize_t paths_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return clearpage_backends_describe_paths(buf);
}

static struct kobj_attribute available_strategies_attr =
	__ATTR_RO(available_strategies);
static struct kobj_attribute cpu_attr = __ATTR_RO(cpu);
static struct kobj_attribute backends_attr = __ATTR_RO(backends);
static struct kobj_attribute paths_attr = __ATTR_RO(paths);

static struct attribute *clearpage_root_attrs[] = {
	&available_strategies_attr.attr,
	&cpu_attr.attr,
	&backends_attr.attr,
	&paths_attr.attr,
	NULL,
};

static const struct attribute_group clearpage_root_group = {
	.attrs = clearpage_root_attrs,
};

static struct clearpage_node *to_node(struct kobject *kobj)
{
	return container_of(kobj, struct clearpage_node_kobj, kobj)->node;
}

/* A node file of one backend, or of all of them (CLEARPAGE_BACKEND_ALL). */
struct node_attribute {
	struct kobj_attribute attr;
	int backend;
};

static int to_backend(struct kobj_attribute *attr)
{
	return container_of(attr, struct node_attribute, attr)->backend;
}

#define NODE_ATTR(_file, _mode, _show, _store, _backend)		\
	static struct node_attribute _file##_attr = {			\
		.attr = __ATTR(_file, _mode, _show, _store),		\
		.backend = _backend,					\
	}

/* "0" or "1", optionally followed by one newline. */
static int clearpage_parse_bool(const char *buf, size_t count, bool *value)
{
	if (count && buf[count - 1] == '\n')
		count--;
	if (count != 1 || (buf[0] != '0' && buf[0] != '1'))
		return -EINVAL;
	*value = buf[0] == '1';
	return 0;
}

/*
 * The strategy in brackets: the backend's, or for all backends the one they
 * share (none when they differ).
 */
static int shown_strategy(struct clearpage_node *node, int backend)
{
	int b, strategy;

	if (backend != CLEARPAGE_BACKEND_ALL)
		return READ_ONCE(node->choice[backend].strategy);
	strategy = READ_ONCE(node->choice[0].strategy);
	for (b = 1; b < CLEARPAGE_BACKEND_COUNT; b++)
		if (READ_ONCE(node->choice[b].strategy) != strategy)
			return -1;
	return strategy;
}

static ssize_t strategy_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	int current_strategy = shown_strategy(to_node(kobj), to_backend(attr));
	int strategy, len = 0;

	for (strategy = 0; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++) {
		const char *name = clearpage_strategy_names[strategy];

		if (!clearpage_strategy_usable(strategy))
			continue;
		len += sysfs_emit_at(buf, len, strategy == current_strategy ?
					       "%s[%s]" : "%s%s",
				     len ? " " : "", name);
	}
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t strategy_store(struct kobject *kobj, struct kobj_attribute *attr,
			      const char *buf, size_t count)
{
	int strategy, err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	strategy = clearpage_strategy_parse(buf, count);
	if (strategy < 0)
		return strategy;
	err = clearpage_node_set_strategy(to_node(kobj), to_backend(attr),
					  strategy, CLEARPAGE_SOURCE_ADMIN);
	return err ? err : count;
}

/* For all backends: 1 when any of them is pinned. */
static ssize_t pinned_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct clearpage_node *node = to_node(kobj);
	int backend = to_backend(attr), b;
	bool pinned = false;

	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
		if (backend == CLEARPAGE_BACKEND_ALL || backend == b)
			pinned |= READ_ONCE(node->choice[b].pinned);
	return sysfs_emit(buf, "%d\n", pinned);
}

static ssize_t pinned_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	bool pinned;
	int err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	err = clearpage_parse_bool(buf, count, &pinned);
	if (err)
		return err;
	err = clearpage_node_set_pinned(to_node(kobj), to_backend(attr), pinned,
					CLEARPAGE_SOURCE_ADMIN);
	return err ? err : count;
}

/* The backend's candidates, by name; "none" when it has none. */
static ssize_t trials_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	unsigned int trials = READ_ONCE(to_node(kobj)->choice[to_backend(attr)].trials);
	int strategy, len = 0;

	for (strategy = 1; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++)
		if (trials & (1U << strategy))
			len += sysfs_emit_at(buf, len, "%s%s", len ? " " : "",
					     clearpage_strategy_names[strategy]);
	len += sysfs_emit_at(buf, len, "%s\n", len ? "" : "none");
	return len;
}

/* -EBUSY on a pinned backend: a pin ends its trials. */
static ssize_t trials_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	long trials;
	int err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	trials = clearpage_trials_parse(buf, count);
	if (trials < 0)
		return trials;
	err = clearpage_node_set_trials(to_node(kobj), to_backend(attr), trials);
	return err ? err : count;
}

/* "off", or the strategies for hot and for cold folios. */
static ssize_t probe_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	unsigned int mode = READ_ONCE(to_node(kobj)->choice[to_backend(attr)].probe);

	if (!mode)
		return sysfs_emit(buf, "off\n");
	return sysfs_emit(buf, "%s %s\n",
			  clearpage_strategy_names[clearpage_probe_hot_strategy(mode)],
			  clearpage_strategy_names[clearpage_probe_cold_strategy(mode)]);
}

/*
 * "off", or two available strategy names separated by one space (hot, then
 * cold), optionally followed by a newline: else -EINVAL. -EINVAL too when
 * the node's probe calibration cannot tell a cached line from memory.
 */
static ssize_t probe_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	size_t len = count, first;
	int hot, cold, err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (len && buf[len - 1] == '\n')
		len--;
	if (len == 3 && !memcmp(buf, "off", 3)) {
		err = clearpage_node_set_probe(to_node(kobj), to_backend(attr),
					       false, 0, 0,
					       CLEARPAGE_SOURCE_ADMIN);
		return err ? err : count;
	}
	for (first = 0; first < len && buf[first] != ' '; first++)
		;
	if (first == len)
		return -EINVAL;
	hot = clearpage_strategy_parse(buf, first);
	cold = clearpage_strategy_parse(buf + first + 1, len - first - 1);
	if (hot < 0 || cold < 0)
		return -EINVAL;
	err = clearpage_node_set_probe(to_node(kobj), to_backend(attr), true,
				       hot, cold, CLEARPAGE_SOURCE_ADMIN);
	return err ? err : count;
}

static ssize_t probe_calibration_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	struct clearpage_node *node = to_node(kobj);
	struct clearpage_probe_calibration c;

	mutex_lock(&node->calibration_lock);
	c = node->probe_calibration;
	mutex_unlock(&node->calibration_lock);
	return sysfs_emit(buf, "hot_ticks %u\ncold_ticks %u\nthreshold_ticks %u\n",
			  c.hot_ticks, c.cold_ticks, c.threshold_ticks);
}

static ssize_t gigantic_helpers_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_node(kobj)->helpers));
}

/* A decimal count, 0 to the node's online CPUs less one: else -EINVAL. */
static ssize_t gigantic_helpers_store(struct kobject *kobj,
				      struct kobj_attribute *attr,
				      const char *buf, size_t count)
{
	unsigned int helpers;
	int err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	err = kstrtouint(buf, 10, &helpers);
	if (err)
		return -EINVAL;
	err = clearpage_node_set_helpers(to_node(kobj), helpers);
	return err ? err : count;
}

/*
 * The counters of struct clearpage_node_stats in the stats file, by kind:
 * per backend and strategy, per backend. Each group is printed backend by
 * backend, its counters in table order (the order the ABI text lists).
 */
struct stats_counter {
	const char *name;
	size_t offset;
};

#define STATS_COUNTER(_name, _field) \
	{ _name, offsetof(struct clearpage_node_stats, _field) }

static const struct stats_counter strategy_counters[] = {
	STATS_COUNTER("pages", pages),
	STATS_COUNTER("samples", samples),
	STATS_COUNTER("sample_ns", sample_ns),
};

static const struct stats_counter trial_counters[] = {
	STATS_COUNTER("trial_pages", trial_pages),
	STATS_COUNTER("trial_ns", trial_ns),
};

static const struct stats_counter reference_counters[] = {
	STATS_COUNTER("reference_pages", reference_pages),
	STATS_COUNTER("reference_sample_ns", reference_sample_ns),
};

static const struct stats_counter probe_counters[] = {
	STATS_COUNTER("probe_hot", probe_hot),
	STATS_COUNTER("probe_cold", probe_cold),
	STATS_COUNTER("probe_ns", probe_ns),
	STATS_COUNTER("probe_recycled", probe_recycled),
};

static const struct stats_counter touch_counters[] = {
	STATS_COUNTER("touch_probed", touch_probed),
	STATS_COUNTER("touch_cached", touch_cached),
	STATS_COUNTER("touch_skipped", touch_skipped),
};

/* Counters u64 [backend][strategy] of @strategy: "<name>_<backend>_<s>". */
static int emit_strategy_counters(char *buf, int len,
				  const struct clearpage_node_stats *sum,
				  const struct stats_counter *counters,
				  unsigned int n, int strategy)
{
	const char *name = clearpage_strategy_names[strategy];
	unsigned int i;
	int b;

	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
		for (i = 0; i < n; i++) {
			const u64 (*v)[CLEARPAGE_STRATEGY_COUNT] =
				(const void *)sum + counters[i].offset;

			len += sysfs_emit_at(buf, len, "%s_%s_%s %llu\n",
					     counters[i].name,
					     clearpage_backend_names[b], name,
					     v[b][strategy]);
		}
	return len;
}

/* Counters u64 [backend]: "<name>_<backend>". */
static int emit_backend_counters(char *buf, int len,
				 const struct clearpage_node_stats *sum,
				 const struct stats_counter *counters,
				 unsigned int n)
{
	unsigned int i;
	int b;

	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
		for (i = 0; i < n; i++) {
			const u64 *v = (const void *)sum + counters[i].offset;

			len += sysfs_emit_at(buf, len, "%s_%s %llu\n",
					     counters[i].name,
					     clearpage_backend_names[b], v[b]);
		}
	return len;
}

static ssize_t stats_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct clearpage_node_stats sum;
	int strategy, bucket, len = 0;

	clearpage_node_stats_sum(to_node(kobj), &sum);
	for (strategy = 0; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++) {
		if (!clearpage_strategy_usable(strategy))
			continue;
		len = emit_strategy_counters(buf, len, &sum, strategy_counters,
					     ARRAY_SIZE(strategy_counters),
					     strategy);
		len += sysfs_emit_at(buf, len, "ranges_huge_%s %llu\n",
				     clearpage_strategy_names[strategy],
				     sum.ranges_huge[strategy]);
		if (strategy)
			len = emit_strategy_counters(buf, len, &sum,
						     trial_counters,
						     ARRAY_SIZE(trial_counters),
						     strategy);
	}
	len += sysfs_emit_at(buf, len, "pages_huge_prezeroed %llu\n",
			     sum.pages_huge_prezeroed);
	len += sysfs_emit_at(buf, len, "pages_huge_allocator %llu\n",
			     sum.pages_huge_allocator);
	len += sysfs_emit_at(buf, len, "ranges_huge_allocator %llu\n",
			     sum.ranges_huge_allocator);
	len = emit_backend_counters(buf, len, &sum, reference_counters,
				    ARRAY_SIZE(reference_counters));
	len = emit_backend_counters(buf, len, &sum, probe_counters,
				    ARRAY_SIZE(probe_counters));
	len = emit_backend_counters(buf, len, &sum, touch_counters,
				    ARRAY_SIZE(touch_counters));
	len += sysfs_emit_at(buf, len, "touch_held %u\n",
			     clearpage_touch_held(to_node(kobj)));
	len += sysfs_emit_at(buf, len, "gigantic_helped_folios %llu\n",
			     sum.helped_folios);
	len += sysfs_emit_at(buf, len, "gigantic_helper_pages %llu\n",
			     sum.helper_pages);
	len += sysfs_emit_at(buf, len, "gigantic_helpers_started %llu\n",
			     sum.helpers_started);
	len += sysfs_emit_at(buf, len, "gigantic_helpers_not_started %llu\n",
			     sum.helpers_not_started);
	for (bucket = 0; bucket < CLEARPAGE_LATENCY_BUCKETS - 1; bucket++)
		len += sysfs_emit_at(buf, len, "latency_ns_%llu %llu\n",
				     1ULL << (CLEARPAGE_LATENCY_FIRST_SHIFT +
					      bucket),
				     sum.latency[bucket]);
	len += sysfs_emit_at(buf, len, "latency_ns_inf %llu\n",
			     sum.latency[CLEARPAGE_LATENCY_BUCKETS - 1]);
	return len;
}

static ssize_t calibration_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct clearpage_node *node = to_node(kobj);
	const struct clearpage_calibration *table =
		node->calibration[to_backend(attr)];
	int strategy, len = 0;

	mutex_lock(&node->calibration_lock);
	for (strategy = 0; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++) {
		if (!clearpage_strategy_usable(strategy))
			continue;
		len += sysfs_emit_at(buf, len, "%s %u %u\n",
				     clearpage_strategy_names[strategy],
				     table[strategy].hot_ns,
				     table[strategy].cold_ns);
	}
	mutex_unlock(&node->calibration_lock);
	return len;
}

static ssize_t calibrate_store(struct kobject *kobj,
			       struct kobj_attribute *attr, const char *buf,
			       size_t count)
{
	bool value;
	int err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	err = clearpage_parse_bool(buf, count, &value);
	if (err || !value)
		return -EINVAL;
	err = clearpage_node_calibrate(to_node(kobj));
	return err ? err : count;
}

/*
 * The counters and calibrations are root's alone (0400): they time the
 * clears of other processes' pages and say whether those read their fresh
 * pages (touch_cached), a side channel. A show cannot check CAP_PERFMON
 * soundly (the reader need not be the opener), so a reader with it and
 * without root uses netlink, which checks the opener and the sender.
 */
NODE_ATTR(strategy, 0644, strategy_show, strategy_store,
	  CLEARPAGE_BACKEND_ALL);
NODE_ATTR(strategy_4k, 0644, strategy_show, strategy_store,
	  CLEARPAGE_BACKEND_4K);
NODE_ATTR(strategy_huge, 0644, strategy_show, strategy_store,
	  CLEARPAGE_BACKEND_HUGE);
NODE_ATTR(pinned, 0644, pinned_show, pinned_store, CLEARPAGE_BACKEND_ALL);
NODE_ATTR(pinned_4k, 0644, pinned_show, pinned_store, CLEARPAGE_BACKEND_4K);
NODE_ATTR(pinned_huge, 0644, pinned_show, pinned_store,
	  CLEARPAGE_BACKEND_HUGE);
NODE_ATTR(trials_4k, 0644, trials_show, trials_store, CLEARPAGE_BACKEND_4K);
NODE_ATTR(trials_huge, 0644, trials_show, trials_store,
	  CLEARPAGE_BACKEND_HUGE);
NODE_ATTR(probe_huge, 0644, probe_show, probe_store, CLEARPAGE_BACKEND_HUGE);
NODE_ATTR(probe_calibration, 0400, probe_calibration_show, NULL,
	  CLEARPAGE_BACKEND_ALL);
NODE_ATTR(gigantic_helpers, 0644, gigantic_helpers_show,
	  gigantic_helpers_store, CLEARPAGE_BACKEND_ALL);
NODE_ATTR(stats, 0400, stats_show, NULL, CLEARPAGE_BACKEND_ALL);
NODE_ATTR(calibration_4k, 0400, calibration_show, NULL,
	  CLEARPAGE_BACKEND_4K);
NODE_ATTR(calibration_huge, 0400, calibration_show, NULL,
	  CLEARPAGE_BACKEND_HUGE);
NODE_ATTR(calibrate, 0200, NULL, calibrate_store, CLEARPAGE_BACKEND_ALL);

static struct attribute *clearpage_node_attrs[] = {
	&strategy_attr.attr.attr,
	&strategy_4k_attr.attr.attr,
	&strategy_huge_attr.attr.attr,
	&pinned_attr.attr.attr,
	&pinned_4k_attr.attr.attr,
	&pinned_huge_attr.attr.attr,
	&trials_4k_attr.attr.attr,
	&trials_huge_attr.attr.attr,
	&probe_huge_attr.attr.attr,
	&probe_calibration_attr.attr.attr,
	&gigantic_helpers_attr.attr.attr,
	&stats_attr.attr.attr,
	&calibration_4k_attr.attr.attr,
	&calibration_huge_attr.attr.attr,
	&calibrate_attr.attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(clearpage_node);

static void clearpage_node_kobj_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct clearpage_node_kobj, kobj));
}

static const struct kobj_type clearpage_node_ktype = {
	.sysfs_ops = &kobj_sysfs_ops,
	.release = clearpage_node_kobj_release,
	.default_groups = clearpage_node_groups,
};

/* The change uevent of a backend of a node (doc/ABI). */
static void clearpage_sysfs_node_changed(struct clearpage_node *node,
					 int backend, int old_strategy)
{
	const struct clearpage_choice *choice = &node->choice[backend];
	struct clearpage_node_kobj *nk = clearpage_node_kobjs[node->nid];
	char env_node[32], env_backend[32], env_strategy[48], env_source[48];
	char env_pinned[32];
	char *envp[] = { env_node, env_backend, env_strategy, env_source,
			 env_pinned, NULL };

	if (!nk)
		return;
	snprintf(env_node, sizeof(env_node), "CLEARPAGE_NODE=%d", node->nid);
	snprintf(env_backend, sizeof(env_backend), "CLEARPAGE_BACKEND=%s",
		 clearpage_backend_names[backend]);
	snprintf(env_strategy, sizeof(env_strategy), "CLEARPAGE_STRATEGY=%s",
		 clearpage_strategy_names[choice->strategy]);
	snprintf(env_source, sizeof(env_source), "CLEARPAGE_SOURCE=%s",
		 clearpage_source_name(choice->last_source));
	snprintf(env_pinned, sizeof(env_pinned), "CLEARPAGE_PINNED=%d",
		 choice->pinned);
	kobject_uevent_env(&nk->kobj, KOBJ_CHANGE, envp);
}

/* /sys/kernel/clearpage and a directory per node, once the nodes exist. */
int clearpage_sysfs_create(void)
{
	struct clearpage_node *node;
	int nid, err;

	clearpage_kset = kset_create_and_add("clearpage", NULL, kernel_kobj);
	if (!clearpage_kset)
		return -ENOMEM;
	err = sysfs_create_group(&clearpage_kset->kobj, &clearpage_root_group);
	if (err)
		goto fail;
	for_each_clearpage_node(node, nid) {
		struct clearpage_node_kobj *nk = kzalloc(sizeof(*nk), GFP_KERNEL);

		if (!nk) {
			err = -ENOMEM;
			goto fail;
		}
		nk->node = node;
		kobject_init(&nk->kobj, &clearpage_node_ktype);
		nk->kobj.kset = clearpage_kset;
		err = kobject_add(&nk->kobj, NULL, "node%d", nid);
		if (err) {
			kobject_put(&nk->kobj);
			goto fail;
		}
		clearpage_node_kobjs[nid] = nk;
		kobject_uevent(&nk->kobj, KOBJ_ADD);
	}
	mutex_lock(&clearpage_lock);
	clearpage_node_set_notify(CLEARPAGE_NOTIFY_SYSFS,
				  clearpage_sysfs_node_changed);
	mutex_unlock(&clearpage_lock);
	return 0;
fail:
	clearpage_sysfs_remove();
	return err;
}

/*
 * Remove every file and wait for running show/store calls to finish; the
 * nodes themselves stay allocated until clearpage_nodes_destroy().
 */
void clearpage_sysfs_remove(void)
{
	int nid;

	mutex_lock(&clearpage_lock);
	clearpage_node_set_notify(CLEARPAGE_NOTIFY_SYSFS, NULL);
	mutex_unlock(&clearpage_lock);
	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		struct clearpage_node_kobj *nk = clearpage_node_kobjs[nid];

		if (!nk)
			continue;
		/* The remove uevent goes while the kset exists. */
		kobject_uevent(&nk->kobj, KOBJ_REMOVE);
		kobject_del(&nk->kobj);
		kobject_put(&nk->kobj);
		clearpage_node_kobjs[nid] = NULL;
	}
	if (clearpage_kset) {
		sysfs_remove_group(&clearpage_kset->kobj,
				   &clearpage_root_group);
		kset_unregister(clearpage_kset);
		clearpage_kset = NULL;
	}
}
