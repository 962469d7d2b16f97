// SPDX-License-Identifier: GPL-2.0
/*
 * cptest: the workload and checker run inside the test VM.
 *
 *   cptest fault [--kind 4k|thp|hugetlb|hugetlbfs] [--node N] [--mb M]
 *                [--rounds R | --seconds S] [--dirty] [--dontneed] [--fork]
 *       Fault M MiB of private anonymous memory of the given kind on node N,
 *       round after round, and check that every byte of every page reads
 *       zero. hugetlbfs allocates the pages of a file in /dev/hugepages with
 *       fallocate(2) and maps it shared.
 *       --dirty first fills as much memory of the same kind with a
 *       non-zero pattern and frees it, so recycled pages carry garbage and a
 *       missed clear shows. --dontneed drops the pages with MADV_DONTNEED and
 *       faults them again. --fork faults in a forked child as well.
 *       --victim renames the process "cptest-victim" once its own memory is
 *       faulted in: the negative-control build of the module skips clears
 *       for that name only.
 *       --fault-at first|middle|last|random: each huge page is first
 *       faulted by a write of zero at that subpage (default: the first, as
 *       MADV_POPULATE_WRITE does), so the kernel clears it with that
 *       faulting address. --gigantic: pages of 1 GiB (hugetlb, or
 *       hugetlbfs in /dev/hugepages-1G).
 *       SIGTERM ends the run after the current round.
 *       Prints "pages=<base pages checked> nonzero=<bytes not zero>"; exits 0
 *       only when every byte was zero, 1 on a non-zero byte, 2 on a setup
 *       error.
 *
 *   cptest poison [--node N] [--pages K] [--soft]
 *       In a forked child on node N: fault K single 4 KiB pages one by
 *       one, check each reads zero, and at once mark it poisoned with
 *       madvise(MADV_HWPOISON) (the kernel's memory_failure(), as for a
 *       memory error found in it), or with --soft migrate it away and
 *       retire it (MADV_SOFT_OFFLINE, retried for up to 2 s while busy).
 *       The pages were just cleared: the touch probe may be holding
 *       them. A SIGBUS memory_failure() sends the child is counted.
 *       Prints "poison pages=K nonzero=B poisoned=P failed=F busy=R
 *       sigbus=S"; exits 0 when every page read zero and was retired.
 *
 *   cptest flip, sysfs-fuzz, write: the module's sysfs files under load
 *       and abuse (cptest-sysfs.c).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cptest.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MAP_HUGETLB
#define MAP_HUGETLB 0x40000
#endif
#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#define MAP_HUGE_1GB (30 << MAP_HUGE_SHIFT)
#define MPOL_BIND 2

#define PAGE_SIZE_4K 4096UL
#define HUGE_SIZE (2UL << 20)
#define GIGANTIC_SIZE (1UL << 30)

enum kind { KIND_4K, KIND_THP, KIND_HUGETLB, KIND_HUGETLBFS };

struct fault_options {
	enum kind kind;
	int node;
	unsigned long bytes;
	long rounds;
	long seconds;
	int dirty;
	int dontneed;
	int fork;
	int victim;
	int fault_at;		/* enum fault_at */
	int gigantic;
};

enum fault_at { FAULT_FIRST, FAULT_MIDDLE, FAULT_LAST, FAULT_RANDOM };

struct tally {
	unsigned long pages;
	unsigned long nonzero;
};

double cptest_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int bind_to_node(int node)
{
	unsigned long mask[16] = { 0 };

	if (node < 0)
		return 0;
	mask[node / 64] = 1UL << (node % 64);
	if (syscall(SYS_set_mempolicy, MPOL_BIND, mask, 16 * 64) < 0) {
		fprintf(stderr, "cptest: set_mempolicy(node %d): %s\n", node,
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * A hugetlbfs file's pages, allocated (and cleared) by fallocate(2): 2 MiB
 * pages, or 1 GiB ones (@gigantic).
 */
static void *map_hugetlbfs(unsigned long bytes, int gigantic)
{
	char path[64];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "/dev/hugepages%s/cptest-%d",
		 gigantic ? "-1G" : "", getpid());
	fd = open(path, O_CREAT | O_RDWR | O_EXCL, 0600);
	if (fd < 0)
		return NULL;
	unlink(path);
	if (fallocate(fd, 0, 0, bytes) < 0) {
		close(fd);
		return NULL;
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/* Map @bytes of the kind, aligned for huge pages; NULL on failure. */
static void *map_kind(enum kind kind, unsigned long bytes, int gigantic)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	char *raw, *aligned;

	if (kind == KIND_HUGETLBFS)
		return map_hugetlbfs(bytes, gigantic);
	if (kind == KIND_HUGETLB) {
		raw = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			   flags | MAP_HUGETLB | (gigantic ? MAP_HUGE_1GB : 0),
			   -1, 0);
		return raw == MAP_FAILED ? NULL : raw;
	}
	raw = mmap(NULL, bytes + HUGE_SIZE, PROT_READ | PROT_WRITE, flags, -1,
		   0);
	if (raw == MAP_FAILED)
		return NULL;
	aligned = (char *)(((uintptr_t)raw + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1));
	if (aligned > raw)
		munmap(raw, aligned - raw);
	munmap(aligned + bytes, raw + HUGE_SIZE - aligned);
	madvise(aligned, bytes,
		kind == KIND_THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	return aligned;
}

/*
 * Fault each huge page of [p, p + bytes) first at the chosen subpage, with a
 * write of zero (a read would map the shared zero page), then the rest.
 */
static int populate_at(unsigned char *p, unsigned long bytes,
		       unsigned long huge_size, int fault_at)
{
	unsigned long offset, subpages = huge_size / PAGE_SIZE_4K, index;

	for (offset = 0; offset < bytes; offset += huge_size) {
		switch (fault_at) {
		case FAULT_MIDDLE: index = subpages / 2 + 1; break;
		case FAULT_LAST: index = subpages - 1; break;
		case FAULT_RANDOM: index = (unsigned long)random() % subpages; break;
		default: index = 0; break;
		}
		/* Not the page's first byte: the address is what counts. */
		((volatile unsigned char *)p)[offset + index * PAGE_SIZE_4K + 100] = 0;
	}
	return 0;
}

static int populate(void *p, unsigned long bytes)
{
	if (madvise(p, bytes, MADV_POPULATE_WRITE) < 0) {
		fprintf(stderr, "cptest: MADV_POPULATE_WRITE: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

/* Count the bytes of one 4 KiB page that are not zero. */
static unsigned long page_nonzero_bytes(const unsigned char *page)
{
	const uint64_t *word = (const uint64_t *)page;
	uint64_t any = 0;
	unsigned long i, count = 0;

	for (i = 0; i < PAGE_SIZE_4K / 8; i++)
		any |= word[i];
	if (!any)
		return 0;
	for (i = 0; i < PAGE_SIZE_4K; i++)
		count += page[i] != 0;
	return count;
}

static void check_range(const char *what, unsigned char *p,
			unsigned long bytes, struct tally *tally)
{
	unsigned long offset, bad;

	for (offset = 0; offset < bytes; offset += PAGE_SIZE_4K) {
		bad = page_nonzero_bytes(p + offset);
		tally->pages++;
		if (!bad)
			continue;
		if (!tally->nonzero)
			fprintf(stderr,
				"cptest: %s: page at offset %lu has %lu non-zero bytes (first word %#llx)\n",
				what, offset, bad,
				(unsigned long long)*(uint64_t *)(p + offset));
		tally->nonzero += bad;
	}
}

/* Fill memory of the kind with a pattern and free it again. */
static int dirty_memory(enum kind kind, unsigned long bytes, int gigantic)
{
	unsigned long offset;
	char *p = map_kind(kind, bytes, gigantic);

	if (!p)
		return -1;
	for (offset = 0; offset < bytes; offset += 8)
		*(uint64_t *)(p + offset) = 0xa5a5a5a5a5a5a5a5ULL ^ offset;
	munmap(p, bytes);
	return 0;
}

/* Fault the whole mapping in, each huge page first at o->fault_at. */
static int fault_in(const struct fault_options *o, unsigned char *p)
{
	unsigned long huge_size = o->gigantic ? GIGANTIC_SIZE : HUGE_SIZE;

	if (o->kind != KIND_4K && o->fault_at != FAULT_FIRST)
		populate_at(p, o->bytes, huge_size, o->fault_at);
	return populate(p, o->bytes);
}

static int fault_and_check(const struct fault_options *o, struct tally *tally)
{
	unsigned char *p = map_kind(o->kind, o->bytes, o->gigantic);
	pid_t child = -1;
	int status, rc = 0;

	if (!p) {
		fprintf(stderr, "cptest: mmap %lu bytes: %s\n", o->bytes,
			strerror(errno));
		return -1;
	}
	if (o->fork) {
		child = fork();
		if (child == 0) {
			struct tally mine = { 0 };

			if (fault_in(o, p))
				_exit(2);
			check_range("child", p, o->bytes, &mine);
			_exit(mine.nonzero ? 1 : 0);
		}
		if (child < 0) {
			perror("cptest: fork");
			rc = -1;
		}
	}
	if (!rc && fault_in(o, p) == 0)
		check_range("fault", p, o->bytes, tally);
	else
		rc = -1;
	if (!rc && o->dontneed) {
		madvise(p, o->bytes, MADV_DONTNEED);
		if (fault_in(o, p) == 0)
			check_range("refault", p, o->bytes, tally);
		else
			rc = -1;
	}
	if (child > 0) {
		waitpid(child, &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status) == 2)
			rc = -1;
		else if (WEXITSTATUS(status) == 1)
			tally->nonzero++;	/* the child reported the bytes */
		tally->pages += o->bytes / PAGE_SIZE_4K;
	}
	munmap(p, o->bytes);
	return rc;
}

/*
 * Fault in this process's own stack and stdio buffers, then take the name
 * the negative-control module build spares no page of: from here on only the
 * mappings under test get new zero-filled pages.
 */
static void become_victim(void)
{
	volatile char stack[256 << 10];

	memset((char *)stack, 1, sizeof(stack));
	printf("cptest: becoming cptest-victim\n");
	fflush(stdout);
	fprintf(stderr, "cptest: stderr ready\n");
	prctl(PR_SET_NAME, "cptest-victim");
}

static int parse_kind(const char *s, enum kind *kind)
{
	if (!strcmp(s, "4k"))
		*kind = KIND_4K;
	else if (!strcmp(s, "thp"))
		*kind = KIND_THP;
	else if (!strcmp(s, "hugetlb"))
		*kind = KIND_HUGETLB;
	else if (!strcmp(s, "hugetlbfs"))
		*kind = KIND_HUGETLBFS;
	else
		return -1;
	return 0;
}

static const char *kind_name(enum kind kind)
{
	static const char *const names[] = { "4k", "thp", "hugetlb",
					     "hugetlbfs" };

	return names[kind];
}


static volatile sig_atomic_t terminated;

static void on_term(int sig)
{
	(void)sig;
	terminated = 1;
}

static int cmd_fault(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "kind", required_argument, NULL, 'k' },
		{ "node", required_argument, NULL, 'n' },
		{ "mb", required_argument, NULL, 'm' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "seconds", required_argument, NULL, 's' },
		{ "dirty", no_argument, NULL, 'd' },
		{ "dontneed", no_argument, NULL, 'D' },
		{ "fork", no_argument, NULL, 'f' },
		{ "victim", no_argument, NULL, 'v' },
		{ "fault-at", required_argument, NULL, 'a' },
		{ "gigantic", no_argument, NULL, 'g' },
		{ 0 }
	};
	struct fault_options o = { .kind = KIND_4K, .node = -1,
				   .bytes = 16UL << 20, .rounds = 1 };
	struct tally tally = { 0 };
	double deadline;
	long round;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			if (parse_kind(optarg, &o.kind)) {
				fprintf(stderr, "cptest: unknown kind %s\n",
					optarg);
				return 2;
			}
			break;
		case 'n':
			o.node = atoi(optarg);
			break;
		case 'm':
			o.bytes = strtoul(optarg, NULL, 0) << 20;
			break;
		case 'r':
			o.rounds = atol(optarg);
			break;
		case 's':
			o.seconds = atol(optarg);
			break;
		case 'd':
			o.dirty = 1;
			break;
		case 'D':
			o.dontneed = 1;
			break;
		case 'f':
			o.fork = 1;
			break;
		case 'v':
			o.victim = 1;
			break;
		case 'a':
			if (!strcmp(optarg, "first"))
				o.fault_at = FAULT_FIRST;
			else if (!strcmp(optarg, "middle"))
				o.fault_at = FAULT_MIDDLE;
			else if (!strcmp(optarg, "last"))
				o.fault_at = FAULT_LAST;
			else if (!strcmp(optarg, "random"))
				o.fault_at = FAULT_RANDOM;
			else {
				fprintf(stderr, "cptest: --fault-at first|middle|last|random\n");
				return 2;
			}
			break;
		case 'g':
			o.gigantic = 1;
			break;
		default:
			return 2;
		}
	}
	if (!o.bytes || o.bytes % HUGE_SIZE || o.node >= 1024) {
		fprintf(stderr, "cptest: --mb must be a positive even number\n");
		return 2;
	}
	if (o.gigantic && ((o.kind != KIND_HUGETLB && o.kind != KIND_HUGETLBFS) ||
			   o.bytes % GIGANTIC_SIZE)) {
		fprintf(stderr, "cptest: --gigantic needs --kind hugetlb or hugetlbfs and a multiple of 1024 MiB\n");
		return 2;
	}
	if (bind_to_node(o.node))
		return 2;
	if (o.victim)
		become_victim();

	signal(SIGTERM, on_term);
	deadline = cptest_now() + o.seconds;
	for (round = 0; !terminated &&
	     (o.seconds ? cptest_now() < deadline : round < o.rounds); round++) {
		if (o.dirty && dirty_memory(o.kind, o.bytes, o.gigantic)) {
			fprintf(stderr, "cptest: dirty: mmap: %s\n",
				strerror(errno));
			return 2;
		}
		if (fault_and_check(&o, &tally))
			return 2;
	}
	printf("fault kind=%s%s node=%d rounds=%ld pages=%lu nonzero=%lu\n",
	       kind_name(o.kind), o.gigantic ? "-1g" : "", o.node, round,
	       tally.pages, tally.nonzero);
	return tally.nonzero ? 1 : 0;
}

#ifndef MADV_HWPOISON
#define MADV_HWPOISON 100
#endif
#ifndef MADV_SOFT_OFFLINE
#define MADV_SOFT_OFFLINE 101
#endif

static volatile sig_atomic_t sigbus_seen;

static void on_sigbus(int sig)
{
	(void)sig;
	sigbus_seen++;
}

struct poison_result {
	unsigned long pages, nonzero, poisoned, failed, busy, sigbus;
};

static void poison_child(int node, unsigned long pages, int soft,
			 struct poison_result *r)
{
	int advice = soft ? MADV_SOFT_OFFLINE : MADV_HWPOISON;
	struct sigaction sa = { .sa_handler = on_sigbus };
	unsigned long i;
	int tries;

	sigaction(SIGBUS, &sa, NULL);
	if (bind_to_node(node))
		exit(2);
	for (i = 0; i < pages; i++) {
		unsigned char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			exit(2);
		p[4095] = 0;		/* the fault: the page is cleared now */
		r->nonzero += page_nonzero_bytes(p);
		r->pages++;
		for (tries = 0; tries < 200; tries++) {
			if (!madvise(p, 4096, advice)) {
				r->poisoned++;
				break;
			}
			if (errno != EBUSY && errno != EAGAIN) {
				fprintf(stderr, "cptest: poison: madvise: %s\n",
					strerror(errno));
				break;
			}
			r->busy++;
			usleep(10000);
		}
		/* The mapping of a poisoned page: left, never touched again. */
	}
	r->sigbus = sigbus_seen;
}

static int cmd_poison(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "node", required_argument, NULL, 'n' },
		{ "pages", required_argument, NULL, 'p' },
		{ "soft", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct poison_result *r;
	unsigned long pages = 32;
	int node = 0, soft = 0, c, status;
	pid_t pid;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			node = atoi(optarg);
			break;
		case 'p':
			pages = strtoul(optarg, NULL, 0);
			break;
		case 's':
			soft = 1;
			break;
		default:
			return 2;
		}
	}
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return 2;
	memset(r, 0, sizeof(*r));
	pid = fork();
	if (pid < 0)
		return 2;
	if (!pid) {
		poison_child(node, pages, soft, r);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "cptest: poison: the child did not finish (status %#x)\n",
			status);
		return 2;
	}
	r->failed = r->pages - r->poisoned;
	printf("poison%s node=%d pages=%lu nonzero=%lu poisoned=%lu failed=%lu busy=%lu sigbus=%lu\n",
	       soft ? " soft" : "", node, r->pages, r->nonzero, r->poisoned,
	       r->failed, r->busy, r->sigbus);
	return r->nonzero || r->failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: cptest fault|flip|poison|sysfs-fuzz|write ...\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "fault"))
		return cmd_fault(argc - 1, argv + 1);
	if (!strcmp(argv[1], "flip"))
		return cmd_flip(argc - 1, argv + 1);
	if (!strcmp(argv[1], "poison"))
		return cmd_poison(argc - 1, argv + 1);
	if (!strcmp(argv[1], "write"))
		return cmd_write(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sysfs-fuzz"))
		return cmd_sysfs_fuzz(argc - 1, argv + 1);
	fprintf(stderr, "cptest: unknown command %s\n", argv[1]);
	return 2;
}
