// SPDX-License-Identifier: GPL-2.0
/* clearpage-bench: statistics (GSL); see bench.h. Uses nothing of the bench. */
#include <stddef.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "bench.h"

void bench_summary(double *v, size_t n, double *median, double *min,
		   double *max)
{
	gsl_sort(v, 1, n);
	*median = gsl_stats_median_from_sorted_data(v, 1, n);
	*min = v[0];
	*max = v[n - 1];
}

double bench_mean(const double *v, size_t n)
{
	return gsl_stats_mean(v, 1, n);
}

double bench_stddev(const double *v, size_t n)
{
	return n > 1 ? gsl_stats_sd(v, 1, n) : 0;
}
