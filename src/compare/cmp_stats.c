// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_stats.c - the statistics of tlat compare, on log-linear buckets:
 * nearest-rank percentiles, their distribution-free confidence intervals
 * from the order statistics, and the two-sample Kolmogorov-Smirnov test.
 */
#include <math.h>

#include "compare/compare.h"
#include "stats/loglinear.h"

u64 cmp_at_rank(const struct cmp_dist *d, u64 rank)
{
	u64 seen = 0;

	if (rank >= d->count)
		return d->max;
	if (!rank)
		rank = 1;
	for (unsigned int b = 0; b < LOGLIN_BUCKETS; b++) {
		seen += d->buckets[b];
		if (seen >= rank) {
			u64 mid = loglin_middle(b);

			return mid < d->max ? mid : d->max;
		}
	}
	return d->max;
}

/* the nearest rank: the smallest that at least pct% of the samples reach */
static u64 rank_of(u64 n, double pct)
{
	double r = ceil(pct / 100.0 * (double)n - 1e-9);

	return r < 1 ? 1 : (u64)r;
}

u64 cmp_percentile(const struct cmp_dist *d, double pct)
{
	return cmp_at_rank(d, rank_of(d->count, pct));
}

/*
 * The number of samples at or below the true p-quantile is binomial (n, p):
 * the order statistics X(l) and X(u), l and u that many samples either side
 * of np with probability conf, bracket the quantile. l and u by the normal
 * approximation, widened by one rank (the continuity correction).
 */
bool cmp_percentile_ci(const struct cmp_dist *d, double pct, double z, u64 *lo, u64 *hi)
{
	double n = (double)d->count, p = pct / 100.0;
	double sd = sqrt(n * p * (1.0 - p));
	double l = floor(n * p - z * sd), u = ceil(n * p + z * sd) + 1;

	*lo = cmp_at_rank(d, l < 1 ? 1 : (u64)l);
	*hi = cmp_at_rank(d, u > n ? d->count : (u64)u);
	return u <= n;
}

/* Kolmogorov's limiting distribution: P(sqrt(n) D > lambda) */
static double kolmogorov_q(double lambda)
{
	double sum = 0, term;

	if (lambda < 0.2)
		return 1.0;
	for (int k = 1; k <= 100; k++) {
		term = 2.0 * ((k & 1) ? 1 : -1) * exp(-2.0 * k * k * lambda * lambda);
		sum += term;
		if (fabs(term) < 1e-12)
			break;
	}
	return sum < 0 ? 0 : sum > 1 ? 1 : sum;
}

struct cmp_ks cmp_ks_test(const struct cmp_dist *base, const struct cmp_dist *new)
{
	double nb = (double)base->count, nn = (double)new->count;
	double ne = nb * nn / (nb + nn), sq = sqrt(ne), fb, fn;
	struct cmp_ks ks = { 0 };
	u64 cb = 0, cn = 0;

	for (unsigned int b = 0; b < LOGLIN_BUCKETS; b++) {
		cb += base->buckets[b];
		cn += new->buckets[b];
		fb = cb / nb;
		fn = cn / nn;
		if (fb - fn > ks.d_up)
			ks.d_up = fb - fn;
		if (fn - fb > ks.d_down)
			ks.d_down = fn - fb;
	}
	ks.d = fmax(ks.d_up, ks.d_down);
	/* Stephens' correction of the statistic for small samples */
	ks.p = kolmogorov_q((sq + 0.12 + 0.11 / sq) * ks.d);
	ks.p_up = fmin(1.0, exp(-2.0 * ne * ks.d_up * ks.d_up));
	ks.p_down = fmin(1.0, exp(-2.0 * ne * ks.d_down * ks.d_down));
	return ks;
}
