// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_plot.c - tlat compare --plot: both sides' distributions overlaid in
 * the style of tlat hist --plot (linear latency, log sample count, steps),
 * each CPU's context a colour, BASE dashed and NEW solid; counts per run,
 * so that sides of different numbers of runs compare. The log-linear
 * buckets are spread over 1 us steps.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "core/err.h"
#include "output/gnuplot.h"
#include "stats/loglinear.h"

/* a cell's curve of one side: per 1 us, up to nr_us */
static double *curve(const struct cmp_side *s, const struct cmp_cell *c, u64 nr_us)
{
	int ci = c->cpu < 0 ? s->nr_cpus : cmp_cpu_index(s, c->cpu);
	const struct cmp_dist *d = cmp_dist(s, s->nr_runs, ci, c->ctx);
	double *y = calloc(nr_us, sizeof(double));

	if (!y || !d->buckets)
		return y;
	for (unsigned int b = 0; b < LOGLIN_BUCKETS; b++) {
		u64 lo = loglin_lowest(b), w = loglin_width(b);
		u64 first = lo / 1000, last = (lo + w - 1) / 1000;

		if (!d->buckets[b])
			continue;
		if (last >= nr_us)
			last = nr_us - 1;
		for (u64 us = first; us <= last && first < nr_us; us++)
			y[us] += (double)d->buckets[b] / (double)(last - first + 1) / s->nr_runs;
	}
	return y;
}

/* the cells drawn: all CPUs' of each context, and each CPU's when few */
static bool drawn(const struct cmp_result *r, const struct cmp_cell *c)
{
	return c->verdict != CMP_SKIPPED && (c->cpu < 0 || r->base->nr_cpus <= 8);
}

static void title(FILE *out, const struct cmp_cell *c, const char *side, u64 max)
{
	char t[96];

	if (c->cpu < 0)
		snprintf(t, sizeof(t), "%s all CPUs %s: max %.1f us", side, tlat_ctx_name[c->ctx],
			 max / 1000.0);
	else
		snprintf(t, sizeof(t), "%s CPU %d %s: max %.1f us", side, c->cpu,
			 tlat_ctx_name[c->ctx], max / 1000.0);
	fputs("title ", out);
	gnuplot_quoted(out, t);
}

int cmp_plot_script(FILE *out, const struct cmp_result *r, int format)
{
	u64 max = 0, nr_us;
	double **y;
	int nr = 0, col = 2, shown = 0;
	const char *sep = "plot ";

	for (int i = 0; i < r->nr_cells; i++)
		if (drawn(r, &r->cells[i])) {
			nr++;
			const struct cmp_metric *m = &r->cells[i].m[CMP_MAX];

			max = fmax(max, fmax(m->base, m->new));
		}
	nr_us = max / 1000 + 2;
	y = calloc(2 * nr + 1, sizeof(*y));
	if (!y)
		return -ENOMEM;
	for (int i = 0, k = 0; i < r->nr_cells; i++)
		if (drawn(r, &r->cells[i])) {
			y[k++] = curve(r->base, &r->cells[i], nr_us);
			y[k++] = curve(r->new, &r->cells[i], nr_us);
			if (!y[k - 1] || !y[k - 2])
				goto nomem;
		}
	fputs("# tlat compare --plot: both distributions, read by gnuplot from standard input\n", out);
	gnuplot_terminal(out, format);
	fputs("set title ", out);
	{
		char t[512];

		snprintf(t, sizeof(t), "tlat compare: BASE %s (%d run%s) vs NEW %s (%d run%s)",
			 r->base->label, r->base->nr_runs, r->base->nr_runs == 1 ? "" : "s",
			 r->new->label, r->new->nr_runs, r->new->nr_runs == 1 ? "" : "s");
		gnuplot_quoted(out, t);
	}
	fputs(" noenhanced\n"
	      "set xlabel \"Latency (us), buckets of 1 us\"\n"
	      "set ylabel \"Number of latency samples per run\"\n"
	      "set logscale y\nset grid\nset key top right box samplen 3\n"
	      "set yrange [0.8:*]\nset xrange [0:*]\n$tlat << EOD\n", out);
	for (u64 us = 0; us < nr_us; us++) {
		fprintf(out, "%llu", (unsigned long long)us);
		for (int k = 0; k < 2 * nr; k++)
			if (y[k][us] > 0)
				fprintf(out, " %.3f", y[k][us]);
			else
				fputs(" " GNUPLOT_EMPTY, out);
		fputc('\n', out);
	}
	fputs("EOD\n", out);
	for (int i = 0; i < r->nr_cells; i++) {
		const struct cmp_cell *c = &r->cells[i];

		if (!drawn(r, c))
			continue;
		fprintf(out, "%s$tlat using 1:%d with steps lc rgb '%s' dt 2 lw 1.5 ", sep, col++,
			gnuplot_colour(shown));
		title(out, c, "BASE", c->m[CMP_MAX].base);
		fprintf(out, ", \\\n     $tlat using 1:%d with steps lc rgb '%s' dt 1 lw 1.5 ",
			col++, gnuplot_colour(shown));
		title(out, c, "NEW", c->m[CMP_MAX].new);
		sep = ", \\\n     ";
		shown++;
	}
	if (!nr)
		fputs("unset key\nset label 'no samples' at graph 0.5, 0.5 center\nplot NaN notitle",
		      out);
	fputc('\n', out);
	for (int k = 0; k < 2 * nr; k++)
		free(y[k]);
	free(y);
	return ferror(out) ? -EIO : 0;
nomem:
	for (int k = 0; k < 2 * nr; k++)
		free(y[k]);
	free(y);
	return -ENOMEM;
}

static int plot_script(FILE *out, const void *data, enum tlat_plot_format format)
{
	return cmp_plot_script(out, data, format);
}

int cmp_render_plot(const char *path, const struct cmp_result *r, char *err)
{
	return gnuplot_render(path, plot_script, r, err);
}
