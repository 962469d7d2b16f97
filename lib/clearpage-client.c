// SPDX-License-Identifier: GPL-2.0
/*
 * libclearpage: the clearpage generic netlink family through libnl-genl-3.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "clearpage-client.h"
#include "policy.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct cp_client {
	struct nl_sock *sock;
	int family;
	char error[256];
};

struct cp_events {
	struct nl_sock *sock;
	struct nl_cb *cb;
	cp_event_fn fn;
	void *arg;
};

static const char *const source_names[] = CLEARPAGE_SOURCE_NAMES;

/* One table of strategy names, the policy library's. */
const char *cp_strategy_name(int strategy)
{
	return policy_strategy_name(strategy);
}

int cp_strategy_from_name(const char *name)
{
	return policy_strategy_from_name(name);
}

const char *cp_source_name(int source)
{
	if (source < 0 || source >= CLEARPAGE_SOURCE_COUNT)
		return "unknown";
	return source_names[source];
}

static const char *const backend_names[CLEARPAGE_BACKEND_COUNT] =
	CLEARPAGE_BACKEND_NAMES;

const char *cp_backend_name(int backend)
{
	if (backend == CP_BACKEND_ALL)
		return "all";
	if (backend < 0 || backend >= CLEARPAGE_BACKEND_COUNT)
		return "unknown";
	return backend_names[backend];
}

int cp_backend_from_name(const char *name)
{
	int b;

	if (!strcmp(name, "all"))
		return CP_BACKEND_ALL;
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
		if (!strcmp(name, backend_names[b]))
			return b;
	return -EINVAL;
}

const struct cp_strategy_info *cp_node_strategy(const struct cp_node_info *info,
						int strategy)
{
	int i;

	for (i = 0; i < info->nr_strategies; i++)
		if (info->strategies[i].strategy == strategy)
			return &info->strategies[i];
	return NULL;
}

/* Map a libnl error code to a negative errno. */
static int nlerr_to_errno(int err)
{
	switch (-err) {
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_PERM:
		return -EPERM;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_NODEV:
		return -ENODEV;
	default:
		return -EIO;
	}
}

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

struct transaction {
	struct cp_client *client;
	int error;
	bool done;
	struct cp_node_info *nodes;
	int max;
	int count;
};

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct transaction *t = arg;

	if (t->nodes && t->count < t->max) {
		if (cp_parse_node(nlmsg_hdr(msg), &t->nodes[t->count]) < 0) {
			t->error = -EPROTO;
			return NL_STOP;
		}
		t->count++;
	}
	return NL_OK;
}

static int on_finish(struct nl_msg *msg, void *arg)
{
	struct transaction *t = arg;

	(void)msg;
	t->done = true;
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	return on_finish(msg, arg);
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct transaction *t = arg;
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)err - NLMSG_HDRLEN);
	const char *message = cp_parse_extack(nlh);

	(void)nla;
	t->error = err->error < 0 ? err->error : -EIO;
	snprintf(t->client->error, sizeof(t->client->error), "%s",
		 message ? message : "");
	t->done = true;
	return NL_STOP;
}

/* Send @msg (consumed) and receive until the ack, the dump's end or an error. */
static int transact(struct cp_client *client, struct nl_msg *msg,
		    struct cp_node_info *nodes, int max)
{
	struct transaction t = { .client = client, .nodes = nodes, .max = max };
	struct nl_cb *cb;
	int err;

	client->error[0] = '\0';
	if (!msg)
		return -ENOMEM;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &t);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &t);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &t);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &t);

	err = nl_send_auto(client->sock, msg);
	nlmsg_free(msg);
	if (err < 0) {
		nl_cb_put(cb);
		return nlerr_to_errno(err);
	}
	while (!t.done && !t.error) {
		err = nl_recvmsgs(client->sock, cb);
		if (err < 0 && !t.error)
			t.error = nlerr_to_errno(err);
	}
	nl_cb_put(cb);
	return t.error ? t.error : t.count;
}

static void enable_extack(struct nl_sock *sock)
{
	int one = 1, fd = nl_socket_get_fd(sock);

	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
}

int cp_client_open(struct cp_client **out)
{
	struct cp_client *client = calloc(1, sizeof(*client));
	int err;

	if (!client)
		return -ENOMEM;
	client->sock = nl_socket_alloc();
	if (!client->sock) {
		free(client);
		return -ENOMEM;
	}
	err = genl_connect(client->sock);
	if (err < 0)
		goto fail;
	enable_extack(client->sock);
	client->family = genl_ctrl_resolve(client->sock, CLEARPAGE_GENL_NAME);
	if (client->family < 0) {
		err = client->family;
		goto fail;
	}
	*out = client;
	return 0;
fail:
	nl_socket_free(client->sock);
	free(client);
	return nlerr_to_errno(err);
}

void cp_client_close(struct cp_client *client)
{
	if (!client)
		return;
	nl_socket_free(client->sock);
	free(client);
}

const char *cp_client_error(const struct cp_client *client)
{
	return client->error;
}

int cp_get_node(struct cp_client *client, uint32_t node,
		struct cp_node_info *info)
{
	int n = transact(client, cp_msg_node(client->family,
					     CLEARPAGE_CMD_GET_NODE, node),
			 info, 1);

	return n < 0 ? n : n == 1 ? 0 : -EPROTO;
}

int cp_dump_nodes(struct cp_client *client, struct cp_node_info *nodes,
		  int max)
{
	return transact(client, cp_msg_new(client->family,
					   CLEARPAGE_CMD_GET_NODE, NLM_F_DUMP),
			nodes, max);
}

int cp_get_calibration(struct cp_client *client, uint32_t node,
		       struct cp_node_info *info)
{
	int n = transact(client,
			 cp_msg_node(client->family,
				     CLEARPAGE_CMD_GET_CALIBRATION, node),
			 info, 1);

	return n < 0 ? n : n == 1 ? 0 : -EPROTO;
}

int cp_set_strategy(struct cp_client *client, uint32_t node, int backend,
		    int strategy, int source)
{
	int n = transact(client, cp_msg_set_strategy(client->family, node,
						     backend, strategy, source),
			 NULL, 0);

	return n < 0 ? n : 0;
}

int cp_set_pinned(struct cp_client *client, uint32_t node, int backend,
		  bool pinned)
{
	int n = transact(client, cp_msg_set_pinned(client->family, node,
						   backend, pinned),
			 NULL, 0);

	return n < 0 ? n : 0;
}

int cp_set_trials(struct cp_client *client, uint32_t node, int backend,
		  uint32_t trials)
{
	int n = transact(client, cp_msg_set_trials(client->family, node,
						   backend, trials),
			 NULL, 0);

	return n < 0 ? n : 0;
}

int cp_set_helpers(struct cp_client *client, uint32_t node, uint32_t helpers)
{
	int n = transact(client, cp_msg_set_helpers(client->family, node,
						    helpers),
			 NULL, 0);

	return n < 0 ? n : 0;
}

int cp_set_probe(struct cp_client *client, uint32_t node, int backend, bool on,
		 int hot, int cold, int source)
{
	int n = transact(client, cp_msg_set_probe(client->family, node, backend,
						  on, hot, cold, source),
			 NULL, 0);

	return n < 0 ? n : 0;
}

int cp_calibrate(struct cp_client *client, uint32_t node,
		 struct cp_node_info *info)
{
	int n = transact(client, cp_msg_node(client->family,
					     CLEARPAGE_CMD_CALIBRATE, node),
			 info, 1);

	return n < 0 ? n : n == 1 ? 0 : -EPROTO;
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct cp_events *events = arg;
	struct cp_event event;

	if (cp_parse_event(nlmsg_hdr(msg), &event) == 0)
		events->fn(&event, events->arg);
	return NL_OK;
}

static int accept_any(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

int cp_events_open(struct cp_events **out)
{
	struct cp_events *events = calloc(1, sizeof(*events));
	int err, group;

	if (!events)
		return -ENOMEM;
	events->sock = nl_socket_alloc();
	events->cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!events->sock || !events->cb) {
		err = -NLE_NOMEM;
		goto fail;
	}
	nl_socket_disable_seq_check(events->sock);
	err = genl_connect(events->sock);
	if (err < 0)
		goto fail;
	group = genl_ctrl_resolve_grp(events->sock, CLEARPAGE_GENL_NAME,
				      CLEARPAGE_GENL_MCGRP_EVENTS);
	if (group < 0) {
		err = group;
		goto fail;
	}
	err = nl_socket_add_membership(events->sock, group);
	if (err < 0)
		goto fail;
	nl_cb_set(events->cb, NL_CB_VALID, NL_CB_CUSTOM, on_event, events);
	/* Multicast messages carry no request's sequence number. */
	nl_cb_set(events->cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, accept_any, NULL);
	*out = events;
	return 0;
fail:
	if (events->cb)
		nl_cb_put(events->cb);
	if (events->sock)
		nl_socket_free(events->sock);
	free(events);
	return nlerr_to_errno(err);
}

void cp_events_close(struct cp_events *events)
{
	if (!events)
		return;
	nl_cb_put(events->cb);
	nl_socket_free(events->sock);
	free(events);
}

int cp_events_fd(const struct cp_events *events)
{
	return nl_socket_get_fd(events->sock);
}

int cp_events_receive(struct cp_events *events, cp_event_fn fn, void *arg)
{
	int err;

	events->fn = fn;
	events->arg = arg;
	err = nl_recvmsgs(events->sock, events->cb);
	return err < 0 ? nlerr_to_errno(err) : 0;
}

void cp_backend_counters(const struct cp_node_info *info, int backend,
			 struct policy_counters *c)
{
	const struct cp_backend_info *be = &info->backend[backend];
	const struct cp_strategy_info *s = cp_node_strategy(info, be->strategy);

	*c = (struct policy_counters){
		.strategy = be->strategy,
		.samples = s ? s->samples[backend] : 0,
		.sample_ns = s ? s->sample_ns[backend] : 0,
		.ref_pages = be->reference_pages,
		.ref_ns = be->reference_sample_ns,
		.probe_hot = be->probe_hot_folios,
		.probe_cold = be->probe_cold_folios,
		.touch_probed = be->touch_probed,
		.touch_cached = be->touch_cached,
	};
	for (int i = 0; i < info->nr_strategies; i++) {
		const struct cp_strategy_info *t = &info->strategies[i];

		c->pages += t->pages[backend];
		c->trial_pages[t->strategy] = t->trial_pages[backend];
		c->trial_ns[t->strategy] = t->trial_ns[backend];
	}
	/* Per folio: the node's own clears are both strategies'. */
	if (be->probe) {
		const struct cp_strategy_info *h = cp_node_strategy(info, be->probe_hot);
		const struct cp_strategy_info *k = cp_node_strategy(info, be->probe_cold);

		c->split = true;
		c->split_hot = be->probe_hot;
		c->split_cold = be->probe_cold;
		c->samples = (h ? h->samples[backend] : 0) +
			     (k && k != h ? k->samples[backend] : 0);
		c->sample_ns = (h ? h->sample_ns[backend] : 0) +
			       (k && k != h ? k->sample_ns[backend] : 0);
	}
}
