// SPDX-License-Identifier: GPL-2.0
/* clearpage-bench: shared helpers; see bench.h. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "pmu.h"
#include "bench.h"

#define MPOL_BIND 2

struct clearpage_cpu bench_cpu;

static bool progress_shown;

void bench_error(const char *fmt, ...)
{
	va_list ap;

	bench_progress_done();
	fputs("clearpage-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void bench_progress(const char *fmt, ...)
{
	bool tty = isatty(STDERR_FILENO);
	va_list ap;

	fputs(tty ? "\r\033[K" : "", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(tty ? "" : "\n", stderr);
	progress_shown = tty;
}

void bench_progress_done(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
	progress_shown = false;
}

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t bench_ticks(void)
{
	unsigned int aux;

	_mm_lfence();
	return __rdtscp(&aux);
}

double bench_ns_per_tick(void)
{
	static double ns_per_tick;
	uint64_t t0, c0, t1, c1;

	if (ns_per_tick > 0)
		return ns_per_tick;
	t0 = bench_now_ns();
	c0 = bench_ticks();
	do {
		t1 = bench_now_ns();
	} while (t1 - t0 < 50000000ULL);	/* 50 ms */
	c1 = bench_ticks();
	ns_per_tick = (double)(t1 - t0) / (double)(c1 - c0);
	return ns_per_tick;
}

bool bench_strategy_usable(int strategy)
{
	return strategy > CLEARPAGE_STRATEGY_KERNEL &&
	       strategy < CLEARPAGE_STRATEGY_COUNT &&
	       clearpage_strategy_available(&bench_cpu, strategy);
}

int bench_kernel_routine(void)
{
	return clearpage_kernel_routine(&bench_cpu);
}

void bench_clear(int strategy, void *page)
{
	if (clearpage_run_routine(strategy, page))
		clearpage_run_routine(bench_kernel_routine(), page);
}

void bench_clear_range(int strategy, void *p, size_t bytes)
{
	if (clearpage_run_range_routine(strategy, p, bytes))
		clearpage_run_range_routine(bench_kernel_routine(), p, bytes);
}

static void walk_clear(void *folio, unsigned long index)
{
	bench_clear(CLEARPAGE_STRATEGY_KERNEL, (char *)folio + index * BENCH_PAGE);
}

static void range_clear(void *folio, int routine, unsigned long first,
			unsigned long n)
{
	bench_clear_range(routine, (char *)folio + first * BENCH_PAGE,
			  n * BENCH_PAGE);
}

void bench_clear_folio(int strategy, char *folio, unsigned long nr_pages,
		       unsigned long fault, unsigned long chunk_pages)
{
	if (strategy == BENCH_ARM_KERNEL_ALLOC)
		bench_clear_range(CLEARPAGE_STRATEGY_KERNEL, folio,
				  nr_pages * BENCH_PAGE);
	/* Debian's 7.x is PREEMPT_LAZY: an extent is one operation. */
	else if (strategy == BENCH_ARM_KERNEL_7X)
		clearpage_kernel_folio_clear(CLEARPAGE_KERNEL_CLEAR_EXTENTS, fault,
					     nr_pages, BENCH_MAX_ORDER_PAGES,
					     nr_pages, walk_clear, range_clear,
					     folio);
	else if (strategy == CLEARPAGE_STRATEGY_KERNEL ||
		 strategy == BENCH_ARM_KERNEL_6X)
		clearpage_kernel_folio_clear(CLEARPAGE_KERNEL_CLEAR_WALK, fault,
					     nr_pages, BENCH_MAX_ORDER_PAGES,
					     nr_pages, walk_clear, range_clear,
					     folio);
	else
		clearpage_folio_ranges(strategy, fault, nr_pages, chunk_pages,
				       range_clear, folio);
}

const char *bench_arm_name(int arm, bool folio)
{
	if (arm == BENCH_ARM_KERNEL_7X)
		return "kernel-7.x";
	if (arm == BENCH_ARM_KERNEL_ALLOC)
		return "kernel-alloc";
	if (arm == BENCH_ARM_KERNEL_6X ||
	    (arm == CLEARPAGE_STRATEGY_KERNEL && folio))
		return "kernel-6.x";
	return policy_strategy_name(arm);
}

int bench_running_kernel_arm(void)
{
	struct utsname u;
	unsigned int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return CLEARPAGE_STRATEGY_KERNEL;
	return clearpage_kernel_clear_of(major, minor) ==
	       CLEARPAGE_KERNEL_CLEAR_EXTENTS ? BENCH_ARM_KERNEL_7X :
						CLEARPAGE_STRATEGY_KERNEL;
}

int bench_parse_strategies(const char *list, unsigned int *mask)
{
	char *copy, *tok, *save;
	int s, err = 0;

	*mask = 0;
	if (!strcmp(list, "all")) {
		for (s = 1; s < CLEARPAGE_STRATEGY_COUNT; s++)
			if (bench_strategy_usable(s))
				*mask |= 1U << s;
		return 0;
	}
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
			if (!strcmp(tok, policy_strategy_name(s)))
				break;
		if (s == CLEARPAGE_STRATEGY_COUNT) {
			bench_error("unknown strategy '%s' (kernel, rep_stosb, rep_stosq, movq, movnti, clzero or all)",
				    tok);
			err = -EINVAL;
		} else {
			*mask |= 1U << s;
		}
	}
	free(copy);
	return err;
}

int bench_parse_sizes(const char *list, uint64_t *sizes, int max)
{
	const char *p = list;
	int count = 0;

	while (*p) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);

		if (end == p || v == 0 || count == max)
			return -EINVAL;
		switch (*end) {
		case 'K': case 'k': v <<= 10; end++; break;
		case 'M': case 'm': v <<= 20; end++; break;
		case 'G': case 'g': v <<= 30; end++; break;
		default: break;
		}
		if (v % BENCH_PAGE || v > (1ULL << 40))
			return -EINVAL;
		sizes[count++] = v;
		if (*end == ',')
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	return count ? count : -EINVAL;
}

void bench_format_size(uint64_t bytes, char *buf, size_t size)
{
	if (bytes >= (1ULL << 30) && !(bytes % (1ULL << 30)))
		snprintf(buf, size, "%lluG", (unsigned long long)(bytes >> 30));
	else if (bytes >= (1ULL << 20) && !(bytes % (1ULL << 20)))
		snprintf(buf, size, "%lluM", (unsigned long long)(bytes >> 20));
	else
		snprintf(buf, size, "%lluK", (unsigned long long)(bytes >> 10));
}

int bench_parse_range(const char *text, const char *what, unsigned long min,
		      unsigned long max, unsigned long *value)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || end == text || *end || v < min || v > max ||
	    text[0] == '-') {
		bench_error("%s: '%s' is not a number from %lu to %lu", what, text,
			    min, max);
		return -EINVAL;
	}
	*value = v;
	return 0;
}

int bench_parse_uint(const char *text, const char *what, unsigned long max,
		     unsigned long *value)
{
	return bench_parse_range(text, what, 0, max, value);
}

/* The first line of @path, or @fallback where it cannot be read. */
static void read_line(const char *path, char *buf, size_t size,
		      const char *fallback)
{
	FILE *f = fopen(path, "re");

	if (!f || !fgets(buf, (int)size, f))
		snprintf(buf, size, "%s", fallback);
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

int bench_parse_cpu(const char *text, const char *what, unsigned long *value)
{
	char online[256];
	cpu_set_t set;

	if (bench_parse_uint(text, what, CPU_SETSIZE - 1, value))
		return -EINVAL;
	if (sched_getaffinity(0, sizeof(set), &set) ||
	    !CPU_ISSET((int)*value, &set)) {
		read_line("/sys/devices/system/cpu/online", online,
			  sizeof(online), "unknown");
		bench_error("%s: CPU %lu is not one this process can run on (online CPUs: %s)",
			    what, *value, online);
		return -EINVAL;
	}
	return 0;
}

int bench_parse_node(const char *text, const char *what, unsigned long *value)
{
	char online[256];
	int nodes[BENCH_MAX_NODES], n;

	if (bench_parse_uint(text, what, BENCH_MAX_NODES - 1, value))
		return -EINVAL;
	/* A kernel without NUMA has node 0 only. */
	read_line("/sys/devices/system/node/online", online, sizeof(online),
		  "0");
	n = pmu_parse_cpulist(online, nodes, BENCH_MAX_NODES);
	for (int i = 0; i < n; i++)
		if (nodes[i] == (int)*value)
			return 0;
	bench_error("%s: node %lu is not online (online nodes: %s)", what,
		    *value, online);
	return -EINVAL;
}

/*
 * A shared option stored in @args (BENCH_GO_ON), --help (@usage on stdout,
 * 0), a bad value (one line, 2) or an option the command does not take
 * (@usage on stderr, 2).
 */
static int bench_common_option(int opt, const char *arg,
			       struct bench_args *args,
			       void (*usage)(FILE *out))
{
	int err = 0;

	switch (opt) {
	case BENCH_OPT_RUNS:
		err = bench_parse_range(arg, "--runs", 1, 1000, &args->runs);
		break;
	case BENCH_OPT_CPU:
		err = bench_parse_cpu(arg, "--cpu", &args->cpu);
		break;
	case BENCH_OPT_NODE:
		err = bench_parse_node(arg, "--node", &args->node);
		break;
	case BENCH_OPT_LOAD:
		err = bench_parse_cpu(arg, "--load", &args->load_cpu);
		break;
	case BENCH_OPT_OUT:
		args->out = arg;
		break;
	case 'h':
		usage(stdout);
		return 0;
	default:
		usage(stderr);
		return 2;
	}
	return err ? 2 : BENCH_GO_ON;
}

/* After the loop: a stray argument, --load without --cpu on another CPU. */
static int bench_common_done(int argc, struct bench_args *args,
			     void (*usage)(FILE *out))
{
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (args->load_cpu != ~0UL &&
	    (args->cpu == ~0UL || args->cpu == args->load_cpu)) {
		bench_error("--load: pin the measurement with --cpu on another CPU");
		return 2;
	}
	return BENCH_GO_ON;
}

int bench_parse(int argc, char **argv, const struct option *options,
		struct bench_args *args, void (*usage)(FILE *out),
		int (*own)(int opt, const char *arg, void *ctx), void *ctx)
{
	int opt, err;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		err = own(opt, optarg, ctx);
		if (err == BENCH_GO_ON)
			err = bench_common_option(opt, optarg, args, usage);
		if (err != BENCH_GO_ON && err != 0)
			return err;
		if (opt == 'h')
			return 0;
	}
	return bench_common_done(argc, args, usage);
}

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

int bench_bind_node(void *p, size_t bytes, int node)
{
	unsigned long mask[1024 / (8 * sizeof(unsigned long))] = { 0 };

	if (node < 0)
		return 0;
	if (node >= 1024)
		return -EINVAL;
	mask[node / (8 * sizeof(unsigned long))] |=
		1UL << (node % (8 * sizeof(unsigned long)));
	if (syscall(SYS_mbind, p, bytes, MPOL_BIND, mask, 1024UL, 0U)) {
		bench_error("cannot bind memory to node %d: %s", node,
			    strerror(errno));
		return -errno;
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
	if (bench_bind_node(aligned, bytes, node)) {
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

void bench_summary(double *v, size_t n, double *median, double *min,
		   double *max)
{
	gsl_sort(v, 1, n);
	*median = gsl_stats_median_from_sorted_data(v, 1, n);
	*min = v[0];
	*max = v[n - 1];
}

double bench_mean(const double *v, size_t n)
{
	return gsl_stats_mean(v, 1, n);
}

double bench_stddev(const double *v, size_t n)
{
	return n > 1 ? gsl_stats_sd(v, 1, n) : 0;
}

/* ---- output ---- */

static json_object *meta_object(int argc, char **argv)
{
	json_object *meta = json_object_new_object(), *args;
	char model[256] = "unknown", line[512], date[64];
	struct utsname u;
	time_t now = time(NULL);
	FILE *f = fopen("/proc/cpuinfo", "re");
	int i;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			snprintf(model, sizeof(model), "%s", strchr(line, ':') + 2);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
	if (f)
		fclose(f);
	uname(&u);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_object_object_add(meta, "cpu_model", json_object_new_string(model));
	json_object_object_add(meta, "cpu_vendor",
			       json_object_new_string(bench_cpu.vendor));
	json_object_object_add(meta, "cpu_family",
			       json_object_new_int((int)bench_cpu.family));
	json_object_object_add(meta, "cpu_model_number",
			       json_object_new_int((int)bench_cpu.model));
	json_object_object_add(meta, "kernel", json_object_new_string(u.release));
	json_object_object_add(meta, "llc_bytes",
			       json_object_new_int64((int64_t)bench_llc_bytes()));
	json_object_object_add(meta, "date", json_object_new_string(date));
	args = json_object_new_array();
	for (i = 0; i < argc; i++)
		json_object_array_add(args, json_object_new_string(argv[i]));
	json_object_object_add(meta, "argv", args);
	return meta;
}

const char *bench_out_path(const struct bench_out *out, const char *suffix,
			   char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s%s", out->dir, out->name, suffix);
	return buf;
}

static int make_dirs(const char *dir)
{
	char path[512];
	char *p;

	snprintf(path, sizeof(path), "%s", dir);
	for (p = path + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(path, 0755) && errno != EEXIST)
				return -errno;
			*p = '/';
		}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int bench_out_open(struct bench_out *out, const char *dir, const char *name,
		   int argc, char **argv, const char *csv_header)
{
	char path[600];
	int err;

	memset(out, 0, sizeof(*out));
	snprintf(out->dir, sizeof(out->dir), "%s", dir);
	snprintf(out->name, sizeof(out->name), "%s", name);
	err = make_dirs(dir);
	if (err) {
		bench_error("cannot create %s: %s", dir, strerror(-err));
		return err;
	}
	out->csv = fopen(bench_out_path(out, ".csv", path, sizeof(path)), "we");
	if (!out->csv) {
		err = -errno;
		bench_error("cannot write %s: %s", path, strerror(errno));
		return err;
	}
	fprintf(out->csv, "%s\n", csv_header);
	out->root = json_object_new_object();
	json_object_object_add(out->root, "benchmark",
			       json_object_new_string(name));
	json_object_object_add(out->root, "meta", meta_object(argc, argv));
	return 0;
}

void bench_out_csv(struct bench_out *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(out->csv, fmt, ap);
	va_end(ap);
	fputc('\n', out->csv);
}

int bench_out_plot(struct bench_out *out, const char *script)
{
	static bool said;
	char csv[600], svg[600], gp[600];
	FILE *f;
	pid_t pid;
	int status;

	fflush(out->csv);
	bench_out_path(out, ".csv", csv, sizeof(csv));
	bench_out_path(out, ".svg", svg, sizeof(svg));
	bench_out_path(out, ".gp", gp, sizeof(gp));
	f = fopen(gp, "we");
	if (!f)
		return -errno;
	fprintf(f, "csv = '%s'\nsvg = '%s'\nset datafile separator ','\n"
		   "set terminal svg size 900,540 dynamic noenhanced background rgb 'white'\n"
		   "set output svg\n%s", csv, svg, script);
	fclose(f);
	pid = fork();
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", gp, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		if (!said)
			bench_error("gnuplot not found: no SVG written (apt-get install gnuplot-nox)");
		said = true;
		return -ENOENT;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		bench_error("gnuplot failed on %s", gp);
		return -EIO;
	}
	return 0;
}

int bench_out_close(struct bench_out *out)
{
	char path[600];
	int err = 0;

	if (out->csv && fclose(out->csv))
		err = -errno;
	out->csv = NULL;
	if (out->root) {
		bench_out_path(out, ".json", path, sizeof(path));
		if (json_object_to_file_ext(path, out->root,
					    JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE)) {
			bench_error("cannot write %s", path);
			err = -EIO;
		}
		json_object_put(out->root);
		out->root = NULL;
	}
	return err;
}
