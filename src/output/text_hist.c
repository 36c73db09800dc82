// SPDX-License-Identifier: GPL-2.0
/*
 * text_hist.c - tlat hist's output, byte for byte rtla timerlat hist's:
 * the "# RTLA timerlat histogram" header, one column per CPU and context,
 * the over/count/min/avg/max rows and the ALL block. CI parsers read this.
 */
#include <stdlib.h>
#include <string.h>

#include "output/text.h"

static const char *const column_name[TLAT_NR_CTX] = {
	[TLAT_CTX_IRQ]		= "IRQ",
	[TLAT_CTX_THREAD]	= "Thr",
	[TLAT_CTX_USER]		= "Usr",
};

enum summary_row { ROW_COUNT, ROW_MIN, ROW_AVG, ROW_MAX, NR_ROWS };

static const char *const row_label[NR_ROWS] = { "count:", "min:  ", "avg:  ", "max:  " };

static void print_summary_value(FILE *out, const struct tlat_stat *st, enum summary_row row,
				u64 div)
{
	u64 val;

	if (row == ROW_COUNT) {
		fprintf(out, "%9llu ", (unsigned long long)st->count);
		return;
	}
	if (!st->count) {
		fprintf(out, "%9c ", '-');
		return;
	}
	val = row == ROW_MIN ? st->min : row == ROW_MAX ? st->max : st->sum / st->count;
	fprintf(out, "%9llu ", (unsigned long long)(val / div));
}

static void hist_header(FILE *out, const struct tlat_report *r)
{
	char duration[32];

	if (r->params->out.hist.no_header)
		return;
	report_duration(duration, sizeof(duration), r->elapsed_s);
	fprintf(out, "# RTLA timerlat histogram\n");
	fprintf(out, "# Time unit is %s (%s)\n", r->params->out.nano ? "nanoseconds" : "microseconds",
		r->params->out.nano ? "ns" : "us");
	fprintf(out, "# Duration: %s\n", duration);
	if (!r->params->out.hist.no_index)
		fputs("Index", out);
	for (int cpu = 0; cpu < agg_nr_cpus(r->agg); cpu++) {
		if (!report_cpu_shown(r, cpu))
			continue;
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			if (report_ctx_shown(r, ctx))
				fprintf(out, "   %s-%03d", column_name[ctx], cpu);
	}
	fputc('\n', out);
}

/* one bucket row; returns false (and prints nothing) for an all-zero row */
static bool hist_bucket_row(FILE *out, const struct tlat_report *r, unsigned int bucket,
			    const char *label)
{
	char *line = NULL;
	size_t len = 0;
	FILE *row = open_memstream(&line, &len);
	u64 total = 0;

	if (!row)
		return false;
	if (!r->params->out.hist.no_index) {
		if (label)
			fputs(label, row);
		else
			fprintf(row, "%-6u", bucket * r->params->out.hist.bucket_size);
	}
	for (int cpu = 0; cpu < agg_nr_cpus(r->agg); cpu++) {
		if (!report_cpu_shown(r, cpu))
			continue;
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			u64 n;

			if (!report_ctx_shown(r, ctx))
				continue;
			n = agg_bucket(r->agg, cpu, ctx, bucket);
			total += n;
			fprintf(row, "%9llu ", (unsigned long long)n);
		}
	}
	fclose(row);
	/* rtla always prints the over: row, and other rows only if non-zero */
	if (total || label || r->params->out.hist.with_zeros)
		fprintf(out, "%s\n", line);
	free(line);
	return total;
}

static void hist_summary(FILE *out, const struct tlat_report *r)
{
	u64 div = report_divisor(r);

	for (int row = 0; row < NR_ROWS; row++) {
		if (!r->params->out.hist.no_index)
			fputs(row_label[row], out);
		for (int cpu = 0; cpu < agg_nr_cpus(r->agg); cpu++) {
			if (!report_cpu_shown(r, cpu))
				continue;
			for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
				if (report_ctx_shown(r, ctx))
					print_summary_value(out, agg_stat(r->agg, cpu, ctx), row,
							    div);
		}
		fputc('\n', out);
	}
}

static void hist_summary_all(FILE *out, const struct tlat_report *r)
{
	struct tlat_stat all[TLAT_NR_CTX];
	u64 div = report_divisor(r);

	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
		all[ctx] = report_stat_shown(r, ctx);

	if (!r->params->out.hist.no_index)
		fputs("ALL:  ", out);
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
		if (report_ctx_shown(r, ctx))
			fprintf(out, ctx == TLAT_CTX_IRQ ? "      %s" : "       %s", column_name[ctx]);
	fputc('\n', out);

	for (int row = 0; row < NR_ROWS; row++) {
		if (!r->params->out.hist.no_index)
			fputs(row_label[row], out);
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			if (report_ctx_shown(r, ctx))
				print_summary_value(out, &all[ctx], row, div);
		fputc('\n', out);
	}
}

static void hist_final(FILE *out, const struct tlat_report *r)
{
	unsigned int entries = agg_entries(r->agg);

	hist_header(out, r);
	for (unsigned int bucket = 0; bucket < entries; bucket++)
		hist_bucket_row(out, r, bucket, NULL);
	hist_bucket_row(out, r, entries, "over: ");
	if (!r->params->out.hist.no_summary) {
		hist_summary(out, r);
		hist_summary_all(out, r);
	}
	text_missed_events(out, r);
	fflush(out);
}

const struct text_renderer text_hist_renderer = {
	.final = hist_final,
};
