/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aggregate.h - what tlat knows of the latencies once they are counted, per
 * CPU and context: count, the latest, min, max and sum; hist's linear buckets;
 * and the log-linear buckets of the percentiles (loglinear.h). It is the
 * currency between collection and output: filled from samples by the
 * consumers (stats/agg_fill.c), or whole by a collector that counts in the
 * kernel (agg_set()), merged, and read by every output. All in nanoseconds.
 */
#ifndef TLAT_STATS_AGGREGATE_H
#define TLAT_STATS_AGGREGATE_H

#include <stdbool.h>

#include "core/cpuset.h"
#include "core/sample.h"

/* what an aggregate keeps besides the numbers, fixed when it is allocated */
struct tlat_agg_layout {
	int nr_cpus;
	unsigned int entries;	/* hist's linear buckets, 0: none; plus one, over: */
	u64 bucket_ns;		/* the width of each */
	bool loglinear;		/* the percentiles' buckets */
};

struct tlat_aggregate;

/**
 * agg_alloc - an empty aggregate
 * @layout: the CPUs and the buckets it keeps
 *
 * A CPU's buckets are allocated at its first sample, so a big -E costs
 * memory only where it is used. Returns NULL (errno set) on failure; free it
 * with agg_free().
 */
struct tlat_aggregate *agg_alloc(const struct tlat_agg_layout *layout);
/**
 * agg_free - free an aggregate and its buckets
 * @agg: from agg_alloc(), or NULL
 */
void agg_free(struct tlat_aggregate *agg);

/**
 * agg_layout - what an aggregate keeps
 * @agg: the aggregate
 *
 * Returns the layout it was allocated with, owned by @agg.
 */
const struct tlat_agg_layout *agg_layout(const struct tlat_aggregate *agg);

/*
 * Filling from samples, one part each, so that a run pays only for what its
 * outputs read; a CPU out of range, or a failed allocation, drops the sample.
 */

/**
 * agg_add_stat - count a sample in a CPU's context's numbers
 * @agg: the aggregate
 * @cpu: the sample's CPU; out of range, the sample is dropped
 * @ctx: its context
 * @latency_ns: its latency
 */
void agg_add_stat(struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, u64 latency_ns);

/**
 * agg_add_linear - count a sample in hist's linear buckets
 * @agg: the aggregate, whose layout has entries
 * @cpu: the sample's CPU; out of range, the sample is dropped
 * @ctx: its context
 * @latency_ns: its latency; past the last bucket it counts in over:
 *
 * The CPU's buckets are allocated here at its first sample; if that fails,
 * the sample is dropped.
 */
void agg_add_linear(struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, u64 latency_ns);

/**
 * agg_add_loglinear - count a sample in the percentiles' log-linear buckets
 * @agg: the aggregate, whose layout keeps them
 * @cpu: the sample's CPU; out of range, the sample is dropped
 * @ctx: its context
 * @latency_ns: its latency
 *
 * As agg_add_linear(), the buckets come at the CPU's first sample.
 */
void agg_add_loglinear(struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, u64 latency_ns);

/**
 * agg_set - fill one CPU's context whole, as a collector counting in the
 * kernel reads it
 * @stat: its numbers
 * @linear: agg_layout()->entries + 1 counts (the last is over:), or NULL
 * @loglinear: LOGLIN_BUCKETS counts, or NULL
 *
 * What is not given stays as it was. Returns 0, -EINVAL (a CPU out of
 * range, or buckets the layout does not keep) or -ENOMEM.
 */
int agg_set(struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, const struct tlat_stat *stat,
	    const u64 *linear, const u64 *loglinear);

/**
 * agg_merge - add the counts of @from to @into
 *
 * Both must have the same layout (-EINVAL otherwise); -ENOMEM. Merging in
 * any order gives the same aggregate, but for cur, which is @from's.
 */
int agg_merge(struct tlat_aggregate *into, const struct tlat_aggregate *from);

/* reading; a CPU that saw nothing (or is out of range) reads as zeros */

/**
 * agg_nr_cpus - the number of CPUs an aggregate has room for
 * @agg: the aggregate
 *
 * Returns its layout's nr_cpus: CPUs 0 to nr_cpus - 1 can be read.
 */
int agg_nr_cpus(const struct tlat_aggregate *agg);

/**
 * agg_stat - one CPU's context's numbers
 * @agg: the aggregate
 * @cpu: the CPU
 * @ctx: the context
 *
 * Returns the numbers, owned by @agg: all zeros for a CPU out of range.
 */
const struct tlat_stat *agg_stat(const struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx);

/**
 * agg_cpu_has_data - whether a CPU produced anything at all
 * @agg: the aggregate
 * @cpu: the CPU
 *
 * Returns true if it has an IRQ or a thread sample: rtla hides CPUs that
 * have none.
 */
bool agg_cpu_has_data(const struct tlat_aggregate *agg, int cpu);

/**
 * agg_entries - the number of hist's linear buckets, over: not counted
 * @agg: the aggregate
 *
 * Returns its layout's entries, 0 if it keeps no linear buckets.
 */
unsigned int agg_entries(const struct tlat_aggregate *agg);

/**
 * agg_bucket - the count of one linear bucket
 * @agg: the aggregate
 * @cpu: the CPU
 * @ctx: the context
 * @index: the bucket; agg_entries() is over:
 *
 * Returns the count; 0 beyond over:, for a CPU out of range or without
 * samples.
 */
u64 agg_bucket(const struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, unsigned int index);

/**
 * agg_loglinear - the count of one log-linear bucket (loglinear.h)
 * @agg: the aggregate
 * @cpu: the CPU
 * @ctx: the context
 * @index: the bucket, below LOGLIN_BUCKETS
 *
 * Returns the count; 0 if the aggregate keeps no log-linear buckets.
 */
u64 agg_loglinear(const struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx,
		  unsigned int index);

/**
 * agg_percentile - the nearest-rank percentile of one CPU's context: the
 * smallest latency that at least @ppm/10^6 of the samples do not exceed
 * (99.99% is 999900), within 1/256 of the exact one, the extremes exact
 *
 * Returns false if it has no sample, or the aggregate keeps no log-linear
 * buckets.
 */
bool agg_percentile(const struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, u32 ppm,
		    u64 *ns);
/**
 * agg_percentile_merged - agg_percentile() over every CPU of a set together
 * @agg: the aggregate
 * @cpus: the CPUs whose samples count
 * @ctx: the context
 * @ppm: the percentile, in parts per million
 * @ns: set to the latency when found
 *
 * Returns false if those CPUs have no sample, or there are no log-linear
 * buckets.
 */
bool agg_percentile_merged(const struct tlat_aggregate *agg, const struct tlat_cpuset *cpus,
			   enum tlat_ctx ctx, u32 ppm, u64 *ns);

/**
 * agg_stat_merged - one context's numbers over every CPU of a set together
 * @agg: the aggregate
 * @cpus: the CPUs whose samples count
 * @ctx: the context
 *
 * Returns the numbers, as stat_merge() adds them up in CPU order.
 */
struct tlat_stat agg_stat_merged(const struct tlat_aggregate *agg, const struct tlat_cpuset *cpus,
				 enum tlat_ctx ctx);

/**
 * stat_add - count one sample in a set of numbers
 * @stat: the numbers
 * @latency_ns: the sample's latency, which becomes cur
 */
void stat_add(struct tlat_stat *stat, u64 latency_ns);

/**
 * stat_merge - add one set of numbers to another
 * @into: what is added to
 * @from: what is added; if it has no sample, @into is left as it was
 *
 * cur becomes @from's.
 */
void stat_merge(struct tlat_stat *into, const struct tlat_stat *from);

#endif
