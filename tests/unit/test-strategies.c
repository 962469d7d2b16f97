// SPDX-License-Identifier: GPL-2.0
/*
 * The shared strategy routines, run in user space on the real CPU: each
 * zeroes exactly one 4 KiB page and never touches a byte outside it, at
 * every position the kernel clears (the base pages of a 2 MiB huge page,
 * page-aligned addresses of every alignment up to 2 MiB); each range form
 * zeroes exactly its range at every length and start the huge backend uses.
 * CPU detection is checked against /proc/cpuinfo.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <clearpage/strategies.h>
#include <clearpage/folio.h>
#include <clearpage/probe.h>

#include "check.h"

static const char *const names[] = CLEARPAGE_STRATEGY_NAMES;

#define HUGE_SIZE (2UL << 20)
#define GUARD 0xcc

/* A check whose message names two things. */
#define report(ok, fmt, a, b) CHECK(ok, fmt, a, b)

static void run_strategy(const struct clearpage_cpu *cpu, int strategy,
			 void *page)
{
	/* kernel: in user space, the plain clear it stands for. */
	(void)cpu;
	if (clearpage_run_routine(strategy, page))
		memset(page, 0, CLEARPAGE_PAGE_SIZE);
}

/*
 * The range form over [@offset, @offset + @bytes) of a guarded area: the
 * number of bytes that are wrong.
 */
static unsigned long clear_range_and_count(int strategy, unsigned char *area,
					   unsigned long area_size,
					   unsigned long offset,
					   unsigned long bytes)
{
	unsigned long i, wrong = 0;

	memset(area, GUARD, area_size);
	if (clearpage_run_range_routine(strategy, area + offset, bytes))
		memset(area + offset, 0, bytes);
	for (i = 0; i < area_size; i++) {
		int inside = i >= offset && i < offset + bytes;

		wrong += inside ? area[i] != 0 : area[i] != GUARD;
	}
	return wrong;
}

/*
 * Every range the huge backend clears: whole folios, chunks of every size it
 * uses, the pieces left and right of a faulting subpage (odd lengths,
 * starting anywhere), single pages.
 */
static void test_range(int strategy, unsigned char *area,
		       unsigned long area_size)
{
	static const struct { unsigned long first, pages; } ranges[] = {
		{ 0, 512 }, { 0, 1 }, { 511, 1 }, { 0, 16 }, { 16, 16 },
		{ 3, 31 }, { 1, 509 }, { 256, 256 }, { 0, 255 }, { 258, 254 },
		{ 0, 768 },
	};
	unsigned long wrong = 0;
	size_t i;

	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		wrong += clear_range_and_count(strategy, area, area_size,
					       HUGE_SIZE +
					       ranges[i].first * 4096,
					       ranges[i].pages * 4096);
	report(wrong == 0, "%s range form zeroes exactly its range at every size and start%s",
	       names[strategy], wrong ? " (bytes wrong)" : "");
}

/*
 * Clear the page at @offset of a guarded area; return the number of bytes
 * that are wrong: non-zero inside the page or changed outside it.
 */
static unsigned long clear_and_count(const struct clearpage_cpu *cpu,
				     int strategy, unsigned char *area,
				     unsigned long area_size,
				     unsigned long offset)
{
	unsigned long i, wrong = 0;

	memset(area, GUARD, area_size);
	run_strategy(cpu, strategy, area + offset);
	for (i = 0; i < area_size; i++) {
		int inside = i >= offset && i < offset + CLEARPAGE_PAGE_SIZE;

		wrong += inside ? area[i] != 0 : area[i] != GUARD;
	}
	return wrong;
}

static void test_strategy(const struct clearpage_cpu *cpu, int strategy,
			  unsigned char *area, unsigned long area_size)
{
	/* Subpages of the huge page at area + HUGE_SIZE, and guard pages. */
	static const unsigned long subpages[] = { 0, 1, 2, 255, 256, 510, 511 };
	/* Page-aligned addresses of increasing alignment. */
	static const unsigned long aligned[] = {
		HUGE_SIZE + 4096, HUGE_SIZE + 8192, HUGE_SIZE + 65536,
		HUGE_SIZE + 1048576, HUGE_SIZE,
	};
	unsigned long wrong = 0;
	size_t i;

	for (i = 0; i < sizeof(subpages) / sizeof(subpages[0]); i++)
		wrong += clear_and_count(cpu, strategy, area, area_size,
					 HUGE_SIZE + subpages[i] * 4096);
	for (i = 0; i < sizeof(aligned) / sizeof(aligned[0]); i++)
		wrong += clear_and_count(cpu, strategy, area, area_size,
					 aligned[i]);
	report(wrong == 0, "%s zeroes exactly its page at every position%s",
	       names[strategy], wrong ? " (bytes wrong)" : "");
}

/*
 * The frame rule with trial_every 64 and reference_every 32: reference
 * frames first, then each candidate's, and with @control the strategy's
 * own number its own (never kernel's, whose number is the reference
 * frames'); nothing else is measured.
 */
static void test_frame_rule(void)
{
	unsigned int trials = 1U << CLEARPAGE_STRATEGY_MOVNTI |
			      1U << CLEARPAGE_STRATEGY_REP_STOSQ;
	int stosb = CLEARPAGE_STRATEGY_REP_STOSB, kernel = CLEARPAGE_STRATEGY_KERNEL;
	int wrong = 0;

	for (unsigned long f = 0; f < 256; f++) {
		unsigned long r = f % 64;
		int want = f % 32 == 0 ? kernel :
			   r == CLEARPAGE_STRATEGY_MOVNTI || r == CLEARPAGE_STRATEGY_REP_STOSQ ? (int)r :
			   r == (unsigned long)stosb ? stosb : -1;

		wrong += clearpage_frame_way(f, stosb, trials, 32, 64, true) != want;
		/* Without control frames its own number is an ordinary frame. */
		wrong += clearpage_frame_way(f, stosb, trials, 32, 64, false) !=
			 (want == stosb ? -1 : want);
		/* No trials: no control frames either. */
		wrong += clearpage_frame_way(f, stosb, 0, 32, 64, true) !=
			 (f % 32 == 0 ? kernel : -1);
		/* Kernel: no reference frames, and no control frames. */
		wrong += clearpage_frame_way(f, kernel, trials, 32, 64, true) !=
			 (r == CLEARPAGE_STRATEGY_MOVNTI || r == CLEARPAGE_STRATEGY_REP_STOSQ ? (int)r : -1);
	}
	CHECK(!wrong, "the frame rule: reference, trial and control frames where they belong (%d wrong)",
	      wrong);
}

/*
 * The huge backend's order: for every faulting subpage of a 2 MiB and a
 * 1 GiB folio (and small mTHP orders), the three extents cover every subpage
 * exactly once, the faulting one lies in the last extent, which is at most
 * 2 * CLEARPAGE_FAULT_NEIGHBOURS + 1 pages and the only temporal one, and the
 * extent right of it comes first.
 */
static void test_extents(void)
{
	static const unsigned long sizes[] = { 4, 16, 512, 262144 };
	unsigned long wrong = 0, cases = 0;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned long nr = sizes[i], step = nr > 512 ? 4093 : 1, fault;

		/* Every subpage (a sample of a gigantic folio), and the last. */
		for (fault = 0; fault < nr + step - 1; fault += step) {
			struct clearpage_extent e[3];
			unsigned long covered = 0;
			int k;

			if (fault >= nr)
				fault = nr - 1;	/* the last pass */
			clearpage_folio_extents(fault, nr, e);
			for (k = 0; k < 3; k++)
				covered += e[k].end - e[k].first;
			wrong += covered != nr;
			wrong += e[0].end != nr || e[0].first != e[2].end;
			wrong += e[1].first != 0 || e[1].end != e[2].first;
			wrong += !(e[2].first <= fault && fault < e[2].end);
			wrong += e[2].end - e[2].first >
				 2 * CLEARPAGE_FAULT_NEIGHBOURS + 1;
			wrong += e[0].near_fault || e[1].near_fault ||
				 !e[2].near_fault;
			cases++;
		}
	}
	CHECK(!wrong, "folio extents partition every folio for %lu faulting subpages",
	      cases);
}

/* Whether /proc/cpuinfo lists @flag for the first CPU; -1 if unreadable. */
static int cpuinfo_has(const char *flag)
{
	char line[8192], word[64];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p;
		int n;

		if (strncmp(line, "flags", 5))
			continue;
		found = 0;
		for (p = strchr(line, ':'); p && sscanf(p + 1, "%63s%n", word, &n) == 1; p += n)
			if (!strcmp(word, flag))
				found = 1;
		break;
	}
	fclose(f);
	return found;
}

static void test_detection(const struct clearpage_cpu *cpu)
{
	static const char *const flags[] = { "erms", "clzero" };
	int i;

	report(strlen(cpu->vendor) == 12 && cpu->family > 0,
	       "cpu detected: vendor %s%s", cpu->vendor, "");
	report(!cpu->has_clzero || cpu->line_size == 64,
	       "clzero is offered only with a 64-byte line%s%s", "", "");
	/* A hypervisor reporting another line size must not get clzero. */
	report(clearpage_clzero_trusted(1, 64) && !clearpage_clzero_trusted(1, 128) &&
	       !clearpage_clzero_trusted(1, 32) && !clearpage_clzero_trusted(0, 64),
	       "clzero is refused for a line size other than 64 (128, 32)%s%s", "", "");
	for (i = 0; i < 2; i++) {
		int listed = cpuinfo_has(flags[i]);
		int detected = i == 0 ? cpu->has_erms : cpu->has_clzero;

		if (listed < 0) {
			SKIP("%s detection: /proc/cpuinfo has no flags line",
			     flags[i]);
			continue;
		}
		report(listed == detected, "%s detection agrees with /proc/cpuinfo%s",
		       flags[i], "");
	}
}

/*
 * The temperature probe: its lines lie inside the folio, line-aligned, the
 * faulting one first, no two in one page of a folio of eight pages or
 * more; with every line cached (an infinite threshold) the folio is hot
 * after half the lines, with none cached (threshold 0) cold after one more
 * than half; the calibration's threshold lies halfway, or is 0 where the
 * two loads are less than 2x apart.
 */
static void test_probe(unsigned char *area)
{
	static const unsigned long sizes[] = { 1, 4, 8, 16, 512, 262144 };
	unsigned long offsets[CLEARPAGE_PROBE_LINES], ticks[CLEARPAGE_PROBE_LINES];
	unsigned int i, j, k;
	int bad = 0;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned long bytes = sizes[i] * CLEARPAGE_PAGE_SIZE;

		for (k = 0; k < 3; k++) {
			unsigned long fault = k == 0 ? 0 : k == 1 ? bytes / 2 + 100 : bytes - 1;

			clearpage_probe_offsets(sizes[i], fault, offsets);
			bad |= offsets[0] != (fault & ~(CLEARPAGE_LINE_SIZE - 1));
			for (j = 0; j < CLEARPAGE_PROBE_LINES; j++) {
				bad |= offsets[j] >= bytes ||
				       offsets[j] % CLEARPAGE_LINE_SIZE;
				if (j && sizes[i] >= 8)
					bad |= offsets[j] / CLEARPAGE_PAGE_SIZE ==
					       offsets[j - 1] / CLEARPAGE_PAGE_SIZE;
			}
		}
		clearpage_probe_offsets(sizes[i], bytes, offsets);
		bad |= offsets[0] != 0;
	}
	CHECK(!bad, "probe lines lie in the folio, line-aligned, the faulting one first, one per part");
	CHECK(clearpage_probe(area, 512, 0, ~0UL, NULL) == CLEARPAGE_PROBE_LINES / 2 &&
	      clearpage_probe_hot(CLEARPAGE_PROBE_LINES / 2, 512),
	      "every line cached: hot, after half the lines");
	CHECK(clearpage_probe(area, 512, 0, 0, NULL) == 0 &&
	      !clearpage_probe_hot(0, 512),
	      "no line cached: cold");
	CHECK(clearpage_probe_lines(1) == 1 &&
	      clearpage_probe_lines(2) == CLEARPAGE_PROBE_LINES &&
	      clearpage_probe(area, 1, 100, ~0UL, NULL) == 1 &&
	      clearpage_probe_hot(1, 1) &&
	      clearpage_probe(area, 1, 100, 0, NULL) == 0 &&
	      !clearpage_probe_hot(0, 1),
	      "a single page: its faulting line alone, hot when it is cached");
	for (j = 0; j < CLEARPAGE_PROBE_LINES; j++)
		ticks[j] = 0;
	clearpage_probe(area, 1, 100, 0, ticks);
	CHECK(ticks[0] && !ticks[1], "a single page's probe loads one line");
	clearpage_probe(area, 512, 4096, 0, ticks);
	for (j = 0, bad = 0; j < CLEARPAGE_PROBE_LINES; j++)
		bad |= !ticks[j];
	CHECK(!bad, "with ticks every line is loaded and timed");
	CHECK(clearpage_probe_threshold(50, 400) == 225 &&
	      clearpage_probe_threshold(50, 100) == 75 &&
	      clearpage_probe_threshold(50, 99) == 0 &&
	      clearpage_probe_threshold(0, 400) == 0,
	      "threshold halfway, 0 when the loads are less than 2x apart");
}

/*
 * The touch probe's line: never the faulting line, never a line of the
 * faulting subpage's temporal neighbourhood, only one a non-temporal
 * routine cleared; a trial frame's measured part where only its candidate
 * is non-temporal.
 */
static void test_touch_pick(void)
{
	const int nt = CLEARPAGE_STRATEGY_MOVNTI, t = CLEARPAGE_STRATEGY_REP_STOSB;
	unsigned long seed, offset, subpage, fault = 100 * CLEARPAGE_PAGE_SIZE + 130;
	unsigned long line, distance, reached = 0;
	int trial, bad = 0, trials = 0;
	char seen[64] = { 0 };

	for (seed = 0; seed < 4096; seed++) {
		for (line = 0; line < 64; line += 9) {
			offset = clearpage_touch_offset(1, line * CLEARPAGE_LINE_SIZE + 5, seed);
			distance = offset / CLEARPAGE_LINE_SIZE > line ?
				   offset / CLEARPAGE_LINE_SIZE - line :
				   line - offset / CLEARPAGE_LINE_SIZE;
			bad |= offset >= CLEARPAGE_PAGE_SIZE || offset % CLEARPAGE_LINE_SIZE ||
			       distance < CLEARPAGE_TOUCH_NEAR_LINES;
			if (line == 0)
				seen[offset / CLEARPAGE_LINE_SIZE] = 1;
		}
		offset = clearpage_touch_offset(512, fault, seed * 7919);
		subpage = offset / CLEARPAGE_PAGE_SIZE;
		bad |= subpage >= 512 || (subpage >= 98 && subpage <= 102);
	}
	for (line = 0; line < 64; line++)
		reached += seen[line];
	CHECK(!bad && reached == 64 - CLEARPAGE_TOUCH_NEAR_LINES,
	      "touch line: never a line near a page's faulting one (every other line picked: %lu), never the faulting subpage's neighbourhood of a folio",
	      reached);
	for (seed = 0, bad = 0; seed < 4096; seed++) {
		unsigned long step[3];

		for (line = 0; line < 3; line++)
			step[line] = clearpage_touch_offset(1, 0, clearpage_touch_seed(seed + line));
		/* Three loads a constant distance apart are a stride. */
		bad += step[1] - step[0] == step[2] - step[1];
	}
	CHECK(bad < 4096 / 16,
	      "touch seed: lines of consecutive clears rarely a constant distance apart (%d of 4096)",
	      bad);
	CHECK(clearpage_touch_offset(5, 2 * CLEARPAGE_PAGE_SIZE, 1) == CLEARPAGE_TOUCH_NONE,
	      "touch line: none in a folio that is all neighbourhood");
	CHECK(clearpage_touch_pick(512, fault, 3, t, t, 0, 0, &trial) == CLEARPAGE_TOUCH_NONE &&
	      clearpage_touch_pick(512, fault, 3, t, CLEARPAGE_STRATEGY_KERNEL, 256, 64, &trial) ==
	      CLEARPAGE_TOUCH_NONE,
	      "touch pick: nothing cleared non-temporally, no line");
	CHECK(clearpage_touch_pick(512, fault, 3, nt, nt, 0, 0, &trial) ==
	      clearpage_touch_offset(512, fault, 3) && !trial,
	      "touch pick: a non-temporal strategy, the line of clearpage_touch_offset(), not a trial");
	for (seed = 0, bad = 0; seed < 4096; seed++) {
		offset = clearpage_touch_pick(512, fault, seed * 7919, t, nt, 256, 64, &trial);
		if (offset == CLEARPAGE_TOUCH_NONE)
			continue;
		trials++;
		subpage = offset / CLEARPAGE_PAGE_SIZE;
		bad |= !trial || subpage < 256 || subpage >= 320;
	}
	CHECK(!bad && trials == 4096,
	      "touch pick: a non-temporal trial on a temporal node, always a line of its measured part (%d of 4096)",
	      trials);
	for (seed = 0, bad = 0, trials = 0; seed < 64; seed++) {
		offset = clearpage_touch_pick(512, fault, seed, t, nt, 96, 8, &trial);
		trials += offset != CLEARPAGE_TOUCH_NONE;
		subpage = offset / CLEARPAGE_PAGE_SIZE;
		bad |= offset != CLEARPAGE_TOUCH_NONE && subpage >= 98 && subpage <= 102;
	}
	CHECK(!bad && trials > 0 && trials < 64,
	      "touch pick: a measured part beside the fault, never a line of its neighbourhood (%d of 64)",
	      trials);
	offset = clearpage_touch_pick(1, 130, 5, t, nt, 0, 1, &trial);
	CHECK(offset != CLEARPAGE_TOUCH_NONE && trial &&
	      offset / CLEARPAGE_LINE_SIZE != 130 / CLEARPAGE_LINE_SIZE &&
	      clearpage_touch_pick(1, 130, 5, t, t, 0, 0, &trial) == CLEARPAGE_TOUCH_NONE,
	      "touch pick: a 4 KiB trial page of a non-temporal candidate, any line but the faulting one");
}

/*
 * The recycled rule's reach: the last-level cache, or 8 MiB where the CPU
 * describes none (an AMD guest without TOPOEXT); a unit cleared
 * non-temporally within it is hot for a temporal strategy, one beyond it
 * or cleared temporally is not. With a reach of 0, as before the fallback,
 * the rule never fired on such a CPU.
 */
static void test_recent_reach(const struct clearpage_cpu *detected)
{
	static struct clearpage_recent recent;
	struct clearpage_cpu cpu = *detected;
	unsigned long reach, i;
	int near, far, temporal, edge_in, edge_out;

	cpu.llc_bytes = 0;
	reach = clearpage_recent_reach_pages(&cpu);
	CHECK(reach == 2048, "recent reach without a described LLC: %lu pages (want 2048)", reach);
	cpu.llc_bytes = 32UL << 20;
	CHECK(clearpage_recent_reach_pages(&cpu) == 8192,
	      "recent reach of a 32 MiB LLC: 8192 4 KiB pages");
	cpu.llc_bytes = 0;
	memset(&recent, 0, sizeof(recent));
	clearpage_recent_store(&recent, 1000, 512, 1);
	clearpage_recent_store(&recent, 2000, 512, 1);
	near = clearpage_recent_seen(&recent, 1000, reach);
	clearpage_recent_store(&recent, 3000, 512, 0);
	temporal = clearpage_recent_seen(&recent, 3000, reach);
	for (i = 0; i < 4; i++)
		clearpage_recent_store(&recent, 5000 + 512 * i, 512, 1);
	far = clearpage_recent_seen(&recent, 2000, reach);
	/* 2047 pages cleared after it, then 2048: in reach, then out. */
	memset(&recent, 0, sizeof(recent));
	clearpage_recent_store(&recent, 7000, 1, 1);
	clearpage_recent_store(&recent, 9000, 2047, 0);
	edge_in = clearpage_recent_seen(&recent, 7000, reach);
	clearpage_recent_store(&recent, 11000, 1, 0);
	edge_out = clearpage_recent_seen(&recent, 7000, reach);
	CHECK(near && !temporal && !far && edge_in && !edge_out,
	      "recycled within the fallback reach: near %d (want 1), temporal %d (want 0), beyond %d (want 0), 2047 pages on %d (want 1), 2048 %d (want 0)",
	      near, temporal, far, edge_in, edge_out);
}

int main(void)
{
	struct clearpage_cpu cpu;
	unsigned long area_size = 3 * HUGE_SIZE;
	unsigned char *raw, *area;
	int strategy;

	clearpage_cpu_detect(&cpu);
	test_detection(&cpu);
	test_extents();
	test_frame_rule();
	test_touch_pick();
	test_recent_reach(&cpu);

	raw = mmap(NULL, area_size + HUGE_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* The middle 2 MiB of the area is 2 MiB aligned, like a huge page. */
	area = (unsigned char *)((((uintptr_t)raw + 2 * HUGE_SIZE - 1) &
				  ~(HUGE_SIZE - 1)) - HUGE_SIZE);
	memset(area, 0, area_size);
	test_probe(area);
	for (strategy = 0; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++) {
		if (!clearpage_strategy_available(&cpu, strategy)) {
			SKIP("%s: this CPU (%s family %u model %u) does not support it",
			     names[strategy], cpu.vendor, cpu.family, cpu.model);
			continue;
		}
		test_strategy(&cpu, strategy, area, area_size);
		test_range(strategy, area, area_size);
	}
	munmap(raw, area_size + HUGE_SIZE);
	return check_summary();
}
