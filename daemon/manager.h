/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clearpaged's manager: wires the event sources (interval timer, module
 * events, udev, signals) to the policy and applies its decisions through
 * libclearpage.
 */
#ifndef CLEARPAGED_MANAGER_H
#define CLEARPAGED_MANAGER_H

#include "config.h"

/*
 * Run until SIGTERM or SIGINT; returns the exit status. @overrides are
 * applied again after every reload.
 */
int manager_run(const struct daemon_config *config, const char *config_root,
		const struct daemon_overrides *overrides);

#endif /* CLEARPAGED_MANAGER_H */
