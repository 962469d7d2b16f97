// SPDX-License-Identifier: GPL-2.0
/*
 * clearpage-bench: CPUs, memory and caches: binding, the bandwidth load,
 * mappings, flushes, the last-level cache and the probe's calibration; see
 * bench.h.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <x86intrin.h>

#include "bench.h"

#define MPOL_BIND 2

int bench_bind_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		bench_error("cannot run on CPU %d: %s", cpu, strerror(errno));
		return -errno;
	}
	return 0;
}

struct bench_load {
	pthread_t thread;
	int cpu;
	size_t bytes;
	char *buf;
	atomic_bool stop, paused;
	uint64_t moved;			/* bytes written and read */
	uint64_t busy_ns;		/* time it ran unpaused */
	volatile uint64_t sink;
};

static void *load_run(void *arg)
{
	struct bench_load *load = arg;
	cpu_set_t set;
	uint64_t sum = 0;
	unsigned char v = 1;

	CPU_ZERO(&set);
	CPU_SET(load->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (!atomic_load_explicit(&load->stop, memory_order_relaxed)) {
		/* A slice at a time, so that a pause takes effect soon. */
		size_t slice = 8 << 20;
		uint64_t t0;

		if (atomic_load_explicit(&load->paused, memory_order_relaxed)) {
			_mm_pause();
			continue;
		}
		t0 = bench_now_ns();
		for (size_t at = 0; at < load->bytes; at += slice) {
			size_t n = load->bytes - at < slice ? load->bytes - at : slice;

			memset(load->buf + at, v, n);
			for (size_t i = 0; i < n; i += 64)
				sum += (unsigned char)load->buf[at + i];
			load->moved += 2 * n;
			if (atomic_load_explicit(&load->paused, memory_order_relaxed) ||
			    atomic_load_explicit(&load->stop, memory_order_relaxed))
				break;
		}
		v++;
		load->busy_ns += bench_now_ns() - t0;
	}
	load->sink = sum;
	return NULL;
}

struct bench_load *bench_load_start(int cpu, size_t bytes)
{
	struct bench_load *load = calloc(1, sizeof(*load));
	int err;

	if (!load)
		return NULL;
	load->cpu = cpu;
	load->bytes = bytes;
	load->buf = bench_map(bytes, -1, true, false);
	if (!load->buf) {
		free(load);
		return NULL;
	}
	err = pthread_create(&load->thread, NULL, load_run, load);
	if (err) {
		bench_error("cannot start the load on CPU %d: %s", cpu, strerror(err));
		bench_unmap(load->buf, bytes);
		free(load);
		return NULL;
	}
	return load;
}

void bench_load_pause(struct bench_load *load, bool paused)
{
	if (load)
		atomic_store(&load->paused, paused);
}

double bench_load_stop(struct bench_load *load)
{
	double rate;

	if (!load)
		return 0;
	atomic_store(&load->stop, true);
	pthread_join(load->thread, NULL);
	rate = load->busy_ns ? load->moved / (load->busy_ns / 1e9) : 0;
	bench_unmap(load->buf, load->bytes);
	free(load);
	return rate;
}

/* Bind @bytes at @p to NUMA node @node (none where @node is negative). */
static int bind_node(void *p, size_t bytes, int node)
{
	unsigned long mask[1024 / (8 * sizeof(unsigned long))] = { 0 };

	if (node < 0)
		return 0;
	if (node >= 1024)
		return -EINVAL;
	mask[node / (8 * sizeof(unsigned long))] |=
		1UL << (node % (8 * sizeof(unsigned long)));
	if (syscall(SYS_mbind, p, bytes, MPOL_BIND, mask, 1024UL, 0U)) {
		int err = -errno;

		bench_error("cannot bind memory to node %d: %s", node,
			    strerror(-err));
		return err;
	}
	return 0;
}

void *bench_map(size_t bytes, int node, bool populate, bool huge)
{
	size_t len = bytes + (huge ? BENCH_HUGE : 0);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *aligned;

	if (p == MAP_FAILED) {
		bench_error("cannot map %zu bytes: %s", bytes, strerror(errno));
		return NULL;
	}
	aligned = p;
	if (huge) {
		/* A 2 MiB aligned window; give back the rest. */
		aligned = (char *)(((uintptr_t)p + BENCH_HUGE - 1) &
				   ~(BENCH_HUGE - 1));
		if (aligned > p)
			munmap(p, aligned - p);
		if (aligned + bytes < p + len)
			munmap(aligned + bytes, p + len - (aligned + bytes));
	}
	madvise(aligned, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	if (bind_node(aligned, bytes, node)) {
		munmap(aligned, bytes);
		return NULL;
	}
	if (populate)
		for (size_t off = 0; off < bytes; off += BENCH_PAGE)
			((volatile char *)aligned)[off] = 1;
	return aligned;
}

void bench_unmap(void *p, size_t bytes)
{
	if (p)
		munmap(p, bytes);
}

/* clflushopt: the same flush, not ordered line by line (far faster). */
__attribute__((target("clflushopt")))
static void flush_opt(char *c, size_t bytes)
{
	for (size_t off = 0; off < bytes; off += CLEARPAGE_LINE_SIZE)
		_mm_clflushopt(c + off);
}

void bench_flush(void *p, size_t bytes)
{
	static int has_clflushopt = -1;
	unsigned int a, b, c, d;
	char *line = p;

	if (has_clflushopt < 0) {
		clearpage_cpuid(7, 0, &a, &b, &c, &d);
		has_clflushopt = (b >> 23) & 1;
	}
	if (has_clflushopt)
		flush_opt(line, bytes);
	else
		for (size_t off = 0; off < bytes; off += CLEARPAGE_LINE_SIZE)
			_mm_clflush(line + off);
	_mm_mfence();
}

uint64_t bench_llc_bytes(void)
{
	uint64_t best = 0;
	char path[128], text[64];
	int i;

	for (i = 0; i < 8; i++) {
		unsigned long long v;
		char unit = 0;
		FILE *f;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		f = fopen(path, "re");
		if (!f)
			break;
		if (fgets(text, sizeof(text), f) &&
		    sscanf(text, "%llu%c", &v, &unit) >= 1) {
			if (unit == 'K')
				v <<= 10;
			else if (unit == 'M')
				v <<= 20;
			if (v > best)
				best = v;
		}
		fclose(f);
	}
	return best;
}

#define CALIBRATION_PAGES 16
#define CALIBRATION_PASSES 15

static double probe_calibration_ticks(char *region, bool cached)
{
	double loads[CALIBRATION_PASSES * CLEARPAGE_PROBE_LINES], med, lo, hi;
	unsigned long ticks[CLEARPAGE_PROBE_LINES];
	size_t bytes = CALIBRATION_PAGES * BENCH_PAGE;

	for (int pass = 0; pass < CALIBRATION_PASSES; pass++) {
		memset(region, 0, bytes);
		if (!cached)
			bench_flush(region, bytes);
		clearpage_probe(region, CALIBRATION_PAGES,
				(unsigned long)pass * BENCH_PAGE % bytes, ~0UL,
				ticks);
		for (int i = 0; i < (int)CLEARPAGE_PROBE_LINES; i++)
			loads[pass * CLEARPAGE_PROBE_LINES + i] = (double)ticks[i];
	}
	bench_summary(loads, CALIBRATION_PASSES * CLEARPAGE_PROBE_LINES, &med,
		      &lo, &hi);
	return med;
}

unsigned long bench_probe_calibrate(char *region, double *hot, double *cold)
{
	*hot = probe_calibration_ticks(region, true);
	*cold = probe_calibration_ticks(region, false);
	return clearpage_probe_threshold((unsigned long)*hot,
					 (unsigned long)*cold);
}
