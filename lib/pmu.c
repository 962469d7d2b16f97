// SPDX-License-Identifier: GPL-2.0
/* LLC counters per NUMA node; see pmu.h. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pmu.h"

#define PMU_MAX_CPUS 4096

int pmu_parse_cpulist(const char *text, int *cpus, int max)
{
	const char *p = text;
	int count = 0;

	while (*p && *p != '\n') {
		char *end;
		long first, last, cpu;

		first = strtol(p, &end, 10);
		if (end == p || first < 0)
			return -EINVAL;
		last = first;
		p = end;
		if (*p == '-') {
			p++;
			last = strtol(p, &end, 10);
			if (end == p || last < first)
				return -EINVAL;
			p = end;
		}
		if (last >= PMU_MAX_CPUS)
			return -EINVAL;
		for (cpu = first; cpu <= last; cpu++) {
			if (count == max)
				return -EINVAL;
			cpus[count++] = (int)cpu;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return count;
}

static int open_counter(int cpu, enum pmu_counter which)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = which == PMU_KERNEL_MISSES || which == PMU_USER_MISSES ?
				  PERF_COUNT_HW_CACHE_MISSES :
				  PERF_COUNT_HW_CACHE_REFERENCES,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
		.exclude_hv = 1,
		.exclude_idle = 1,
	};
	int fd;

	if (which == PMU_KERNEL_MISSES || which == PMU_KERNEL_REFERENCES)
		attr.exclude_user = 1;
	else
		attr.exclude_kernel = 1;
	/* Every task on @cpu: needs CAP_PERFMON (or CAP_SYS_ADMIN). */
	fd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1,
			  PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

void pmu_close_node(struct pmu_node *pmu)
{
	int i;

	for (i = 0; pmu->fds && i < pmu->nr_cpus * PMU_COUNTERS; i++)
		if (pmu->fds[i] >= 0)
			close(pmu->fds[i]);
	free(pmu->fds);
	memset(pmu, 0, sizeof(*pmu));
}

int pmu_open_node(struct pmu_node *pmu, const char *sysfs, int node,
		  char *why, size_t why_size)
{
	char path[256], text[4096];
	int *cpus, count, i, err = 0;
	FILE *f;

	memset(pmu, 0, sizeof(*pmu));
	snprintf(path, sizeof(path), "%s/devices/system/node/node%d/cpulist",
		 sysfs, node);
	f = fopen(path, "re");
	if (!f) {
		err = -errno;
		snprintf(why, why_size, "cannot read %s: %s", path,
			 strerror(-err));
		return err;
	}
	if (!fgets(text, sizeof(text), f))
		text[0] = '\0';
	fclose(f);
	cpus = calloc(PMU_MAX_CPUS, sizeof(*cpus));
	if (!cpus)
		return -ENOMEM;
	count = pmu_parse_cpulist(text, cpus, PMU_MAX_CPUS);
	if (count <= 0) {
		snprintf(why, why_size, "%s lists no CPU", path);
		free(cpus);
		return count < 0 ? count : -ENODEV;
	}
	pmu->fds = malloc(sizeof(*pmu->fds) * count * PMU_COUNTERS);
	if (!pmu->fds) {
		free(cpus);
		return -ENOMEM;
	}
	pmu->nr_cpus = count;
	for (i = 0; i < count * PMU_COUNTERS; i++)
		pmu->fds[i] = -1;
	for (i = 0; i < count * PMU_COUNTERS && !err; i++) {
		int fd = open_counter(cpus[i / PMU_COUNTERS], i % PMU_COUNTERS);

		if (fd < 0) {
			err = fd;
			snprintf(why, why_size, "perf_event_open(LLC %s) on CPU %d: %s",
				 i % 2 ? "references" : "misses",
				 cpus[i / PMU_COUNTERS], strerror(-err));
		} else {
			pmu->fds[i] = fd;
		}
	}
	free(cpus);
	if (err)
		pmu_close_node(pmu);
	return err;
}

int pmu_read_node(struct pmu_node *pmu, struct pmu_counts *counts)
{
	uint64_t total[PMU_COUNTERS] = { 0 };
	int i, c, first;

	for (i = 0; i < pmu->nr_cpus * PMU_COUNTERS; i++) {
		uint64_t v[3];	/* value, time enabled, time running */

		if (read(pmu->fds[i], v, sizeof(v)) != (ssize_t)sizeof(v))
			return -EIO;
		/* Multiplexed with other users of the PMU: scale up. */
		if (v[2] && v[2] < v[1])
			v[0] = (uint64_t)((double)v[0] * v[1] / v[2]);
		total[i % PMU_COUNTERS] += v[0];
	}
	first = !pmu->have_last;
	for (c = 0; c < PMU_COUNTERS; c++) {
		counts->value[c] = total[c] >= pmu->last[c] ?
					   total[c] - pmu->last[c] : 0;
		pmu->last[c] = total[c];
	}
	pmu->have_last = true;
	return first ? 0 : 1;
}
