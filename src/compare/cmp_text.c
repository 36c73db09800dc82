// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_text.c - tlat compare's table: per CPU and context, then all CPUs,
 * each metric of BASE and NEW side by side in us, the change and its
 * confidence interval, the KS test, and the verdict on the last line.
 */
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"

static void side_line(FILE *out, const char *name, const struct cmp_side *s)
{
	fprintf(out, "# %s: %s (%d run%s, %s)", name, s->label, s->nr_runs,
		s->nr_runs == 1 ? "" : "s", s->cyclictest ? "cyclictest --json" : "tlat");
	/* what a kernel-vs-kernel comparison compares, where the runs say */
	if (s->kernel[0])
		fprintf(out, " kernel %s", s->kernel);
	if (s->source[0])
		fprintf(out, "%s source %s", s->kernel[0] ? "," : "", s->source);
	fputc('\n', out);
}

static void header(FILE *out, const struct cmp_result *r)
{
	const struct cmp_settings *set = r->set;
	char name[32];

	side_line(out, "BASE", r->base);
	side_line(out, "NEW ", r->new);
	/* e.g. 6.1's timerlat, which has no user-space threads, against 6.12's */
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
		if (r->base->has_ctx[ctx] != r->new->has_ctx[ctx])
			fprintf(out, "# %s latency: in %s only, not compared\n", tlat_ctx_name[ctx],
				r->base->has_ctx[ctx] ? "BASE" : "NEW");
	fprintf(out, "# period %llu us; latencies in us; intervals at %g%%\n",
		(unsigned long long)r->base->period_us, set->confidence * 100);
	fprintf(out, "# verdict on %s: a change beyond %g us and %g%%, its interval clear of 0, "
		"KS p < %g\n", cmp_metric_name(r, r->chosen, name, sizeof(name)),
		set->threshold_us, set->threshold_pct, set->alpha);
	fprintf(out, "%5s %-7s %-7s %11s %11s %10s  %-24s %s\n", "CPU", "context", "metric",
		"BASE", "NEW", "change", "interval of the change", "verdict");
}

static void cpu_ctx(FILE *out, const struct cmp_cell *c)
{
	if (c->cpu < 0)
		fprintf(out, "%5s %-7s ", "ALL", tlat_ctx_name[c->ctx]);
	else
		fprintf(out, "%5d %-7s ", c->cpu, tlat_ctx_name[c->ctx]);
}

static void metric_line(FILE *out, const struct cmp_result *r, const struct cmp_cell *c, int i)
{
	const struct cmp_metric *m = &c->m[i];
	char name[32], line[192], hi[32];
	int at;

	cpu_ctx(out, c);
	at = snprintf(line, sizeof(line), "%-7s %11.2f %11.2f %+10.2f  ",
		      cmp_metric_name(r, i, name, sizeof(name)), m->base / 1000.0,
		      m->new / 1000.0, (double)m->change / 1000.0);
	if (m->open)
		snprintf(hi, sizeof(hi), "%10s", "open");
	else
		snprintf(hi, sizeof(hi), "%+10.2f", (double)m->hi / 1000.0);
	if (m->pct < 100)
		at += snprintf(line + at, sizeof(line) - at, "[%+10.2f, %s]",
			       (double)m->lo / 1000.0, hi);
	else
		at += snprintf(line + at, sizeof(line) - at, "%24s", "");
	if (i == r->chosen)
		snprintf(line + at, sizeof(line) - at, " %s", cmp_verdict_name(m->verdict));
	for (at = strlen(line); at > 0 && line[at - 1] == ' '; at--)
		line[at - 1] = 0;
	fprintf(out, "%s\n", line);
}

static void cell_lines(FILE *out, const struct cmp_result *r, const struct cmp_cell *c)
{
	cpu_ctx(out, c);
	fprintf(out, "%-7s %11llu %11llu\n", "count", (unsigned long long)c->base_count,
		(unsigned long long)c->new_count);
	if (c->verdict == CMP_SKIPPED) {
		cpu_ctx(out, c);
		fprintf(out, "%-7s a side has no samples: skipped\n", "");
		return;
	}
	for (int i = 0; i < CMP_NR_METRICS; i++)
		if (c->m[i].used)
			metric_line(out, r, c, i);
	cpu_ctx(out, c);
	fprintf(out, "%-7s D %.4f p %.3g; NEW larger D %.4f p %.3g, smaller D %.4f p %.3g\n",
		"KS", c->ks.d, c->ks.p, c->ks.d_up, c->ks.p_up, c->ks.d_down, c->ks.p_down);
}

void cmp_render_text(FILE *out, const struct cmp_result *r)
{
	const struct cmp_cell *w = r->worst;
	char name[32];

	header(out, r);
	for (int i = 0; i < r->nr_cells; i++)
		cell_lines(out, r, &r->cells[i]);
	fprintf(out, "verdict: %s", cmp_verdict_name(r->verdict));
	if (w) {
		const struct cmp_metric *m = &w->m[r->chosen];

		fprintf(out, " (");
		if (w->cpu < 0)
			fprintf(out, "all CPUs");
		else
			fprintf(out, "CPU %d", w->cpu);
		fprintf(out, " %s %s ", tlat_ctx_name[w->ctx],
			cmp_metric_name(r, r->chosen, name, sizeof(name)));
		fprintf(out, "%+.2f us", (double)m->change / 1000.0);
		if (m->base)
			fprintf(out, ", %+.0f%%", 100.0 * (double)m->change / (double)m->base);
		fprintf(out, ")");
	}
	fputc('\n', out);
}
