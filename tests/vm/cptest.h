/* SPDX-License-Identifier: GPL-2.0 */
/* cptest, the workload and checker run inside the test VM: its parts. */
#ifndef CLEARPAGE_CPTEST_H
#define CLEARPAGE_CPTEST_H

/* CLOCK_MONOTONIC in seconds. */
double cptest_now(void);

/* cptest-sysfs.c: the commands on the module's sysfs files. */
int cmd_flip(int argc, char **argv);
int cmd_write(int argc, char **argv);
int cmd_sysfs_fuzz(int argc, char **argv);

#endif /* CLEARPAGE_CPTEST_H */
