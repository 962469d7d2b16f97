// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "clearpage": the same state as sysfs, for the
 * policy daemon and clearpagectl, plus the "events" multicast group. The ABI
 * is documented in include/uapi/clearpage.h.
 */
#include <linux/capability.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "clearpage.h"

static struct genl_family clearpage_family;
static bool clearpage_nl_registered;

/* Only request attributes: everything else is rejected as unknown. */
static const struct nla_policy clearpage_policy[CLEARPAGE_A_MAX + 1] = {
	[CLEARPAGE_A_NODE] = NLA_POLICY_MAX(NLA_U32, MAX_NUMNODES - 1),
	[CLEARPAGE_A_STRATEGY] =
		NLA_POLICY_MAX(NLA_U8, CLEARPAGE_STRATEGY_COUNT - 1),
	[CLEARPAGE_A_PINNED] = NLA_POLICY_MAX(NLA_U8, 1),
	[CLEARPAGE_A_SOURCE] = NLA_POLICY_RANGE(NLA_U8, CLEARPAGE_SOURCE_ADMIN,
						CLEARPAGE_SOURCE_DAEMON),
};

enum fill_what { FILL_NODE, FILL_CALIBRATION, FILL_EVENT };

static int put_strategy_entry(struct sk_buff *skb, struct clearpage_node *node,
			      const struct clearpage_node_stats *sum,
			      int strategy, enum fill_what what)
{
	struct nlattr *entry = nla_nest_start(skb, CLEARPAGE_A_ENTRY);

	if (!entry || nla_put_u8(skb, CLEARPAGE_S_STRATEGY, strategy))
		return -EMSGSIZE;
	if (what == FILL_NODE &&
	    (nla_put_u64_64bit(skb, CLEARPAGE_S_PAGES_4K,
			       sum->pages_4k[strategy], CLEARPAGE_S_PAD) ||
	     nla_put_u64_64bit(skb, CLEARPAGE_S_PAGES_HUGE,
			       sum->pages_huge[strategy], CLEARPAGE_S_PAD) ||
	     nla_put_u64_64bit(skb, CLEARPAGE_S_RANGES_HUGE,
			       sum->ranges_huge[strategy], CLEARPAGE_S_PAD) ||
	     nla_put_u64_64bit(skb, CLEARPAGE_S_SAMPLES,
			       sum->samples[strategy], CLEARPAGE_S_PAD) ||
	     nla_put_u64_64bit(skb, CLEARPAGE_S_SAMPLE_NS,
			       sum->sample_ns[strategy], CLEARPAGE_S_PAD)))
		return -EMSGSIZE;
	if (strategy != CLEARPAGE_STRATEGY_KERNEL &&
	    (nla_put_u32(skb, CLEARPAGE_S_HOT_NS,
			 node->calibration[strategy].hot_ns) ||
	     nla_put_u32(skb, CLEARPAGE_S_COLD_NS,
			 node->calibration[strategy].cold_ns) ||
	     nla_put_u32(skb, CLEARPAGE_S_HUGE_HOT_NS,
			 node->calibration_huge[strategy].hot_ns) ||
	     nla_put_u32(skb, CLEARPAGE_S_HUGE_COLD_NS,
			 node->calibration_huge[strategy].cold_ns)))
		return -EMSGSIZE;
	nla_nest_end(skb, entry);
	return 0;
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
		if (!clearpage_strategy_usable(strategy) ||
		    (what == FILL_CALIBRATION &&
		     strategy == CLEARPAGE_STRATEGY_KERNEL))
			continue;
		err = put_strategy_entry(skb, node, &sum, strategy, what);
	}
	mutex_unlock(&node->calibration_lock);
	if (err)
		return err;
	nla_nest_end(skb, nest);
	if (what != FILL_NODE)
		return 0;

	if (nla_put_u64_64bit(skb, CLEARPAGE_A_PAGES_HUGE_PREZEROED,
			      sum.pages_huge_prezeroed, CLEARPAGE_A_PAD) ||
	    nla_put_u64_64bit(skb, CLEARPAGE_A_REFERENCE_PAGES,
			      sum.reference_pages, CLEARPAGE_A_PAD) ||
	    nla_put_u64_64bit(skb, CLEARPAGE_A_REFERENCE_SAMPLE_NS,
			      sum.reference_sample_ns, CLEARPAGE_A_PAD))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, CLEARPAGE_A_LATENCY);
	if (!nest)
		return -EMSGSIZE;
	for (strategy = 0; strategy < CLEARPAGE_LATENCY_BUCKETS; strategy++)
		if (nla_put_u64_64bit(skb, strategy + 1, sum.latency[strategy],
				      CLEARPAGE_A_PAD))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The node's identity and state; the caller holds clearpage_lock. */
static int put_node_state(struct sk_buff *skb, struct clearpage_node *node)
{
	if (nla_put_u8(skb, CLEARPAGE_A_STRATEGY, node->strategy) ||
	    nla_put_u8(skb, CLEARPAGE_A_PINNED, node->pinned) ||
	    nla_put_u8(skb, CLEARPAGE_A_SOURCE, node->last_source) ||
	    nla_put_u64_64bit(skb, CLEARPAGE_A_LAST_CHANGE_NS,
			      node->last_change_ns, CLEARPAGE_A_PAD))
		return -EMSGSIZE;
	return 0;
}

static int fill(struct sk_buff *skb, struct clearpage_node *node, u32 portid,
		u32 seq, int flags, u8 cmd, enum fill_what what)
{
	void *hdr = genlmsg_put(skb, portid, seq, &clearpage_family, flags,
				cmd);
	int err;

	if (!hdr)
		return -EMSGSIZE;
	err = nla_put_u32(skb, CLEARPAGE_A_NODE, node->nid) ? -EMSGSIZE : 0;
	if (!err && what == FILL_NODE) {
		mutex_lock(&clearpage_lock);
		err = put_node_state(skb, node);
		mutex_unlock(&clearpage_lock);
	}
	if (!err && what != FILL_EVENT)
		err = put_strategies(skb, node, what);
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

static bool request_is_admin(struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return true;
	NL_SET_ERR_MSG(info->extack, "changing clearpage needs CAP_SYS_ADMIN");
	return false;
}

static int reply(struct genl_info *info, struct clearpage_node *node,
		 enum fill_what what)
{
	struct sk_buff *msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	int err;

	if (!msg)
		return -ENOMEM;
	err = fill(msg, node, info->snd_portid, info->snd_seq, 0,
		   info->genlhdr->cmd, what);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int get_node_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct clearpage_node *node = request_node(info);

	return IS_ERR(node) ? PTR_ERR(node) : reply(info, node, FILL_NODE);
}

static int get_calibration_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct clearpage_node *node = request_node(info);

	return IS_ERR(node) ? PTR_ERR(node) :
			      reply(info, node, FILL_CALIBRATION);
}

/* cb->args[0]: the next node id to dump. */
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
			 cb->nlh->nlmsg_seq, NLM_F_MULTI, cmd, what))
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

	if (!request_is_admin(skb, info))
		return -EPERM;
	node = request_node(info);
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
	err = clearpage_node_set_strategy(node, strategy,
					  nla_get_u8(info->attrs[CLEARPAGE_A_SOURCE]));
	if (err == -EBUSY)
		NL_SET_ERR_MSG(info->extack,
			       "node is pinned by an administrator");
	return err;
}

static int set_pinned_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct clearpage_node *node;

	if (!request_is_admin(skb, info))
		return -EPERM;
	node = request_node(info);
	if (IS_ERR(node))
		return PTR_ERR(node);
	if (GENL_REQ_ATTR_CHECK(info, CLEARPAGE_A_PINNED))
		return -EINVAL;
	return clearpage_node_set_pinned(node,
					 nla_get_u8(info->attrs[CLEARPAGE_A_PINNED]),
					 CLEARPAGE_SOURCE_ADMIN);
}

static int calibrate_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct clearpage_node *node;
	int err;

	if (!request_is_admin(skb, info))
		return -EPERM;
	node = request_node(info);
	if (IS_ERR(node))
		return PTR_ERR(node);
	err = clearpage_calibrate(node);
	return err ? err : reply(info, node, FILL_CALIBRATION);
}

static const struct genl_ops clearpage_ops[] = {
	{
		.cmd = CLEARPAGE_CMD_GET_NODE,
		.doit = get_node_doit,
		.dumpit = get_node_dumpit,
	},
	{
		.cmd = CLEARPAGE_CMD_GET_CALIBRATION,
		.doit = get_calibration_doit,
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
};

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
 * Announce a change of @node (strategy was @old_strategy) on "events".
 * Called under clearpage_lock, so events leave in the order of changes.
 */
void clearpage_nl_notify(struct clearpage_node *node, int old_strategy)
{
	struct sk_buff *msg;
	void *hdr;

	if (!READ_ONCE(clearpage_nl_registered))
		return;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &clearpage_family, 0,
			  CLEARPAGE_CMD_EVENT);
	if (!hdr || nla_put_u32(msg, CLEARPAGE_A_NODE, node->nid) ||
	    nla_put_u8(msg, CLEARPAGE_A_OLD_STRATEGY, old_strategy) ||
	    put_node_state(msg, node)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&clearpage_family, msg, 0, 0, GFP_KERNEL);
}

int clearpage_nl_register(void)
{
	int err = genl_register_family(&clearpage_family);

	if (!err)
		WRITE_ONCE(clearpage_nl_registered, true);
	return err;
}

void clearpage_nl_unregister(void)
{
	WRITE_ONCE(clearpage_nl_registered, false);
	genl_unregister_family(&clearpage_family);
}
