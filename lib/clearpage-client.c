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
#include <netlink/genl/family.h>
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

/*
 * The version of the family the loaded module registered: a module older
 * than these tools (still loaded after an upgrade) speaks an older
 * protocol, and its answers would be misread. 0 or -EPROTO; a controller
 * that cannot be asked is no reason to refuse (the requests then fail on
 * their own).
 */
static int check_family_version(struct nl_sock *sock)
{
	struct genl_family *family;
	struct nl_cache *cache;
	unsigned int version;

	if (genl_ctrl_alloc_cache(sock, &cache) < 0)
		return 0;
	family = genl_ctrl_search_by_name(cache, CLEARPAGE_GENL_NAME);
	nl_cache_free(cache);
	if (!family)
		return 0;
	version = genl_family_get_version(family);
	genl_family_put(family);
	return version < CLEARPAGE_GENL_VERSION ? -EPROTO : 0;
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
	err = check_family_version(client->sock);
	if (err) {
		nl_socket_free(client->sock);
		free(client);
		return err;
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
		.probe_recycled = be->probe_recycled_folios,
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
