// SPDX-License-Identifier: GPL-2.0
/* clearpagectl status: a table per node, or JSON for scripts. */
#include <stdio.h>

#include "ctl.h"

static void print_table(const struct cp_node_info *n, bool calibration_only)
{
	char when[64];
	int i;

	ctl_format_time(n->last_change_ns, when, sizeof(when));
	if (calibration_only)
		printf("node %u\n", n->node);
	else
		printf("node %u: strategy %s, %s (last change: %s, %s)\n",
		       n->node, cp_strategy_name(n->strategy),
		       n->pinned ? "pinned" : "not pinned",
		       cp_source_name(n->source), when);
	printf("  %-10s %12s %12s %10s %8s %8s\n", "STRATEGY", "PAGES_4K",
	       "PAGES_HUGE", "NS/PAGE", "HOT_NS", "COLD_NS");
	for (i = 0; i < n->nr_strategies; i++) {
		const struct cp_strategy_info *s = &n->strategies[i];
		char hot[16] = "-", cold[16] = "-", avg[24] = "-";

		if (s->has_calibration) {
			snprintf(hot, sizeof(hot), "%u", s->hot_ns);
			snprintf(cold, sizeof(cold), "%u", s->cold_ns);
		}
		if (s->samples)
			snprintf(avg, sizeof(avg), "%llu",
				 (unsigned long long)(s->sample_ns / s->samples));
		printf("%c %-10s %12llu %12llu %10s %8s %8s\n",
		       !calibration_only && s->strategy == n->strategy ? '*' : ' ',
		       cp_strategy_name(s->strategy),
		       (unsigned long long)s->pages_4k,
		       (unsigned long long)s->pages_huge, avg, hot, cold);
	}
	if (!calibration_only) {
		printf("  huge pages already zeroed by the allocator: %llu\n",
		       (unsigned long long)n->pages_huge_prezeroed);
		if (n->reference_pages)
			printf("  reference frames cleared by the kernel's routine: %llu, %llu ns/page\n",
			       (unsigned long long)n->reference_pages,
			       (unsigned long long)(n->reference_sample_ns /
						    n->reference_pages));
	}
}

static void print_json(const struct cp_node_info *n, bool calibration_only)
{
	char when[64];
	int i;

	printf("{\"node\":%u", n->node);
	if (!calibration_only) {
		ctl_format_time(n->last_change_ns, when, sizeof(when));
		printf(",\"strategy\":\"%s\",\"pinned\":%s,\"source\":\"%s\","
		       "\"last_change\":\"%s\",\"last_change_ns\":%llu,"
		       "\"pages_huge_prezeroed\":%llu,\"reference_pages\":%llu,"
		       "\"reference_sample_ns\":%llu",
		       cp_strategy_name(n->strategy),
		       n->pinned ? "true" : "false", cp_source_name(n->source),
		       when, (unsigned long long)n->last_change_ns,
		       (unsigned long long)n->pages_huge_prezeroed,
		       (unsigned long long)n->reference_pages,
		       (unsigned long long)n->reference_sample_ns);
	}
	printf(",\"strategies\":[");
	for (i = 0; i < n->nr_strategies; i++) {
		const struct cp_strategy_info *s = &n->strategies[i];

		printf("%s{\"name\":\"%s\"", i ? "," : "",
		       cp_strategy_name(s->strategy));
		if (!calibration_only)
			printf(",\"pages_4k\":%llu,\"pages_huge\":%llu,"
			       "\"samples\":%llu,\"sample_ns\":%llu",
			       (unsigned long long)s->pages_4k,
			       (unsigned long long)s->pages_huge,
			       (unsigned long long)s->samples,
			       (unsigned long long)s->sample_ns);
		if (s->has_calibration)
			printf(",\"hot_ns\":%u,\"cold_ns\":%u", s->hot_ns,
			       s->cold_ns);
		printf("}");
	}
	printf("]");
	if (!calibration_only) {
		printf(",\"latency_ns\":{");
		for (i = 0; i < CLEARPAGE_LATENCY_BUCKETS - 1; i++)
			printf("%s\"%llu\":%llu", i ? "," : "",
			       1ULL << (CLEARPAGE_LATENCY_FIRST_SHIFT + i),
			       (unsigned long long)n->latency[i]);
		printf(",\"inf\":%llu}",
		       (unsigned long long)n->latency[CLEARPAGE_LATENCY_BUCKETS - 1]);
	}
	printf("}");
}

void print_nodes(const struct cp_node_info *nodes, int count, bool json,
		 bool calibration_only)
{
	int i;

	if (json)
		printf("{\"nodes\":[");
	for (i = 0; i < count; i++) {
		if (json) {
			printf("%s", i ? "," : "");
			print_json(&nodes[i], calibration_only);
		} else {
			printf("%s", i ? "\n" : "");
			print_table(&nodes[i], calibration_only);
		}
	}
	if (json)
		printf("]}\n");
}

int cmd_status(int argc, char **argv, const struct ctl_options *o)
{
	static struct cp_node_info nodes[CP_MAX_NODES];
	struct cp_client *client;
	int n, rc;

	(void)argv;
	if (argc) {
		fprintf(stderr, "clearpagectl: status takes no arguments\n");
		return EXIT_USAGE;
	}
	rc = ctl_open(&client);
	if (rc)
		return rc;
	n = cp_dump_nodes(client, nodes, CP_MAX_NODES);
	if (n < 0)
		rc = ctl_fail(client, n, "reading nodes");
	else
		print_nodes(nodes, n, o->json, false);
	cp_client_close(client);
	return rc;
}
