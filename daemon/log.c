// SPDX-License-Identifier: GPL-2.0
/* clearpaged's log; see log.h. */
#include <stdio.h>
#include <syslog.h>
#include <unistd.h>

#include <systemd/sd-journal.h>

#include <uapi/clearpage.h>

#include "log.h"

static int max_level = LOG_INFO;
static int use_journal;

void log_init(int level)
{
	max_level = level;
	/* Under systemd, stderr is connected to the journal's stream. */
	use_journal = access("/run/systemd/journal/socket", W_OK) == 0;
}

void log_set_level(int level)
{
	max_level = level;
}

static void vlog(int priority, const char *message_id, const char *fmt,
		 va_list ap)
{
	char message[512];

	if (priority > max_level)
		return;
	vsnprintf(message, sizeof(message), fmt, ap);
	if (!use_journal) {
		fprintf(stderr, "clearpaged: %s\n", message);
		return;
	}
	if (message_id)
		sd_journal_send("MESSAGE=%s", message, "PRIORITY=%d", priority,
				"MESSAGE_ID=%s", message_id, NULL);
	else
		sd_journal_send("MESSAGE=%s", message, "PRIORITY=%d", priority,
				NULL);
}

void log_line(int priority, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(priority, NULL, fmt, ap);
	va_end(ap);
}

void log_event(int priority, const char *message_id, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(priority, message_id, fmt, ap);
	va_end(ap);
}

void log_decision(int priority, const char *message_id, unsigned int node,
		  int backend, const struct policy_decision *d, const char *verb)
{
	static const char *const backends[] = CLEARPAGE_BACKEND_NAMES;
	const char *backend_name = backend >= 0 &&
				   backend < CLEARPAGE_BACKEND_COUNT ?
				   backends[backend] : "unknown";
	char message[512];

	if (priority > max_level)
		return;
	snprintf(message, sizeof(message),
		 "node %u %s: %s %s -> %s: %s (cold fraction %.2f, %.0f ns/page, predicted gain %.0f%%)",
		 node, backend_name, verb, policy_strategy_name(d->from),
		 policy_strategy_name(d->to),
		 d->reason, d->cold_fraction, d->ns_per_page,
		 d->predicted_gain * 100);
	if (!use_journal) {
		fprintf(stderr, "clearpaged: %s\n", message);
		return;
	}
	sd_journal_send("MESSAGE=%s", message, "PRIORITY=%d", priority,
			"MESSAGE_ID=%s", message_id,
			"CLEARPAGE_NODE=%u", node,
			"CLEARPAGE_BACKEND=%s", backend_name,
			"CLEARPAGE_FROM=%s", policy_strategy_name(d->from),
			"CLEARPAGE_TO=%s", policy_strategy_name(d->to),
			"CLEARPAGE_REASON=%s", d->reason,
			"CLEARPAGE_COLD_FRACTION=%.3f", d->cold_fraction,
			"CLEARPAGE_NS_PER_PAGE=%.1f", d->ns_per_page,
			"CLEARPAGE_PREDICTED_GAIN=%.3f", d->predicted_gain,
			NULL);
}
