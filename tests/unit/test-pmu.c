// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of clearpaged's PMU access: cpulist parsing, and opening a
 * node's counters, which either works (a PMU that counts LLC misses) or
 * fails with a negative errno and a reason (no PMU, as in most VMs).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "pmu.h"



static void test_cpulist(void)
{
	int cpus[16], n;

	n = pmu_parse_cpulist("0-3,8,10-11\n", cpus, 16);
	CHECK(n == 7 && cpus[0] == 0 && cpus[3] == 3 && cpus[4] == 8 &&
	      cpus[6] == 11, "\"0-3,8,10-11\" is 7 CPUs (%d)", n);
	CHECK(pmu_parse_cpulist("5", cpus, 16) == 1 && cpus[0] == 5,
	      "a single CPU");
	CHECK(pmu_parse_cpulist("\n", cpus, 16) == 0, "an empty list");
	CHECK(pmu_parse_cpulist("3-1", cpus, 16) == -EINVAL, "a reversed range");
	CHECK(pmu_parse_cpulist("1,x", cpus, 16) == -EINVAL, "garbage");
	CHECK(pmu_parse_cpulist("0-99", cpus, 16) == -EINVAL,
	      "more CPUs than room");
	CHECK(pmu_parse_cpulist("-1", cpus, 16) == -EINVAL, "a negative CPU");
}

static void test_open(void)
{
	char root[] = "/tmp/test-pmu-XXXXXX", path[256], why[256] = "";
	struct pmu_node pmu;
	struct pmu_counts c;
	FILE *f;
	int err;

	if (!mkdtemp(root)) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	err = pmu_open_node(&pmu, root, 0, why, sizeof(why));
	CHECK(err == -ENOENT && strstr(why, "cpulist"),
	      "a node without a cpulist file: -ENOENT, %s", why);

	snprintf(path, sizeof(path), "%s/devices/system/node/node0", root);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
	strcat(path, "/cpulist");
	f = fopen(path, "w");
	if (!f) {
		CHECK(0, "cannot write %s", path);
		return;
	}
	fputs("\n", f);
	fclose(f);
	err = pmu_open_node(&pmu, root, 0, why, sizeof(why));
	CHECK(err == -ENODEV, "a node without CPUs: -ENODEV, %s", why);

	f = fopen(path, "w");
	fputs("0\n", f);
	fclose(f);
	err = pmu_open_node(&pmu, root, 0, why, sizeof(why));
	if (err) {
		CHECK(err < 0 && strstr(why, "perf_event_open"),
		      "no LLC counters here: %d, \"%s\"", err, why);
		SKIP("reading counters: %s", why);
	} else {
		char *buf = calloc(1, 1 << 24);

		CHECK(pmu.nr_cpus == 1, "counters open on CPU 0");
		CHECK(pmu_read_node(&pmu, &c) == 0, "the first read sets the base");
		for (int i = 0; i < 4; i++)	/* something for the counters */
			memset(buf, i, 1 << 24);
		CHECK(pmu_read_node(&pmu, &c) == 1, "the next read gives counts (%llu user references)",
		      (unsigned long long)c.value[PMU_USER_REFERENCES]);
		pmu_close_node(&pmu);
		free(buf);
	}
	unlink(path);
	/* node0, node, system, devices, the root itself. */
	for (int level = 0; level < 5; level++) {
		*strrchr(path, '/') = '\0';
		rmdir(path);
	}
}

int main(void)
{
	test_cpulist();
	test_open();
	return check_summary();
}
