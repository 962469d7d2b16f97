// SPDX-License-Identifier: GPL-2.0
/* An interval's sums from the module's counters; see sample.h. */
#include <string.h>

#include "sample.h"

void policy_sample_build(const struct policy_counters *prev, bool have_prev,
			 const struct policy_counters *now,
			 struct policy_sample *sample)
{
	memset(sample, 0, sizeof(*sample));
	sample->strategy = now->strategy;
	sample->split = now->split;
	sample->split_hot = now->split_hot;
	sample->split_cold = now->split_cold;
	sample->ref_strategy = CLEARPAGE_STRATEGY_KERNEL;
	if (!have_prev || now->pages < prev->pages ||
	    now->ref_pages < prev->ref_pages)
		return;
	sample->pages = now->pages - prev->pages;
	/* The application's and the pages' state, whatever strategy ran. */
	if (now->probe_hot >= prev->probe_hot &&
	    now->probe_cold >= prev->probe_cold) {
		sample->probe_hot = now->probe_hot - prev->probe_hot;
		sample->probe_cold = now->probe_cold - prev->probe_cold;
		/* Counted after probe_hot: never more than it. */
		if (now->probe_recycled >= prev->probe_recycled)
			sample->probe_recycled = now->probe_recycled -
						 prev->probe_recycled;
		if (sample->probe_recycled > sample->probe_hot)
			sample->probe_recycled = sample->probe_hot;
	}
	if (now->touch_probed >= prev->touch_probed &&
	    now->touch_cached >= prev->touch_cached) {
		sample->touch_probed = now->touch_probed - prev->touch_probed;
		sample->touch_cached = now->touch_cached - prev->touch_cached;
		/* A probe counted between the two counters' reads. */
		if (sample->touch_cached > sample->touch_probed)
			sample->touch_cached = sample->touch_probed;
	}
	if (now->strategy != prev->strategy || now->split != prev->split ||
	    (now->split && (now->split_hot != prev->split_hot ||
			    now->split_cold != prev->split_cold)))
		return;
	if (now->samples >= prev->samples && now->sample_ns >= prev->sample_ns) {
		sample->samples = now->samples - prev->samples;
		sample->sample_ns = now->sample_ns - prev->sample_ns;
	}
	if (now->ref_ns >= prev->ref_ns) {
		sample->ref_samples = now->ref_pages - prev->ref_pages;
		sample->ref_ns = now->ref_ns - prev->ref_ns;
	}
	for (int s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++) {
		if (now->trial_pages[s] < prev->trial_pages[s] ||
		    now->trial_ns[s] < prev->trial_ns[s])
			continue;
		sample->trial_samples[s] = now->trial_pages[s] -
					   prev->trial_pages[s];
		sample->trial_ns[s] = now->trial_ns[s] - prev->trial_ns[s];
	}
	/* Reference and trial frames are pages cleared too. */
	sample->pages += sample->ref_samples;
	for (int s = 0; s < CLEARPAGE_STRATEGY_COUNT; s++)
		sample->pages += sample->trial_samples[s];
}
