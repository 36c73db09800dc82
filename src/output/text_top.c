// SPDX-License-Identifier: GPL-2.0
/*
 * text_top.c - tlat top's screen, byte for byte rtla timerlat top's: a
 * header, one row per CPU with cur/min/avg/max per context, and the ALL row.
 */

#include "output/text.h"

static const char no_value[] = "        -";
static const char dashes[] = "----------------------------------------";

static const char *const header_title[TLAT_NR_CTX] = {
	[TLAT_CTX_IRQ]		= "   |          IRQ Timer Latency (%s)        ",
	[TLAT_CTX_THREAD]	= "|         Thread Timer Latency (%s)",
	[TLAT_CTX_USER]		= "      |    Ret user Timer Latency (%s)",
};

static void top_header(FILE *out, const struct tlat_report *r)
{
	const char *unit = r->params->out.nano ? "ns" : "us";
	char duration[32];

	report_duration(duration, sizeof(duration), r->elapsed_s);
	if (r->pretty)
		fputs("\033[2;37;40m", out);
	fputs("                                     Timer Latency                                              ",
	      out);
	if (r->user_data)
		fputs("                                         ", out);
	if (r->pretty)
		fputs("\033[0;0;0m", out);
	fputc('\n', out);

	fprintf(out, "%-6s", duration);
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
		if (report_ctx_shown(r, ctx))
			fprintf(out, header_title[ctx], unit);
	fputc('\n', out);

	if (r->pretty)
		fputs("\033[2;30;47m", out);
	fputs("CPU COUNT      |", out);
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		if (!report_ctx_shown(r, ctx))
			continue;
		fputs(ctx ? " |      cur       min       avg       max"
			  : "      cur       min       avg       max", out);
	}
	if (r->pretty)
		fputs("\033[0;0;0m", out);
	fputc('\n', out);
}

static void top_cpu_row(FILE *out, const struct tlat_report *r, int cpu)
{
	u64 div = report_divisor(r);

	fprintf(out, "%3d #%-9llu |", cpu,
		(unsigned long long)agg_stat(r->agg, cpu, TLAT_CTX_IRQ)->count);
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		const struct tlat_stat *st = agg_stat(r->agg, cpu, ctx);

		if (!report_ctx_shown(r, ctx))
			continue;
		if (ctx)
			fputs(" |", out);
		if (!st->count) {
			fprintf(out, "%s %s %s %s", no_value, no_value, no_value, no_value);
			continue;
		}
		fprintf(out, "%9llu %9llu %9llu %9llu", (unsigned long long)(st->cur / div),
			(unsigned long long)(st->min / div),
			(unsigned long long)(st->sum / st->count / div),
			(unsigned long long)(st->max / div));
	}
	fputc('\n', out);
}

static bool top_has_all(const struct tlat_stat *all)
{
	return all[TLAT_CTX_IRQ].count || all[TLAT_CTX_THREAD].count;
}

static void top_all_split(FILE *out, const struct tlat_report *r, const struct tlat_stat *all)
{
	if (!top_has_all(all))
		return;
	fprintf(out, "%.*s|%.*s|%.*s", 15, dashes, 40, dashes, 39, dashes);
	if (r->user_data)
		fprintf(out, "-|%.*s", 39, dashes);
	fputc('\n', out);
}

static void top_all_row(FILE *out, const struct tlat_report *r, const struct tlat_stat *all)
{
	u64 count = all[TLAT_CTX_IRQ].count;
	u64 div = report_divisor(r);
	int e = 0;

	if (!top_has_all(all))
		return;
	while (count > 999999) {
		e++;
		count /= 10;
	}
	fprintf(out, "ALL #%-6llu e%d |", (unsigned long long)count, e);
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		const struct tlat_stat *st = &all[ctx];

		if (!report_ctx_shown(r, ctx))
			continue;
		if (ctx)
			fputs(" |", out);
		if (!st->count) {
			fprintf(out, "          %s %s %s", no_value, no_value, no_value);
			continue;
		}
		fprintf(out, "          %9llu %9llu %9llu", (unsigned long long)(st->min / div),
			(unsigned long long)(st->sum / st->count / div),
			(unsigned long long)(st->max / div));
	}
	fputc('\n', out);
}

static void top_all_stats(const struct tlat_report *r, struct tlat_stat *all)
{
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
		all[ctx] = report_stat_shown(r, ctx);
}

/* the screen down to the ALL row's separator */
static void top_print_head(FILE *out, const struct tlat_report *r, bool clear,
			   const struct tlat_stat *all)
{
	if (clear)
		fputs("\033c", out);
	top_header(out, r);
	for (int cpu = 0; cpu < agg_nr_cpus(r->agg); cpu++)
		if (report_cpu_shown(r, cpu))
			top_cpu_row(out, r, cpu);
	top_all_split(out, r, all);
}

static void top_print_tail(FILE *out, const struct tlat_report *r, const struct tlat_stat *all)
{
	top_all_row(out, r, all);
	text_missed_events(out, r);
	fflush(out);
}

static void top_print(FILE *out, const struct tlat_report *r, bool clear)
{
	struct tlat_stat all[TLAT_NR_CTX];

	top_all_stats(r, all);
	top_print_head(out, r, clear, all);
	top_print_tail(out, r, all);
}

static void top_frame(FILE *out, const struct tlat_report *r)
{
	if (!r->params->out.quiet)
		top_print(out, r, !r->params->debug);
}

/*
 * As rtla at a threshold: its refresh comes before the threshold's actions,
 * and its ALL row reaches a pipe after their output (stdio's buffer), where
 * scripts look for it ("1ALL" after "echo -n 1").
 */
static void top_hit_frame(FILE *out, const struct tlat_report *r, bool after_actions)
{
	struct tlat_stat all[TLAT_NR_CTX];

	if (r->params->out.quiet)
		return;
	top_all_stats(r, all);
	if (!after_actions) {
		top_print_head(out, r, !r->params->debug, all);
		fflush(out);
	} else {
		top_print_tail(out, r, all);
	}
}

static void top_final(FILE *out, const struct tlat_report *r)
{
	top_print(out, r, !r->params->out.quiet && !r->params->debug);
}

const struct text_renderer text_top_renderer = {
	.frame = top_frame,
	.final = top_final,
	.hit_frame = top_hit_frame,
};
