// SPDX-License-Identifier: GPL-2.0
/*
 * The live baseline (lib/baseline.c): savings accounting and the
 * slower-than-kernel window, one exact check per branch.
 */
#include <math.h>

#include <uapi/clearpage.h>

#include "baseline.h"
#include "check.h"

#define MOVQ CLEARPAGE_STRATEGY_MOVQ
#define KERNEL CLEARPAGE_STRATEGY_KERNEL

/*
 * An interval of @pages cleared with @strategy, @samples of them timed at
 * @ns each, and as many reference frames beside them at @ref_ns each.
 */
static struct policy_sample interval(int strategy, uint64_t pages,
				     uint64_t samples, double ns,
				     double ref_ns)
{
	return (struct policy_sample){
		.strategy = strategy,
		.pages = pages + samples,
		.samples = samples,
		.sample_ns = samples * ns,
		.ref_strategy = KERNEL,
		.ref_samples = samples,
		.ref_ns = samples * ref_ns,
	};
}

/* The same interval without its reference frames. */
static void without_reference(struct policy_sample *in)
{
	in->pages -= in->ref_samples;
	in->ref_samples = 0;
	in->ref_ns = 0;
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * (fabs(a) + fabs(b) + 1);
}

static void test_savings(void)
{
	struct baseline_savings s;
	struct policy_sample in;
	double d1 = 100, d2 = 140, d3 = 60, mean, var;
	int i;

	baseline_savings_init(&s);
	CHECK(baseline_savings_uncertainty(&s) < 0,
	      "no interval yet: the uncertainty is unknown");

	for (i = 0; i < 3; i++) {
		in = interval(MOVQ, 1000, 16, 100, 200);
		baseline_savings_add(&s, &in, 8);
	}
	CHECK(near(s.saved_ns, 3 * 1000 * 100.0) &&
	      near(s.kernel_ns, 3 * 1000 * 200.0) &&
	      s.estimated_pages == 3000 && s.unestimated_pages == 0,
	      "saved = pages x (kernel - strategy), summed over intervals: %.0f",
	      s.saved_ns);
	CHECK(near(baseline_savings_uncertainty(&s), 0),
	      "equal differences every interval: no spread, no uncertainty");
	CHECK(s.last_valid && near(s.last_saved_ns, 100000) &&
	      near(s.last_ns_per_page, 100) &&
	      near(s.last_kernel_ns_per_page, 200),
	      "the last interval's estimate is kept");

	/* Differences of 100, 140 and 60 ns/page over 1000, 2000, 500 pages. */
	baseline_savings_init(&s);
	in = interval(MOVQ, 1000, 16, 200 - d1, 200);
	baseline_savings_add(&s, &in, 8);
	in = interval(MOVQ, 2000, 16, 200 - d2, 200);
	baseline_savings_add(&s, &in, 8);
	in = interval(MOVQ, 500, 16, 200 - d3, 200);
	baseline_savings_add(&s, &in, 8);
	mean = (d1 + d2 + d3) / 3;
	var = ((d1 - mean) * (d1 - mean) + (d2 - mean) * (d2 - mean) +
	       (d3 - mean) * (d3 - mean)) / 2;
	CHECK(near(s.saved_ns, 1000 * d1 + 2000 * d2 + 500 * d3),
	      "each interval is weighted by its own pages: %.0f", s.saved_ns);
	CHECK(near(baseline_savings_uncertainty(&s),
		   sqrt(var * (1000.0 * 1000 + 2000.0 * 2000 + 500.0 * 500))),
	      "uncertainty = sd of the differences x sqrt(sum of pages^2): %.0f",
	      baseline_savings_uncertainty(&s));

	/* Too few timed clears on either side: counted, not estimated. */
	in = interval(MOVQ, 700, 4, 100, 200);
	baseline_savings_add(&s, &in, 8);
	CHECK(s.unestimated_pages == 700 && s.estimated_pages == 3500 &&
	      !s.last_valid,
	      "an interval with too few samples is counted as unestimated");
	in = interval(MOVQ, 300, 16, 100, 200);
	without_reference(&in);
	baseline_savings_add(&s, &in, 8);
	CHECK(s.unestimated_pages == 1000,
	      "an interval without reference frames is counted as unestimated");

	/* A strategy slower than the kernel loses time. */
	baseline_savings_init(&s);
	in = interval(MOVQ, 1000, 16, 300, 200);
	baseline_savings_add(&s, &in, 8);
	CHECK(near(s.saved_ns, -100000), "a slower strategy saves a negative time");

	/* kernel saves nothing against itself, but its time is the kernel's. */
	baseline_savings_init(&s);
	in = interval(KERNEL, 1000, 16, 250, 0);
	without_reference(&in);
	baseline_savings_add(&s, &in, 8);
	CHECK(near(s.saved_ns, 0) && near(s.kernel_ns, 250000) &&
	      s.estimated_pages == 1000,
	      "kernel: nothing saved, its pages at its own measured cost");
	CHECK(near(baseline_savings_uncertainty(&s), 0),
	      "kernel alone: no uncertainty");

	in = interval(MOVQ, 0, 0, 0, 0);
	baseline_savings_add(&s, &in, 8);
	CHECK(s.estimated_pages == 1000 && s.unestimated_pages == 0,
	      "an interval without pages changes nothing");
}

static void test_window(void)
{
	struct baseline_window w;
	struct policy_sample in;
	struct baseline_verdict v;
	int i;

	baseline_window_init(&w, MOVQ);
	in = interval(MOVQ, 1000, 16, 300, 100);
	for (i = 0; i < 4; i++) {
		baseline_window_add(&w, &in, 1, 5, 8, 0.05, &v);
		CHECK(!v.slower, "interval %d of a window of 5: not judged yet",
		      i + 1);
	}
	baseline_window_add(&w, &in, 1, 5, 8, 0.05, &v);
	CHECK(v.slower && near(v.ns_per_page, 300) &&
	      near(v.kernel_ns_per_page, 100) && near(v.seconds, 5),
	      "a full window three times dearer than the kernel is slower");

	/* A faster interval joins; the window holds the last five only. */
	baseline_window_init(&w, MOVQ);
	for (i = 0; i < 5; i++) {
		in = interval(MOVQ, 1000, 16, i == 0 ? 1000 : 100, 100);
		baseline_window_add(&w, &in, 1, 4, 8, 0.05, &v);
	}
	CHECK(!v.slower && near(v.ns_per_page, 100),
	      "an old slow interval falls out of the window");

	/* The margin: 5% dearer is not slower, 6% is. */
	baseline_window_init(&w, MOVQ);
	in = interval(MOVQ, 1000, 16, 105, 100);
	baseline_window_add(&w, &in, 1, 1, 8, 0.05, &v);
	CHECK(!v.slower, "exactly the margin dearer is not slower");
	in = interval(MOVQ, 1000, 16, 106, 100);
	baseline_window_add(&w, &in, 1, 1, 8, 0.05, &v);
	CHECK(v.slower, "beyond the margin is slower");

	/* A change of strategy restarts the window. */
	in = interval(CLEARPAGE_STRATEGY_MOVNTI, 1000, 16, 300, 100);
	baseline_window_add(&w, &in, 1, 2, 8, 0.05, &v);
	CHECK(!v.slower && w.used == 1 &&
	      w.strategy == CLEARPAGE_STRATEGY_MOVNTI,
	      "another strategy starts a new window");

	/* Too few samples over the whole window: no verdict. */
	baseline_window_init(&w, MOVQ);
	in = interval(MOVQ, 1000, 2, 300, 100);
	baseline_window_add(&w, &in, 1, 2, 8, 0.05, &v);
	baseline_window_add(&w, &in, 1, 2, 8, 0.05, &v);
	CHECK(!v.slower, "4 samples over the window, 8 needed: no verdict");
	baseline_window_add(&w, &in, 1, 4, 8, 0.05, &v);
	baseline_window_add(&w, &in, 1, 4, 8, 0.05, &v);
	CHECK(v.slower, "8 samples over a longer window: judged");

	/*
	 * Intervals that timed one side only do not count: cheap reference
	 * clears of a hot phase, whose own clears were all measured frames,
	 * against the strategy's cost in a cold one are no comparison.
	 */
	baseline_window_init(&w, MOVQ);
	for (i = 0; i < 4; i++) {
		in = interval(MOVQ, 1000, 16, 0, 30);
		in.samples = 0;
		in.sample_ns = 0;
		baseline_window_add(&w, &in, 1, 5, 8, 0.05, &v);
	}
	in = interval(MOVQ, 1000, 16, 50, 170);
	baseline_window_add(&w, &in, 1, 5, 8, 0.05, &v);
	CHECK(!v.slower && near(v.kernel_ns_per_page, 170) &&
	      near(v.ns_per_page, 50) && near(v.seconds, 5),
	      "only the interval that timed both sides is compared: %.0f vs %.0f",
	      v.ns_per_page, v.kernel_ns_per_page);
	in = interval(MOVQ, 1000, 16, 0, 30);
	without_reference(&in);
	in.sample_ns = 16 * 500;
	baseline_window_add(&w, &in, 1, 5, 8, 0.05, &v);
	CHECK(!v.slower && near(v.ns_per_page, 50),
	      "nor does an interval without reference clears: %.0f",
	      v.ns_per_page);

	/* kernel is never slower than itself. */
	baseline_window_init(&w, KERNEL);
	in = interval(KERNEL, 1000, 16, 300, 100);
	baseline_window_add(&w, &in, 1, 1, 8, 0.05, &v);
	CHECK(!v.slower, "kernel is never slower than the kernel");

	/* The window is bounded. */
	baseline_window_init(&w, MOVQ);
	in = interval(MOVQ, 1000, 16, 300, 100);
	for (i = 0; i < BASELINE_MAX_WINDOW + 10; i++)
		baseline_window_add(&w, &in, 1, 100000, 8, 0.05, &v);
	CHECK(v.slower && near(v.seconds, BASELINE_MAX_WINDOW),
	      "a window longer than %d intervals is cut to it",
	      BASELINE_MAX_WINDOW);
}

int main(void)
{
	test_savings();
	test_window();
	return check_summary();
}
