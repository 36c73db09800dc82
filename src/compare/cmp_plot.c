// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_plot.c - tlat compare --plot: both sides' distributions overlaid in
 * the style of tlat hist --plot (latency, log sample count, steps),
 * each CPU's context a colour, BASE dashed and NEW solid; counts per run,
 * so that sides of different numbers of runs compare. The log-linear
 * buckets are spread over 1 us steps; the x axis turns logarithmic when a
 * maximum would squeeze the bulk into a corner, and the steps then follow
 * the buckets.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "core/err.h"
#include "output/gnuplot.h"
#include "stats/loglinear.h"

/*
 * A plot's steps. On a linear axis, 1 us each: a bucket is spread over the
 * microseconds it covers, as in tlat hist --plot. On a log axis a step is a
 * bucket, or 1024 ns of the narrower buckets below 131 us, so that the steps
 * are of nearly one width on that axis; each holds its samples (a smooth
 * distribution's step up where the buckets double in width). Every side's
 * buckets are the same, so every curve is a step function on the same steps,
 * and the plot has a row per step: a few thousand whatever the maximum.
 */
#define CMP_PLOT_LOG_STEP_NS	1024

struct cmp_steps {
	bool log_x;
	u64 *start;		/* ns, sorted, distinct; start[nr] ends the last */
	int nr;
};

/* the steps a bucket's samples go to: [*first, *end), in ns */
static void bucket_span(const struct cmp_steps *st, unsigned int b, u64 *first, u64 *end)
{
	u64 lo = loglin_lowest(b), w = loglin_width(b);

	if (st->log_x) {
		/* a bucket 1024 ns wide or more starts at a multiple of its width */
		*first = lo & ~(u64)(CMP_PLOT_LOG_STEP_NS - 1);
		*end = *first + (w > CMP_PLOT_LOG_STEP_NS ? w : CMP_PLOT_LOG_STEP_NS);
	} else {
		*first = lo / 1000 * 1000;
		*end = ((lo + w - 1) / 1000 + 1) * 1000;
	}
}

static int u64_order(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* the steps up to @end_ns */
static int steps_init(struct cmp_steps *st, bool log_x, u64 end_ns)
{
	int n = 0;

	st->log_x = log_x;
	st->start = calloc(2 * LOGLIN_BUCKETS, sizeof(*st->start));
	if (!st->start)
		return -ENOMEM;
	for (unsigned int b = 0; b < LOGLIN_BUCKETS; b++) {
		u64 first, end;

		bucket_span(st, b, &first, &end);
		if (first >= end_ns)
			break;
		st->start[n++] = first;
		st->start[n++] = end < end_ns ? end : end_ns;
	}
	qsort(st->start, n, sizeof(*st->start), u64_order);
	st->nr = 0;
	for (int i = 0; i < n; i++)
		if (!st->nr || st->start[st->nr - 1] != st->start[i])
			st->start[st->nr++] = st->start[i];
	/* the last start only ends the step before it */
	st->nr--;
	return 0;
}

static int step_of(const struct cmp_steps *st, u64 ns)
{
	int lo = 0, hi = st->nr;

	while (hi - lo > 1) {
		int mid = (lo + hi) / 2;

		if (st->start[mid] <= ns)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* a cell's curve of one side: samples per run of each step (per us if linear) */
static double *curve(const struct cmp_side *s, const struct cmp_cell *c,
		     const struct cmp_steps *st)
{
	int ci = c->cpu < 0 ? s->nr_cpus : cmp_cpu_index(s, c->cpu);
	const struct cmp_dist *d = cmp_dist(s, s->nr_runs, ci, c->ctx);
	double *y = calloc(st->nr, sizeof(double));
	u64 end_ns = st->start[st->nr];

	if (!y || !d->buckets)
		return y;
	for (unsigned int b = 0; b < LOGLIN_BUCKETS; b++) {
		u64 first, end;
		double share;

		bucket_span(st, b, &first, &end);
		if (!d->buckets[b] || first >= end_ns)
			continue;
		if (end > end_ns)
			end = end_ns;
		share = (double)d->buckets[b] / s->nr_runs;
		if (!st->log_x)
			share /= (double)(end - first) / 1000;
		for (int i = step_of(st, first); i < st->nr && st->start[i] < end; i++)
			y[i] += share;
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

/*
 * Past this range a linear axis squeezes the bulk of a distribution, a few
 * microseconds, into its first pixels beside a far maximum: the x axis is
 * then logarithmic.
 */
#define CMP_PLOT_LINEAR_MAX_US	200

static void free_curves(double **y, int nr)
{
	for (int k = 0; k < nr; k++)
		free(y[k]);
	free(y);
}

static void plot_header(FILE *out, const struct cmp_result *r, int format, bool log_x)
{
	char t[512];

	fputs("# tlat compare --plot: both distributions, read by gnuplot from standard input\n",
	      out);
	gnuplot_terminal(out, format);
	fputs("set title ", out);
	snprintf(t, sizeof(t), "tlat compare: BASE %s (%d run%s) vs NEW %s (%d run%s)",
		 r->base->label, r->base->nr_runs, r->base->nr_runs == 1 ? "" : "s",
		 r->new->label, r->new->nr_runs, r->new->nr_runs == 1 ? "" : "s");
	gnuplot_quoted(out, t);
	fputs(" noenhanced\n", out);
	/*
	 * On a log axis a step holds its samples, not its samples per 1 us:
	 * the few far ones, spread over a wide bucket, would fall below the
	 * axis. The first microsecond's step starts at 0.5: a log axis has no 0.
	 */
	if (log_x)
		fputs("set xlabel \"Latency (us, log scale), steps of 1.024 us up to 131 us, "
		      "then 1/128 of a power of 2\"\n"
		      "set ylabel \"Number of latency samples per run in the step\"\n"
		      "set logscale x\n", out);
	else
		fputs("set xlabel \"Latency (us), buckets of 1 us\"\n"
		      "set ylabel \"Number of latency samples per run\"\n", out);
	fprintf(out, "set logscale y\nset grid\nset key top right box samplen 3\n"
		"set yrange [0.8:*]\nset xrange [%s:*]\n", log_x ? "0.5" : "0");
}

int cmp_plot_script(FILE *out, const struct cmp_result *r, int format)
{
	struct cmp_steps st;
	u64 max = 0, nr_us;
	double **y;
	int nr = 0, col = 2, shown = 0;
	const char *sep = "plot ";
	bool log_x;

	for (int i = 0; i < r->nr_cells; i++)
		if (drawn(r, &r->cells[i])) {
			nr++;
			const struct cmp_metric *m = &r->cells[i].m[CMP_MAX];

			max = fmax(max, fmax(m->base, m->new));
		}
	nr_us = max / 1000 + 2;
	log_x = max > CMP_PLOT_LINEAR_MAX_US * 1000;
	if (steps_init(&st, log_x, nr_us * 1000))
		return -ENOMEM;
	y = calloc(2 * nr + 1, sizeof(*y));
	if (!y) {
		free(st.start);
		return -ENOMEM;
	}
	for (int i = 0, k = 0; i < r->nr_cells; i++)
		if (drawn(r, &r->cells[i])) {
			y[k++] = curve(r->base, &r->cells[i], &st);
			y[k++] = curve(r->new, &r->cells[i], &st);
			if (!y[k - 1] || !y[k - 2]) {
				free_curves(y, 2 * nr);
				free(st.start);
				return -ENOMEM;
			}
		}
	plot_header(out, r, format, log_x);
	fputs("$tlat << EOD\n", out);
	for (int i = 0; i < st.nr; i++) {
		if (!log_x)
			fprintf(out, "%llu", (unsigned long long)(st.start[i] / 1000));
		else if (st.start[i])
			fprintf(out, "%.3f", st.start[i] / 1000.0);
		else
			fputs("0.5", out);
		for (int k = 0; k < 2 * nr; k++)
			if (y[k][i] > 0)
				fprintf(out, " %.3f", y[k][i]);
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
	free_curves(y, 2 * nr);
	free(st.start);
	return ferror(out) ? -EIO : 0;
}

static int plot_script(FILE *out, const void *data, enum tlat_plot_format format)
{
	return cmp_plot_script(out, data, format);
}

int cmp_render_plot(const char *path, const struct cmp_result *r, char *err)
{
	return gnuplot_render(path, plot_script, r, err);
}
