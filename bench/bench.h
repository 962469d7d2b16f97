/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clearpage-bench: the evidence. Shared helpers of the subcommands:
 * messages, timing and the strategy routines in user space (common.c), the
 * options (options.c), CPUs, memory and caches (memory.c), statistics
 * (stats.c) and output as JSON, CSV and SVG through gnuplot (output.c).
 */
#ifndef CLEARPAGE_BENCH_H
#define CLEARPAGE_BENCH_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include <clearpage/strategies.h>
#include <clearpage/folio.h>
#include <clearpage/probe.h>

#include "policy.h"

#define BENCH_PAGE 4096UL
#define BENCH_HUGE (2UL << 20)

extern struct clearpage_cpu bench_cpu;

/* Subcommands: argc/argv start at the subcommand's name. */
int bench_strategies(int argc, char **argv);
int bench_faults(int argc, char **argv);
int bench_replay(int argc, char **argv);
int bench_ab(int argc, char **argv);
int bench_advise(int argc, char **argv);
int bench_gigantic(int argc, char **argv);
int bench_probe(int argc, char **argv);
int bench_touch(int argc, char **argv);

/*
 * The helper count for a node's 1 GiB pages with @strategy, measured as
 * "gigantic" does (burst and sustained, 1, 2, 4 ... of @node's CPUs, the
 * first @cpu or the node's first): of the two regimes' counts (each where
 * one more step adds less than 10%), the one whose worse regime is closest
 * to that regime's fastest.
 */
struct gigantic_advice {
	int helpers;			/* GiganticHelpers= */
	int cpus;			/* the node's CPUs it could use */
	double worst;			/* its worse regime / that one's fastest */
	double alone_ms[2];		/* burst, sustained: one CPU */
	double helped_ms[2];		/* the same with the helpers */
};
int bench_gigantic_helpers(int node, int cpu, int strategy,
			   unsigned long runs, struct gigantic_advice *a);

/* One line on stderr, "clearpage-bench: ...". */
void bench_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Progress on stderr, overwritten in place on a terminal. */
void bench_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void bench_progress_done(void);

uint64_t bench_now_ns(void);
/* TSC ticks, serialised, and their length in ns (calibrated once). */
uint64_t bench_ticks(void);
double bench_ns_per_tick(void);

/* The user-space routines: every strategy but kernel, where available. */
bool bench_strategy_usable(int strategy);
/* What the kernel's clear_page() runs: rep stosb with ERMS, else rep stosq. */
int bench_kernel_routine(void);
/* Clear @page with @strategy; "kernel" runs bench_kernel_routine(). */
void bench_clear(int strategy, void *page);
/* The range form of @strategy; "kernel" runs bench_kernel_routine()'s. */
void bench_clear_range(int strategy, void *p, size_t bytes);
/*
 * The kernel arms of the folio patterns: the huge folio clear of each kernel
 * series (folio.h, clearpage_kernel_folio_clear()). "kernel" itself is
 * the 6.x walk; BENCH_ARM_KERNEL_7X, one past the strategies, the 7.x
 * extents. On 4 KiB pages both series run clear_page(): "kernel".
 */
#define BENCH_ARM_KERNEL_7X CLEARPAGE_STRATEGY_COUNT
/* The 6.x walk by name, where "kernel" means the running series' clear. */
#define BENCH_ARM_KERNEL_6X (CLEARPAGE_STRATEGY_COUNT + 1)
/*
 * The page allocator's clear of a THP on 7.x with init_on_alloc=1: one
 * kernel routine over the whole folio, in address order, no fault locality.
 */
#define BENCH_ARM_KERNEL_ALLOC (CLEARPAGE_STRATEGY_COUNT + 2)
#define BENCH_ARM_COUNT (CLEARPAGE_STRATEGY_COUNT + 3)
/*
 * An arm's name: a strategy's, or for folios "kernel-6.x" ("kernel",
 * BENCH_ARM_KERNEL_6X), "kernel-7.x" and "kernel-alloc".
 */
const char *bench_arm_name(int arm, bool folio);
/* The arm of the kernel running here: "kernel" or BENCH_ARM_KERNEL_7X. */
int bench_running_kernel_arm(void);

/*
 * Clear the huge folio of @nr_pages at @folio as clearpage.ko's huge backend
 * does with @strategy: ranges of @chunk_pages in clearpage_folio_extents()
 * order, the faulting subpage @fault's neighbourhood last with a temporal
 * routine. "kernel" is the 6.x kernel's own walk (clearpage_kernel_walk(),
 * one 4 KiB page at a time with bench_kernel_routine()),
 * BENCH_ARM_KERNEL_7X the 7.x kernel's extents (one
 * bench_kernel_routine() range each), as the module keeps them.
 */
void bench_clear_folio(int strategy, char *folio, unsigned long nr_pages,
		       unsigned long fault, unsigned long chunk_pages);
/* The kernel's MAX_ORDER_NR_PAGES on x86-64 (6.1, 6.12 and 7.3). */
#define BENCH_MAX_ORDER_PAGES 1024UL

/* Strategies named in a comma list ("all": every usable one) as a mask. */
int bench_parse_strategies(const char *list, unsigned int *mask);

/* "16K,256K,8M,4G" into bytes; returns the count or -EINVAL. */
int bench_parse_sizes(const char *list, uint64_t *sizes, int max);
void bench_format_size(uint64_t bytes, char *buf, size_t size);
/*
 * Command-line values, checked before any work: one error line naming
 * @what and what it accepts, and -EINVAL (the caller exits 2).
 */
int bench_parse_uint(const char *text, const char *what, unsigned long max,
		     unsigned long *value);
int bench_parse_range(const char *text, const char *what, unsigned long min,
		      unsigned long max, unsigned long *value);
/* An online NUMA node. */
int bench_parse_node(const char *text, const char *what, unsigned long *value);
#define BENCH_MAX_NODES 1024

/*
 * The options several commands share, parsed in one place: a command puts
 * the BENCH_OPTION_* entries it takes in its table beside its own and
 * parses its command line with bench_parse().
 */
enum {
	BENCH_OPT_RUNS = 0x100,	/* --runs N: 1..1000 */
	BENCH_OPT_CPU,		/* --cpu C: measure pinned to C */
	BENCH_OPT_NODE,		/* --node N: memory on node N */
	BENCH_OPT_LOAD,		/* --load C: a bandwidth load on C (needs --cpu) */
	BENCH_OPT_OUT,		/* --out DIR */
};
#define BENCH_OPTION_RUNS { "runs", required_argument, NULL, BENCH_OPT_RUNS }
#define BENCH_OPTION_CPU { "cpu", required_argument, NULL, BENCH_OPT_CPU }
#define BENCH_OPTION_NODE { "node", required_argument, NULL, BENCH_OPT_NODE }
#define BENCH_OPTION_LOAD { "load", required_argument, NULL, BENCH_OPT_LOAD }
#define BENCH_OPTION_OUT { "out", required_argument, NULL, BENCH_OPT_OUT }
#define BENCH_OPTION_HELP { "help", no_argument, NULL, 'h' }

struct bench_args {
	unsigned long runs;		/* the command's default until given */
	unsigned long cpu, node, load_cpu;	/* ~0UL: not given */
	const char *out;
};
#define BENCH_ARGS(default_runs) ((struct bench_args){ \
	.runs = (default_runs), .cpu = ~0UL, .node = ~0UL, .load_cpu = ~0UL, \
	.out = "bench-results" })
/* Go on: what bench_parse() and a command's own option function return. */
#define BENCH_GO_ON (-1)
/*
 * A command's whole command line: getopt_long() over @options, each of the
 * command's own options to @own (0, 2 after one error line, or BENCH_GO_ON
 * for one it does not know), the shared ones into @args; --help prints
 * @usage (exit 0), an unknown option or a stray argument prints it to
 * stderr (2), as does --load without --cpu on another CPU (one line, 2).
 * BENCH_GO_ON to run, else the exit status.
 */
int bench_parse(int argc, char **argv, const struct option *options,
		struct bench_args *args, void (*usage)(FILE *out),
		int (*own)(int opt, const char *arg, void *ctx), void *ctx);

/* Memory: mmap'd, bound to @node (-1: local), optionally populated. */
void *bench_map(size_t bytes, int node, bool populate, bool huge);
void bench_unmap(void *p, size_t bytes);
int bench_bind_cpu(int cpu);

/*
 * The loaded regime: a thread on @cpu writes and reads a buffer of @bytes
 * (far larger than the last-level cache) over and over, a memory-bandwidth
 * load beside the measurement, until bench_load_stop(). NULL on failure
 * (said on stderr).
 */
struct bench_load;
struct bench_load *bench_load_start(int cpu, size_t bytes);
/* Pause or resume it (a paused load spins on its CPU without memory traffic). */
void bench_load_pause(struct bench_load *load, bool paused);
/* Stop it; the bytes it moved per second while running, on average. */
double bench_load_stop(struct bench_load *load);
/*
 * Read one word of every line of [p, p + bytes), as an application touching
 * what was just cleared; returns their sum (keep it, so the reads stay).
 */
static inline uint64_t bench_read_lines(const char *p, size_t bytes)
{
	uint64_t sum = 0;

	for (size_t off = 0; off < bytes; off += CLEARPAGE_LINE_SIZE)
		sum += *(const volatile uint64_t *)(p + off);
	return sum;
}
/* Write back and drop every line of [p, p + bytes) from the caches. */
void bench_flush(void *p, size_t bytes);
/* The last-level cache size in bytes (sysfs), or 0. */
uint64_t bench_llc_bytes(void);
/*
 * The module's probe calibration (kmod/calibration.c) over the first
 * 64 KiB of @region: the median ticks of the probe's loads of lines just
 * written (@hot) and just flushed (@cold), and the threshold between them
 * (clearpage_probe_threshold(): 0 when they cannot be told apart).
 */
unsigned long bench_probe_calibrate(char *region, double *hot, double *cold);

/* Statistics (GSL, stats.c). bench_summary() sorts @v. */
void bench_summary(double *v, size_t n, double *median, double *min,
		   double *max);
double bench_mean(const double *v, size_t n);
double bench_stddev(const double *v, size_t n);

/* Output of one subcommand into DIR: NAME.json, NAME.csv, NAME.svg. */
struct bench_out {
	char dir[512];
	char name[64];
	json_object *root;	/* "meta" filled in; add "results" */
	FILE *csv;
};

int bench_out_open(struct bench_out *out, const char *dir, const char *name,
		   int argc, char **argv, const char *csv_header);
void bench_out_csv(struct bench_out *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Path of DIR/NAME<suffix> in @buf. */
const char *bench_out_path(const struct bench_out *out, const char *suffix,
			   char *buf, size_t size);
/*
 * Render DIR/NAME.svg with the gnuplot @script (which reads the CSV file
 * named by the gnuplot variable 'csv' and writes to 'svg'). Without gnuplot
 * it says so once and returns -ENOENT.
 */
int bench_out_plot(struct bench_out *out, const char *script);
/* Write the JSON, close the CSV. Returns 0 or a negative errno. */
int bench_out_close(struct bench_out *out);

#endif /* CLEARPAGE_BENCH_H */
