// SPDX-License-Identifier: GPL-2.0
/*
 * clearpaged: what the CPU allowlist lets the policy use, and the
 * configuration's [Node.N] settings applied to the module as an
 * administrator's (Strategy= pins, GiganticHelpers=, Probe=).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "manager-internal.h"

#define CPU_FILE CLEARPAGE_SYSFS_ROOT "/cpu"

/* Which strategies the policy may use on this CPU. */
void manager_decide_allowlist(struct manager *m)
{
	char vendor[16] = "", error[512];
	unsigned int family = 0, model = 0, stepping = 0;
	const struct allowlist_entry *entry = NULL;
	FILE *f = fopen(CPU_FILE, "re");

	if (f) {
		if (fscanf(f, "vendor=%15s family=%u model=%u stepping=%u",
			   vendor, &family, &model, &stepping) != 4)
			vendor[0] = '\0';
		fclose(f);
	}
	if (m->allowlist_loaded)
		allowlist_free(&m->allowlist);
	m->allowlist_loaded = allowlist_load_all(&m->allowlist,
						 m->config.allowlist_dir,
						 m->config.allowlist, error,
						 sizeof(error)) == 0;
	if (m->allowlist_loaded)
		entry = allowlist_match(&m->allowlist, vendor, family, model,
					stepping);
	m->monitor_only = false;
	if (!m->allowlist_loaded) {
		/* No list, no permission: AllowUnlistedCPU= is for CPUs the
		 * list was read and did not name. */
		m->allowed = 1U << CLEARPAGE_STRATEGY_KERNEL;
		m->monitor_only = true;
		snprintf(m->monitor_reason, sizeof(m->monitor_reason),
			 "the CPU allowlist cannot be read: %.160s", error);
		log_event(LOG_WARNING, MESSAGE_ID_ALLOWLIST,
			  "cannot read the CPU allowlist: %s; monitoring only until it can be read (fix it, then systemctl reload clearpaged)",
			  error);
	} else if (entry) {
		m->allowed = entry->strategies;
		log_event(LOG_INFO, MESSAGE_ID_ALLOWLIST,
			  "CPU %s family %u model %u stepping %u is on the allowlist (%s:%u)",
			  vendor, family, model, stepping, entry->file,
			  entry->line);
	} else if (m->config.allow_unlisted_cpu) {
		m->allowed = ~0U;
		log_event(LOG_NOTICE, MESSAGE_ID_ALLOWLIST,
			  "CPU %s family %u model %u stepping %u is not on the allowlist; AllowUnlistedCPU=yes lets clearpaged act on it",
			  vendor, family, model, stepping);
	} else {
		m->allowed = 1U << CLEARPAGE_STRATEGY_KERNEL;
		m->monitor_only = true;
		snprintf(m->monitor_reason, sizeof(m->monitor_reason),
			 "CPU %s family %u model %u stepping %u is not on the allowlist (AllowUnlistedCPU=no)",
			 vendor, family, model, stepping);
		log_event(LOG_NOTICE, MESSAGE_ID_ALLOWLIST,
			  "CPU %s family %u model %u stepping %u is not on the allowlist: monitoring only; set AllowUnlistedCPU=yes in [CPU] of /etc/clearpaged.conf to act on it",
			  vendor, family, model, stepping);
	}
}

/* [Node.N] GiganticHelpers= from the configuration. */
static void apply_config_helpers(struct manager *m, int node)
{
	int helpers = m->config.node_helpers[node], err;

	if (helpers < 0)
		return;
	err = cp_set_helpers(m->client, node, helpers);
	if (err)
		log_line(LOG_WARNING, "[Node.%d] GiganticHelpers=%d from the configuration: %s%s%s",
			 node, helpers, strerror(-err),
			 *cp_client_error(m->client) ? ": " : "",
			 cp_client_error(m->client));
	else
		log_line(LOG_INFO, "node %d: gigantic helpers %d, from GiganticHelpers= in the configuration",
			 node, helpers);
}

/*
 * [Node.N] Probe= from the configuration: the huge backend's probe mode,
 * which pins it. A node that refuses it (its probe calibration cannot tell
 * a cached line from memory) keeps the policy, and the log says why.
 */
static void apply_config_probe(struct manager *m, int node)
{
	int mode = m->config.node_probe[node], err;
	const char *hot, *cold;

	if (mode == CONFIG_PROBE_NONE)
		return;
	hot = policy_strategy_name(m->config.node_probe_hot[node]);
	cold = policy_strategy_name(m->config.node_probe_cold[node]);
	err = cp_set_probe(m->client, node, CLEARPAGE_BACKEND_HUGE,
			   mode == CONFIG_PROBE_ON, m->config.node_probe_hot[node],
			   m->config.node_probe_cold[node], CLEARPAGE_SOURCE_ADMIN);
	if (err)
		log_line(LOG_WARNING, "[Node.%d] Probe=%s%s%s from the configuration: %s%s%s; the huge backend keeps the policy",
			 node, mode == CONFIG_PROBE_ON ? hot : "off",
			 mode == CONFIG_PROBE_ON ? "," : "",
			 mode == CONFIG_PROBE_ON ? cold : "", strerror(-err),
			 *cp_client_error(m->client) ? ": " : "",
			 cp_client_error(m->client));
	else if (mode == CONFIG_PROBE_ON)
		log_event(LOG_INFO, MESSAGE_ID_PIN_SEEN,
			  "node %d huge: probe on (hot folios %s, cold folios %s), pinned by Probe= in the configuration",
			  node, hot, cold);
	else
		log_line(LOG_INFO, "node %d huge: probe off, from Probe= in the configuration",
			 node);
}

/*
 * [Node.N] from the configuration: Strategy= pins, applied as an admin;
 * GiganticHelpers=; Probe=.
 */
void manager_apply_node_config(struct manager *m)
{
	int node, err;

	for (node = 0; node < CONFIG_MAX_NODES; node++) {
		int strategy = m->config.node_strategy[node];

		apply_config_helpers(m, node);
		apply_config_probe(m, node);
		if (strategy < 0)
			continue;
		err = cp_set_strategy(m->client, node, CP_BACKEND_ALL, strategy,
				      CLEARPAGE_SOURCE_ADMIN);
		if (err)
			log_line(LOG_WARNING, "[Node.%d] Strategy=%s from the configuration: %s %s",
				 node, policy_strategy_name(strategy), strerror(-err),
				 cp_client_error(m->client));
		else
			log_event(LOG_INFO, MESSAGE_ID_PIN_SEEN,
				  "node %d pinned to %s by the configuration",
				  node, policy_strategy_name(strategy));
	}
}
