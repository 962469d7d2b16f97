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
#define MESSAGE_ID_SLOWER "559dde78da0d4f3187a847a9a20a0a66"
#define MESSAGE_ID_SLOWER_PINNED "bd788ca4502a4c13b23ae0cd90d92cfe"
#define MESSAGE_ID_SAVINGS "e7db5ff97c4740d5a1f8a1a3de542941"

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

/*
 * A strategy slower than the kernel's routine over @window_s seconds on
 * @node's @backend, and what was done about it (@what).
 */
void log_slower(int priority, const char *message_id, unsigned int node,
		int backend, int strategy, double ns_per_page,
		double kernel_ns_per_page, double window_s, const char *what);

/* What one backend of a node saved against the kernel's routine. */
struct log_savings {
	double saved_ns, uncertainty_ns;	/* uncertainty < 0: unknown */
	double kernel_ns;			/* the kernel's estimated time */
	unsigned long long pages;		/* estimated pages */
};

/* The periodic summary of a node's savings since @since (a time_t). */
void log_savings(unsigned int node, long long since,
		 const struct log_savings *backends);

#endif /* CLEARPAGED_LOG_H */
