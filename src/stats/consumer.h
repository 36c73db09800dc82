/* SPDX-License-Identifier: GPL-2.0 */
/*
 * consumer.h - what the run feeds samples to: the statistics, hist's and the
 * percentiles' buckets (agg_fill.c), the sample log (samplelog.c) and the
 * auto-analysis. A consumer sees struct tlat_sample and stacks, never the
 * source they came from; the pipeline (run/pipeline.h) decides which samples
 * count.
 */
#ifndef TLAT_STATS_CONSUMER_H
#define TLAT_STATS_CONSUMER_H

#include <stdbool.h>
#include <stdio.h>

#include "core/sample.h"
#include "stats/aggregate.h"

struct tlat_consumer_ops {
	/*
	 * Sees every sample the source decodes, before a threshold stopped
	 * the run, warm-up and samples past -d included (the analysis: an
	 * activation that straddles the start needs its IRQ sample). Else only
	 * the samples of the measured window.
	 */
	bool whole_run;
	void (*sample)(void *priv, const struct tlat_sample *sample);
	/* a stack saved at a timer IRQ; NULL: not wanted */
	void (*stack)(void *priv, const struct tlat_stack *stack);
	/*
	 * A CPU's context counted whole in the kernel (struct tlat_sink's
	 * aggregate()); NULL: the consumer needs the samples themselves.
	 */
	void (*aggregate)(void *priv, int cpu, enum tlat_ctx ctx, const struct tlat_stat *stat,
			  const u64 *loglinear);
	/* NULL: priv is not the consumer's to free */
	void (*free)(void *priv);
};

/* the consumers that fill an aggregate from samples: priv is the aggregate */
extern const struct tlat_consumer_ops stats_consumer_ops;	/* count, cur, min, max, sum */
extern const struct tlat_consumer_ops hist_consumer_ops;	/* hist's linear buckets */
extern const struct tlat_consumer_ops pctl_consumer_ops;	/* the percentiles' buckets */

/**
 * samplelog_open - the sample log (--sample-log): every sample counted as a
 * line "cpu seq context latency_ns time_ns", for tests and scripts
 * @f: set to the file, which samplelog_consumer_ops's free() closes
 *
 * Returns 0 or -errno.
 */
int samplelog_open(FILE **f, const char *path);
extern const struct tlat_consumer_ops samplelog_consumer_ops;

#endif
