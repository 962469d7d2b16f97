// SPDX-License-Identifier: GPL-2.0
/* clearpaged's configuration files; see config.h. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "config.h"

#define DEFAULT_ALLOWLIST "/usr/share/clearpaged/cpu-allowlist.conf"

enum value_type { T_BOOL, T_AUTO_BOOL, T_DOUBLE, T_SECONDS, T_UINT, T_U64,
		  T_STRATEGY, T_PATH, T_LOG_LEVEL };

struct key {
	const char *section;
	const char *name;
	enum value_type type;
	size_t offset;
	double min, max;
};

#define K(section, name, type, field, min, max) \
	{ section, name, type, offsetof(struct daemon_config, field), min, max }

static const struct key keys[] = {
	K("Daemon", "Interval", T_SECONDS, interval, 0.1, 3600),
	K("Daemon", "DryRun", T_BOOL, dry_run, 0, 0),
	K("Daemon", "LogLevel", T_LOG_LEVEL, log_level, 0, 0),
	/* min 1: may be empty (off). */
	K("Daemon", "MetricsFile", T_PATH, metrics_file, 1, 0),
	K("Policy", "UpThreshold", T_DOUBLE, policy.up_threshold, 0, 1),
	K("Policy", "DownThreshold", T_DOUBLE, policy.down_threshold, 0, 1),
	K("Policy", "Margin", T_DOUBLE, policy.margin, 0, 10),
	K("Policy", "DwellIntervals", T_UINT, policy.dwell, 1, 3600),
	K("Policy", "FastGain", T_DOUBLE, policy.fast_gain, 0, 10),
	K("Policy", "RateLimitIntervals", T_UINT, policy.rate_limit, 0, 86400),
	K("Policy", "ConfirmIntervals", T_UINT, policy.confirm, 1, 3600),
	K("Policy", "RevertTolerance", T_DOUBLE, policy.revert_tolerance, 0, 10),
	K("Policy", "BackoffIntervals", T_UINT, policy.backoff, 0, 86400),
	K("Policy", "ProbeIntervals", T_UINT, policy.probe_interval, 1, 86400),
	K("Policy", "MinSamples", T_U64, policy.min_samples, 1, 1e9),
	K("Policy", "MinSpread", T_DOUBLE, policy.min_spread, 1, 100),
	K("Policy", "MinColdMissRatio", T_DOUBLE, policy.min_cold_miss_ratio, 0, 1),
	K("Policy", "HotStrategy", T_STRATEGY, policy.hot_strategy, 0, 0),
	K("Policy", "ColdStrategy", T_STRATEGY, policy.cold_strategy, 0, 0),
	K("Policy", "NonTemporal", T_AUTO_BOOL, policy.non_temporal, 0, 0),
	K("Policy", "PerFolio", T_BOOL, policy.per_folio, 0, 0),
	K("Policy", "TrialCandidates", T_UINT, policy.trial_candidates, 0, CLEARPAGE_STRATEGY_COUNT - 1),
	K("Policy", "TrialWindow", T_UINT, policy.trial_window, 2, POLICY_TRIAL_WINDOW_MAX),
	K("Policy", "TrialMargin", T_DOUBLE, policy.trial_margin, 0, 1),
	K("Policy", "TrialConfidence", T_DOUBLE, policy.trial_confidence, 0, 10),
	K("Policy", "TrialSettle", T_UINT, policy.trial_settle, 1, 86400),
	K("Baseline", "SlowerMargin", T_DOUBLE, policy.slower_margin, 0, 10),
	K("Baseline", "SlowerWindow", T_SECONDS, slower_window, 1, 86400),
	K("Baseline", "SummaryInterval", T_SECONDS, summary_interval, 1, 86400),
	K("CPU", "AllowList", T_PATH, allowlist, 0, 0),
	K("CPU", "AllowUnlistedCPU", T_BOOL, allow_unlisted_cpu, 0, 0),
};

static const char *const log_levels[] = {
	[CONFIG_LOG_ERR] = "err", [CONFIG_LOG_WARNING] = "warning",
	[CONFIG_LOG_NOTICE] = "notice", [CONFIG_LOG_INFO] = "info",
	[CONFIG_LOG_DEBUG] = "debug",
};

void config_defaults(struct daemon_config *config)
{
	int i;

	memset(config, 0, sizeof(*config));
	config->interval = 1;
	config->log_level = CONFIG_LOG_INFO;
	policy_config_defaults(&config->policy);
	config->slower_window = 60;
	config->summary_interval = 3600;
	snprintf(config->allowlist, sizeof(config->allowlist), "%s",
		 DEFAULT_ALLOWLIST);
	snprintf(config->allowlist_dir, sizeof(config->allowlist_dir), "%s",
		 "/etc/clearpaged/cpu-allowlist.d");
	for (i = 0; i < CONFIG_MAX_NODES; i++) {
		config->node_strategy[i] = -1;
		config->node_helpers[i] = -1;
		config->node_probe[i] = CONFIG_PROBE_NONE;
		config->node_probe_hot[i] = -1;
		config->node_probe_cold[i] = -1;
	}
	config_finish(config);
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (!strcasecmp(v, yes[i]) || !strcasecmp(v, no[i])) {
			*out = !strcasecmp(v, yes[i]);
			return 0;
		}
	}
	return -EINVAL;
}

/* A strategy name, or "auto"/"none" for -1. */
static int parse_strategy(const char *v, int *out)
{
	int s = policy_strategy_from_name(v);

	if (!strcmp(v, "auto") || !strcmp(v, "none"))
		s = -1;
	else if (s < 0)
		return -EINVAL;
	*out = s;
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Digits with an optional fraction, "30", "1.5", ".5": no sign, no exponent. */
static const char *parse_decimal(const char *s, double *out)
{
	double n = 0, scale = 1;
	bool digits = false;

	for (; *s >= '0' && *s <= '9'; s++, digits = true)
		n = n * 10 + (*s - '0');
	if (*s == '.') {
		/* "3.sec" is refused, as systemd does: a digit after the dot. */
		if (s[1] < '0' || s[1] > '9')
			return NULL;
		for (s++; *s >= '0' && *s <= '9'; s++, digits = true) {
			scale /= 10;
			n += (*s - '0') * scale;
		}
	}
	*out = n;
	return digits ? s : NULL;
}

/*
 * A time span as systemd writes one (systemd.time(7)): a number of seconds,
 * or numbers each with a unit, "1min 30s", "500ms", ".5s", "2h"; 0 or
 * -EINVAL.
 */
static int parse_seconds(const char *v, double *out)
{
	static const struct {
		const char *unit;
		double seconds;
	} units[] = {
		{ "nsec", 1e-9 }, { "ns", 1e-9 },
		{ "usec", 1e-6 }, { "us", 1e-6 }, { "\xc2\xb5s", 1e-6 },
		{ "\xce\xbcs", 1e-6 }, { "msec", 1e-3 }, { "ms", 1e-3 },
		{ "seconds", 1 }, { "second", 1 }, { "sec", 1 }, { "s", 1 },
		{ "minutes", 60 }, { "minute", 60 }, { "min", 60 }, { "m", 60 },
		{ "hours", 3600 }, { "hour", 3600 }, { "hr", 3600 }, { "h", 3600 },
		{ "days", 86400 }, { "day", 86400 }, { "d", 86400 },
		{ "weeks", 604800 }, { "week", 604800 }, { "w", 604800 },
	};
	double total = 0;
	bool any = false;

	for (;;) {
		size_t i, len = 0;
		double n, unit = 1;	/* a number alone is seconds */
		const char *after;

		while (is_blank(*v))
			v++;
		if (!*v)
			break;
		v = parse_decimal(v, &n);
		if (!v)			/* no sign, no bare unit */
			return -EINVAL;
		after = v;
		while (is_blank(*v))
			v++;
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			len = strlen(units[i].unit);
			if (!strncmp(v, units[i].unit, len) &&
			    (!v[len] || is_blank(v[len]) || v[len] == '.' ||
			     (v[len] >= '0' && v[len] <= '9')))
				break;
		}
		if (i < sizeof(units) / sizeof(units[0])) {
			unit = units[i].seconds;
			v += len;
		} else if (*v && v == after) {	/* "1.5.5", "1x" */
			return -EINVAL;
		}
		total += n * unit;
		any = true;
	}
	if (!any || !isfinite(total))
		return -EINVAL;
	/* Whole microseconds, as systemd keeps them: 100000us is 0.1 s. */
	*out = round(total * 1e6) / 1e6;
	return 0;
}

#define FAIL(...) (snprintf(error, error_size, __VA_ARGS__), -EINVAL)


static int set_value(struct daemon_config *c, const struct key *k,
		     const char *v, const char *where, char *error,
		     size_t error_size)
{
	void *field = (char *)c + k->offset;
	char *end;
	double d;
	int i;

	switch (k->type) {
	case T_BOOL:
		if (parse_bool(v, field))
			return FAIL("%s: %s=%s: expected yes or no", where,
				    k->name, v);
		return 0;
	case T_AUTO_BOOL: {
		bool b;

		if (!strcmp(v, "auto")) {
			*(int *)field = POLICY_NT_AUTO;
			return 0;
		}
		if (parse_bool(v, &b))
			return FAIL("%s: %s=%s: expected auto, yes or no", where,
				    k->name, v);
		*(int *)field = b ? POLICY_NT_YES : POLICY_NT_NO;
		return 0;
	}
	case T_SECONDS:
		if (parse_seconds(v, &d) || d < k->min || d > k->max)
			return FAIL("%s: %s=%s: expected a time from %gs to %gs (seconds, or a span such as 500ms, 2min, 1h 30min)",
				    where, k->name, v, k->min, k->max);
		*(double *)field = d;
		return 0;
	case T_DOUBLE:
	case T_UINT:
	case T_U64:
		errno = 0;
		d = strtod(v, &end);
		if (errno || end == v || *end || !isfinite(d) || d < k->min ||
		    d > k->max || (k->type != T_DOUBLE && d != floor(d)))
			return FAIL("%s: %s=%s: expected %s from %g to %g", where,
				    k->name, v,
				    k->type == T_DOUBLE ? "a number" :
							  "a whole number",
				    k->min, k->max);
		if (k->type == T_DOUBLE)
			*(double *)field = d;
		else if (k->type == T_UINT)
			*(unsigned int *)field = d;
		else
			*(uint64_t *)field = d;
		return 0;
	case T_STRATEGY:
		if (parse_strategy(v, field))
			return FAIL("%s: %s=%s: expected auto or one of kernel rep_stosb rep_stosq movq movnti clzero",
				    where, k->name, v);
		return 0;
	case T_PATH:
		if (k->min == 1 && !v[0]) {
			*(char *)field = '\0';
			return 0;
		}
		if (v[0] != '/' || strlen(v) >= CONFIG_PATH_MAX)
			return FAIL("%s: %s=%s: expected an absolute path", where,
				    k->name, v);
		strcpy(field, v);
		return 0;
	case T_LOG_LEVEL:
		for (i = CONFIG_LOG_ERR; i <= CONFIG_LOG_DEBUG; i++) {
			if (!strcmp(v, log_levels[i])) {
				*(int *)field = i;
				return 0;
			}
		}
		return FAIL("%s: %s=%s: expected err, warning, notice, info or debug",
			    where, k->name, v);
	}
	return -EINVAL;
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

static void warn_at(config_warn_fn warn, void *arg, const char *fmt,
		    const char *where, const char *what, const char *section)
{
	char message[512];

	if (!warn)
		return;
	snprintf(message, sizeof(message), fmt, where, what, section);
	warn(message, arg);
}

/* Probe=: none, off, or HOT,COLD (two strategy names). */
static int parse_probe(struct daemon_config *c, int node, const char *v)
{
	const char *comma = strchr(v, ',');
	char hot[32];
	int h, k;

	if (!strcmp(v, "none") || !strcmp(v, "off")) {
		c->node_probe[node] = strcmp(v, "off") ? CONFIG_PROBE_NONE :
							 CONFIG_PROBE_OFF;
		c->node_probe_hot[node] = c->node_probe_cold[node] = -1;
		return 0;
	}
	if (!comma || (size_t)(comma - v) >= sizeof(hot))
		return -EINVAL;
	memcpy(hot, v, comma - v);
	hot[comma - v] = '\0';
	h = policy_strategy_from_name(hot);
	k = policy_strategy_from_name(comma + 1);
	if (h < 0 || k < 0)
		return -EINVAL;
	c->node_probe[node] = CONFIG_PROBE_ON;
	c->node_probe_hot[node] = h;
	c->node_probe_cold[node] = k;
	return 0;
}

/* A key of [Node.N]: Strategy=, GiganticHelpers= or Probe=. */
static int set_node_value(struct daemon_config *c, int node, const char *name,
			  const char *v, const char *where, const char *section,
			  config_warn_fn warn, void *warn_arg, char *error,
			  size_t error_size)
{
	char *end;
	long n;

	if (!strcmp(name, "Strategy")) {
		if (parse_strategy(v, &c->node_strategy[node]))
			return FAIL("%s: Strategy=%s: expected none or one of kernel rep_stosb rep_stosq movq movnti clzero",
				    where, v);
		return 0;
	}
	if (!strcmp(name, "GiganticHelpers")) {
		errno = 0;
		n = strtol(v, &end, 10);
		if (!strcmp(v, "none")) {
			c->node_helpers[node] = -1;
			return 0;
		}
		if (errno || end == v || *end || *v < '0' || *v > '9' ||
		    n > CLEARPAGE_HELPERS_MAX)
			return FAIL("%s: GiganticHelpers=%s: expected none or a count from 0 to %d (at most the node's CPUs less one)",
				    where, v, CLEARPAGE_HELPERS_MAX);
		c->node_helpers[node] = n;
		return 0;
	}
	if (!strcmp(name, "Probe")) {
		if (parse_probe(c, node, v))
			return FAIL("%s: Probe=%s: expected none, off or HOT,COLD: two of kernel rep_stosb rep_stosq movq movnti clzero",
				    where, v);
		return 0;
	}
	warn_at(warn, warn_arg, "%s: unknown key '%s' in [%s], ignored", where,
		name, section);
	return 0;
}

void config_add_error(char *error, size_t error_size, unsigned int *errors,
		      const char *message)
{
	size_t used = *errors ? strlen(error) : 0;

	if (!*errors)
		snprintf(error, error_size, "%s", message);
	else if (used + 1 < error_size)
		snprintf(error + used, error_size - used, "\n%s", message);
	(*errors)++;
}

/* Where a key of another section by this name is, to name it in a warning. */
static const char *section_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].name, name))
			return keys[i].section;
	return NULL;
}

/*
 * The where of the two keys config_check() compares, so that its error
 * names them.
 */
static void note_where(struct daemon_config *c, const char *name,
		       const char *where)
{
	if (!strcmp(name, "UpThreshold"))
		snprintf(c->up_where, sizeof(c->up_where), "%s", where);
	else if (!strcmp(name, "DownThreshold"))
		snprintf(c->down_where, sizeof(c->down_where), "%s", where);
}

int config_parse(struct daemon_config *config, const char *path,
		 const char *text, config_warn_fn warn, void *warn_arg,
		 char *error, size_t error_size)
{
	char *copy = strdup(text), *line, *next, section[64] = "";
	unsigned int number = 0, errors = 0;
	bool skip = false;	/* the keys of a section whose header is bad */
	int node = -1;

	if (!copy) {
		snprintf(error, error_size, "%s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	/* Every line is read: each error is reported, not just the first. */
	for (line = copy; line; line = next) {
		char where[CONFIG_PATH_MAX + 32], message[512], *s, *eq, *name,
			*value;
		const char *other;
		size_t i;
		int err = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		number++;
		snprintf(where, sizeof(where), "%s:%u", path, number);
		s = trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');
			char *end;
			long id;

			skip = true;
			node = -1;
			if (!close || close[1] != '\0' || close - s - 1 >= (long)sizeof(section)) {
				snprintf(message, sizeof(message),
					 "%s: expected a section header like [Policy]", where);
				config_add_error(error, error_size, &errors, message);
				continue;
			}
			memcpy(section, s + 1, close - s - 1);
			section[close - s - 1] = '\0';
			if (!strncmp(section, "Node.", 5)) {
				errno = 0;
				id = strtol(section + 5, &end, 10);
				if (errno || end == section + 5 || *end || id < 0 ||
				    id >= CONFIG_MAX_NODES) {
					snprintf(message, sizeof(message),
						 "%s: [%s]: expected [Node.N] with N from 0 to %d",
						 where, section, CONFIG_MAX_NODES - 1);
					config_add_error(error, error_size, &errors,
							 message);
					continue;
				}
				node = id;
			} else if (strcmp(section, "Daemon") && strcmp(section, "Policy") &&
				   strcmp(section, "Baseline") &&
				   strcmp(section, "CPU")) {
				warn_at(warn, warn_arg, "%s: unknown section [%s], ignored%s",
					where, section, "");
			}
			skip = false;
			continue;
		}
		if (skip)
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			snprintf(message, sizeof(message), "%s: expected Key=Value",
				 where);
			config_add_error(error, error_size, &errors, message);
			continue;
		}
		*eq = '\0';
		name = trim(s);
		value = trim(eq + 1);
		if (!*section) {
			snprintf(message, sizeof(message),
				 "%s: %s= outside of a section", where, name);
			config_add_error(error, error_size, &errors, message);
			continue;
		}
		if (node >= 0) {
			err = set_node_value(config, node, name, value, where,
					     section, warn, warn_arg, message,
					     sizeof(message));
		} else {
			for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
				if (!strcmp(keys[i].section, section) &&
				    !strcmp(keys[i].name, name))
					break;
			if (i == sizeof(keys) / sizeof(keys[0])) {
				other = section_of(name);
				snprintf(message, sizeof(message),
					 "%s: unknown key '%s' in [%s], ignored%s%s%s",
					 where, name, section,
					 other ? ": it is a key of [" : "",
					 other ? other : "", other ? "]" : "");
				if (warn)
					warn(message, warn_arg);
				continue;
			}
			err = set_value(config, &keys[i], value, where, message,
					sizeof(message));
			if (!err)
				note_where(config, name, where);
		}
		if (err)
			config_add_error(error, error_size, &errors, message);
	}
	free(copy);
	return errors ? -EINVAL : 0;
}

/*
 * The policy's guard, a stage of its pipeline, counts in intervals: the
 * [Baseline] SlowerWindow in those of [Daemon] Interval (SlowerMargin is
 * the policy's own).
 */
void config_finish(struct daemon_config *config)
{
	config->policy.interval_seconds = config->interval;
	config->policy.slower_window = (unsigned int)(config->slower_window /
						      config->interval + 0.999);
	if (config->policy.slower_window > BASELINE_MAX_WINDOW)
		config->policy.slower_window = BASELINE_MAX_WINDOW;
}

int config_check(const struct daemon_config *config, char *error,
		 size_t error_size)
{
	if (config->policy.down_threshold >= config->policy.up_threshold)
		return FAIL("%s%s[Policy] DownThreshold=%g must be below UpThreshold=%g%s%s%s",
			    config->down_where, config->down_where[0] ? ": " : "",
			    config->policy.down_threshold,
			    config->policy.up_threshold,
			    config->up_where[0] ? " (set at " : "",
			    config->up_where, config->up_where[0] ? ")" : "");
	return 0;
}

static const char *strategy_or_auto(int strategy)
{
	return strategy < 0 ? "auto" : policy_strategy_name(strategy);
}

void config_apply_overrides(struct daemon_config *config,
			    const struct daemon_overrides *overrides)
{
	if (overrides->dry_run)
		config->dry_run = true;
}

void config_print(const struct daemon_config *c, FILE *out)
{
	const struct policy_config *p = &c->policy;
	int n;

	fprintf(out, "[Daemon]\nInterval=%g\nDryRun=%s\nLogLevel=%s\nMetricsFile=%s\n\n",
		c->interval, c->dry_run ? "yes" : "no", log_levels[c->log_level],
		c->metrics_file);
	fprintf(out,
		"[Policy]\nUpThreshold=%g\nDownThreshold=%g\nMargin=%g\n"
		"DwellIntervals=%u\nFastGain=%g\nRateLimitIntervals=%u\nConfirmIntervals=%u\n"
		"RevertTolerance=%g\nBackoffIntervals=%u\nProbeIntervals=%u\n"
		"MinSamples=%llu\nMinSpread=%g\nMinColdMissRatio=%g\n"
		"HotStrategy=%s\nColdStrategy=%s\nNonTemporal=%s\nPerFolio=%s\n"
		"TrialCandidates=%u\nTrialWindow=%u\nTrialMargin=%g\n"
		"TrialConfidence=%g\nTrialSettle=%u\n\n",
		p->up_threshold, p->down_threshold, p->margin, p->dwell,
		p->fast_gain,
		p->rate_limit, p->confirm, p->revert_tolerance, p->backoff,
		p->probe_interval, (unsigned long long)p->min_samples,
		p->min_spread, p->min_cold_miss_ratio, strategy_or_auto(p->hot_strategy),
		strategy_or_auto(p->cold_strategy),
		p->non_temporal == POLICY_NT_AUTO ? "auto" :
		p->non_temporal == POLICY_NT_YES ? "yes" : "no",
		p->per_folio ? "yes" : "no", p->trial_candidates, p->trial_window, p->trial_margin,
		p->trial_confidence, p->trial_settle);
	fprintf(out, "[Baseline]\nSlowerMargin=%g\nSlowerWindow=%g\nSummaryInterval=%g\n\n",
		p->slower_margin, c->slower_window, c->summary_interval);
	fprintf(out, "[CPU]\nAllowList=%s\nAllowUnlistedCPU=%s\n", c->allowlist,
		c->allow_unlisted_cpu ? "yes" : "no");
	for (n = 0; n < CONFIG_MAX_NODES; n++) {
		if (c->node_strategy[n] < 0 && c->node_helpers[n] < 0 &&
		    c->node_probe[n] == CONFIG_PROBE_NONE)
			continue;
		fprintf(out, "\n[Node.%d]\n", n);
		if (c->node_strategy[n] >= 0)
			fprintf(out, "Strategy=%s\n",
				policy_strategy_name(c->node_strategy[n]));
		if (c->node_helpers[n] >= 0)
			fprintf(out, "GiganticHelpers=%d\n", c->node_helpers[n]);
		if (c->node_probe[n] == CONFIG_PROBE_OFF)
			fprintf(out, "Probe=off\n");
		else if (c->node_probe[n] == CONFIG_PROBE_ON)
			fprintf(out, "Probe=%s,%s\n",
				policy_strategy_name(c->node_probe_hot[n]),
				policy_strategy_name(c->node_probe_cold[n]));
	}
}
