/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clearpaged's log: structured journald entries when journald runs, the same
 * lines on stderr otherwise. Every decision that changes or refuses to
 * change a node carries a MESSAGE_ID explained in units/clearpaged.catalog.
 */
#ifndef CLEARPAGED_LOG_H
#define CLEARPAGED_LOG_H

#include <stdarg.h>

#include "policy.h"

#define MESSAGE_ID_SWITCH "1e658545b6144d60b44d428c8542ff21"
#define MESSAGE_ID_REVERT "bb739cec1ccf4d74bbcd022a3cbbc54f"
#define MESSAGE_ID_PIN_SEEN "9bced91e3cd84f84943e6abb5cb7588b"
#define MESSAGE_ID_ALLOWLIST "9327be765e1546abb3c42025445a3b30"
#define MESSAGE_ID_DRY_RUN "46255a72f2b14c21ae4ac8733811607e"
#define MESSAGE_ID_MODULE "60a8362bee2e47ab9ac0d351e3acde0a"

void log_init(int max_level);
void log_set_level(int max_level);
/* A plain line at syslog @priority. */
void log_line(int priority, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A line with a MESSAGE_ID and no node. */
void log_event(int priority, const char *message_id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A policy decision about @node's @backend with every CLEARPAGE_* field. */
void log_decision(int priority, const char *message_id, unsigned int node,
		  int backend, const struct policy_decision *decision,
		  const char *verb);

#endif /* CLEARPAGED_LOG_H */
