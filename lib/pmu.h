/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Last-level cache counters per NUMA node through perf_event_open(2): LLC
 * misses and references (the generic cache-misses and cache-references
 * events) on every CPU of the node, counted in kernel mode and in user mode
 * separately. Virtual machines often have no PMU; then pmu_open_node()
 * fails and the daemon runs on the module's signals alone.
 */
#ifndef CLEARPAGED_PMU_H
#define CLEARPAGED_PMU_H

#include <stdbool.h>
#include <stdint.h>

enum pmu_counter {
	PMU_KERNEL_MISSES,
	PMU_KERNEL_REFERENCES,
	PMU_USER_MISSES,
	PMU_USER_REFERENCES,
	PMU_COUNTERS,
};

struct pmu_node {
	int nr_cpus;
	int *fds;			/* nr_cpus * PMU_COUNTERS */
	bool have_last;
	uint64_t last[PMU_COUNTERS];
};

/* Counts over one interval, scaled for multiplexing. */
struct pmu_counts {
	uint64_t value[PMU_COUNTERS];
};

/*
 * Open the counters of @node's CPUs (read from
 * <sysfs>/devices/system/node/nodeN/cpulist). Returns 0, or a negative
 * errno with a short reason in @why: -ENOENT/-EOPNOTSUPP when the CPU has no
 * such events (no PMU), -EACCES/-EPERM without CAP_PERFMON.
 */
int pmu_open_node(struct pmu_node *pmu, const char *sysfs, int node,
		  char *why, size_t why_size);
void pmu_close_node(struct pmu_node *pmu);

/*
 * The counts since the last call: returns 1 with @counts filled, 0 on the
 * first call after opening (nothing to compare yet), negative errno on
 * failure.
 */
int pmu_read_node(struct pmu_node *pmu, struct pmu_counts *counts);

/* Parse a cpulist ("0-3,8,10-11") into @cpus; returns the count or -EINVAL. */
int pmu_parse_cpulist(const char *text, int *cpus, int max);

#endif /* CLEARPAGED_PMU_H */
