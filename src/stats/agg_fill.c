// SPDX-License-Identifier: GPL-2.0
/*
 * agg_fill.c - the consumers that fill an aggregate from samples, one part
 * each: a run keeps hist's buckets only in hist mode and the percentiles'
 * only where a document shows them. Each also takes a CPU's context whole,
 * as a kernel collector counts it.
 */
#include <stdlib.h>

#include "stats/consumer.h"
#include "stats/loglinear.h"

static void stats_sample(void *agg, const struct tlat_sample *s)
{
	agg_add_stat(agg, s->cpu, s->ctx, s->latency_ns);
}

static void hist_sample(void *agg, const struct tlat_sample *s)
{
	agg_add_linear(agg, s->cpu, s->ctx, s->latency_ns);
}

static void pctl_sample(void *agg, const struct tlat_sample *s)
{
	agg_add_loglinear(agg, s->cpu, s->ctx, s->latency_ns);
}

static void stats_aggregate(void *agg, int cpu, enum tlat_ctx ctx, const struct tlat_stat *stat,
			    const u64 *loglinear)
{
	(void)loglinear;
	agg_set(agg, cpu, ctx, stat, NULL, NULL);
}

/*
 * hist's buckets from the log-linear ones: each count goes to the linear
 * bucket of its log-linear bucket's middle, within 1/256 of each sample.
 */
static void hist_aggregate(void *agg, int cpu, enum tlat_ctx ctx, const struct tlat_stat *stat,
			   const u64 *loglinear)
{
	const struct tlat_agg_layout *l = agg_layout(agg);
	u64 *linear;
	u64 i;

	(void)stat;
	if (!loglinear)
		return;
	linear = calloc(l->entries + 1, sizeof(*linear));
	if (!linear)
		return;
	for (unsigned int b = 0; b < LOGLIN_BUCKETS; b++) {
		if (!loglinear[b])
			continue;
		i = loglin_middle(b) / l->bucket_ns;
		linear[i < l->entries ? i : l->entries] += loglinear[b];
	}
	agg_set(agg, cpu, ctx, NULL, linear, NULL);
	free(linear);
}

static void pctl_aggregate(void *agg, int cpu, enum tlat_ctx ctx, const struct tlat_stat *stat,
			   const u64 *loglinear)
{
	(void)stat;
	if (loglinear)
		agg_set(agg, cpu, ctx, NULL, NULL, loglinear);
}

const struct tlat_consumer_ops stats_consumer_ops = {
	.sample = stats_sample,
	.aggregate = stats_aggregate,
};

const struct tlat_consumer_ops hist_consumer_ops = {
	.sample = hist_sample,
	.aggregate = hist_aggregate,
};

const struct tlat_consumer_ops pctl_consumer_ops = {
	.sample = pctl_sample,
	.aggregate = pctl_aggregate,
};
