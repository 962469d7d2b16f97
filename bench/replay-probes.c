// SPDX-License-Identifier: GPL-2.0
/* The module's probes in the replay; see replay-probes.h. */
#include <string.h>

#include "bench.h"
#include "replay-probes.h"

void replay_probes_reset(struct replay_probes *p)
{
	p->page_sequence = 0;
	p->touch_sequence = 0;
	memset(&p->recent, 0, sizeof(p->recent));
	p->held = NULL;
	p->probe_hot = p->probe_cold = p->probe_recycled = p->probe_ticks = 0;
	p->touch_probed = p->touch_cached = 0;
	p->probe_right = p->touch_truth = 0;
}

/* As clearpage_probe_due(): the page sequence crosses a multiple. */
static bool probe_due(struct replay_probes *p, unsigned long nr_pages)
{
	uint64_t before = p->page_sequence;

	p->page_sequence += nr_pages;
	return p->page_sequence / p->probe_every != before / p->probe_every;
}

/* The unit's address stands for its frame number. */
static unsigned long frame_of(const char *unit)
{
	return (unsigned long)(uintptr_t)unit / BENCH_PAGE;
}

int replay_probe_sample(struct replay_probes *p, const char *unit,
			unsigned long nr_pages, bool cold, bool every)
{
	uint64_t t0;
	int cached, hot;

	if (!p->threshold)
		return -1;
	if (!every && (!p->probe_every || !probe_due(p, nr_pages)))
		return -1;
	t0 = bench_ticks();
	cached = clearpage_probe_hot(clearpage_probe(unit, nr_pages, 0,
						     p->threshold, NULL),
				     nr_pages);
	p->probe_ticks += bench_ticks() - t0;
	hot = cached || clearpage_recent_seen(&p->recent, frame_of(unit),
					      p->reach_pages);
	if (hot)
		p->probe_hot++;
	else
		p->probe_cold++;
	/* Hot only as recycled, as the module counts probe_recycled. */
	if (hot && !cached)
		p->probe_recycled++;
	p->probe_right += hot == !cold;
	return cached;
}

void replay_probe_cleared(struct replay_probes *p, const char *unit,
			  unsigned long nr_pages, int strategy)
{
	if (p->threshold)
		clearpage_recent_store(&p->recent, frame_of(unit), nr_pages,
				       clearpage_strategy_non_temporal(strategy));
}

/* The held unit's line, loaded and counted; the slot free again. */
static void touch_load(struct replay_probes *p)
{
	p->touch_probed++;
	p->touch_cached += clearpage_timed_load(p->held) < p->threshold;
	p->touch_truth += p->held_truth;
	p->held = NULL;
}

void replay_touch_before(struct replay_probes *p, const char *unit,
			 unsigned long nr_pages)
{
	if (p->held && p->held >= unit && p->held < unit + nr_pages * BENCH_PAGE)
		touch_load(p);
}

void replay_touch_step(struct replay_probes *p, const char *unit,
		       unsigned long nr_pages, int strategy, int way,
		       unsigned long first, unsigned long m,
		       unsigned long read_bytes)
{
	unsigned long offset;
	int trial;

	if (!p->threshold || !p->touch_every)
		return;
	if (p->held && !p->held_left--)
		touch_load(p);
	offset = clearpage_touch_pick(nr_pages, 0, clearpage_touch_seed(p->touch_sequence),
				      strategy, way, first, m, &trial);
	if (offset == CLEARPAGE_TOUCH_NONE)
		return;
	/* One non-temporal clear in --touch-every, every trial one. */
	if (p->touch_sequence++ % p->touch_every && !trial)
		return;
	if (p->held)
		return;
	p->held = unit + offset;
	p->held_left = p->touch_delay;
	p->held_truth = offset < read_bytes;
}
