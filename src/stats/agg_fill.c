// SPDX-License-Identifier: GPL-2.0
/*
 * agg_fill.c - the consumers that fill an aggregate from samples, one part
 * each: a run keeps hist's buckets only in hist mode and the percentiles'
 * only where a document shows them.
 */
#include "stats/consumer.h"

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

const struct tlat_consumer_ops stats_consumer_ops = {
	.sample = stats_sample,
};

const struct tlat_consumer_ops hist_consumer_ops = {
	.sample = hist_sample,
};

const struct tlat_consumer_ops pctl_consumer_ops = {
	.sample = pctl_sample,
};
