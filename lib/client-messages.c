// SPDX-License-Identifier: GPL-2.0
/*
 * libclearpage: the clearpage generic netlink family's messages, built and
 * parsed apart from any socket (clearpage-client.c sends and receives them).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>

#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "clearpage-client.h"
#include "policy.h"

struct nl_msg *cp_msg_new(int family, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags, cmd,
			 CLEARPAGE_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct nl_msg *cp_msg_node(int family, uint8_t cmd, uint32_t node)
{
	struct nl_msg *msg = cp_msg_new(family, cmd, 0);

	if (msg && nla_put_u32(msg, CLEARPAGE_A_NODE, node) < 0) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* A request about @node's @backend: no backend attribute for all of them. */
static struct nl_msg *msg_backend(int family, uint8_t cmd, uint32_t node,
				  int backend)
{
	struct nl_msg *msg = cp_msg_node(family, cmd, node);

	if (msg && backend != CP_BACKEND_ALL &&
	    nla_put_u8(msg, CLEARPAGE_A_BACKEND, (uint8_t)backend) < 0) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct nl_msg *cp_msg_set_strategy(int family, uint32_t node, int backend,
				   int strategy, int source)
{
	struct nl_msg *msg = msg_backend(family, CLEARPAGE_CMD_SET_STRATEGY,
					 node, backend);

	if (msg && (nla_put_u8(msg, CLEARPAGE_A_STRATEGY, strategy) < 0 ||
		    nla_put_u8(msg, CLEARPAGE_A_SOURCE, source) < 0)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct nl_msg *cp_msg_set_pinned(int family, uint32_t node, int backend,
				 bool pinned)
{
	struct nl_msg *msg = msg_backend(family, CLEARPAGE_CMD_SET_PINNED,
					 node, backend);

	if (msg && nla_put_u8(msg, CLEARPAGE_A_PINNED, pinned) < 0) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct nl_msg *cp_msg_set_trials(int family, uint32_t node, int backend,
				 uint32_t trials)
{
	struct nl_msg *msg = msg_backend(family, CLEARPAGE_CMD_SET_TRIALS,
					 node, backend);

	if (msg && nla_put_u32(msg, CLEARPAGE_A_TRIALS, trials) < 0) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct nl_msg *cp_msg_set_helpers(int family, uint32_t node, uint32_t helpers)
{
	struct nl_msg *msg = cp_msg_node(family, CLEARPAGE_CMD_SET_HELPERS,
					 node);

	if (msg && nla_put_u32(msg, CLEARPAGE_A_HELPERS, helpers) < 0) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct nl_msg *cp_msg_set_probe(int family, uint32_t node, int backend,
			       bool on, int hot, int cold, int source)
{
	struct nl_msg *msg = msg_backend(family, CLEARPAGE_CMD_SET_PROBE, node,
					 backend);

	if (msg && (nla_put_u8(msg, CLEARPAGE_A_SOURCE, source) < 0 ||
		    (on && ((hot >= 0 && nla_put_u8(msg, CLEARPAGE_A_PROBE_HOT, hot) < 0) ||
			    (cold >= 0 && nla_put_u8(msg, CLEARPAGE_A_PROBE_COLD, cold) < 0))))) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Types and sizes the kernel sends; anything else fails the parse. */
static struct nla_policy node_policy[CLEARPAGE_A_MAX + 1] = {
	[CLEARPAGE_A_NODE] = { .type = NLA_U32 },
	[CLEARPAGE_A_STRATEGY] = { .type = NLA_U8 },
	[CLEARPAGE_A_PINNED] = { .type = NLA_U8 },
	[CLEARPAGE_A_SOURCE] = { .type = NLA_U8 },
	[CLEARPAGE_A_LAST_CHANGE_NS] = { .type = NLA_U64 },
	[CLEARPAGE_A_OLD_STRATEGY] = { .type = NLA_U8 },
	[CLEARPAGE_A_PAGES_HUGE_PREZEROED] = { .type = NLA_U64 },
	[CLEARPAGE_A_STRATEGIES] = { .type = NLA_NESTED },
	[CLEARPAGE_A_LATENCY] = { .type = NLA_NESTED },
	[CLEARPAGE_A_BACKEND] = { .type = NLA_U8 },
	[CLEARPAGE_A_BACKENDS] = { .type = NLA_NESTED },
	[CLEARPAGE_A_TRIALS] = { .type = NLA_U32 },
	[CLEARPAGE_A_HELPERS] = { .type = NLA_U32 },
	[CLEARPAGE_A_HELPED_FOLIOS] = { .type = NLA_U64 },
	[CLEARPAGE_A_HELPER_PAGES] = { .type = NLA_U64 },
	[CLEARPAGE_A_HELPERS_STARTED] = { .type = NLA_U64 },
	[CLEARPAGE_A_HELPERS_NOT_STARTED] = { .type = NLA_U64 },
	[CLEARPAGE_A_PROBE_HOT] = { .type = NLA_U8 },
	[CLEARPAGE_A_PROBE_COLD] = { .type = NLA_U8 },
	[CLEARPAGE_A_PROBE_HOT_TICKS] = { .type = NLA_U32 },
	[CLEARPAGE_A_PROBE_COLD_TICKS] = { .type = NLA_U32 },
	[CLEARPAGE_A_PROBE_THRESHOLD] = { .type = NLA_U32 },
};

static struct nla_policy backend_policy[CLEARPAGE_B_MAX + 1] = {
	[CLEARPAGE_B_BACKEND] = { .type = NLA_U8 },
	[CLEARPAGE_B_STRATEGY] = { .type = NLA_U8 },
	[CLEARPAGE_B_PINNED] = { .type = NLA_U8 },
	[CLEARPAGE_B_SOURCE] = { .type = NLA_U8 },
	[CLEARPAGE_B_LAST_CHANGE_NS] = { .type = NLA_U64 },
	[CLEARPAGE_B_REFERENCE_PAGES] = { .type = NLA_U64 },
	[CLEARPAGE_B_REFERENCE_SAMPLE_NS] = { .type = NLA_U64 },
	[CLEARPAGE_B_TRIALS] = { .type = NLA_U32 },
	[CLEARPAGE_B_PROBE] = { .type = NLA_U8 },
	[CLEARPAGE_B_PROBE_HOT] = { .type = NLA_U8 },
	[CLEARPAGE_B_PROBE_COLD] = { .type = NLA_U8 },
	[CLEARPAGE_B_PROBE_HOT_FOLIOS] = { .type = NLA_U64 },
	[CLEARPAGE_B_PROBE_COLD_FOLIOS] = { .type = NLA_U64 },
	[CLEARPAGE_B_PROBE_NS] = { .type = NLA_U64 },
	[CLEARPAGE_B_TOUCH_PROBED] = { .type = NLA_U64 },
	[CLEARPAGE_B_TOUCH_CACHED] = { .type = NLA_U64 },
	[CLEARPAGE_B_TOUCH_SKIPPED] = { .type = NLA_U64 },
	[CLEARPAGE_B_PROBE_RECYCLED_FOLIOS] = { .type = NLA_U64 },
};

static struct nla_policy strategy_policy[CLEARPAGE_S_MAX + 1] = {
	[CLEARPAGE_S_STRATEGY] = { .type = NLA_U8 },
	[CLEARPAGE_S_PAGES_4K] = { .type = NLA_U64 },
	[CLEARPAGE_S_PAGES_HUGE] = { .type = NLA_U64 },
	[CLEARPAGE_S_RANGES_HUGE] = { .type = NLA_U64 },
	[CLEARPAGE_S_SAMPLES_4K] = { .type = NLA_U64 },
	[CLEARPAGE_S_SAMPLE_NS_4K] = { .type = NLA_U64 },
	[CLEARPAGE_S_SAMPLES_HUGE] = { .type = NLA_U64 },
	[CLEARPAGE_S_SAMPLE_NS_HUGE] = { .type = NLA_U64 },
	[CLEARPAGE_S_HOT_NS_4K] = { .type = NLA_U32 },
	[CLEARPAGE_S_COLD_NS_4K] = { .type = NLA_U32 },
	[CLEARPAGE_S_HOT_NS_HUGE] = { .type = NLA_U32 },
	[CLEARPAGE_S_COLD_NS_HUGE] = { .type = NLA_U32 },
	[CLEARPAGE_S_TRIAL_PAGES_4K] = { .type = NLA_U64 },
	[CLEARPAGE_S_TRIAL_NS_4K] = { .type = NLA_U64 },
	[CLEARPAGE_S_TRIAL_PAGES_HUGE] = { .type = NLA_U64 },
	[CLEARPAGE_S_TRIAL_NS_HUGE] = { .type = NLA_U64 },
};

static uint64_t get_u64(struct nlattr *attr)
{
	return attr ? nla_get_u64(attr) : 0;
}

/* A strategy id from the kernel, checked before it indexes anything. */
static int get_strategy(struct nlattr *attr)
{
	int strategy = nla_get_u8(attr);

	return strategy < CLEARPAGE_STRATEGY_COUNT ? strategy : -EINVAL;
}

static int parse_strategy_entry(struct nlattr *entry,
				struct cp_strategy_info *s)
{
	struct nlattr *tb[CLEARPAGE_S_MAX + 1];
	const int k4 = CLEARPAGE_BACKEND_4K, huge = CLEARPAGE_BACKEND_HUGE;

	if (nla_parse_nested(tb, CLEARPAGE_S_MAX, entry, strategy_policy) < 0 ||
	    !tb[CLEARPAGE_S_STRATEGY])
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->strategy = get_strategy(tb[CLEARPAGE_S_STRATEGY]);
	if (s->strategy < 0)
		return -EINVAL;
	s->pages[k4] = get_u64(tb[CLEARPAGE_S_PAGES_4K]);
	s->pages[huge] = get_u64(tb[CLEARPAGE_S_PAGES_HUGE]);
	s->ranges_huge = get_u64(tb[CLEARPAGE_S_RANGES_HUGE]);
	s->samples[k4] = get_u64(tb[CLEARPAGE_S_SAMPLES_4K]);
	s->sample_ns[k4] = get_u64(tb[CLEARPAGE_S_SAMPLE_NS_4K]);
	s->samples[huge] = get_u64(tb[CLEARPAGE_S_SAMPLES_HUGE]);
	s->sample_ns[huge] = get_u64(tb[CLEARPAGE_S_SAMPLE_NS_HUGE]);
	s->trial_pages[k4] = get_u64(tb[CLEARPAGE_S_TRIAL_PAGES_4K]);
	s->trial_ns[k4] = get_u64(tb[CLEARPAGE_S_TRIAL_NS_4K]);
	s->trial_pages[huge] = get_u64(tb[CLEARPAGE_S_TRIAL_PAGES_HUGE]);
	s->trial_ns[huge] = get_u64(tb[CLEARPAGE_S_TRIAL_NS_HUGE]);
	if (tb[CLEARPAGE_S_HOT_NS_4K] && tb[CLEARPAGE_S_COLD_NS_4K] &&
	    tb[CLEARPAGE_S_HOT_NS_HUGE] && tb[CLEARPAGE_S_COLD_NS_HUGE]) {
		s->has_calibration = true;
		s->hot_ns[k4] = nla_get_u32(tb[CLEARPAGE_S_HOT_NS_4K]);
		s->cold_ns[k4] = nla_get_u32(tb[CLEARPAGE_S_COLD_NS_4K]);
		s->hot_ns[huge] = nla_get_u32(tb[CLEARPAGE_S_HOT_NS_HUGE]);
		s->cold_ns[huge] = nla_get_u32(tb[CLEARPAGE_S_COLD_NS_HUGE]);
	}
	return 0;
}

/* The probe mode: both strategies when on, and valid ones. */
static int parse_backend_probe(struct nlattr **tb, struct cp_backend_info *b)
{
	b->has_probe = tb[CLEARPAGE_B_PROBE] != NULL;
	b->probe = b->has_probe && nla_get_u8(tb[CLEARPAGE_B_PROBE]);
	b->probe_hot = b->probe_cold = -1;
	if (b->probe) {
		if (!tb[CLEARPAGE_B_PROBE_HOT] || !tb[CLEARPAGE_B_PROBE_COLD])
			return -EINVAL;
		b->probe_hot = get_strategy(tb[CLEARPAGE_B_PROBE_HOT]);
		b->probe_cold = get_strategy(tb[CLEARPAGE_B_PROBE_COLD]);
		if (b->probe_hot < 0 || b->probe_cold < 0)
			return -EINVAL;
	}
	b->probe_hot_folios = get_u64(tb[CLEARPAGE_B_PROBE_HOT_FOLIOS]);
	b->probe_cold_folios = get_u64(tb[CLEARPAGE_B_PROBE_COLD_FOLIOS]);
	b->probe_ns = get_u64(tb[CLEARPAGE_B_PROBE_NS]);
	b->probe_recycled_folios = get_u64(tb[CLEARPAGE_B_PROBE_RECYCLED_FOLIOS]);
	b->has_touch = tb[CLEARPAGE_B_TOUCH_PROBED] != NULL;
	b->touch_probed = get_u64(tb[CLEARPAGE_B_TOUCH_PROBED]);
	b->touch_cached = get_u64(tb[CLEARPAGE_B_TOUCH_CACHED]);
	b->touch_skipped = get_u64(tb[CLEARPAGE_B_TOUCH_SKIPPED]);
	if (b->touch_cached > b->touch_probed)
		return -EINVAL;
	return 0;
}

static int parse_backend_entry(struct nlattr *entry,
			       struct cp_backend_info *backends)
{
	struct nlattr *tb[CLEARPAGE_B_MAX + 1];
	struct cp_backend_info *b;
	int backend;

	if (nla_parse_nested(tb, CLEARPAGE_B_MAX, entry, backend_policy) < 0 ||
	    !tb[CLEARPAGE_B_BACKEND] || !tb[CLEARPAGE_B_STRATEGY])
		return -EINVAL;
	backend = nla_get_u8(tb[CLEARPAGE_B_BACKEND]);
	if (backend >= CLEARPAGE_BACKEND_COUNT)
		return -EINVAL;
	b = &backends[backend];
	b->strategy = get_strategy(tb[CLEARPAGE_B_STRATEGY]);
	if (b->strategy < 0)
		return -EINVAL;
	b->pinned = tb[CLEARPAGE_B_PINNED] && nla_get_u8(tb[CLEARPAGE_B_PINNED]);
	b->source = tb[CLEARPAGE_B_SOURCE] ?
		    nla_get_u8(tb[CLEARPAGE_B_SOURCE]) : -1;
	b->last_change_ns = get_u64(tb[CLEARPAGE_B_LAST_CHANGE_NS]);
	b->reference_pages = get_u64(tb[CLEARPAGE_B_REFERENCE_PAGES]);
	b->reference_sample_ns = get_u64(tb[CLEARPAGE_B_REFERENCE_SAMPLE_NS]);
	b->has_trials = tb[CLEARPAGE_B_TRIALS] != NULL;
	b->trials = b->has_trials ? nla_get_u32(tb[CLEARPAGE_B_TRIALS]) : 0;
	return parse_backend_probe(tb, b);
}

int cp_parse_node(struct nlmsghdr *nlh, struct cp_node_info *info)
{
	struct nlattr *tb[CLEARPAGE_A_MAX + 1], *pos;
	int rem, b;

	if (genlmsg_parse(nlh, 0, tb, CLEARPAGE_A_MAX, node_policy) < 0 ||
	    !tb[CLEARPAGE_A_NODE])
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	info->node = nla_get_u32(tb[CLEARPAGE_A_NODE]);
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++) {
		info->backend[b].strategy = -1;
		info->backend[b].source = -1;
	}
	/*
	 * The module leaves the counters and calibrations out for a reader
	 * without CAP_PERFMON: a node reply then has no PAGES_HUGE_PREZEROED,
	 * either reply no probe calibration and no strategy calibration.
	 */
	info->has_counters = tb[CLEARPAGE_A_PAGES_HUGE_PREZEROED] ||
			     tb[CLEARPAGE_A_PROBE_THRESHOLD];
	info->pages_huge_prezeroed = get_u64(tb[CLEARPAGE_A_PAGES_HUGE_PREZEROED]);
	info->has_helpers = tb[CLEARPAGE_A_HELPERS] != NULL;
	info->helpers = info->has_helpers ?
			nla_get_u32(tb[CLEARPAGE_A_HELPERS]) : 0;
	info->helped_folios = get_u64(tb[CLEARPAGE_A_HELPED_FOLIOS]);
	info->helper_pages = get_u64(tb[CLEARPAGE_A_HELPER_PAGES]);
	info->helpers_started = get_u64(tb[CLEARPAGE_A_HELPERS_STARTED]);
	info->helpers_not_started = get_u64(tb[CLEARPAGE_A_HELPERS_NOT_STARTED]);
	info->probe.present = tb[CLEARPAGE_A_PROBE_THRESHOLD] != NULL;
	if (tb[CLEARPAGE_A_PROBE_HOT_TICKS])
		info->probe.hot_ticks = nla_get_u32(tb[CLEARPAGE_A_PROBE_HOT_TICKS]);
	if (tb[CLEARPAGE_A_PROBE_COLD_TICKS])
		info->probe.cold_ticks = nla_get_u32(tb[CLEARPAGE_A_PROBE_COLD_TICKS]);
	if (info->probe.present)
		info->probe.threshold_ticks =
			nla_get_u32(tb[CLEARPAGE_A_PROBE_THRESHOLD]);
	if (tb[CLEARPAGE_A_BACKENDS])
		nla_for_each_nested(pos, tb[CLEARPAGE_A_BACKENDS], rem)
			if (parse_backend_entry(pos, info->backend) < 0)
				return -EINVAL;
	if (tb[CLEARPAGE_A_STRATEGIES]) {
		nla_for_each_nested(pos, tb[CLEARPAGE_A_STRATEGIES], rem) {
			if (info->nr_strategies >= CLEARPAGE_STRATEGY_COUNT)
				return -EINVAL;
			if (parse_strategy_entry(pos,
				&info->strategies[info->nr_strategies]) < 0)
				return -EINVAL;
			info->has_counters |= info->strategies[info->nr_strategies].has_calibration;
			info->nr_strategies++;
		}
	}
	if (tb[CLEARPAGE_A_LATENCY]) {
		nla_for_each_nested(pos, tb[CLEARPAGE_A_LATENCY], rem) {
			int bucket = nla_type(pos) - 1;

			if (nla_len(pos) < (int)sizeof(uint64_t))
				return -EINVAL;
			if (bucket >= 0 && bucket < CLEARPAGE_LATENCY_BUCKETS)
				info->latency[bucket] = nla_get_u64(pos);
		}
	}
	return 0;
}

int cp_parse_event(struct nlmsghdr *nlh, struct cp_event *event)
{
	struct nlattr *tb[CLEARPAGE_A_MAX + 1];

	/* The generic netlink header is read only once its length is known. */
	if (genlmsg_parse(nlh, 0, tb, CLEARPAGE_A_MAX, node_policy) < 0)
		return -EINVAL;
	if (genlmsg_hdr(nlh)->cmd != CLEARPAGE_CMD_EVENT)
		return -ENOMSG;
	if (!tb[CLEARPAGE_A_NODE] || !tb[CLEARPAGE_A_STRATEGY] ||
	    !tb[CLEARPAGE_A_OLD_STRATEGY] || !tb[CLEARPAGE_A_PINNED] ||
	    !tb[CLEARPAGE_A_SOURCE] || !tb[CLEARPAGE_A_BACKEND])
		return -EINVAL;
	event->node = nla_get_u32(tb[CLEARPAGE_A_NODE]);
	event->backend = nla_get_u8(tb[CLEARPAGE_A_BACKEND]);
	event->old_strategy = get_strategy(tb[CLEARPAGE_A_OLD_STRATEGY]);
	event->strategy = get_strategy(tb[CLEARPAGE_A_STRATEGY]);
	event->pinned = nla_get_u8(tb[CLEARPAGE_A_PINNED]);
	event->source = nla_get_u8(tb[CLEARPAGE_A_SOURCE]);
	event->time_ns = get_u64(tb[CLEARPAGE_A_LAST_CHANGE_NS]);
	if (event->backend >= CLEARPAGE_BACKEND_COUNT ||
	    event->old_strategy < 0 || event->strategy < 0)
		return -EINVAL;
	return 0;
}

/* NLA_STRING: libnl refuses a string that does not end in a NUL. */
static struct nla_policy extack_policy[NLMSGERR_ATTR_MAX + 1] = {
	[NLMSGERR_ATTR_MSG] = { .type = NLA_STRING },
};

const char *cp_parse_extack(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *err = NLMSG_DATA(nlh);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t offset = sizeof(*err);
	int len;

	if (nlh->nlmsg_type != NLMSG_ERROR || !(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*err))
		return NULL;
	/*
	 * Without NLM_F_CAPPED the request's payload is echoed first; a length
	 * below the header or beyond the message is a lie, not an offset.
	 */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (err->msg.nlmsg_len < NLMSG_HDRLEN ||
		    err->msg.nlmsg_len - NLMSG_HDRLEN >
		    nlh->nlmsg_len - NLMSG_HDRLEN - sizeof(*err))
			return NULL;
		offset += err->msg.nlmsg_len - NLMSG_HDRLEN;
	}
	len = (int)(nlh->nlmsg_len - NLMSG_HDRLEN - offset);
	if (len <= 0)
		return NULL;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)NLMSG_DATA(nlh) + offset), len,
		      extack_policy) < 0 || !tb[NLMSGERR_ATTR_MSG])
		return NULL;
	return nla_get_string(tb[NLMSGERR_ATTR_MSG]);
}
