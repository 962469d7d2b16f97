// SPDX-License-Identifier: GPL-2.0
/* The live baseline; see baseline.h. */
#include <math.h>
#include <string.h>

#include <uapi/clearpage.h>

#include "baseline.h"

/* The pages the strategy cleared: all but the reference frames. */
static uint64_t strategy_pages(const struct policy_sample *in)
{
	return in->pages > in->ref_samples ? in->pages - in->ref_samples : 0;
}

void baseline_savings_init(struct baseline_savings *s)
{
	memset(s, 0, sizeof(*s));
}

void baseline_savings_add(struct baseline_savings *s,
			  const struct policy_sample *in,
			  uint64_t min_samples)
{
	uint64_t pages = strategy_pages(in);
	double strategy_ns, kernel_ns, diff, delta;

	s->last_valid = false;
	if (!pages)
		return;
	if (in->strategy == CLEARPAGE_STRATEGY_KERNEL) {
		/* The kernel's own routine saves nothing against itself. */
		s->estimated_pages += pages;
		s->last_valid = true;
		s->last_saved_ns = 0;
		if (in->samples) {
			s->last_ns_per_page = in->sample_ns / in->samples;
			s->last_kernel_ns_per_page = s->last_ns_per_page;
			s->kernel_ns += pages * s->last_ns_per_page;
		}
		return;
	}
	if (in->samples < min_samples || in->ref_samples < min_samples ||
	    min_samples == 0 || in->ref_samples == 0 || in->samples == 0) {
		s->unestimated_pages += pages;
		return;
	}
	strategy_ns = in->sample_ns / in->samples;
	kernel_ns = in->ref_ns / in->ref_samples;
	diff = kernel_ns - strategy_ns;
	s->saved_ns += pages * diff;
	s->kernel_ns += pages * kernel_ns;
	s->pages_sq += (double)pages * pages;
	s->estimated_pages += pages;
	s->intervals++;
	delta = diff - s->diff_mean;
	s->diff_mean += delta / s->intervals;
	s->diff_m2 += delta * (diff - s->diff_mean);
	s->last_valid = true;
	s->last_saved_ns = pages * diff;
	s->last_ns_per_page = strategy_ns;
	s->last_kernel_ns_per_page = kernel_ns;
}

double baseline_savings_uncertainty(const struct baseline_savings *s)
{
	if (s->intervals < 2)
		return s->intervals || s->estimated_pages ? 0.0 : -1.0;
	return sqrt(s->diff_m2 / (s->intervals - 1) * s->pages_sq);
}

void baseline_window_init(struct baseline_window *w, int strategy)
{
	memset(w, 0, sizeof(*w));
	w->strategy = strategy;
}

void baseline_window_add(struct baseline_window *w,
			 const struct policy_sample *in, double seconds,
			 unsigned int intervals, uint64_t min_samples,
			 double margin, struct baseline_verdict *verdict)
{
	uint64_t samples = 0, ref_samples = 0;
	double sample_ns = 0, ref_ns = 0, window_seconds = 0;
	unsigned int i, at;

	memset(verdict, 0, sizeof(*verdict));
	if (in->strategy != w->strategy)
		baseline_window_init(w, in->strategy);
	w->slot[w->next].samples = in->samples;
	w->slot[w->next].sample_ns = in->sample_ns;
	w->slot[w->next].ref_samples = in->ref_samples;
	w->slot[w->next].ref_ns = in->ref_ns;
	w->slot[w->next].seconds = seconds;
	w->next = (w->next + 1) % BASELINE_MAX_WINDOW;
	if (w->used < BASELINE_MAX_WINDOW)
		w->used++;
	if (intervals < 1)
		intervals = 1;
	if (intervals > BASELINE_MAX_WINDOW)
		intervals = BASELINE_MAX_WINDOW;
	if (w->strategy == CLEARPAGE_STRATEGY_KERNEL || w->used < intervals)
		return;
	for (i = 0; i < intervals; i++) {
		at = (w->next + BASELINE_MAX_WINDOW - 1 - i) %
		     BASELINE_MAX_WINDOW;
		window_seconds += w->slot[at].seconds;
		/*
		 * Only intervals that timed both sides: the reference of one
		 * cache state against the strategy's cost in another (a few
		 * hot folios, all of them reference or trial frames) is no
		 * comparison.
		 */
		if (!w->slot[at].samples || !w->slot[at].ref_samples)
			continue;
		samples += w->slot[at].samples;
		sample_ns += w->slot[at].sample_ns;
		ref_samples += w->slot[at].ref_samples;
		ref_ns += w->slot[at].ref_ns;
	}
	verdict->seconds = window_seconds;
	if (samples < min_samples || ref_samples < min_samples ||
	    !samples || !ref_samples)
		return;
	verdict->ns_per_page = sample_ns / samples;
	verdict->kernel_ns_per_page = ref_ns / ref_samples;
	verdict->slower = verdict->ns_per_page >
			  (1 + margin) * verdict->kernel_ns_per_page;
}
