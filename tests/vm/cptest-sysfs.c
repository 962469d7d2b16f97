// SPDX-License-Identifier: GPL-2.0
/*
 * cptest's commands on the module's sysfs files (cptest.c runs them):
 *
 *   cptest flip --nodes 0,1 --strategies a,b,... [--interval-ms N]
 *               [--seconds S] [--root DIR] [--file NAME]
 *       Write strategies to DIR/nodeN/strategy (or DIR/nodeN/NAME: values
 *       such as "rep_stosb movnti" and "off" to probe_huge) in turn every
 *       N ms. Writes
 *       that fail because the module is being reloaded are counted, not
 *       fatal. Prints "flips=<ok> failed=<failed>".
 *
 *   cptest sysfs-fuzz [--count N] [--seed S] [--uid UID] [--drop-sys-admin]
 *                     [--root DIR]
 *       Write N random inputs to the writable files of every node of DIR
 *       (default /sys/kernel/clearpage), optionally after dropping to UID
 *       or dropping CAP_SYS_ADMIN alone (root keeps CAP_DAC_OVERRIDE, so
 *       its writes reach the module's capability checks): names, names
 *       joined oddly, numbers, bytes, overlong strings, with and without a
 *       newline. Every writable file's content is read before and after
 *       each write: a refused write must change nothing. Prints
 *       "writes=N accepted=A refused=R changed_by_refused=C eperm=P eacces=D"
 *       (P, D: refused with EPERM, EACCES); exits 0 only when C is 0.
 *
 *   cptest write FILE [--data STRING | --repeat N] [--uid UID]
 *                --expect ok|ERRNO_NAME[,...]
 *       Write STRING (\n and \0 escapes allowed) or N bytes of 'a' to FILE in
 *       one write(2), optionally after dropping to UID, and exit 0 only when
 *       the result is one of the expected ones.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cptest.h"
#include "dropcap.h"

static int split_list(char *s, char **items, int max)
{
	int n = 0;
	char *save, *tok;

	for (tok = strtok_r(s, ",", &save); tok && n < max;
	     tok = strtok_r(NULL, ",", &save))
		items[n++] = tok;
	return n;
}

static int write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return (size_t)n == len ? 0 : -EIO;
}

int cmd_flip(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "strategies", required_argument, NULL, 's' },
		{ "interval-ms", required_argument, NULL, 'i' },
		{ "seconds", required_argument, NULL, 'S' },
		{ "root", required_argument, NULL, 'r' },
		{ "file", required_argument, NULL, 'f' },
		{ 0 }
	};
	char *nodes[64], *strategies[16];
	const char *file = "strategy";
	int nr_nodes = 0, nr_strategies = 0, interval_ms = 3, c, i = 0;
	const char *root = "/sys/kernel/clearpage";
	long seconds = 5, ok = 0, failed = 0;
	double deadline;
	char path[256];

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			nr_nodes = split_list(optarg, nodes, 64);
			break;
		case 's':
			nr_strategies = split_list(optarg, strategies, 16);
			break;
		case 'i':
			interval_ms = atoi(optarg);
			break;
		case 'S':
			seconds = atol(optarg);
			break;
		case 'r':
			root = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		default:
			return 2;
		}
	}
	if (!nr_nodes || !nr_strategies) {
		fprintf(stderr, "cptest flip: --nodes and --strategies needed\n");
		return 2;
	}
	deadline = cptest_now() + seconds;
	while (cptest_now() < deadline) {
		const char *s = strategies[i % nr_strategies];

		snprintf(path, sizeof(path), "%s/node%s/%s", root,
			 nodes[i % nr_nodes], file);
		if (write_file(path, s, strlen(s)))
			failed++;
		else
			ok++;
		i++;
		usleep(interval_ms * 1000);
	}
	printf("flips=%ld failed=%ld\n", ok, failed);
	return 0;
}

/* Decode \n, \t, \0 and \\ in place; returns the decoded length. */
static size_t unescape(char *s)
{
	char *in = s, *out = s;

	while (*in) {
		if (in[0] == '\\' && in[1]) {
			in++;
			*out++ = *in == 'n' ? '\n' : *in == 't' ? '\t' :
				 *in == '0' ? '\0' : *in;
			in++;
		} else {
			*out++ = *in++;
		}
	}
	return out - s;
}

/* Whether @word is in the comma-separated @list. */
static int one_of(const char *word, const char *list)
{
	size_t len = strlen(word);

	while (*list) {
		size_t item = strcspn(list, ",");

		if (item == len && !strncmp(list, word, len))
			return 1;
		list += item + (list[item] == ',');
	}
	return 0;
}

int cmd_write(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "data", required_argument, NULL, 'd' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "uid", required_argument, NULL, 'u' },
		{ "expect", required_argument, NULL, 'e' },
		{ 0 }
	};
	const char *expect = NULL, *path, *got;
	char *data = NULL;
	size_t len = 0;
	int c, err, uid = -1;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			data = strdup(optarg);
			len = unescape(data);
			break;
		case 'r':
			len = strtoul(optarg, NULL, 0);
			data = malloc(len + 1);
			if (!data)
				return 2;
			memset(data, 'a', len);
			break;
		case 'u':
			uid = atoi(optarg);
			break;
		case 'e':
			expect = optarg;
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc || !expect || !data) {
		fprintf(stderr, "cptest write: FILE, --expect and data needed\n");
		return 2;
	}
	path = argv[optind];
	if (uid >= 0 && (setgid(uid) || setuid(uid))) {
		perror("cptest write: setuid");
		return 2;
	}
	err = write_file(path, data, len);
	got = err == 0 ? "ok" : strerrorname_np(-err);
	printf("write %s (%zu bytes): %s\n", path, len, got ? got : "?");
	return got && one_of(got, expect) ? 0 : 1;
}

/* The files a write may change, per node (calibrate is not fuzzed: slow). */
static const char *const fuzz_files[] = {
	"strategy", "strategy_4k", "strategy_huge", "pinned", "pinned_4k",
	"pinned_huge", "trials_4k", "trials_huge", "probe_huge",
	"gigantic_helpers",
};
#define FUZZ_FILES (sizeof(fuzz_files) / sizeof(fuzz_files[0]))

/* Everything the fuzzed files read, of every node, in one string. */
static void fuzz_state(const char *root, int nodes, char *out, size_t size)
{
	size_t len = 0;
	char path[256];

	out[0] = '\0';
	for (int n = 0; n < nodes; n++)
		for (size_t f = 0; f < FUZZ_FILES && len + 1 < size; f++) {
			int fd;
			ssize_t got;

			snprintf(path, sizeof(path), "%s/node%d/%s", root, n,
				 fuzz_files[f]);
			fd = open(path, O_RDONLY);
			if (fd < 0)
				continue;
			got = read(fd, out + len, size - len - 1);
			close(fd);
			if (got > 0)
				len += got;
			out[len] = '\0';
		}
}

/* A random input of at most @size - 1 bytes in @buf; returns its length. */
static size_t fuzz_input(unsigned int *seed, char *buf, size_t size)
{
	static const char *const words[] = {
		"kernel", "rep_stosb", "rep_stosq", "movq", "movnti", "clzero",
		"none", "off", "on", "0", "1", "2", "31", "32", "-1", "4294967296",
		"all", "kernel movnti", "rep_stosb clzero", "movq movq", " ", "",
		"\n", "0x1", "1e3", "rep_stosb\tmovnti",
	};
	size_t len = 0, n;
	int parts = 1 + rand_r(seed) % 3;

	switch (rand_r(seed) % 4) {
	case 0:	/* random bytes (an empty write never reaches the file) */
		len = 1 + rand_r(seed) % 64;
		for (size_t i = 0; i < len; i++)
			buf[i] = (char)rand_r(seed);
		return len;
	case 1:	/* overlong */
		len = size - 1 - rand_r(seed) % 16;
		memset(buf, 'a' + rand_r(seed) % 26, len);
		return len;
	default: /* words, joined by nothing, a space or a comma */
		for (int p = 0; p < parts; p++) {
			const char *w = words[rand_r(seed) % (sizeof(words) / sizeof(words[0]))];

			if (p && len + 1 < size)
				buf[len++] = " ,"[rand_r(seed) % 2];
			n = strlen(w);
			if (len + n >= size)
				break;
			memcpy(buf + len, w, n);
			len += n;
		}
		if ((!len || rand_r(seed) % 2) && len + 1 < size)
			buf[len++] = '\n';
		return len;
	}
}

int cmd_sysfs_fuzz(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "uid", required_argument, NULL, 'u' },
		{ "root", required_argument, NULL, 'r' },
		{ "drop-sys-admin", no_argument, NULL, 'd' },
		{ 0 }
	};
	static char before[65536], after[65536];
	const char *root = "/sys/kernel/clearpage";
	long count = 1000, accepted = 0, refused = 0, changed = 0;
	long eperm = 0, eacces = 0;
	unsigned int seed = 1;
	int c, uid = -1, nodes = 0, err;
	bool drop = false;
	char path[256], input[8192];

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			count = atol(optarg);
			break;
		case 's':
			seed = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'u':
			uid = atoi(optarg);
			break;
		case 'r':
			root = optarg;
			break;
		case 'd':
			drop = true;
			break;
		default:
			return 2;
		}
	}
	for (;; nodes++) {
		snprintf(path, sizeof(path), "%s/node%d", root, nodes);
		if (access(path, F_OK))
			break;
	}
	if (!nodes) {
		fprintf(stderr, "cptest sysfs-fuzz: no node under %s\n", root);
		return 2;
	}
	if (drop && (err = drop_sys_admin())) {
		fprintf(stderr, "cptest sysfs-fuzz: dropping CAP_SYS_ADMIN: %s\n",
			strerror(-err));
		return 2;
	}
	if (uid >= 0 && (setgid(uid) || setuid(uid))) {
		perror("cptest sysfs-fuzz: setuid");
		return 2;
	}
	for (long i = 0; i < count; i++) {
		size_t len = fuzz_input(&seed, input, sizeof(input));

		snprintf(path, sizeof(path), "%s/node%d/%s", root,
			 rand_r(&seed) % nodes,
			 fuzz_files[rand_r(&seed) % FUZZ_FILES]);
		fuzz_state(root, nodes, before, sizeof(before));
		err = write_file(path, input, len);
		if (!err) {
			accepted++;
			continue;
		}
		refused++;
		eperm += err == -EPERM;
		eacces += err == -EACCES;
		fuzz_state(root, nodes, after, sizeof(after));
		if (strcmp(before, after)) {
			changed++;
			fprintf(stderr, "refused write to %s changed the state\n", path);
		}
	}
	printf("writes=%ld accepted=%ld refused=%ld changed_by_refused=%ld eperm=%ld eacces=%ld\n",
	       count, accepted, refused, changed, eperm, eacces);
	return changed ? 1 : 0;
}
