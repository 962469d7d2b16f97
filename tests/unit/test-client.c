// SPDX-License-Identifier: GPL-2.0
/*
 * libclearpage without a kernel: the requests it builds carry exactly the
 * attributes of include/uapi/clearpage.h, and it parses replies, events and
 * extended acks built here by hand, refusing malformed ones.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>

#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "clearpage-client.h"
#include "savings-file.h"
#include "state-file.h"
#include "check.h"

#define FAMILY 0x1234

static void test_requests(void)
{
	struct nlattr *tb[CLEARPAGE_A_MAX + 1];
	struct nl_msg *msg;
	struct nlmsghdr *nlh;

	msg = cp_msg_set_strategy(FAMILY, 1, CP_BACKEND_ALL,
				  CLEARPAGE_STRATEGY_MOVNTI,
				  CLEARPAGE_SOURCE_DAEMON);
	nlh = nlmsg_hdr(msg);
	CHECK(nlh->nlmsg_type == FAMILY, "set_strategy goes to the family");
	CHECK(genlmsg_hdr(nlh)->cmd == CLEARPAGE_CMD_SET_STRATEGY &&
	      genlmsg_hdr(nlh)->version == CLEARPAGE_GENL_VERSION,
	      "set_strategy command and version");
	CHECK(genlmsg_parse(nlh, 0, tb, CLEARPAGE_A_MAX, NULL) == 0 &&
	      tb[CLEARPAGE_A_NODE] && nla_len(tb[CLEARPAGE_A_NODE]) == 4 &&
	      nla_get_u32(tb[CLEARPAGE_A_NODE]) == 1 &&
	      tb[CLEARPAGE_A_STRATEGY] && nla_len(tb[CLEARPAGE_A_STRATEGY]) == 1 &&
	      nla_get_u8(tb[CLEARPAGE_A_STRATEGY]) == CLEARPAGE_STRATEGY_MOVNTI &&
	      tb[CLEARPAGE_A_SOURCE] &&
	      nla_get_u8(tb[CLEARPAGE_A_SOURCE]) == CLEARPAGE_SOURCE_DAEMON &&
	      !tb[CLEARPAGE_A_PINNED] && !tb[CLEARPAGE_A_BACKEND],
	      "set_strategy for every backend carries node u32, strategy u8, source u8, nothing else");
	nlmsg_free(msg);

	msg = cp_msg_set_strategy(FAMILY, 1, CLEARPAGE_BACKEND_HUGE,
				  CLEARPAGE_STRATEGY_CLZERO,
				  CLEARPAGE_SOURCE_ADMIN);
	nlh = nlmsg_hdr(msg);
	CHECK(genlmsg_parse(nlh, 0, tb, CLEARPAGE_A_MAX, NULL) == 0 &&
	      tb[CLEARPAGE_A_BACKEND] && nla_len(tb[CLEARPAGE_A_BACKEND]) == 1 &&
	      nla_get_u8(tb[CLEARPAGE_A_BACKEND]) == CLEARPAGE_BACKEND_HUGE &&
	      nla_get_u8(tb[CLEARPAGE_A_STRATEGY]) == CLEARPAGE_STRATEGY_CLZERO,
	      "set_strategy for one backend carries the backend u8");
	nlmsg_free(msg);

	msg = cp_msg_set_pinned(FAMILY, 7, CLEARPAGE_BACKEND_4K, true);
	nlh = nlmsg_hdr(msg);
	CHECK(genlmsg_hdr(nlh)->cmd == CLEARPAGE_CMD_SET_PINNED &&
	      genlmsg_parse(nlh, 0, tb, CLEARPAGE_A_MAX, NULL) == 0 &&
	      nla_get_u32(tb[CLEARPAGE_A_NODE]) == 7 &&
	      nla_get_u8(tb[CLEARPAGE_A_PINNED]) == 1 &&
	      tb[CLEARPAGE_A_BACKEND] &&
	      nla_get_u8(tb[CLEARPAGE_A_BACKEND]) == CLEARPAGE_BACKEND_4K &&
	      !tb[CLEARPAGE_A_STRATEGY],
	      "set_pinned carries node, backend and pinned");
	nlmsg_free(msg);

	msg = cp_msg_set_helpers(FAMILY, 2, 5);
	nlh = nlmsg_hdr(msg);
	CHECK(genlmsg_hdr(nlh)->cmd == CLEARPAGE_CMD_SET_HELPERS &&
	      genlmsg_parse(nlh, 0, tb, CLEARPAGE_A_MAX, NULL) == 0 &&
	      nla_get_u32(tb[CLEARPAGE_A_NODE]) == 2 &&
	      tb[CLEARPAGE_A_HELPERS] && nla_len(tb[CLEARPAGE_A_HELPERS]) == 4 &&
	      nla_get_u32(tb[CLEARPAGE_A_HELPERS]) == 5 &&
	      !tb[CLEARPAGE_A_BACKEND],
	      "set_helpers carries node and helpers u32, no backend");
	nlmsg_free(msg);

	msg = cp_msg_set_probe(FAMILY, 1, CLEARPAGE_BACKEND_HUGE, true,
			       CLEARPAGE_STRATEGY_REP_STOSB,
			       CLEARPAGE_STRATEGY_MOVNTI, CLEARPAGE_SOURCE_DAEMON);
	nlh = nlmsg_hdr(msg);
	CHECK(genlmsg_hdr(nlh)->cmd == CLEARPAGE_CMD_SET_PROBE &&
	      genlmsg_parse(nlh, 0, tb, CLEARPAGE_A_MAX, NULL) == 0 &&
	      nla_get_u32(tb[CLEARPAGE_A_NODE]) == 1 &&
	      tb[CLEARPAGE_A_BACKEND] &&
	      nla_get_u8(tb[CLEARPAGE_A_BACKEND]) == CLEARPAGE_BACKEND_HUGE &&
	      tb[CLEARPAGE_A_PROBE_HOT] && tb[CLEARPAGE_A_PROBE_COLD] &&
	      nla_get_u8(tb[CLEARPAGE_A_PROBE_HOT]) == CLEARPAGE_STRATEGY_REP_STOSB &&
	      nla_get_u8(tb[CLEARPAGE_A_PROBE_COLD]) == CLEARPAGE_STRATEGY_MOVNTI &&
	      tb[CLEARPAGE_A_SOURCE] &&
	      nla_get_u8(tb[CLEARPAGE_A_SOURCE]) == CLEARPAGE_SOURCE_DAEMON,
	      "set_probe on carries node, backend, both strategies and the source");
	nlmsg_free(msg);

	msg = cp_msg_set_probe(FAMILY, 1, CLEARPAGE_BACKEND_HUGE, false,
			       CLEARPAGE_STRATEGY_REP_STOSB,
			       CLEARPAGE_STRATEGY_MOVNTI, CLEARPAGE_SOURCE_ADMIN);
	nlh = nlmsg_hdr(msg);
	CHECK(genlmsg_hdr(nlh)->cmd == CLEARPAGE_CMD_SET_PROBE &&
	      genlmsg_parse(nlh, 0, tb, CLEARPAGE_A_MAX, NULL) == 0 &&
	      tb[CLEARPAGE_A_BACKEND] && !tb[CLEARPAGE_A_PROBE_HOT] &&
	      !tb[CLEARPAGE_A_PROBE_COLD],
	      "set_probe off carries neither strategy");
	nlmsg_free(msg);

	msg = cp_msg_new(FAMILY, CLEARPAGE_CMD_GET_NODE, NLM_F_DUMP);
	nlh = nlmsg_hdr(msg);
	CHECK(genlmsg_hdr(nlh)->cmd == CLEARPAGE_CMD_GET_NODE &&
	      (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP &&
	      genlmsg_attrlen(genlmsg_hdr(nlh), 0) == 0,
	      "node dump request has the dump flag and no attributes");
	nlmsg_free(msg);
}

/*
 * A GET_NODE reply as the kernel sends it; @bad_strategy: an id too big;
 * @bad_probe: the probe's cold strategy too big.
 */
static struct nl_msg *node_reply_probe(bool node_as_u8, bool with_node,
				       bool bad_strategy, bool bad_probe)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *list, *entry;
	int i;

	genlmsg_put(msg, 0, 0, FAMILY, 0, 0, CLEARPAGE_CMD_GET_NODE,
		    CLEARPAGE_GENL_VERSION);
	if (with_node) {
		if (node_as_u8)
			nla_put_u8(msg, CLEARPAGE_A_NODE, 3);
		else
			nla_put_u32(msg, CLEARPAGE_A_NODE, 3);
	}
	nla_put_u64(msg, CLEARPAGE_A_PAGES_HUGE_PREZEROED, 512);
	nla_put_u32(msg, CLEARPAGE_A_HELPERS, 3);
	nla_put_u64(msg, CLEARPAGE_A_HELPED_FOLIOS, 7);
	nla_put_u64(msg, CLEARPAGE_A_HELPER_PAGES, 1000000);
	nla_put_u64(msg, CLEARPAGE_A_HELPERS_STARTED, 20);
	nla_put_u64(msg, CLEARPAGE_A_HELPERS_NOT_STARTED, 1);
	nla_put_u32(msg, CLEARPAGE_A_PROBE_HOT_TICKS, 54);
	nla_put_u32(msg, CLEARPAGE_A_PROBE_COLD_TICKS, 404);
	nla_put_u32(msg, CLEARPAGE_A_PROBE_THRESHOLD, 229);
	list = nla_nest_start(msg, CLEARPAGE_A_BACKENDS);
	entry = nla_nest_start(msg, CLEARPAGE_A_ENTRY);
	nla_put_u8(msg, CLEARPAGE_B_BACKEND, CLEARPAGE_BACKEND_4K);
	nla_put_u8(msg, CLEARPAGE_B_STRATEGY, CLEARPAGE_STRATEGY_MOVQ);
	nla_put_u8(msg, CLEARPAGE_B_PINNED, 1);
	nla_put_u8(msg, CLEARPAGE_B_SOURCE, CLEARPAGE_SOURCE_ADMIN);
	nla_put_u64(msg, CLEARPAGE_B_LAST_CHANGE_NS, 1764480000123456789ULL);
	nla_put_u64(msg, CLEARPAGE_B_REFERENCE_PAGES, 32);
	nla_put_u64(msg, CLEARPAGE_B_REFERENCE_SAMPLE_NS, 3200);
	nla_put_u64(msg, CLEARPAGE_B_TOUCH_PROBED, 40);
	nla_put_u64(msg, CLEARPAGE_B_TOUCH_CACHED, 30);
	nla_put_u64(msg, CLEARPAGE_B_TOUCH_SKIPPED, 2);
	nla_nest_end(msg, entry);
	entry = nla_nest_start(msg, CLEARPAGE_A_ENTRY);
	nla_put_u8(msg, CLEARPAGE_B_BACKEND, CLEARPAGE_BACKEND_HUGE);
	nla_put_u8(msg, CLEARPAGE_B_STRATEGY, bad_strategy ? 200 :
		   CLEARPAGE_STRATEGY_KERNEL);
	nla_put_u8(msg, CLEARPAGE_B_PINNED, 0);
	nla_put_u8(msg, CLEARPAGE_B_SOURCE, CLEARPAGE_SOURCE_DAEMON);
	nla_put_u8(msg, CLEARPAGE_B_PROBE, 1);
	nla_put_u8(msg, CLEARPAGE_B_PROBE_HOT, CLEARPAGE_STRATEGY_REP_STOSB);
	nla_put_u8(msg, CLEARPAGE_B_PROBE_COLD, bad_probe ? 99 :
		   CLEARPAGE_STRATEGY_CLZERO);
	nla_put_u64(msg, CLEARPAGE_B_PROBE_HOT_FOLIOS, 11);
	nla_put_u64(msg, CLEARPAGE_B_PROBE_COLD_FOLIOS, 13);
	nla_put_u64(msg, CLEARPAGE_B_PROBE_NS, 4800);
	nla_put_u64(msg, CLEARPAGE_B_PROBE_RECYCLED_FOLIOS, 5);
	nla_nest_end(msg, entry);
	nla_nest_end(msg, list);
	list = nla_nest_start(msg, CLEARPAGE_A_STRATEGIES);
	entry = nla_nest_start(msg, CLEARPAGE_A_ENTRY);
	nla_put_u8(msg, CLEARPAGE_S_STRATEGY, CLEARPAGE_STRATEGY_KERNEL);
	nla_put_u64(msg, CLEARPAGE_S_PAGES_4K, 10);
	nla_nest_end(msg, entry);
	entry = nla_nest_start(msg, CLEARPAGE_A_ENTRY);
	nla_put_u8(msg, CLEARPAGE_S_STRATEGY, CLEARPAGE_STRATEGY_MOVQ);
	nla_put_u64(msg, CLEARPAGE_S_PAGES_4K, 1000);
	nla_put_u64(msg, CLEARPAGE_S_PAGES_HUGE, 5120);
	nla_put_u64(msg, CLEARPAGE_S_RANGES_HUGE, 20);
	nla_put_u64(msg, CLEARPAGE_S_SAMPLES_4K, 16);
	nla_put_u64(msg, CLEARPAGE_S_SAMPLE_NS_4K, 6400);
	nla_put_u64(msg, CLEARPAGE_S_SAMPLES_HUGE, 512);
	nla_put_u64(msg, CLEARPAGE_S_SAMPLE_NS_HUGE, 51200);
	nla_put_u32(msg, CLEARPAGE_S_HOT_NS_4K, 70);
	nla_put_u32(msg, CLEARPAGE_S_COLD_NS_4K, 420);
	nla_put_u32(msg, CLEARPAGE_S_HOT_NS_HUGE, 30);
	nla_put_u32(msg, CLEARPAGE_S_COLD_NS_HUGE, 90);
	nla_nest_end(msg, entry);
	nla_nest_end(msg, list);
	list = nla_nest_start(msg, CLEARPAGE_A_LATENCY);
	for (i = 0; i < CLEARPAGE_LATENCY_BUCKETS; i++)
		nla_put_u64(msg, i + 1, i * 10);
	nla_nest_end(msg, list);
	return msg;
}

static struct nl_msg *node_reply(bool node_as_u8, bool with_node,
				 bool bad_strategy)
{
	return node_reply_probe(node_as_u8, with_node, bad_strategy, false);
}

static void test_node_parse(void)
{
	const int k4 = CLEARPAGE_BACKEND_4K, huge = CLEARPAGE_BACKEND_HUGE;
	struct cp_node_info info;
	const struct cp_strategy_info *movq;
	struct nl_msg *msg = node_reply(false, true, false);

	CHECK(cp_parse_node(nlmsg_hdr(msg), &info) == 0, "node reply parses");
	CHECK(info.node == 3 && info.pages_huge_prezeroed == 512,
	      "node fields");
	CHECK(info.probe.present && info.probe.hot_ticks == 54 &&
	      info.probe.cold_ticks == 404 && info.probe.threshold_ticks == 229,
	      "the probe's calibration");
	CHECK(info.backend[huge].has_probe && info.backend[huge].probe &&
	      info.backend[huge].probe_hot == CLEARPAGE_STRATEGY_REP_STOSB &&
	      info.backend[huge].probe_cold == CLEARPAGE_STRATEGY_CLZERO &&
	      info.backend[huge].probe_hot_folios == 11 &&
	      info.backend[huge].probe_cold_folios == 13 &&
	      info.backend[huge].probe_ns == 4800 &&
	      info.backend[huge].probe_recycled_folios == 5 &&
	      info.backend[k4].probe_recycled_folios == 0 &&
	      !info.backend[k4].has_probe && !info.backend[k4].probe,
	      "the huge backend's probe mode and counters");
	{
		struct policy_counters c;

		cp_backend_counters(&info, huge, &c);
		CHECK(c.split && c.split_hot == CLEARPAGE_STRATEGY_REP_STOSB &&
		      c.split_cold == CLEARPAGE_STRATEGY_CLZERO &&
		      c.probe_hot == 11 && c.probe_cold == 13 &&
		      c.probe_recycled == 5 && c.samples == 0,
		      "the policy's counters of a backend in probe mode: per folio, the pair's timed clears (none in this reply: the kernel's 512 left out), the probe's counts");
	}
	CHECK(info.backend[k4].has_touch && info.backend[k4].touch_probed == 40 &&
	      info.backend[k4].touch_cached == 30 &&
	      info.backend[k4].touch_skipped == 2 &&
	      !info.backend[huge].has_touch,
	      "the touch probe's counters, per backend");
	CHECK(info.has_helpers && info.helpers == 3 && info.helped_folios == 7 &&
	      info.helper_pages == 1000000 && info.helpers_started == 20 &&
	      info.helpers_not_started == 1,
	      "gigantic helpers: the count and what they did");
	CHECK(info.backend[k4].strategy == CLEARPAGE_STRATEGY_MOVQ &&
	      info.backend[k4].pinned &&
	      info.backend[k4].source == CLEARPAGE_SOURCE_ADMIN &&
	      info.backend[k4].last_change_ns == 1764480000123456789ULL &&
	      info.backend[k4].reference_pages == 32 &&
	      info.backend[k4].reference_sample_ns == 3200 &&
	      info.backend[huge].strategy == CLEARPAGE_STRATEGY_KERNEL &&
	      !info.backend[huge].pinned &&
	      info.backend[huge].source == CLEARPAGE_SOURCE_DAEMON,
	      "per-backend strategy, pin, source and reference frames");
	movq = cp_node_strategy(&info, CLEARPAGE_STRATEGY_MOVQ);
	CHECK(info.nr_strategies == 2 && movq && movq->pages[k4] == 1000 &&
	      movq->pages[huge] == 5120 && movq->ranges_huge == 20 &&
	      movq->samples[k4] == 16 && movq->sample_ns[k4] == 6400 &&
	      movq->samples[huge] == 512 && movq->sample_ns[huge] == 51200 &&
	      movq->has_calibration && movq->hot_ns[k4] == 70 &&
	      movq->cold_ns[k4] == 420 && movq->hot_ns[huge] == 30 &&
	      movq->cold_ns[huge] == 90,
	      "per-strategy, per-backend counters and calibration");
	CHECK(!cp_node_strategy(&info, CLEARPAGE_STRATEGY_KERNEL)->has_calibration,
	      "kernel has no calibration");
	CHECK(info.latency[0] == 0 && info.latency[16] == 160,
	      "latency buckets by attribute type");
	nlmsg_free(msg);

	msg = node_reply(true, true, false);
	CHECK(cp_parse_node(nlmsg_hdr(msg), &info) == -EINVAL,
	      "a node id of the wrong size is refused");
	nlmsg_free(msg);
	msg = node_reply(false, false, false);
	CHECK(cp_parse_node(nlmsg_hdr(msg), &info) == -EINVAL,
	      "a reply without a node id is refused");
	nlmsg_free(msg);
	msg = node_reply(false, true, true);
	CHECK(cp_parse_node(nlmsg_hdr(msg), &info) == -EINVAL,
	      "a strategy id beyond the known ones is refused");
	nlmsg_free(msg);
	msg = node_reply_probe(false, true, false, true);
	CHECK(cp_parse_node(nlmsg_hdr(msg), &info) == -EINVAL,
	      "a probe strategy id beyond the known ones is refused");
	nlmsg_free(msg);
}

static void test_event_parse(void)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct cp_event event;

	genlmsg_put(msg, 0, 0, FAMILY, 0, 0, CLEARPAGE_CMD_EVENT, 1);
	nla_put_u32(msg, CLEARPAGE_A_NODE, 1);
	nla_put_u8(msg, CLEARPAGE_A_BACKEND, CLEARPAGE_BACKEND_HUGE);
	nla_put_u8(msg, CLEARPAGE_A_OLD_STRATEGY, CLEARPAGE_STRATEGY_KERNEL);
	nla_put_u8(msg, CLEARPAGE_A_STRATEGY, CLEARPAGE_STRATEGY_MOVNTI);
	nla_put_u8(msg, CLEARPAGE_A_PINNED, 0);
	nla_put_u8(msg, CLEARPAGE_A_SOURCE, CLEARPAGE_SOURCE_DAEMON);
	nla_put_u64(msg, CLEARPAGE_A_LAST_CHANGE_NS, 42);
	CHECK(cp_parse_event(nlmsg_hdr(msg), &event) == 0 && event.node == 1 &&
	      event.backend == CLEARPAGE_BACKEND_HUGE &&
	      event.old_strategy == CLEARPAGE_STRATEGY_KERNEL &&
	      event.strategy == CLEARPAGE_STRATEGY_MOVNTI && !event.pinned &&
	      event.source == CLEARPAGE_SOURCE_DAEMON && event.time_ns == 42,
	      "event parses");
	nlmsg_free(msg);

	msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 0, FAMILY, 0, 0, CLEARPAGE_CMD_EVENT, 1);
	nla_put_u32(msg, CLEARPAGE_A_NODE, 1);
	CHECK(cp_parse_event(nlmsg_hdr(msg), &event) == -EINVAL,
	      "an event without strategies is refused");
	nlmsg_free(msg);

	/* A reply of another command on the event socket is no event. */
	msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 0, FAMILY, 0, 0, CLEARPAGE_CMD_GET_NODE, 1);
	nla_put_u32(msg, CLEARPAGE_A_NODE, 1);
	nla_put_u8(msg, CLEARPAGE_A_BACKEND, CLEARPAGE_BACKEND_HUGE);
	nla_put_u8(msg, CLEARPAGE_A_OLD_STRATEGY, CLEARPAGE_STRATEGY_KERNEL);
	nla_put_u8(msg, CLEARPAGE_A_STRATEGY, CLEARPAGE_STRATEGY_MOVNTI);
	nla_put_u8(msg, CLEARPAGE_A_PINNED, 0);
	nla_put_u8(msg, CLEARPAGE_A_SOURCE, CLEARPAGE_SOURCE_DAEMON);
	CHECK(cp_parse_event(nlmsg_hdr(msg), &event) == -ENOMSG,
	      "a message of another command is not taken for an event");
	/* Shorter than its generic netlink header: not read past its end. */
	nlmsg_hdr(msg)->nlmsg_len = NLMSG_HDRLEN + 2;
	CHECK(cp_parse_event(nlmsg_hdr(msg), &event) == -EINVAL,
	      "an event shorter than its genetlink header is refused");
	nlmsg_free(msg);
}

/* An NLMSG_ERROR as the kernel sends it, with the request echoed or not. */
static void test_extack(void)
{
	union {
		char bytes[512];
		struct nlmsghdr align;
	} u;
	struct nlmsghdr *nlh = &u.align;
	struct nlmsgerr *err = NLMSG_DATA(nlh);
	const char text[] = "no such node";
	struct nlattr *attr;
	size_t payload = 8, len;

	memset(&u, 0, sizeof(u));
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED | NLM_F_ACK_TLVS;
	err->error = -ENODEV;
	err->msg.nlmsg_len = NLMSG_HDRLEN + payload;
	attr = (struct nlattr *)((char *)err + sizeof(*err));
	attr->nla_type = NLMSGERR_ATTR_MSG;
	attr->nla_len = NLA_HDRLEN + sizeof(text);
	memcpy((char *)attr + NLA_HDRLEN, text, sizeof(text));
	len = NLMSG_HDRLEN + sizeof(*err) + NLA_ALIGN(attr->nla_len);
	nlh->nlmsg_len = len;
	CHECK(cp_parse_extack(nlh) && !strcmp(cp_parse_extack(nlh), text),
	      "extack message of a capped error");

	/* Uncapped: the request's payload sits between header and TLVs. */
	memmove((char *)attr + payload, attr, NLA_ALIGN(attr->nla_len));
	memset(attr, 0xee, payload);
	nlh->nlmsg_flags = NLM_F_ACK_TLVS;
	nlh->nlmsg_len = len + payload;
	CHECK(cp_parse_extack(nlh) && !strcmp(cp_parse_extack(nlh), text),
	      "extack message of an uncapped error");

	/* Echoed lengths that lie: below a header (it would wrap), beyond. */
	err->msg.nlmsg_len = 4;
	CHECK(cp_parse_extack(nlh) == NULL,
	      "an echoed length below the header size is refused");
	err->msg.nlmsg_len = 0xfffffff0;
	CHECK(cp_parse_extack(nlh) == NULL,
	      "an echoed length beyond the message is refused");
	nlh->nlmsg_len = NLMSG_HDRLEN + 2;
	CHECK(cp_parse_extack(nlh) == NULL,
	      "an error shorter than its header is refused");
	nlh->nlmsg_len = len + payload;
	err->msg.nlmsg_len = NLMSG_HDRLEN + payload;

	/* A message attribute without its terminating NUL. */
	nlh->nlmsg_flags = NLM_F_CAPPED | NLM_F_ACK_TLVS;
	attr->nla_type = NLMSGERR_ATTR_MSG;
	attr->nla_len = NLA_HDRLEN + 4;
	memset((char *)attr + NLA_HDRLEN, 'x', 4);
	nlh->nlmsg_len = NLMSG_HDRLEN + sizeof(*err) + NLA_HDRLEN + 4;
	CHECK(cp_parse_extack(nlh) == NULL,
	      "a message without its NUL is refused, not read past its end");
	nlh->nlmsg_len = len;

	nlh->nlmsg_flags = 0;
	CHECK(cp_parse_extack(nlh) == NULL, "no TLV flag, no message");
}

/* clearpaged's savings file, as clearpagectl status reads it. */
static void test_savings_file(void)
{
	struct cp_savings in[2] = {
		{ .node = 0, .backend = CLEARPAGE_BACKEND_4K, .since = 1764480000,
		  .saved_ns = -1234567, .uncertainty_ns = -1, .kernel_ns = 9e9,
		  .pages = 123456789, .unestimated_pages = 7,
		  .last_saved_ns = -42 },
		{ .node = 3, .backend = CLEARPAGE_BACKEND_HUGE, .since = 1,
		  .saved_ns = 5e12, .uncertainty_ns = 1e9, .kernel_ns = 1e13,
		  .pages = 1ULL << 40, .unestimated_pages = 0,
		  .last_saved_ns = 1e6 },
	}, out[4];
	char path[] = "/tmp/test-client-savings.XXXXXX";
	int fd = mkstemp(path), n;
	FILE *f;

	close(fd);
	CHECK(cp_savings_write(path, in, 2) == 0, "the savings file is written");
	n = cp_savings_read(path, out, 4);
	CHECK(n == 2 && !memcmp(&in[0], &out[0], sizeof(in[0])) &&
	      out[1].node == 3 && out[1].backend == CLEARPAGE_BACKEND_HUGE &&
	      out[1].saved_ns == 5e12 && out[1].pages == 1ULL << 40 &&
	      out[1].last_saved_ns == 1e6,
	      "and reads back the same, negative figures and unknown uncertainty included");
	CHECK(cp_savings_read(path, out, 1) == 1, "no more entries than asked");
	f = fopen(path, "w");
	fputs("node backend\n0 4k 1 2 3 4 5 6 7\n", f);
	fclose(f);
	CHECK(cp_savings_read(path, out, 4) == -EINVAL,
	      "a file of another format is refused");
	unlink(path);
	CHECK(cp_savings_read(path, out, 4) == -ENOENT,
	      "no file: -ENOENT (clearpaged is not running)");
}

static bool same_backend_state(const struct cp_backend_state *a,
			       const struct cp_backend_state *b)
{
	return a->node == b->node && a->backend == b->backend &&
	       a->held == b->held && a->decided == b->decided &&
	       !strcmp(a->action, b->action) && a->from == b->from &&
	       a->to == b->to && !strcmp(a->reason, b->reason);
}

/* clearpaged's state file and clearpagectl reset's held file. */
static void test_state_files(void)
{
	static struct cp_daemon_state in, out;
	struct cp_held held[3] = { { 0, CLEARPAGE_BACKEND_4K },
				   { 7, CLEARPAGE_BACKEND_HUGE } }, back[3];
	char path[] = "/tmp/test-client-state.XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	close(fd);
	in = (struct cp_daemon_state){
		.pid = 1234, .updated = 1764480000, .attached = true,
		.monitor_only = true, .count = 2,
		.monitor_reason = "CPU AuthenticAMD family 26 model 2 stepping 0 is not on the allowlist",
	};
	in.backends[0] = (struct cp_backend_state){
		.node = 0, .backend = CLEARPAGE_BACKEND_HUGE, .held = false,
		.decided = 1764480123, .action = "switched",
		.from = CLEARPAGE_STRATEGY_REP_STOSB,
		.to = CLEARPAGE_STRATEGY_CLZERO,
		.reason = "cold pages: clzero predicted 40% cheaper",
	};
	in.backends[1] = (struct cp_backend_state){
		.node = 1, .backend = CLEARPAGE_BACKEND_4K, .held = true,
		.from = -1, .to = -1,
	};
	CHECK(cp_state_write(path, &in) == 0, "the state file is written");
	CHECK(cp_state_read(path, &out) == 0 && out.pid == 1234 &&
	      out.updated == in.updated && out.attached && !out.dry_run &&
	      out.monitor_only &&
	      !strcmp(out.monitor_reason, in.monitor_reason) && out.count == 2,
	      "and reads back the daemon line and the monitor-only reason");
	CHECK(same_backend_state(&out.backends[0], &in.backends[0]) &&
	      same_backend_state(&out.backends[1], &in.backends[1]),
	      "every backend's decision, reason with spaces, and none (\"-\")");
	f = fopen(path, "w");
	fputs("# clearpaged state: daemon, monitor-only, backend lines; see clearpagectl(8)\nbackend 0 4k 2 0 - - - -\n", f);
	fclose(f);
	CHECK(cp_state_read(path, &out) == -EINVAL,
	      "a malformed state file (HELD 2, no daemon line) is refused");

	CHECK(cp_held_write(path, held, 2) == 0 && cp_held_read(path, back, 3) == 2 &&
	      back[0].node == 0 && back[0].backend == CLEARPAGE_BACKEND_4K &&
	      back[1].node == 7 && back[1].backend == CLEARPAGE_BACKEND_HUGE,
	      "the held file reads back what reset wrote");
	CHECK(cp_held_write(path, held, 0) == 0 && access(path, F_OK) &&
	      cp_held_read(path, back, 3) == 0,
	      "none held: the file is removed, and no file reads as none");
	f = fopen(path, "w");
	fputs("node backend\n0 all\n", f);
	fclose(f);
	CHECK(cp_held_read(path, back, 3) == -EINVAL, "a malformed held file is refused");
	unlink(path);
	CHECK(cp_state_read(path, &out) == -ENOENT,
	      "no state file: -ENOENT (clearpaged is not running)");
}

static void test_names(void)
{
	int i, ok = 1;

	for (i = 0; i < CLEARPAGE_STRATEGY_COUNT; i++)
		ok &= cp_strategy_from_name(cp_strategy_name(i)) == i;
	CHECK(ok, "strategy names round-trip");
	CHECK(cp_strategy_from_name("MOVQ") == -EINVAL &&
	      cp_strategy_from_name("") == -EINVAL &&
	      !strcmp(cp_strategy_name(99), "unknown"),
	      "unknown strategy names are refused");
	CHECK(!strcmp(cp_source_name(CLEARPAGE_SOURCE_DAEMON), "daemon"),
	      "source names");
	CHECK(cp_backend_from_name("4k") == CLEARPAGE_BACKEND_4K &&
	      cp_backend_from_name("huge") == CLEARPAGE_BACKEND_HUGE &&
	      cp_backend_from_name("all") == CP_BACKEND_ALL &&
	      cp_backend_from_name("HUGE") == -EINVAL &&
	      !strcmp(cp_backend_name(CLEARPAGE_BACKEND_HUGE), "huge") &&
	      !strcmp(cp_backend_name(7), "unknown"),
	      "backend names");
}

int main(void)
{
	test_requests();
	test_node_parse();
	test_event_parse();
	test_extack();
	test_savings_file();
	test_state_files();
	test_names();
	return check_summary();
}
