/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clearpaged --check-config: a gate for configuration management. It fails
 * on everything the daemon would not apply as written.
 */
#ifndef CLEARPAGED_CHECK_CONFIG_H
#define CLEARPAGED_CHECK_CONFIG_H

#include <stdbool.h>
#include <stdio.h>

#include "config.h"

/*
 * Print the files read (in order, "# PATH" lines), the configuration and
 * what the allowlist says about this CPU to @out, and one "clearpaged:
 * PATH: ..." line per problem to @err: @warnings (unknown keys and
 * sections, already printed by the loader) unless @lenient, an allowlist
 * that cannot be read or parsed, a file the service's own user
 * (DynamicUser=: neither owner nor group) cannot read, a MetricsFile=
 * directory that does not exist or that neither its group nor others may
 * write, a [Node.N] for a node this machine does not have (counted as a
 * warning). @files, given on the command line, were applied on top of the
 * installed ones and are listed after them. Returns the number of problems.
 */
unsigned int check_config(const struct daemon_config *config,
			  const char *root, char *const *files, int nr_files,
			  unsigned int warnings, bool lenient, FILE *out,
			  FILE *err);

#endif /* CLEARPAGED_CHECK_CONFIG_H */
