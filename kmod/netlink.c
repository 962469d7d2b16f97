// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "clearpage": the same state as sysfs, for the
 * policy daemon and clearpagectl, plus the "events" multicast group. The ABI
 * is documented in include/uapi/clearpage.h.
 */
#include <linux/capability.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "clearpage.h"

static struct genl_family clearpage_family;
/* Written and read under clearpage_lock, as every notification runs. */
/* Only request attributes: everything else is rejected as unknown. */
static const struct nla_policy clearpage_policy[CLEARPAGE_A_MAX + 1] = {
	[CLEARPAGE_A_NODE] = NLA_POLICY_MAX(NLA_U32, MAX_NUMNODES - 1),
	[CLEARPAGE_A_STRATEGY] =
		NLA_POLICY_MAX(NLA_U8, CLEARPAGE_STRATEGY_COUNT - 1),
	[CLEARPAGE_A_PINNED] = NLA_POLICY_MAX(NLA_U8, 1),
	[CLEARPAGE_A_SOURCE] = NLA_POLICY_RANGE(NLA_U8, CLEARPAGE_SOURCE_ADMIN,
						CLEARPAGE_SOURCE_DAEMON),
	[CLEARPAGE_A_BACKEND] =
		NLA_POLICY_MAX(NLA_U8, CLEARPAGE_BACKEND_COUNT - 1),
	[CLEARPAGE_A_TRIALS] = { .type = NLA_U32 },
	[CLEARPAGE_A_HELPERS] = NLA_POLICY_MAX(NLA_U32, CLEARPAGE_HELPERS_MAX),
	[CLEARPAGE_A_PROBE_HOT] =
		NLA_POLICY_MAX(NLA_U8, CLEARPAGE_STRATEGY_COUNT - 1),
	[CLEARPAGE_A_PROBE_COLD] =
		NLA_POLICY_MAX(NLA_U8, CLEARPAGE_STRATEGY_COUNT - 1),
};

enum fill_what { FILL_NODE, FILL_CALIBRATION };

/*
 * Who may read the counters and the calibrations: they time the clears of
 * other processes' pages and say whether those processes read their fresh
 * pages within milliseconds (touch_cached), a side channel, so like perf's
 * counters they need CAP_PERFMON (or CAP_SYS_ADMIN), in the credentials
 * of the socket's opener and of the sender both. Everyone else is told
 * the choices only: strategies, pins, sources, trials, probe modes and
 * helpers, read without any lock a writer takes. netlink_capable()'s two
 * checks, the sender's not audited: an unprivileged status is no denial
 * worth a log line (as perf's own counters' check, perfmon_capable()).
 */
static bool counters_capable(const struct sk_buff *skb, int cap)
{
	const struct socket *sock = NETLINK_CB(skb).sk->sk_socket;

	return ns_capable_noaudit(&init_user_ns, cap) && sock &&
	       file_ns_capable(sock->file, &init_user_ns, cap);
}

static bool may_read_counters(const struct sk_buff *skb)
{
	return counters_capable(skb, CAP_PERFMON) ||
	       counters_capable(skb, CAP_SYS_ADMIN);
}

static int put_u64(struct sk_buff *skb, int type, u64 value, int pad)
{
	return nla_put_u64_64bit(skb, type, value, pad);
}

static int put_strategy_entry(struct sk_buff *skb, struct clearpage_node *node,
			      const struct clearpage_node_stats *sum,
			      int strategy, enum fill_what what)
{
	const struct clearpage_calibration *c4k =
		&node->calibration[CLEARPAGE_BACKEND_4K][strategy];
	const struct clearpage_calibration *chuge =
		&node->calibration[CLEARPAGE_BACKEND_HUGE][strategy];
	struct nlattr *entry = nla_nest_start(skb, CLEARPAGE_A_ENTRY);
	const int pad = CLEARPAGE_S_PAD;

	if (!entry || nla_put_u8(skb, CLEARPAGE_S_STRATEGY, strategy))
		return -EMSGSIZE;
	if (what == FILL_NODE &&
	    (put_u64(skb, CLEARPAGE_S_PAGES_4K,
		     sum->pages[CLEARPAGE_BACKEND_4K][strategy], pad) ||
	     put_u64(skb, CLEARPAGE_S_PAGES_HUGE,
		     sum->pages[CLEARPAGE_BACKEND_HUGE][strategy], pad) ||
	     put_u64(skb, CLEARPAGE_S_RANGES_HUGE, sum->ranges_huge[strategy],
		     pad) ||
	     put_u64(skb, CLEARPAGE_S_SAMPLES_4K,
		     sum->samples[CLEARPAGE_BACKEND_4K][strategy], pad) ||
	     put_u64(skb, CLEARPAGE_S_SAMPLE_NS_4K,
		     sum->sample_ns[CLEARPAGE_BACKEND_4K][strategy], pad) ||
	     put_u64(skb, CLEARPAGE_S_SAMPLES_HUGE,
		     sum->samples[CLEARPAGE_BACKEND_HUGE][strategy], pad) ||
	     put_u64(skb, CLEARPAGE_S_SAMPLE_NS_HUGE,
		     sum->sample_ns[CLEARPAGE_BACKEND_HUGE][strategy], pad) ||
	     put_u64(skb, CLEARPAGE_S_TRIAL_PAGES_4K,
		     sum->trial_pages[CLEARPAGE_BACKEND_4K][strategy], pad) ||
	     put_u64(skb, CLEARPAGE_S_TRIAL_NS_4K,
		     sum->trial_ns[CLEARPAGE_BACKEND_4K][strategy], pad) ||
	     put_u64(skb, CLEARPAGE_S_TRIAL_PAGES_HUGE,
		     sum->trial_pages[CLEARPAGE_BACKEND_HUGE][strategy], pad) ||
	     put_u64(skb, CLEARPAGE_S_TRIAL_NS_HUGE,
		     sum->trial_ns[CLEARPAGE_BACKEND_HUGE][strategy], pad)))
		return -EMSGSIZE;
	if ((nla_put_u32(skb, CLEARPAGE_S_HOT_NS_4K, c4k->hot_ns) ||
	     nla_put_u32(skb, CLEARPAGE_S_COLD_NS_4K, c4k->cold_ns) ||
	     nla_put_u32(skb, CLEARPAGE_S_HOT_NS_HUGE, chuge->hot_ns) ||
	     nla_put_u32(skb, CLEARPAGE_S_COLD_NS_HUGE, chuge->cold_ns)))
		return -EMSGSIZE;
	nla_nest_end(skb, entry);
	return 0;
}

/* One backend's choice; the caller holds clearpage_lock. */
static int put_backend_state(struct sk_buff *skb, struct clearpage_node *node,
			     int backend)
{
	const struct clearpage_choice *choice = &node->choice[backend];

	if (nla_put_u8(skb, CLEARPAGE_A_BACKEND, backend) ||
	    nla_put_u8(skb, CLEARPAGE_A_STRATEGY, choice->strategy) ||
	    nla_put_u8(skb, CLEARPAGE_A_PINNED, choice->pinned) ||
	    nla_put_u8(skb, CLEARPAGE_A_SOURCE, choice->last_source) ||
	    put_u64(skb, CLEARPAGE_A_LAST_CHANGE_NS, choice->last_change_ns,
		    CLEARPAGE_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/*
 * A copy of @node's choice of @backend, field by field: node.c writes each
 * with WRITE_ONCE() under clearpage_lock, which a reader without it may
 * see half changed (a strategy and the pin of the change before it).
 */
static void choice_snapshot(struct clearpage_node *node, int backend,
			    struct clearpage_choice *c)
{
	const struct clearpage_choice *choice = &node->choice[backend];

	c->strategy = READ_ONCE(choice->strategy);
	c->trials = READ_ONCE(choice->trials);
	c->probe = READ_ONCE(choice->probe);
	c->pinned = READ_ONCE(choice->pinned);
	c->last_source = READ_ONCE(choice->last_source);
	c->last_change_ns = READ_ONCE(choice->last_change_ns);
}

/*
 * A backend's probe mode and, with @sum (NULL: the choices only), its
 * temperature probe's counters (probe mode and sample) and its touch
 * probe's counters.
 */
static int put_probe(struct sk_buff *skb, unsigned int mode, int backend,
		     const struct clearpage_node_stats *sum)
{
	if (nla_put_u8(skb, CLEARPAGE_B_PROBE, !!mode))
		return -EMSGSIZE;
	if (mode &&
	    (nla_put_u8(skb, CLEARPAGE_B_PROBE_HOT,
			clearpage_probe_hot_strategy(mode)) ||
	     nla_put_u8(skb, CLEARPAGE_B_PROBE_COLD,
			clearpage_probe_cold_strategy(mode))))
		return -EMSGSIZE;
	if (!sum)
		return 0;
	if (put_u64(skb, CLEARPAGE_B_TOUCH_PROBED, sum->touch_probed[backend],
		    CLEARPAGE_B_PAD) ||
	    put_u64(skb, CLEARPAGE_B_TOUCH_CACHED, sum->touch_cached[backend],
		    CLEARPAGE_B_PAD) ||
	    put_u64(skb, CLEARPAGE_B_TOUCH_SKIPPED, sum->touch_skipped[backend],
		    CLEARPAGE_B_PAD))
		return -EMSGSIZE;
	if (put_u64(skb, CLEARPAGE_B_PROBE_HOT_FOLIOS, sum->probe_hot[backend],
		    CLEARPAGE_B_PAD) ||
	    put_u64(skb, CLEARPAGE_B_PROBE_COLD_FOLIOS,
		    sum->probe_cold[backend], CLEARPAGE_B_PAD) ||
	    put_u64(skb, CLEARPAGE_B_PROBE_NS, sum->probe_ns[backend],
		    CLEARPAGE_B_PAD) ||
	    put_u64(skb, CLEARPAGE_B_PROBE_RECYCLED_FOLIOS,
		    sum->probe_recycled[backend], CLEARPAGE_B_PAD))
		return -EMSGSIZE;
	return 0;
}

static int put_probe_calibration(struct sk_buff *skb,
				 struct clearpage_node *node)
{
	struct clearpage_probe_calibration c;

	mutex_lock(&node->calibration_lock);
	c = node->probe_calibration;
	mutex_unlock(&node->calibration_lock);
	if (nla_put_u32(skb, CLEARPAGE_A_PROBE_HOT_TICKS, c.hot_ticks) ||
	    nla_put_u32(skb, CLEARPAGE_A_PROBE_COLD_TICKS, c.cold_ticks) ||
	    nla_put_u32(skb, CLEARPAGE_A_PROBE_THRESHOLD, c.threshold_ticks))
		return -EMSGSIZE;
	return 0;
}

/* One backend's entry: its choice, and with @sum its counters. */
static int put_backend_entry(struct sk_buff *skb, struct clearpage_node *node,
			     int b, const struct clearpage_node_stats *sum)
{
	struct nlattr *entry = nla_nest_start(skb, CLEARPAGE_A_ENTRY);
	struct clearpage_choice c;

	choice_snapshot(node, b, &c);
	if (!entry ||
	    nla_put_u8(skb, CLEARPAGE_B_BACKEND, b) ||
	    nla_put_u8(skb, CLEARPAGE_B_STRATEGY, c.strategy) ||
	    nla_put_u8(skb, CLEARPAGE_B_PINNED, c.pinned) ||
	    nla_put_u8(skb, CLEARPAGE_B_SOURCE, c.last_source) ||
	    put_u64(skb, CLEARPAGE_B_LAST_CHANGE_NS, c.last_change_ns,
		    CLEARPAGE_B_PAD) ||
	    nla_put_u32(skb, CLEARPAGE_B_TRIALS, c.trials))
		return -EMSGSIZE;
	if (sum &&
	    (put_u64(skb, CLEARPAGE_B_REFERENCE_PAGES, sum->reference_pages[b],
		     CLEARPAGE_B_PAD) ||
	     put_u64(skb, CLEARPAGE_B_REFERENCE_SAMPLE_NS,
		     sum->reference_sample_ns[b], CLEARPAGE_B_PAD)))
		return -EMSGSIZE;
	if (put_probe(skb, c.probe, b, sum))
		return -EMSGSIZE;
	nla_nest_end(skb, entry);
	return 0;
}

/*
 * Every backend's entry. With the counters (@sum) under clearpage_lock, so
 * that the backends are of one moment; without, a snapshot that takes no
 * lock: a reader anyone may be must not hold up a writer.
 */
static int put_backends(struct sk_buff *skb, struct clearpage_node *node,
			const struct clearpage_node_stats *sum)
{
	struct nlattr *nest = nla_nest_start(skb, CLEARPAGE_A_BACKENDS);
	int b, err = 0;

	if (!nest)
		return -EMSGSIZE;
	if (sum)
		mutex_lock(&clearpage_lock);
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT && !err; b++)
		err = put_backend_entry(skb, node, b, sum);
	if (sum)
		mutex_unlock(&clearpage_lock);
	if (err)
		return err;
	nla_nest_end(skb, nest);
	return 0;
}

/* Without the counters: each available strategy's id, the node's choices. */
static int put_choices(struct sk_buff *skb, struct clearpage_node *node,
		       enum fill_what what)
{
	struct nlattr *nest = nla_nest_start(skb, CLEARPAGE_A_STRATEGIES);
	int strategy;

	if (!nest)
		return -EMSGSIZE;
	for (strategy = 0; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++) {
		struct nlattr *entry;

		if (!clearpage_strategy_usable(strategy))
			continue;
		entry = nla_nest_start(skb, CLEARPAGE_A_ENTRY);
		if (!entry || nla_put_u8(skb, CLEARPAGE_S_STRATEGY, strategy))
			return -EMSGSIZE;
		nla_nest_end(skb, entry);
	}
	nla_nest_end(skb, nest);
	if (what != FILL_NODE)
		return 0;
	if (nla_put_u32(skb, CLEARPAGE_A_HELPERS, READ_ONCE(node->helpers)))
		return -EMSGSIZE;
	return put_backends(skb, node, NULL);
}

static int put_strategies(struct sk_buff *skb, struct clearpage_node *node,
			  enum fill_what what)
{
	struct clearpage_node_stats sum;
	struct nlattr *nest;
	int strategy, err = 0;

	if (what == FILL_NODE)
		clearpage_node_stats_sum(node, &sum);
	nest = nla_nest_start(skb, CLEARPAGE_A_STRATEGIES);
	if (!nest)
		return -EMSGSIZE;
	mutex_lock(&node->calibration_lock);
	for (strategy = 0; strategy < CLEARPAGE_STRATEGY_COUNT && !err;
	     strategy++) {
		if (!clearpage_strategy_usable(strategy))
			continue;
		err = put_strategy_entry(skb, node, &sum, strategy, what);
	}
	mutex_unlock(&node->calibration_lock);
	if (err)
		return err;
	nla_nest_end(skb, nest);
	if (what != FILL_NODE)
		return 0;

	if (put_u64(skb, CLEARPAGE_A_PAGES_HUGE_PREZEROED,
		    sum.pages_huge_prezeroed, CLEARPAGE_A_PAD) ||
	    nla_put_u32(skb, CLEARPAGE_A_HELPERS, READ_ONCE(node->helpers)) ||
	    put_u64(skb, CLEARPAGE_A_HELPED_FOLIOS, sum.helped_folios,
		    CLEARPAGE_A_PAD) ||
	    put_u64(skb, CLEARPAGE_A_HELPER_PAGES, sum.helper_pages,
		    CLEARPAGE_A_PAD) ||
	    put_u64(skb, CLEARPAGE_A_HELPERS_STARTED, sum.helpers_started,
		    CLEARPAGE_A_PAD) ||
	    put_u64(skb, CLEARPAGE_A_HELPERS_NOT_STARTED,
		    sum.helpers_not_started, CLEARPAGE_A_PAD) ||
	    put_backends(skb, node, &sum))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, CLEARPAGE_A_LATENCY);
	if (!nest)
		return -EMSGSIZE;
	for (strategy = 0; strategy < CLEARPAGE_LATENCY_BUCKETS; strategy++)
		if (put_u64(skb, strategy + 1, sum.latency[strategy],
			    CLEARPAGE_A_PAD))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* @counters: with the counters and calibrations (may_read_counters()). */
static int fill(struct sk_buff *skb, struct clearpage_node *node, u32 portid,
		u32 seq, int flags, u8 cmd, enum fill_what what, bool counters)
{
	void *hdr = genlmsg_put(skb, portid, seq, &clearpage_family, flags,
				cmd);
	int err;

	if (!hdr)
		return -EMSGSIZE;
	err = nla_put_u32(skb, CLEARPAGE_A_NODE, node->nid) ? -EMSGSIZE : 0;
	if (!err && counters)
		err = put_probe_calibration(skb, node);
	if (!err)
		err = counters ? put_strategies(skb, node, what) :
				 put_choices(skb, node, what);
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static struct clearpage_node *request_node(struct genl_info *info)
{
	struct clearpage_node *node;

	if (GENL_REQ_ATTR_CHECK(info, CLEARPAGE_A_NODE))
		return ERR_PTR(-EINVAL);
	node = clearpage_node_get(nla_get_u32(info->attrs[CLEARPAGE_A_NODE]));
	if (!node) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[CLEARPAGE_A_NODE],
				    "no such node, or it had no memory when clearpage was loaded");
		return ERR_PTR(-ENODEV);
	}
	return node;
}

/* The request's backend, or CLEARPAGE_BACKEND_ALL when it names none. */
static int request_backend(struct genl_info *info)
{
	if (!info->attrs[CLEARPAGE_A_BACKEND])
		return CLEARPAGE_BACKEND_ALL;
	return nla_get_u8(info->attrs[CLEARPAGE_A_BACKEND]);
}

static bool request_is_admin(struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return true;
	NL_SET_ERR_MSG(info->extack, "changing clearpage needs CAP_SYS_ADMIN");
	return false;
}

/* The node a change names, once the sender may change it; ERR_PTR if not. */
static struct clearpage_node *request_change(struct sk_buff *skb,
					     struct genl_info *info)
{
	if (!request_is_admin(skb, info))
		return ERR_PTR(-EPERM);
	return request_node(info);
}

static int reply(struct sk_buff *skb, struct genl_info *info,
		 struct clearpage_node *node, enum fill_what what)
{
	struct sk_buff *msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	int err;

	if (!msg)
		return -ENOMEM;
	err = fill(msg, node, info->snd_portid, info->snd_seq, 0,
		   info->genlhdr->cmd, what, may_read_counters(skb));
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int get_node_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct clearpage_node *node = request_node(info);

	return IS_ERR(node) ? PTR_ERR(node) : reply(skb, info, node, FILL_NODE);
}

static int get_calibration_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct clearpage_node *node = request_node(info);

	return IS_ERR(node) ? PTR_ERR(node) :
			      reply(skb, info, node, FILL_CALIBRATION);
}

/*
 * cb->args[0]: the next node id to dump; cb->args[1]: whether the dump has
 * the counters, decided when it starts, in the sender's context (a later
 * part of it is filled in the context of whoever reads the socket then).
 */
static int dump_start(struct netlink_callback *cb)
{
	cb->args[1] = may_read_counters(cb->skb);
	return 0;
}

static int dump(struct sk_buff *skb, struct netlink_callback *cb,
		enum fill_what what)
{
	u8 cmd = what == FILL_NODE ? CLEARPAGE_CMD_GET_NODE :
				     CLEARPAGE_CMD_GET_CALIBRATION;
	struct clearpage_node *node;
	int nid;

	for (nid = clearpage_next_node(cb->args[0] - 1, &node);
	     nid < MAX_NUMNODES; nid = clearpage_next_node(nid, &node)) {
		if (fill(skb, node, NETLINK_CB(cb->skb).portid,
			 cb->nlh->nlmsg_seq, NLM_F_MULTI, cmd, what,
			 cb->args[1]))
			break;
	}
	cb->args[0] = nid;
	return skb->len;
}

static int get_node_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return dump(skb, cb, FILL_NODE);
}

static int get_calibration_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	return dump(skb, cb, FILL_CALIBRATION);
}

static int set_strategy_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct clearpage_node *node;
	int strategy, err;

	node = request_change(skb, info);
	if (IS_ERR(node))
		return PTR_ERR(node);
	if (GENL_REQ_ATTR_CHECK(info, CLEARPAGE_A_STRATEGY) ||
	    GENL_REQ_ATTR_CHECK(info, CLEARPAGE_A_SOURCE))
		return -EINVAL;
	strategy = nla_get_u8(info->attrs[CLEARPAGE_A_STRATEGY]);
	if (!clearpage_strategy_usable(strategy)) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[CLEARPAGE_A_STRATEGY],
				    "strategy not available on this CPU");
		return -EOPNOTSUPP;
	}
	err = clearpage_node_set_strategy(node, request_backend(info), strategy,
					  nla_get_u8(info->attrs[CLEARPAGE_A_SOURCE]));
	if (err == -EBUSY)
		NL_SET_ERR_MSG(info->extack,
			       "the node's backend is pinned by an administrator");
	return err;
}

static int set_pinned_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct clearpage_node *node;

	node = request_change(skb, info);
	if (IS_ERR(node))
		return PTR_ERR(node);
	if (GENL_REQ_ATTR_CHECK(info, CLEARPAGE_A_PINNED))
		return -EINVAL;
	return clearpage_node_set_pinned(node, request_backend(info),
					 nla_get_u8(info->attrs[CLEARPAGE_A_PINNED]),
					 CLEARPAGE_SOURCE_ADMIN);
}

static int set_trials_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct clearpage_node *node;
	u32 trials;
	int err;

	node = request_change(skb, info);
	if (IS_ERR(node))
		return PTR_ERR(node);
	if (GENL_REQ_ATTR_CHECK(info, CLEARPAGE_A_TRIALS))
		return -EINVAL;
	trials = nla_get_u32(info->attrs[CLEARPAGE_A_TRIALS]);
	err = clearpage_node_set_trials(node, request_backend(info), trials);
	if (err == -EINVAL)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[CLEARPAGE_A_TRIALS],
				    "trials name strategies other than kernel");
	else if (err == -EOPNOTSUPP)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[CLEARPAGE_A_TRIALS],
				    "a trial strategy is not available on this CPU");
	else if (err == -EBUSY)
		NL_SET_ERR_MSG(info->extack,
			       "the node's backend is pinned by an administrator");
	return err;
}

static int set_helpers_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct clearpage_node *node;
	int err;

	node = request_change(skb, info);
	if (IS_ERR(node))
		return PTR_ERR(node);
	if (GENL_REQ_ATTR_CHECK(info, CLEARPAGE_A_HELPERS))
		return -EINVAL;
	/* More than CLEARPAGE_HELPERS_MAX: -ERANGE from the policy. */
	err = clearpage_node_set_helpers(node,
					 nla_get_u32(info->attrs[CLEARPAGE_A_HELPERS]));
	if (err)
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[CLEARPAGE_A_HELPERS],
				    "at most the node's online CPUs less one (the faulting CPU)");
	return err;
}

static int set_probe_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *hot_attr = info->attrs[CLEARPAGE_A_PROBE_HOT];
	struct nlattr *cold_attr = info->attrs[CLEARPAGE_A_PROBE_COLD];
	struct nlattr *source_attr = info->attrs[CLEARPAGE_A_SOURCE];
	struct clearpage_node *node;
	int err;

	node = request_change(skb, info);
	if (IS_ERR(node))
		return PTR_ERR(node);
	if (GENL_REQ_ATTR_CHECK(info, CLEARPAGE_A_BACKEND))
		return -EINVAL;
	if (!hot_attr != !cold_attr) {
		NL_SET_ERR_MSG_ATTR(info->extack, hot_attr ? hot_attr : cold_attr,
				    "the probe needs a strategy for hot and one for cold folios, or neither (off)");
		return -EINVAL;
	}
	/* Without a source: an administrator's, as before it had one. */
	err = clearpage_node_set_probe(node, request_backend(info), hot_attr,
				       hot_attr ? nla_get_u8(hot_attr) : 0,
				       cold_attr ? nla_get_u8(cold_attr) : 0,
				       source_attr ? nla_get_u8(source_attr) :
						     CLEARPAGE_SOURCE_ADMIN);
	if (err == -EOPNOTSUPP && request_backend(info) != CLEARPAGE_BACKEND_HUGE)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[CLEARPAGE_A_BACKEND],
				    "only the huge backend has a probe mode");
	else if (err == -EOPNOTSUPP)
		NL_SET_ERR_MSG(info->extack,
			       "a probe strategy is not available on this CPU");
	else if (err == -EINVAL)
		NL_SET_ERR_MSG(info->extack,
			       "the node's probe calibration cannot tell a cached line from memory (probe_calibration threshold 0)");
	else if (err == -EBUSY)
		NL_SET_ERR_MSG(info->extack,
			       "the node's backend is pinned by an administrator");
	return err;
}

static int calibrate_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct clearpage_node *node;
	int err;

	node = request_change(skb, info);
	if (IS_ERR(node))
		return PTR_ERR(node);
	err = clearpage_node_calibrate(node);
	if (err == -EIO)
		NL_SET_ERR_MSG(info->extack,
			       "a memory error in the calibration pool (see the kernel log); the calibration is unchanged, calibrate again");
	return err ? err : reply(skb, info, node, FILL_CALIBRATION);
}

static const struct genl_ops clearpage_ops[] = {
	{
		.cmd = CLEARPAGE_CMD_GET_NODE,
		.doit = get_node_doit,
		.start = dump_start,
		.dumpit = get_node_dumpit,
	},
	{
		.cmd = CLEARPAGE_CMD_GET_CALIBRATION,
		.doit = get_calibration_doit,
		.start = dump_start,
		.dumpit = get_calibration_dumpit,
	},
	{
		.cmd = CLEARPAGE_CMD_SET_STRATEGY,
		.doit = set_strategy_doit,
	},
	{
		.cmd = CLEARPAGE_CMD_SET_PINNED,
		.doit = set_pinned_doit,
	},
	{
		.cmd = CLEARPAGE_CMD_CALIBRATE,
		.doit = calibrate_doit,
	},
	{
		.cmd = CLEARPAGE_CMD_SET_TRIALS,
		.doit = set_trials_doit,
	},
	{
		.cmd = CLEARPAGE_CMD_SET_HELPERS,
		.doit = set_helpers_doit,
	},
	{
		.cmd = CLEARPAGE_CMD_SET_PROBE,
		.doit = set_probe_doit,
	},
};

/*
 * Open to everyone: an event says what the world-readable strategy and
 * pinned files and the change uevent (which every process may receive)
 * say, no counter, no timing.
 */
static const struct genl_multicast_group clearpage_mcgrps[] = {
	{ .name = CLEARPAGE_GENL_MCGRP_EVENTS },
};

static struct genl_family clearpage_family __ro_after_init = {
	.name = CLEARPAGE_GENL_NAME,
	.version = CLEARPAGE_GENL_VERSION,
	.maxattr = CLEARPAGE_A_MAX,
	.policy = clearpage_policy,
	.module = THIS_MODULE,
	.ops = clearpage_ops,
	.n_ops = ARRAY_SIZE(clearpage_ops),
	.resv_start_op = CLEARPAGE_CMD_GET_NODE,
	.mcgrps = clearpage_mcgrps,
	.n_mcgrps = ARRAY_SIZE(clearpage_mcgrps),
	/* Calibration takes long: do not hold the genetlink mutex. */
	.parallel_ops = true,
};

/*
 * Announce a change of @node's @backend (strategy was @old_strategy) on
 * "events": node.c's notification hook, called under clearpage_lock, so
 * events leave in the order of changes.
 */
static void clearpage_nl_notify(struct clearpage_node *node, int backend,
				int old_strategy)
{
	struct sk_buff *msg;
	void *hdr;

	lockdep_assert_held(&clearpage_lock);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &clearpage_family, 0,
			  CLEARPAGE_CMD_EVENT);
	if (!hdr || nla_put_u32(msg, CLEARPAGE_A_NODE, node->nid) ||
	    nla_put_u8(msg, CLEARPAGE_A_OLD_STRATEGY, old_strategy) ||
	    put_backend_state(msg, node, backend)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&clearpage_family, msg, 0, 0, GFP_KERNEL);
}

int clearpage_nl_register(void)
{
	int err = genl_register_family(&clearpage_family);

	if (!err) {
		mutex_lock(&clearpage_lock);
		clearpage_node_set_notify(CLEARPAGE_NOTIFY_NETLINK, clearpage_nl_notify);
		mutex_unlock(&clearpage_lock);
	}
	return err;
}

/*
 * Notifications run under clearpage_lock: once the hook is cleared under
 * it, none is in flight and none starts, so the family can go.
 */
void clearpage_nl_unregister(void)
{
	mutex_lock(&clearpage_lock);
	clearpage_node_set_notify(CLEARPAGE_NOTIFY_NETLINK, NULL);
	mutex_unlock(&clearpage_lock);
	genl_unregister_family(&clearpage_family);
}
