// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the configuration and allowlist parsers: no input may
 * crash them or trip the sanitizers, and a configuration that parses must
 * print back to text that parses to the same configuration.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allowlist.h"
#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct daemon_config a, b;
	struct allowlist list;
	char error[512], *text, *printed;
	size_t printed_size;
	FILE *f;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	if (allowlist_parse(&list, "fuzz", text, error, sizeof(error)) == 0) {
		allowlist_match(&list, "GenuineIntel", 6, 0x55, 7);
		allowlist_free(&list);
	}

	config_defaults(&a);
	if (config_parse(&a, "fuzz", text, NULL, NULL, error, sizeof(error)) == 0) {
		f = open_memstream(&printed, &printed_size);
		config_print(&a, f);
		fclose(f);
		config_defaults(&b);
		if (config_parse(&b, "printed", printed, NULL, NULL, error,
				 sizeof(error)) != 0 ||
		    memcmp(&a.node_strategy, &b.node_strategy,
			   sizeof(a.node_strategy)) ||
		    a.dry_run != b.dry_run || a.log_level != b.log_level ||
		    a.policy.dwell != b.policy.dwell ||
		    strcmp(a.allowlist, b.allowlist))
			abort();
		free(printed);
	}
	free(text);
	return 0;
}
