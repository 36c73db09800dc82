// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_verdict.c - what tlat compare concludes: for each CPU and context
 * both sides measured, and for all CPUs together, the metrics side by side
 * with the change's confidence interval and the KS test; a cell regressed
 * when its chosen percentile rose by more than both practical thresholds,
 * its interval is above 0 and KS finds NEW's distribution larger.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "core/err.h"

static const double metric_pct[CMP_NR_METRICS] = {
	[CMP_P50] = 50, [CMP_P99] = 99, [CMP_P99_9] = 99.9, [CMP_P99_99] = 99.99,
	[CMP_MAX] = 100,
};

const char *cmp_metric_name(const struct cmp_result *r, int m, char *buf, size_t len)
{
	if (m == CMP_MAX)
		return "max";
	snprintf(buf, len, "p%g", m == CMP_CHOSEN ? r->set->percentile : metric_pct[m]);
	return buf;
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	switch (v) {
	case CMP_IMPROVEMENT:
		return "improvement";
	case CMP_REGRESSION:
		return "regression";
	case CMP_SKIPPED:
		return "skipped";
	default:
		return "no change";
	}
}

/* the normal quantile, by bisection on erfc: z with P(|Z| <= z) = conf */
static double two_sided_z(double conf)
{
	double lo = 0, hi = 10;

	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / M_SQRT2) > 1 - conf)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static int cpu_list_str(char *buf, size_t len, const struct cmp_side *s)
{
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i < s->nr_cpus && at < len; i++)
		at += snprintf(buf + at, len - at, "%s%d", i ? "," : "", s->cpus[i]);
	return 0;
}

int cmp_check(const struct cmp_side *base, const struct cmp_side *new,
	      const struct cmp_settings *set, char *err)
{
	bool common = false;
	char b[128], n[128];

	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
		common |= base->has_ctx[ctx] && new->has_ctx[ctx];
	if (!common) {
		tlat_err(err, "%s and %s have no latency context in common", base->label,
			 new->label);
		return -EINVAL;
	}
	if (set->force)
		return 0;
	if (base->period_us != new->period_us) {
		tlat_err(err, "different periods: %s %llu us, %s %llu us (--force compares them)",
			 base->label, (unsigned long long)base->period_us, new->label,
			 (unsigned long long)new->period_us);
		return -EINVAL;
	}
	if (base->nr_cpus != new->nr_cpus ||
	    memcmp(base->cpus, new->cpus, base->nr_cpus * sizeof(int))) {
		cpu_list_str(b, sizeof(b), base);
		cpu_list_str(n, sizeof(n), new);
		tlat_err(err, "different CPUs: %s %s, %s %s (--force compares those in common)",
			 base->label, b, new->label, n);
		return -EINVAL;
	}
	return 0;
}

/*
 * A side's interval of a percentile: the order statistics' of its pooled
 * samples, widened to every single run's value when it has several (their
 * spread is the run-to-run noise, which pooling hides)
 */
static bool side_interval(const struct cmp_side *s, int ci, int ctx, double pct, double z,
			  u64 *lo, u64 *hi)
{
	bool closed = cmp_percentile_ci(cmp_dist(s, s->nr_runs, ci, ctx), pct, z, lo, hi);

	for (int run = 0; s->nr_runs > 1 && run < s->nr_runs; run++) {
		const struct cmp_dist *d = cmp_dist(s, run, ci, ctx);
		u64 v;

		if (!d->count)
			continue;
		v = cmp_percentile(d, pct);
		if (v < *lo)
			*lo = v;
		if (v > *hi)
			*hi = v;
	}
	return closed;
}

static enum cmp_verdict metric_verdict(const struct cmp_settings *set, const struct cmp_metric *m,
				       const struct cmp_ks *ks)
{
	double thr = fmax(set->threshold_us * 1000.0, set->threshold_pct / 100.0 * m->base);

	if (m->pct >= 100)
		return CMP_NO_CHANGE;	/* the maximum is one sample: shown, never judged */
	if (m->change > thr && m->lo > 0 && ks->p_up < set->alpha)
		return CMP_REGRESSION;
	if (-m->change > thr && m->hi < 0 && ks->p_down < set->alpha)
		return CMP_IMPROVEMENT;
	return CMP_NO_CHANGE;
}

static void cell_fill(struct cmp_cell *c, const struct cmp_result *r, int bi, int ni, double z)
{
	const struct cmp_dist *b = cmp_dist(r->base, r->base->nr_runs, bi, c->ctx);
	const struct cmp_dist *n = cmp_dist(r->new, r->new->nr_runs, ni, c->ctx);

	c->base_count = b->count;
	c->new_count = n->count;
	if (!b->count || !n->count) {
		c->verdict = CMP_SKIPPED;
		return;
	}
	c->ks = cmp_ks_test(b, n);
	for (int i = 0; i < CMP_NR_METRICS; i++) {
		struct cmp_metric *m = &c->m[i];
		u64 blo, bhi, nlo, nhi;

		m->pct = i == CMP_CHOSEN ? r->set->percentile : metric_pct[i];
		m->used = i != CMP_CHOSEN || r->chosen == CMP_CHOSEN;
		if (!m->used)
			continue;
		if (m->pct >= 100) {
			m->base = b->max;
			m->new = n->max;
			m->change = m->lo = m->hi = (int64_t)(m->new - m->base);
			m->open = true;
			continue;
		}
		m->base = cmp_percentile(b, m->pct);
		m->new = cmp_percentile(n, m->pct);
		m->change = (int64_t)(m->new - m->base);
		m->open = !side_interval(r->base, bi, c->ctx, m->pct, z, &blo, &bhi);
		m->open |= !side_interval(r->new, ni, c->ctx, m->pct, z, &nlo, &nhi);
		m->lo = (int64_t)(nlo - bhi);
		m->hi = (int64_t)(nhi - blo);
		m->verdict = metric_verdict(r->set, m, &c->ks);
	}
	c->verdict = c->m[r->chosen].verdict;
}

/* how far past its threshold a cell's change went: the worst cell's */
static double excess(const struct cmp_result *r, const struct cmp_cell *c)
{
	const struct cmp_metric *m = &c->m[r->chosen];

	return fabs((double)m->change) / fmax(1.0, fmax(r->set->threshold_us * 1000.0,
						     r->set->threshold_pct / 100.0 * m->base));
}

int cmp_run(struct cmp_result *r, const struct cmp_side *base, const struct cmp_side *new,
	    const struct cmp_settings *set)
{
	/* each side's interval at sqrt(conf): both hold together with conf */
	double z = two_sided_z(sqrt(set->confidence));
	int nr = 0;

	memset(r, 0, sizeof(*r));
	r->set = set;
	r->base = base;
	r->new = new;
	r->chosen = CMP_CHOSEN;
	for (int i = 0; i < CMP_MAX; i++)
		if (fabs(metric_pct[i] - set->percentile) < 1e-9)
			r->chosen = i;
	r->cells = calloc((size_t)(base->nr_cpus + 1) * TLAT_NR_CTX, sizeof(*r->cells));
	if (!r->cells)
		return -ENOMEM;
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		if (!base->has_ctx[ctx] || !new->has_ctx[ctx])
			continue;
		for (int bi = 0; bi <= base->nr_cpus; bi++) {
			struct cmp_cell *c = &r->cells[nr];
			int ni = new->nr_cpus;

			if (bi < base->nr_cpus)
				ni = cmp_cpu_index(new, base->cpus[bi]);

			if (ni < 0)
				continue;
			c->cpu = bi == base->nr_cpus ? -1 : base->cpus[bi];
			c->ctx = ctx;
			cell_fill(c, r, bi, ni, z);
			nr++;
		}
	}
	r->nr_cells = nr;
	r->verdict = CMP_NO_CHANGE;
	for (int i = 0; i < nr; i++) {
		const struct cmp_cell *c = &r->cells[i];

		if (c->verdict != CMP_REGRESSION && c->verdict != CMP_IMPROVEMENT)
			continue;
		if (c->verdict == CMP_REGRESSION && r->verdict != CMP_REGRESSION) {
			r->verdict = CMP_REGRESSION;
			r->worst = c;
		} else if (c->verdict == r->verdict || r->verdict == CMP_NO_CHANGE) {
			r->verdict = c->verdict;
			if (!r->worst || excess(r, c) > excess(r, r->worst))
				r->worst = c;
		}
	}
	return 0;
}

void cmp_result_free(struct cmp_result *r)
{
	free(r->cells);
	r->cells = NULL;
}
