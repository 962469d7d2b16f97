// SPDX-License-Identifier: GPL-2.0
/*
 * nltest: netlink and uevent checks run inside the test VM.
 *
 *   nltest set NODE STRATEGY admin|daemon --expect ok|ERRNO_NAME
 *              [--backend 4k|huge|all|NUMBER]
 *   nltest probe NODE 4k|huge HOT|- COLD|- --expect ok|ERRNO_NAME
 *       The probe mode on (a "-" leaves that attribute out: both, off).
 *   nltest get NODE --expect ok|ERRNO_NAME
 *       One request through libclearpage; prints the result and the
 *       kernel's extended ack message; exits 0 when it is the expected one.
 *   nltest fuzz [--count N] [--seed S] [--uid UID] [--drop-sys-admin]
 *               [--nodes N] [--calibrate N]
 *       Send N messages to the clearpage family on a raw socket (after
 *       dropping to UID, or dropping CAP_SYS_ADMIN alone): half malformed,
 *       truncated or random (random commands, attributes of wrong types
 *       and sizes, nested garbage, huge node ids, lengths that lie), half
 *       well formed: every command with attributes of the right types,
 *       node ids mostly below N (default 2), harmless values (a strategy,
 *       a pin, trials, up to two helpers, a probe mode), CALIBRATE at
 *       most --calibrate times (default 0: it is slow). Prints
 *       "sent=N acked_ok=K errors=E mutating_acked=M valid_changes=V
 *       valid_changes_ok=A valid_changes_eperm=P calibrate_sent=C", M
 *       counting accepted changes of any kind, V the well-formed changes
 *       sent, A and P how many of those were accepted and refused with
 *       EPERM; then "outcomes: ok=... EPERM=... ..." for every message.
 *   nltest uevents [--count N] [--timeout S]
 *       Print the kernel's uevents of subsystem "clearpage" as received by a
 *       libudev kernel monitor, one line each, until N arrived.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <libudev.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "clearpage-client.h"
#include "dropcap.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

static const char *errno_name(int err)
{
	const char *name;

	if (!err)
		return "ok";
	name = strerrorname_np(-err);
	return name ? name : "?";
}

static int expect_result(int err, struct cp_client *client, const char *what,
			 const char *expect)
{
	const char *got = errno_name(err);

	printf("%s: %s%s%s\n", what, got, client && *cp_client_error(client) ? ": " : "",
	       client ? cp_client_error(client) : "");
	return strcmp(got, expect) ? 1 : 0;
}

static int cmd_set(int argc, char **argv)
{
	struct cp_client *client;
	int strategy, source, err, backend = CP_BACKEND_ALL;

	if ((argc != 7 && argc != 9) || strcmp(argv[5], "--expect"))
		return 2;
	if (argc == 9) {
		if (strcmp(argv[7], "--backend"))
			return 2;
		backend = cp_backend_from_name(argv[8]);
		/* A raw number reaches the kernel's policy unchecked. */
		if (backend == -EINVAL)
			backend = (int)strtoul(argv[8], NULL, 0);
	}
	strategy = cp_strategy_from_name(argv[3]);
	source = !strcmp(argv[4], "daemon") ? CLEARPAGE_SOURCE_DAEMON :
					       CLEARPAGE_SOURCE_ADMIN;
	err = cp_client_open(&client);
	if (err)
		return expect_result(err, NULL, "open", argv[6]);
	err = cp_set_strategy(client, strtoul(argv[2], NULL, 0), backend,
			      strategy < 0 ? 255 : strategy, source);
	err = expect_result(err, client, "set", argv[6]);
	cp_client_close(client);
	return err;
}

static int cmd_probe(int argc, char **argv)
{
	struct cp_client *client;
	int hot, cold, err;
	bool on;

	if (argc != 8 || strcmp(argv[6], "--expect"))
		return 2;
	hot = strcmp(argv[4], "-") ? cp_strategy_from_name(argv[4]) : -1;
	cold = strcmp(argv[5], "-") ? cp_strategy_from_name(argv[5]) : -1;
	on = hot >= 0 || cold >= 0;
	err = cp_client_open(&client);
	if (err)
		return expect_result(err, NULL, "open", argv[7]);
	err = cp_set_probe(client, strtoul(argv[2], NULL, 0),
			   cp_backend_from_name(argv[3]), on, hot, cold,
			   CLEARPAGE_SOURCE_ADMIN);
	err = expect_result(err, client, "probe", argv[7]);
	cp_client_close(client);
	return err;
}

static int cmd_get(int argc, char **argv)
{
	struct cp_node_info info;
	struct cp_client *client;
	int err;

	if (argc != 5 || strcmp(argv[3], "--expect"))
		return 2;
	err = cp_client_open(&client);
	if (err)
		return expect_result(err, NULL, "open", argv[4]);
	err = cp_get_node(client, strtoul(argv[2], NULL, 0), &info);
	err = expect_result(err, client, "get", argv[4]);
	cp_client_close(client);
	return err;
}

/* Fuzzing. */
static unsigned int rnd(unsigned int n)
{
	return n ? (unsigned int)random() % n : 0;
}

static char *put_attr(char *p, char *end, uint16_t type, const void *data,
		      uint16_t len)
{
	struct nlattr *a = (struct nlattr *)p;

	if (p + NLA_ALIGN(NLA_HDRLEN + len) > end)
		return p;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy(p + NLA_HDRLEN, data, len);
	return p + NLA_ALIGN(a->nla_len);
}

static char *random_attrs(char *p, char *end, int depth)
{
	static const uint32_t huge_ids[] = { 2, 3, 1023, 1024, 65535,
					     0x7fffffff, 0xffffffff };
	unsigned char payload[64];
	int i, n = rnd(6);

	for (i = 0; i < n; i++) {
		uint16_t type = rnd(CLEARPAGE_A_MAX + 3), len = rnd(20);
		uint32_t id = huge_ids[rnd(7)];
		size_t b;

		for (b = 0; b < sizeof(payload); b++)
			payload[b] = random();
		switch (rnd(4)) {
		case 0:	/* a huge or absent node id, correctly typed */
			p = put_attr(p, end, CLEARPAGE_A_NODE, &id, 4);
			break;
		case 1:	/* nested garbage */
			if (depth < 3) {
				struct nlattr *nest = (struct nlattr *)p;
				char *inner;

				if (p + NLA_HDRLEN > end)
					break;
				inner = random_attrs(p + NLA_HDRLEN, end,
						     depth + 1);
				nest->nla_type = NLA_F_NESTED |
						 rnd(CLEARPAGE_A_MAX + 3);
				nest->nla_len = inner - p;
				p = inner;
				break;
			}
			/* fall through */
		default: /* any type, any size */
			if (rnd(8) == 0)
				type |= NLA_F_NESTED;
			p = put_attr(p, end, type, payload, len);
			break;
		}
	}
	return p;
}

static bool is_mutating(uint8_t cmd)
{
	return cmd == CLEARPAGE_CMD_SET_STRATEGY ||
	       cmd == CLEARPAGE_CMD_SET_PINNED || cmd == CLEARPAGE_CMD_CALIBRATE ||
	       cmd == CLEARPAGE_CMD_SET_TRIALS || cmd == CLEARPAGE_CMD_SET_HELPERS ||
	       cmd == CLEARPAGE_CMD_SET_PROBE;
}

struct fuzz_stats {
	long sent, acked_ok, errors, mutating_acked;
	long valid_changes, valid_changes_ok, valid_changes_eperm;
	long calibrate_sent;
	long outcome[256];	/* by -errno (0: ok), 255: anything beyond */
};

/*
 * Read what the kernel answered until the ack or the end of a dump for our
 * sequence number; messages the kernel drops silently get 20 ms. Returns
 * the ack's error (0: ok, 1: no ack seen).
 */
static int drain(int fd, uint32_t seq, uint8_t cmd, struct fuzz_stats *s)
{
	char buf[16384];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int result = 1;
	ssize_t n;

	while (poll(&pfd, 1, 20) > 0) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		bool finished = false;

		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n <= 0)
			break;
		for (; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			struct nlmsgerr *e = NLMSG_DATA(nlh);

			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_DONE)
				finished = true;
			if (nlh->nlmsg_type != NLMSG_ERROR)
				continue;
			finished = true;
			result = e->error;
			if (e->error) {
				s->errors++;
			} else {
				s->acked_ok++;
				if (is_mutating(cmd))
					s->mutating_acked++;
			}
		}
		if (finished)
			break;
	}
	if (result <= 0)
		s->outcome[-result < 255 ? -result : 255]++;
	return result;
}

/*
 * A well-formed request at @p: a command with attributes of the right
 * types and sizes, a node id below @nodes but one time in eight, values
 * that change little (and CALIBRATE only while @calibrate lasts).
 */
static char *valid_request(char *p, char *end, uint8_t *cmd, uint32_t nodes,
			   long *calibrate)
{
	static const uint8_t cmds[] = {
		CLEARPAGE_CMD_GET_NODE, CLEARPAGE_CMD_GET_CALIBRATION,
		CLEARPAGE_CMD_SET_STRATEGY, CLEARPAGE_CMD_SET_PINNED,
		CLEARPAGE_CMD_SET_TRIALS, CLEARPAGE_CMD_SET_HELPERS,
		CLEARPAGE_CMD_SET_PROBE, CLEARPAGE_CMD_CALIBRATE,
	};
	uint32_t node = rnd(8) ? rnd(nodes) : nodes + rnd(3), u32;
	uint8_t u8;

	*cmd = cmds[rnd(sizeof(cmds))];
	if (*cmd == CLEARPAGE_CMD_CALIBRATE && *calibrate <= 0)
		*cmd = CLEARPAGE_CMD_SET_PINNED;
	p = put_attr(p, end, CLEARPAGE_A_NODE, &node, 4);
	switch (*cmd) {
	case CLEARPAGE_CMD_SET_STRATEGY:
		u8 = rnd(CLEARPAGE_STRATEGY_COUNT);
		p = put_attr(p, end, CLEARPAGE_A_STRATEGY, &u8, 1);
		u8 = rnd(2) ? CLEARPAGE_SOURCE_ADMIN : CLEARPAGE_SOURCE_DAEMON;
		p = put_attr(p, end, CLEARPAGE_A_SOURCE, &u8, 1);
		break;
	case CLEARPAGE_CMD_SET_PINNED:
		u8 = rnd(2);
		p = put_attr(p, end, CLEARPAGE_A_PINNED, &u8, 1);
		break;
	case CLEARPAGE_CMD_SET_TRIALS:
		u32 = rnd(3) ? (uint32_t)random() &
			       ((1U << CLEARPAGE_STRATEGY_COUNT) - 2) : 0;
		p = put_attr(p, end, CLEARPAGE_A_TRIALS, &u32, 4);
		break;
	case CLEARPAGE_CMD_SET_HELPERS:
		u32 = rnd(3);
		p = put_attr(p, end, CLEARPAGE_A_HELPERS, &u32, 4);
		break;
	case CLEARPAGE_CMD_SET_PROBE:
		u8 = rnd(4) ? CLEARPAGE_BACKEND_HUGE : CLEARPAGE_BACKEND_4K;
		p = put_attr(p, end, CLEARPAGE_A_BACKEND, &u8, 1);
		if (rnd(3)) {
			u8 = rnd(CLEARPAGE_STRATEGY_COUNT);
			p = put_attr(p, end, CLEARPAGE_A_PROBE_HOT, &u8, 1);
			u8 = rnd(CLEARPAGE_STRATEGY_COUNT);
			p = put_attr(p, end, CLEARPAGE_A_PROBE_COLD, &u8, 1);
		}
		if (rnd(2)) {
			u8 = rnd(2) ? CLEARPAGE_SOURCE_ADMIN :
				      CLEARPAGE_SOURCE_DAEMON;
			p = put_attr(p, end, CLEARPAGE_A_SOURCE, &u8, 1);
		}
		break;
	case CLEARPAGE_CMD_CALIBRATE:
		(*calibrate)--;
		break;
	default:
		break;
	}
	/* The backend, where it is optional, one time in two. */
	if ((*cmd == CLEARPAGE_CMD_SET_STRATEGY ||
	     *cmd == CLEARPAGE_CMD_SET_PINNED ||
	     *cmd == CLEARPAGE_CMD_SET_TRIALS) && rnd(2)) {
		u8 = rnd(CLEARPAGE_BACKEND_COUNT);
		p = put_attr(p, end, CLEARPAGE_A_BACKEND, &u8, 1);
	}
	return p;
}

static int cmd_fuzz(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "uid", required_argument, NULL, 'u' },
		{ "drop-sys-admin", no_argument, NULL, 'd' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "calibrate", required_argument, NULL, 'C' },
		{ 0 }
	};
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
	static struct fuzz_stats s;
	long count = 10000, calibrate = 0, i;
	int c, fd, family, one = 1, uid = -1, err;
	bool drop = false;
	uint32_t nodes = 2;
	unsigned int seed = 1;
	struct nl_sock *resolver;
	char buf[1024];

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			count = atol(optarg);
			break;
		case 's':
			seed = strtoul(optarg, NULL, 0);
			break;
		case 'u':
			uid = atoi(optarg);
			break;
		case 'd':
			drop = true;
			break;
		case 'n':
			nodes = strtoul(optarg, NULL, 0);
			break;
		case 'C':
			calibrate = atol(optarg);
			break;
		default:
			return 2;
		}
	}
	if (drop && (err = drop_sys_admin())) {
		fprintf(stderr, "nltest fuzz: dropping CAP_SYS_ADMIN: %s\n",
			strerror(-err));
		return 2;
	}
	if (uid >= 0 && (setgid(uid) || setuid(uid))) {
		perror("nltest fuzz: setuid");
		return 2;
	}
	resolver = nl_socket_alloc();
	if (!resolver || genl_connect(resolver) < 0 ||
	    (family = genl_ctrl_resolve(resolver, CLEARPAGE_GENL_NAME)) < 0) {
		fprintf(stderr, "nltest fuzz: cannot resolve the clearpage family\n");
		return 2;
	}
	nl_socket_free(resolver);
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		perror("nltest fuzz: socket");
		return 2;
	}
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	srandom(seed);

	for (i = 0; i < count; i++) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		struct genlmsghdr *g = NLMSG_DATA(nlh);
		char *p = (char *)g + GENL_HDRLEN, *end = buf + sizeof(buf);
		bool valid = rnd(2);
		size_t len;
		uint8_t cmd;
		int result;

		memset(buf, 0, sizeof(buf));
		if (valid) {
			g->version = CLEARPAGE_GENL_VERSION;
			p = valid_request(p, end, &cmd, nodes, &calibrate);
			g->cmd = cmd;
			len = p - buf;
			nlh->nlmsg_type = family;
			nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
			if (!is_mutating(cmd) && !rnd(3))
				nlh->nlmsg_flags |= NLM_F_DUMP;
			nlh->nlmsg_seq = i + 1;
			nlh->nlmsg_len = len;
			if (cmd == CLEARPAGE_CMD_CALIBRATE)
				s.calibrate_sent++;
			if (send(fd, buf, len, 0) < 0)
				continue;
			s.sent++;
			result = drain(fd, nlh->nlmsg_seq, cmd, &s);
			if (!is_mutating(cmd))
				continue;
			s.valid_changes++;
			s.valid_changes_ok += result == 0;
			s.valid_changes_eperm += result == -EPERM;
			continue;
		}
		cmd = rnd(4) ? 1 + rnd(CLEARPAGE_CMD_MAX + 2) : random();
		/* Calibration is slow and valid nodes would run it: only
		 * send it with attributes that cannot name a real node. */
		if (cmd == CLEARPAGE_CMD_CALIBRATE)
			cmd = CLEARPAGE_CMD_SET_PINNED;
		g->cmd = cmd;
		g->version = rnd(8) ? CLEARPAGE_GENL_VERSION : random();
		g->reserved = rnd(16) ? 0 : random();
		p = random_attrs(p, end, 0);
		len = p - buf;
		nlh->nlmsg_type = family;
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK |
				   (rnd(6) ? 0 : NLM_F_DUMP);
		nlh->nlmsg_seq = i + 1;
		nlh->nlmsg_len = len;
		switch (rnd(10)) {
		case 0:	/* the header claims more than is sent */
			nlh->nlmsg_len = len + 1 + rnd(64);
			break;
		case 1:	/* truncated: less than a genetlink header */
			len = NLMSG_HDRLEN + rnd(GENL_HDRLEN);
			nlh->nlmsg_len = len;
			break;
		case 2:	/* the last attribute cut short */
			if (len > NLMSG_HDRLEN + GENL_HDRLEN + 2)
				len -= 1 + rnd(3);
			nlh->nlmsg_len = len;
			break;
		default:
			break;
		}
		if (send(fd, buf, len, 0) >= 0)
			s.sent++;
		drain(fd, nlh->nlmsg_seq, cmd, &s);
	}
	close(fd);
	printf("sent=%ld acked_ok=%ld errors=%ld mutating_acked=%ld valid_changes=%ld valid_changes_ok=%ld valid_changes_eperm=%ld calibrate_sent=%ld\n",
	       s.sent, s.acked_ok, s.errors, s.mutating_acked, s.valid_changes,
	       s.valid_changes_ok, s.valid_changes_eperm, s.calibrate_sent);
	printf("outcomes:");
	for (i = 0; i < 256; i++)
		if (s.outcome[i])
			printf(" %s=%ld", i == 255 ? "other" :
			       errno_name(-(int)i), s.outcome[i]);
	printf("\n");
	return 0;
}

static int cmd_uevents(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ 0 }
	};
	long count = 1, timeout = 10, seen = 0;
	struct udev_monitor *monitor;
	struct pollfd pfd;
	struct udev *udev;
	time_t deadline;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'c')
			count = atol(optarg);
		else if (c == 't')
			timeout = atol(optarg);
		else
			return 2;
	}
	udev = udev_new();
	monitor = udev ? udev_monitor_new_from_netlink(udev, "kernel") : NULL;
	if (!monitor ||
	    udev_monitor_filter_add_match_subsystem_devtype(monitor, "clearpage",
							    NULL) < 0 ||
	    udev_monitor_enable_receiving(monitor) < 0) {
		fprintf(stderr, "nltest uevents: cannot open a kernel uevent monitor\n");
		return 2;
	}
	fprintf(stderr, "nltest: listening\n");
	pfd.fd = udev_monitor_get_fd(monitor);
	pfd.events = POLLIN;
	deadline = time(NULL) + timeout;
	while (seen < count && time(NULL) < deadline) {
		struct udev_device *dev;

		if (poll(&pfd, 1, 200) <= 0)
			continue;
		dev = udev_monitor_receive_device(monitor);
		if (!dev)
			continue;
		printf("uevent %s %s node=%s backend=%s strategy=%s source=%s pinned=%s\n",
		       udev_device_get_action(dev), udev_device_get_sysname(dev),
		       udev_device_get_property_value(dev, "CLEARPAGE_NODE") ?: "-",
		       udev_device_get_property_value(dev, "CLEARPAGE_BACKEND") ?: "-",
		       udev_device_get_property_value(dev, "CLEARPAGE_STRATEGY") ?: "-",
		       udev_device_get_property_value(dev, "CLEARPAGE_SOURCE") ?: "-",
		       udev_device_get_property_value(dev, "CLEARPAGE_PINNED") ?: "-");
		fflush(stdout);
		udev_device_unref(dev);
		seen++;
	}
	udev_monitor_unref(monitor);
	udev_unref(udev);
	return seen < count ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: nltest set|get|fuzz|uevents ...\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "set"))
		return cmd_set(argc, argv);
	if (!strcmp(argv[1], "get"))
		return cmd_get(argc, argv);
	if (!strcmp(argv[1], "probe"))
		return cmd_probe(argc, argv);
	if (!strcmp(argv[1], "fuzz"))
		return cmd_fuzz(argc - 1, argv + 1);
	if (!strcmp(argv[1], "uevents"))
		return cmd_uevents(argc - 1, argv + 1);
	fprintf(stderr, "nltest: unknown command %s\n", argv[1]);
	return 2;
}
