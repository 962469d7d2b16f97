// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for libclearpage's message parsers: whatever the kernel
 * (or anything else on the socket) sends, cp_parse_node(), cp_parse_event()
 * and cp_parse_extack() must not read outside the message, crash or trip
 * the sanitizers, and what they return must be in range.
 *
 * The input is a buffer of netlink messages, walked as libnl walks a
 * received datagram (nlmsg_ok()/nlmsg_next()): each message is handed to
 * every parser.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/msg.h>

#include "clearpage-client.h"

static void check_node(const struct cp_node_info *info)
{
	int i, b;

	if (info->nr_strategies < 0 ||
	    info->nr_strategies > CLEARPAGE_STRATEGY_COUNT)
		abort();
	for (i = 0; i < info->nr_strategies; i++)
		if (info->strategies[i].strategy < 0 ||
		    info->strategies[i].strategy >= CLEARPAGE_STRATEGY_COUNT)
			abort();
	for (b = 0; b < CLEARPAGE_BACKEND_COUNT; b++)
		if (info->backend[b].strategy < -1 ||
		    info->backend[b].strategy >= CLEARPAGE_STRATEGY_COUNT)
			abort();
}

static void check_event(const struct cp_event *event)
{
	if (event->backend < 0 || event->backend >= CLEARPAGE_BACKEND_COUNT ||
	    event->strategy < 0 ||
	    event->strategy >= CLEARPAGE_STRATEGY_COUNT ||
	    event->old_strategy < 0 ||
	    event->old_strategy >= CLEARPAGE_STRATEGY_COUNT)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cp_node_info info;
	struct cp_event event;
	struct nlmsghdr *nlh;
	const char *message;
	int remaining = (int)size;
	void *copy;

	if (size > 65536)
		return 0;
	/* Aligned as a receive buffer is, and exactly @size long. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	for (nlh = copy; nlmsg_ok(nlh, remaining);
	     nlh = nlmsg_next(nlh, &remaining)) {
		if (cp_parse_node(nlh, &info) == 0)
			check_node(&info);
		if (cp_parse_event(nlh, &event) == 0)
			check_event(&event);
		message = cp_parse_extack(nlh);
		if (message &&
		    (message < (char *)copy ||
		     message + strlen(message) >= (char *)copy + size))
			abort();
	}
	free(copy);
	return 0;
}
