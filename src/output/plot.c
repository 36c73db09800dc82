// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - tlat hist --plot: the finished histogram as an OSADL-style
 * latency plot (linear latency, log sample count, one step curve per CPU and
 * context), drawn by gnuplot so that tlat needs no graphics library.
 */
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/err.h"
#include "output/output.h"
#include "output/plot.h"

static const char *const ctx_title[TLAT_NR_CTX] = {
	[TLAT_CTX_IRQ]		= "IRQ",
	[TLAT_CTX_THREAD]	= "thread",
	[TLAT_CTX_USER]		= "user",
};

/* the contexts of a CPU share its colour and differ in dashes */
static const char *const ctx_dash[TLAT_NR_CTX] = {
	[TLAT_CTX_IRQ]		= "dt 3 lw 2",
	[TLAT_CTX_THREAD]	= "dt 1 lw 1.5",
	[TLAT_CTX_USER]		= "dt 2 lw 1.5",
};

static bool curve_shown(const struct tlat_report *r, int cpu, int ctx)
{
	return report_cpu_shown(r, cpu) && report_ctx_shown(r, ctx);
}

/* the last bucket below over: that any curve has a sample in, or -1 */
static long plot_last_bucket(const struct tlat_report *r)
{
	long last = -1;

	for (int cpu = 0; cpu < agg_nr_cpus(r->agg); cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			if (!curve_shown(r, cpu, ctx))
				continue;
			for (long b = agg_entries(r->agg) - 1; b > last; b--)
				if (agg_bucket(r->agg, cpu, ctx, b)) {
					last = b;
					break;
				}
		}
	return last;
}

static u64 plot_over_total(const struct tlat_report *r)
{
	u64 over = 0;

	for (int cpu = 0; cpu < agg_nr_cpus(r->agg); cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			if (curve_shown(r, cpu, ctx))
				over += agg_bucket(r->agg, cpu, ctx, agg_entries(r->agg));
	return over;
}

/*
 * The x axis ends after the last sample. With samples in over:, it reaches
 * the histogram's end instead, marked by a line: they lie beyond it.
 */
static void plot_ranges(FILE *out, const struct tlat_report *r, long last, const char *unit)
{
	u64 end = (u64)agg_entries(r->agg) * r->params->out.hist.bucket_size;

	/* 0.8: a bucket with one sample still shows above the axis, as in OSADL's plots */
	fprintf(out, "set yrange [0.8:%s]\n", last >= 0 ? "*" : "10");
	if (!plot_over_total(r)) {
		if (last >= 0)
			fputs("set xrange [0:*]\n", out);
		else
			fprintf(out, "set xrange [0:%llu]\n", (unsigned long long)end);
		return;
	}
	fprintf(out, "set xrange [0:%llu]\n"
		"set arrow from %llu, graph 0 to %llu, graph 1 nohead dt 4 lc rgb 'gray40'\n"
		"set label \"over: %llu %s and above\" at %llu, graph 0.5 center rotate by 90 offset -1,0\n",
		(unsigned long long)(end + end / 20), (unsigned long long)end,
		(unsigned long long)end, (unsigned long long)end, unit, (unsigned long long)end);
}

static void plot_labels(FILE *out, const struct tlat_report *r, const char *unit)
{
	const struct tlat_params *p = r->params;
	char duration[32], title[2 * sizeof(struct utsname) + sizeof(duration) + 64];
	const char *release = "(unknown)", *machine = "", *d = duration;
	struct utsname uts;

	report_duration(duration, sizeof(duration), r->elapsed_s);
	while (*d == ' ')
		d++;
	if (!uname(&uts)) {
		release = uts.release;
		machine = uts.machine;
	}
	snprintf(title, sizeof(title), "tlat hist: Linux %s %s, period %llu us, duration %s",
		 release, machine, (unsigned long long)p->period_us, d);
	fputs("set title ", out);
	gnuplot_quoted(out, title);
	fputs(" noenhanced\n", out);
	if (p->out.hist.bucket_size > 1)
		fprintf(out, "set xlabel \"Latency (%s), buckets of %u %s\"\n", unit,
			p->out.hist.bucket_size, unit);
	else
		fprintf(out, "set xlabel \"Latency (%s)\"\n", unit);
	fputs("set ylabel \"Number of latency samples\"\n"
	      "set logscale y\n"
	      "set grid\n"
	      "set key top right box samplen 3\n", out);
}

static bool plot_bucket_empty(const struct tlat_report *r, long bucket)
{
	for (int cpu = 0; cpu < agg_nr_cpus(r->agg); cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			if (curve_shown(r, cpu, ctx) && agg_bucket(r->agg, cpu, ctx, bucket))
				return false;
	return true;
}

/*
 * A row per bucket up to the last non-empty one, and a row that closes it.
 * A step runs from its row to the next, so of buckets empty in every curve
 * only the first of a run needs a row: sparse tails (-E 1000000) stay small.
 */
static void plot_data(FILE *out, const struct tlat_report *r, long last)
{
	unsigned int size = r->params->out.hist.bucket_size;
	bool prev_empty = false, empty;

	fputs("$tlat << EOD\n", out);
	for (long b = 0; b <= last + 1; b++) {
		empty = b > last || plot_bucket_empty(r, b);
		if (empty && prev_empty)
			continue;
		prev_empty = empty;
		fprintf(out, "%lu", (unsigned long)b * size);
		for (int cpu = 0; cpu < agg_nr_cpus(r->agg); cpu++)
			for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
				u64 n = b <= last ? agg_bucket(r->agg, cpu, ctx, b) : 0;

				if (!curve_shown(r, cpu, ctx))
					continue;
				if (n)
					fprintf(out, " %llu", (unsigned long long)n);
				else
					fputs(" " GNUPLOT_EMPTY, out);
			}
		fputc('\n', out);
	}
	fputs("EOD\n", out);
}

/* the key names each curve's maximum and its over: count, which the plot cannot show */
static void plot_key_title(FILE *out, const struct tlat_report *r, int cpu, int ctx,
			   const char *unit)
{
	const struct tlat_stat *st = agg_stat(r->agg, cpu, ctx);
	u64 over = agg_bucket(r->agg, cpu, ctx, agg_entries(r->agg));

	fprintf(out, "title \"CPU %d %s: ", cpu, ctx_title[ctx]);
	if (st->count)
		fprintf(out, "max %llu %s", (unsigned long long)(st->max / report_divisor(r)), unit);
	else
		fputs("no samples", out);
	fprintf(out, ", over: %llu\"", (unsigned long long)over);
}

static void plot_curves(FILE *out, const struct tlat_report *r, const char *unit)
{
	int column = 2, shown = 0;
	const char *sep = "plot ";

	for (int cpu = 0; cpu < agg_nr_cpus(r->agg); cpu++) {
		if (!report_cpu_shown(r, cpu))
			continue;
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			if (!curve_shown(r, cpu, ctx))
				continue;
			fprintf(out, "%s$tlat using 1:%d with steps lc rgb '%s' %s ", sep, column++,
				gnuplot_colour(shown), ctx_dash[ctx]);
			plot_key_title(out, r, cpu, ctx, unit);
			sep = ", \\\n     ";
		}
		shown++;
	}
	if (column == 2)	/* no CPU has samples: an empty frame, not a gnuplot error */
		fputs("unset key\nset label 'no samples' at graph 0.5, 0.5 center\nplot NaN notitle",
		      out);
	fputc('\n', out);
}

int render_plot_script(FILE *out, const struct tlat_report *r, enum tlat_plot_format format)
{
	const char *unit = r->params->out.nano ? "ns" : "us";
	long last = plot_last_bucket(r);

	fputs("# tlat hist --plot: a latency plot, read by gnuplot from standard input\n", out);
	gnuplot_terminal(out, format);
	plot_labels(out, r, unit);
	plot_ranges(out, r, last, unit);
	plot_data(out, r, last);
	plot_curves(out, r, unit);
	return ferror(out) ? -EIO : 0;
}

static int plot_script(FILE *out, const void *data, enum tlat_plot_format format)
{
	return render_plot_script(out, data, format);
}

/* draws report->params->hist.plot_file; on error it is left as it was */
static int render_plot(const struct tlat_report *r, char *err)
{
	return gnuplot_render(r->params->out.hist.plot_file, plot_script, r, err);
}

static bool plot_chosen(const struct tlat_output_params *p)
{
	return p->hist.plot_file;
}

static int plot_open(void **priv, const struct tlat_output_params *p, char *err)
{
	*priv = NULL;
	return gnuplot_check(p->hist.plot_file, err);
}

/* gnuplot runs once the system is as it was: its failure cannot leave anything */
static int plot_restored(void *priv, const struct tlat_report *r, char *err)
{
	(void)priv;
	return render_plot(r, err);
}

const struct tlat_output_ops plot_output_ops = {
	.chosen = plot_chosen,
	.open = plot_open,
	.restored = plot_restored,
};
