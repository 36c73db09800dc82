// SPDX-License-Identifier: GPL-2.0
/*
 * text_output.c - rtla's text on standard output, top's or hist's: the two
 * differ only in their renderer. Everything else is the same for both: the
 * lines rtla prints among the statistics, "timerlat hit stop tracing" and
 * the analysis, and --aa-only's last line. With --json - standard output is
 * the document's, and there is no text at all.
 */
#include <stdio.h>
#include <string.h>

#include "output/output.h"
#include "output/text.h"

void text_missed_events(FILE *out, const struct tlat_report *report)
{
	u64 missed = report->missed_events;

	if (missed == TLAT_MISSED_UNKNOWN) {
		fprintf(out, "unknown number of events missed, results might not be accurate\n");
	} else if (missed) {
		fprintf(out, "%lld (%.2f%%) events missed, results might not be accurate\n",
			(long long)missed,
			(double)missed / (double)(report->processed_events + missed) * 100.0);
	}
}

/* with --json - standard output is the document's */
static bool text_chosen(const struct tlat_output_params *p)
{
	return !(p->json_path && !strcmp(p->json_path, "-"));
}

/* the one thing top and hist do not share */
static int text_open(void **priv, const struct tlat_output_params *p, char *err)
{
	(void)err;
	*priv = (void *)(p->mode == TLAT_MODE_HIST ? &text_hist_renderer : &text_top_renderer);
	return 0;
}

static void text_frame(void *priv, const struct tlat_report *r)
{
	const struct text_renderer *renderer = priv;

	/* --aa-only: no statistics, not even the frame before a stop's actions */
	if (renderer->frame && !r->params->out.aa_only)
		renderer->frame(stdout, r);
}

static void text_hit_frame(void *priv, const struct tlat_report *r, bool after_actions)
{
	const struct text_renderer *renderer = priv;

	if (renderer->hit_frame && !r->params->out.aa_only)
		renderer->hit_frame(stdout, r, after_actions);
}

static void text_summary(void *priv, const struct tlat_report *r)
{
	const struct text_renderer *renderer = priv;

	if (!r->params->out.aa_only)
		renderer->final(stdout, r);
}

static void text_note(void *priv, const char *line)
{
	(void)priv;
	printf("%s\n", line);
}

/* as rtla */
static void text_hit(void *priv, const struct tlat_report *r)
{
	(void)priv;
	printf("timerlat hit stop tracing\n");
	if (r->aa)
		text_aa(stdout, r);
	/* before what an action runs next prints */
	fflush(stdout);
}

/* the highest latency of any context, in us */
static u64 max_latency_us(const struct tlat_report *r)
{
	u64 max = 0;

	for (int cpu = 0; cpu < agg_nr_cpus(r->agg); cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			if (agg_stat(r->agg, cpu, ctx)->max > max)
				max = agg_stat(r->agg, cpu, ctx)->max;
	return max / 1000;
}

static void text_conclusion(void *priv, const struct tlat_report *r)
{
	/* tlat's: a continue run's exit status does not tell (rtla's contract) */
	if (r->hits)
		printf("threshold hit %llu time%s\n", (unsigned long long)r->hits,
		       r->hits == 1 ? "" : "s");
	if (r->threshold_hit)
		text_hit(priv, r);
	else if (r->params->out.aa_only)
		printf("  Max latency was %llu\n", (unsigned long long)max_latency_us(r));
	fflush(stdout);
}

const struct tlat_output_ops text_output_ops = {
	.chosen = text_chosen,
	.open = text_open,
	.frame = text_frame,
	.hit_frame = text_hit_frame,
	.summary = text_summary,
	.note = text_note,
	.hit = text_hit,
	.conclusion = text_conclusion,
};
