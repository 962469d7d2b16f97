/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Drop CAP_SYS_ADMIN from the calling process (bounding, effective,
 * permitted and inheritable sets) and keep every other capability: root
 * then still opens 0644 files for writing (CAP_DAC_OVERRIDE), so its writes
 * reach the module's capable() checks, and its netlink requests reach
 * netlink_capable(). Returns 0 or -errno.
 */
#ifndef CLEARPAGE_TESTS_DROPCAP_H
#define CLEARPAGE_TESTS_DROPCAP_H

#include <errno.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

static inline int drop_sys_admin(void)
{
	struct __user_cap_header_struct header = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	const __u32 bit = 1U << CAP_SYS_ADMIN;

	if (prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0) ||
	    syscall(SYS_capget, &header, data))
		return -errno;
	data[0].effective &= ~bit;
	data[0].permitted &= ~bit;
	data[0].inheritable &= ~bit;
	if (syscall(SYS_capset, &header, data))
		return -errno;
	return 0;
}

#endif
