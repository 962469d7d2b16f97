// SPDX-License-Identifier: GPL-2.0
/*
 * Runs a fuzz target over files, without libFuzzer: every build replays the
 * seed inputs through the parsers (with gcc and no sanitizers, a crash or an
 * abort() of the target's own checks still fails the test).
 *
 *   fuzz-NAME-replay FILE...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int i, failed = 0;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *data = NULL;
		size_t size = 0, capacity = 0, n;

		if (!f) {
			printf("FAIL: cannot open %s\n", argv[i]);
			failed++;
			continue;
		}
		do {
			if (size == capacity) {
				capacity = capacity ? 2 * capacity : 4096;
				data = realloc(data, capacity);
				if (!data)
					abort();
			}
			n = fread(data + size, 1, capacity - size, f);
			size += n;
		} while (n);
		fclose(f);
		LLVMFuzzerTestOneInput(data, size);
		free(data);
		printf("PASS: %s (%zu bytes) parsed without a fault\n", argv[i],
		       size);
	}
	printf("%d passed, %d failed, 0 skipped\n", argc - 1 - failed, failed);
	return failed ? 1 : 0;
}
