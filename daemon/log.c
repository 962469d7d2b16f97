// SPDX-License-Identifier: GPL-2.0
/* clearpaged's log; see log.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-journal.h>

#include <uapi/clearpage.h>

#include "clearpage-client.h"
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

#define MAX_FIELDS 16
#define FIELD_SIZE 600

/* An entry's fields, "KEY=value", MESSAGE first. */
struct entry {
	char field[MAX_FIELDS][FIELD_SIZE];
	int count;
};

static void add(struct entry *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct entry *e, const char *fmt, ...)
{
	va_list ap;

	if (e->count >= MAX_FIELDS)
		return;
	va_start(ap, fmt);
	vsnprintf(e->field[e->count++], FIELD_SIZE, fmt, ap);
	va_end(ap);
}

/*
 * Start an entry with its MESSAGE, PRIORITY and MESSAGE_ID (if any); the
 * caller adds its CLEARPAGE_* fields, then emit()s it.
 */
static void start(struct entry *e, int priority, const char *message_id,
		  const char *message)
{
	e->count = 0;
	add(e, "MESSAGE=%s", message);
	add(e, "PRIORITY=%d", priority);
	if (message_id)
		add(e, "MESSAGE_ID=%s", message_id);
}

/* To the journal with every field, or its message alone to stderr. */
static void emit(const struct entry *e)
{
	struct iovec iov[MAX_FIELDS];
	int i;

	if (!use_journal) {
		fprintf(stderr, "clearpaged: %s\n", e->field[0] + strlen("MESSAGE="));
		return;
	}
	for (i = 0; i < e->count; i++) {
		iov[i].iov_base = (void *)e->field[i];
		iov[i].iov_len = strlen(e->field[i]);
	}
	sd_journal_sendv(iov, e->count);
}

static void vlog(int priority, const char *message_id, const char *fmt,
		 va_list ap)
{
	char message[512];
	struct entry e;

	if (priority > max_level)
		return;
	vsnprintf(message, sizeof(message), fmt, ap);
	start(&e, priority, message_id, message);
	emit(&e);
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

/*
 * Start an entry about @node's @backend: its MESSAGE "node N BACKEND: "
 * then @fmt, with CLEARPAGE_NODE and CLEARPAGE_BACKEND.
 */
static void start_backend(struct entry *e, int priority,
			  const char *message_id, unsigned int node,
			  int backend, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void start_backend(struct entry *e, int priority,
			  const char *message_id, unsigned int node,
			  int backend, const char *fmt, ...)
{
	const char *backend_name = cp_backend_name(backend);
	char message[512];
	va_list ap;
	int n;

	n = snprintf(message, sizeof(message), "node %u %s: ", node,
		     backend_name);
	va_start(ap, fmt);
	vsnprintf(message + n, sizeof(message) - n, fmt, ap);
	va_end(ap);
	start(e, priority, message_id, message);
	add(e, "CLEARPAGE_NODE=%u", node);
	add(e, "CLEARPAGE_BACKEND=%s", backend_name);
}

/* One side of a decision: a strategy, or per folio. */
static void decision_side(char *buf, size_t size, int strategy, bool split)
{
	snprintf(buf, size, "%s", split ? "per folio" :
		 policy_strategy_name(strategy));
}

void log_decision(int priority, const char *message_id, unsigned int node,
		  int backend, const struct policy_decision *d, const char *verb)
{
	char from[64], to[64];
	struct entry e;

	if (priority > max_level)
		return;
	decision_side(from, sizeof(from), d->from, d->from_split);
	decision_side(to, sizeof(to), d->to, false);
	if (d->split)
		snprintf(to, sizeof(to), "per folio (hot %s, cold %s)",
			 policy_strategy_name(d->split_hot),
			 policy_strategy_name(d->split_cold));
	start_backend(&e, priority, message_id, node, backend,
		      "%s %s -> %s: %s (cold fraction %.2f, %.0f ns/page, predicted gain %.0f%%)",
		      verb, from, to, d->reason, d->cold_fraction,
		      d->ns_per_page, d->predicted_gain * 100);
	add(&e, "CLEARPAGE_FROM=%s", d->from_split ? "per-folio" :
		policy_strategy_name(d->from));
	add(&e, "CLEARPAGE_TO=%s", d->split ? "per-folio" :
		policy_strategy_name(d->to));
	if (d->split) {
		add(&e, "CLEARPAGE_PROBE_HOT=%s", policy_strategy_name(d->split_hot));
		add(&e, "CLEARPAGE_PROBE_COLD=%s", policy_strategy_name(d->split_cold));
	}
	add(&e, "CLEARPAGE_REASON=%s", d->reason);
	add(&e, "CLEARPAGE_COLD_FRACTION=%.3f", d->cold_fraction);
	add(&e, "CLEARPAGE_NS_PER_PAGE=%.1f", d->ns_per_page);
	add(&e, "CLEARPAGE_PREDICTED_GAIN=%.3f", d->predicted_gain);
	/* What a non-temporal page costs the application, where measured. */
	if (d->touch_share >= 0)
		add(&e, "CLEARPAGE_TOUCH_SHARE=%.3f", d->touch_share);
	emit(&e);
}

void log_slower(int priority, const char *message_id, unsigned int node,
		int backend, int strategy, double ns_per_page,
		double kernel_ns_per_page, double window_s, const char *what)
{
	struct entry e;

	if (priority > max_level)
		return;
	start_backend(&e, priority, message_id, node, backend,
		      "%s cost %.0f ns/page, the kernel's routine %.0f ns/page over the last %.0f s (%+.0f%%): %s",
		      policy_strategy_name(strategy), ns_per_page,
		      kernel_ns_per_page, window_s,
		      kernel_ns_per_page > 0 ?
		      (ns_per_page / kernel_ns_per_page - 1) * 100 : 0, what);
	add(&e, "CLEARPAGE_FROM=%s", policy_strategy_name(strategy));
	add(&e, "CLEARPAGE_NS_PER_PAGE=%.1f", ns_per_page);
	add(&e, "CLEARPAGE_KERNEL_NS_PER_PAGE=%.1f", kernel_ns_per_page);
	add(&e, "CLEARPAGE_WINDOW_S=%.1f", window_s);
	emit(&e);
}

/* "1.234 s ± 0.010 s" */
static void format_saved(char *buf, size_t size, const struct log_savings *b)
{
	if (b->uncertainty_ns >= 0)
		snprintf(buf, size, "%.3f s \u00b1 %.3f s", b->saved_ns / 1e9,
			 b->uncertainty_ns / 1e9);
	else
		snprintf(buf, size, "%.3f s", b->saved_ns / 1e9);
}

void log_savings(unsigned int node, long long since,
		 const struct log_savings *backends)
{
	const struct log_savings *k = &backends[CLEARPAGE_BACKEND_4K];
	const struct log_savings *h = &backends[CLEARPAGE_BACKEND_HUGE];
	double saved = k->saved_ns + h->saved_ns;
	double kernel = k->kernel_ns + h->kernel_ns;
	char message[512], s4k[64], shuge[64], when[32];
	time_t t = (time_t)since;
	struct entry e;
	struct tm tm;

	if (LOG_INFO > max_level)
		return;
	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	format_saved(s4k, sizeof(s4k), k);
	format_saved(shuge, sizeof(shuge), h);
	snprintf(message, sizeof(message),
		 "node %u saved %.3f s against the kernel's routine since %s (%.1f%% of its estimated time): 4k %s over %llu pages, huge %s over %llu pages",
		 node, saved / 1e9, when, kernel > 0 ? saved / kernel * 100 : 0,
		 s4k, k->pages, shuge, h->pages);
	start(&e, LOG_INFO, MESSAGE_ID_SAVINGS, message);
	add(&e, "CLEARPAGE_NODE=%u", node);
	add(&e, "CLEARPAGE_SINCE=%lld", since);
	add(&e, "CLEARPAGE_SAVED_NS_4K=%.0f", k->saved_ns);
	add(&e, "CLEARPAGE_SAVED_SD_NS_4K=%.0f", k->uncertainty_ns);
	add(&e, "CLEARPAGE_KERNEL_NS_4K=%.0f", k->kernel_ns);
	add(&e, "CLEARPAGE_PAGES_4K=%llu", k->pages);
	add(&e, "CLEARPAGE_SAVED_NS_HUGE=%.0f", h->saved_ns);
	add(&e, "CLEARPAGE_SAVED_SD_NS_HUGE=%.0f", h->uncertainty_ns);
	add(&e, "CLEARPAGE_KERNEL_NS_HUGE=%.0f", h->kernel_ns);
	add(&e, "CLEARPAGE_PAGES_HUGE=%llu", h->pages);
	emit(&e);
}
