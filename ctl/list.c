// SPDX-License-Identifier: GPL-2.0
/* clearpagectl list: the strategies, what each runs and is good for. */
#include <stdio.h>
#include <string.h>

#include "ctl.h"

static const struct {
	const char *runs, *good;
} about[CLEARPAGE_STRATEGY_COUNT] = {
	[CLEARPAGE_STRATEGY_KERNEL] = { "the running kernel's own clear",
					"always; the baseline" },
	[CLEARPAGE_STRATEGY_REP_STOSB] = { "rep stosb (ERMS)",
					   "hot pages; cold huge folios" },
	[CLEARPAGE_STRATEGY_REP_STOSQ] = { "rep stosq",
					   "hot pages, CPUs without ERMS" },
	[CLEARPAGE_STRATEGY_MOVQ] = { "8 movq per 64-byte line",
				      "cold pages, some Intel parts" },
	[CLEARPAGE_STRATEGY_MOVNTI] = { "8 movnti per line, non-temporal",
					"cold pages not read at once" },
	[CLEARPAGE_STRATEGY_CLZERO] = { "AMD clzero per line, non-temporal",
					"cold huge folios on AMD Zen" },
};

int cmd_list(int argc, char **argv, const struct ctl_options *o)
{
	static struct cp_node_info nodes[CP_MAX_NODES];
	struct cp_client *client = NULL;
	bool here[CLEARPAGE_STRATEGY_COUNT] = { false };
	struct json_object *root = NULL, *array = NULL, *entry;
	int n = -1, i, s;

	(void)argv;
	if (argc) {
		fprintf(stderr, "clearpagectl: list takes no arguments\n");
		return EXIT_USAGE;
	}
	/* What this CPU has, from the module; without it, not known. */
	if (!cp_client_open(&client)) {
		n = cp_dump_nodes(client, nodes, CP_MAX_NODES);
		cp_client_close(client);
	}
	for (i = 0; n > 0 && i < nodes[0].nr_strategies; i++)
		if (nodes[0].strategies[i].strategy >= 0 &&
		    nodes[0].strategies[i].strategy < CLEARPAGE_STRATEGY_COUNT)
			here[nodes[0].strategies[i].strategy] = true;
	if (o->json)
		array = ctl_json_array(root = ctl_json_new(), "strategies");
	else
		printf("%-10s %-5s %-34s %s\n", "STRATEGY", "HERE", "RUNS",
		       "GOOD FOR");
	for (s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		const char *avail = n <= 0 ? "?" : here[s] ? "yes" : "no";

		if (!o->json) {
			printf("%-10s %-5s %-34s %s\n", cp_strategy_name(s),
			       avail, about[s].runs, about[s].good);
			continue;
		}
		entry = ctl_json_append(array);
		ctl_json_string(entry, "name", cp_strategy_name(s));
		ctl_json_bool(entry, "non_temporal",
			      s == CLEARPAGE_STRATEGY_MOVNTI ||
			      s == CLEARPAGE_STRATEGY_CLZERO);
		if (n <= 0)
			ctl_json_null(entry, "available");
		else
			ctl_json_bool(entry, "available", here[s]);
		ctl_json_string(entry, "runs", about[s].runs);
		ctl_json_string(entry, "good_for", about[s].good);
	}
	if (o->json)
		return ctl_json_print(root);
	if (n <= 0)
		printf("HERE: ? without the module; loaded, it says what this CPU has.\n");
	return EXIT_OK;
}
