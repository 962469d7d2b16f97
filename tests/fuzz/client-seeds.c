// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the client fuzzer's seed inputs into a directory, built with libnl
 * as the kernel's messages are laid out: a node reply with every attribute,
 * a dump of two nodes ended by NLMSG_DONE, an event, and extended acks with
 * and without the request echoed.
 *
 *   client-seeds DIRECTORY
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <uapi/clearpage.h>

#define FAMILY 0x20

static void put_node(struct nl_msg *msg, uint32_t node)
{
	struct nlattr *list, *entry;
	int i, s;

	genlmsg_put(msg, 0, 0, FAMILY, 0, NLM_F_MULTI, CLEARPAGE_CMD_GET_NODE,
		    CLEARPAGE_GENL_VERSION);
	nla_put_u32(msg, CLEARPAGE_A_NODE, node);
	nla_put_u64(msg, CLEARPAGE_A_PAGES_HUGE_PREZEROED, 512);
	list = nla_nest_start(msg, CLEARPAGE_A_BACKENDS);
	for (i = 0; i < CLEARPAGE_BACKEND_COUNT; i++) {
		entry = nla_nest_start(msg, CLEARPAGE_A_ENTRY);
		nla_put_u8(msg, CLEARPAGE_B_BACKEND, i);
		nla_put_u8(msg, CLEARPAGE_B_STRATEGY, CLEARPAGE_STRATEGY_MOVNTI);
		nla_put_u8(msg, CLEARPAGE_B_PINNED, i);
		nla_put_u8(msg, CLEARPAGE_B_SOURCE, CLEARPAGE_SOURCE_DAEMON);
		nla_put_u64(msg, CLEARPAGE_B_LAST_CHANGE_NS, 1764480000123456789ULL);
		nla_put_u64(msg, CLEARPAGE_B_REFERENCE_PAGES, 32);
		nla_put_u64(msg, CLEARPAGE_B_REFERENCE_SAMPLE_NS, 3200);
		nla_nest_end(msg, entry);
	}
	nla_nest_end(msg, list);
	list = nla_nest_start(msg, CLEARPAGE_A_STRATEGIES);
	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		entry = nla_nest_start(msg, CLEARPAGE_A_ENTRY);
		nla_put_u8(msg, CLEARPAGE_S_STRATEGY, s);
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
	}
	nla_nest_end(msg, list);
	list = nla_nest_start(msg, CLEARPAGE_A_LATENCY);
	for (i = 0; i < CLEARPAGE_LATENCY_BUCKETS; i++)
		nla_put_u64(msg, i + 1, i * 10);
	nla_nest_end(msg, list);
}

static void put_event(struct nl_msg *msg)
{
	genlmsg_put(msg, 0, 0, FAMILY, 0, 0, CLEARPAGE_CMD_EVENT,
		    CLEARPAGE_GENL_VERSION);
	nla_put_u32(msg, CLEARPAGE_A_NODE, 1);
	nla_put_u8(msg, CLEARPAGE_A_BACKEND, CLEARPAGE_BACKEND_HUGE);
	nla_put_u8(msg, CLEARPAGE_A_OLD_STRATEGY, CLEARPAGE_STRATEGY_KERNEL);
	nla_put_u8(msg, CLEARPAGE_A_STRATEGY, CLEARPAGE_STRATEGY_CLZERO);
	nla_put_u8(msg, CLEARPAGE_A_PINNED, 0);
	nla_put_u8(msg, CLEARPAGE_A_SOURCE, CLEARPAGE_SOURCE_DAEMON);
	nla_put_u64(msg, CLEARPAGE_A_LAST_CHANGE_NS, 42);
}

/* An NLMSG_ERROR with an extended ack, the request echoed or not. */
static void put_extack(struct nl_msg *msg, int capped)
{
	static const char text[] = "strategy not available on this CPU";
	struct nlmsgerr *err;
	struct nlmsghdr *nlh;
	size_t echoed = capped ? 0 : GENL_HDRLEN + 8;

	nlh = nlmsg_put(msg, 0, 0, NLMSG_ERROR, 0,
			NLM_F_ACK_TLVS | (capped ? NLM_F_CAPPED : 0));
	err = nlmsg_reserve(msg, sizeof(*err) + echoed, NLMSG_ALIGNTO);
	memset(err, 0, sizeof(*err) + echoed);
	err->error = -EINVAL;
	err->msg.nlmsg_len = NLMSG_HDRLEN + echoed;
	err->msg.nlmsg_type = FAMILY;
	nla_put_string(msg, NLMSGERR_ATTR_MSG, text);
	nla_put_u32(msg, NLMSGERR_ATTR_OFFS, 20);
	(void)nlh;
}

static int save(const char *dir, const char *name, struct nl_msg **msgs,
		int count)
{
	char path[4096];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		return 1;
	}
	for (i = 0; i < count; i++) {
		struct nlmsghdr *nlh = nlmsg_hdr(msgs[i]);

		fwrite(nlh, 1, NLMSG_ALIGN(nlh->nlmsg_len), f);
		nlmsg_free(msgs[i]);
	}
	return fclose(f) ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct nl_msg *m[3];
	int err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: client-seeds DIRECTORY\n");
		return 2;
	}
	m[0] = nlmsg_alloc();
	put_node(m[0], 0);
	err |= save(argv[1], "client-node", m, 1);

	m[0] = nlmsg_alloc();
	put_node(m[0], 0);
	m[1] = nlmsg_alloc();
	put_node(m[1], 1);
	m[2] = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI);
	nlmsg_reserve(m[2], sizeof(int), NLMSG_ALIGNTO);
	err |= save(argv[1], "client-dump", m, 3);

	m[0] = nlmsg_alloc();
	put_event(m[0]);
	err |= save(argv[1], "client-event", m, 1);

	m[0] = nlmsg_alloc();
	put_extack(m[0], 1);
	err |= save(argv[1], "client-extack-capped", m, 1);

	m[0] = nlmsg_alloc();
	put_extack(m[0], 0);
	err |= save(argv[1], "client-extack-echoed", m, 1);
	return err;
}
