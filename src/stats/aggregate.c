// SPDX-License-Identifier: GPL-2.0
/*
 * aggregate.c - the aggregate (see aggregate.h). The numbers of every CPU
 * are kept from the start (they are small and top shows every CPU); a
 * CPU's buckets, linear then log-linear, each [context][bucket], come at
 * its first sample.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/aggregate.h"
#include "stats/loglinear.h"
#include "util/percpu.h"

#define PPM	1000000ull

struct tlat_aggregate {
	struct tlat_agg_layout layout;
	struct tlat_stat (*stats)[TLAT_NR_CTX];	/* [cpu][ctx] */
	struct percpu buckets;			/* [ctx][entries + 1], then [ctx][LOGLIN_BUCKETS] */
};

static const struct tlat_stat no_stat;

static size_t linear_len(const struct tlat_aggregate *agg)
{
	return agg->layout.entries ? agg->layout.entries + 1 : 0;
}

static size_t loglinear_len(const struct tlat_aggregate *agg)
{
	return agg->layout.loglinear ? LOGLIN_BUCKETS : 0;
}

struct tlat_aggregate *agg_alloc(const struct tlat_agg_layout *layout)
{
	struct tlat_aggregate *agg = calloc(1, sizeof(*agg));
	size_t per_cpu;

	if (!agg)
		return NULL;
	agg->layout = *layout;
	if (!agg->layout.bucket_ns)
		agg->layout.bucket_ns = 1;
	per_cpu = TLAT_NR_CTX * (linear_len(agg) + loglinear_len(agg)) * sizeof(u64);
	agg->stats = calloc(layout->nr_cpus > 0 ? layout->nr_cpus : 1, sizeof(*agg->stats));
	if (!agg->stats || percpu_init(&agg->buckets, layout->nr_cpus, per_cpu)) {
		agg_free(agg);
		errno = ENOMEM;
		return NULL;
	}
	return agg;
}

void agg_free(struct tlat_aggregate *agg)
{
	if (!agg)
		return;
	percpu_free(&agg->buckets);
	free(agg->stats);
	free(agg);
}

const struct tlat_agg_layout *agg_layout(const struct tlat_aggregate *agg)
{
	return &agg->layout;
}

static bool cpu_ok(const struct tlat_aggregate *agg, int cpu)
{
	return cpu >= 0 && cpu < agg->layout.nr_cpus;
}

/* the CPU's linear buckets of ctx, allocating them (create) or not */
static u64 *linear_of(const struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, bool create)
{
	u64 *b = create ? percpu_get((struct percpu *)&agg->buckets, cpu)
			: percpu_peek(&agg->buckets, cpu);

	return b && linear_len(agg) ? b + ctx * linear_len(agg) : NULL;
}

static u64 *loglinear_of(const struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, bool create)
{
	u64 *b = create ? percpu_get((struct percpu *)&agg->buckets, cpu)
			: percpu_peek(&agg->buckets, cpu);

	return b && loglinear_len(agg) ?
	       b + TLAT_NR_CTX * linear_len(agg) + ctx * loglinear_len(agg) : NULL;
}

void stat_add(struct tlat_stat *stat, u64 latency_ns)
{
	if (!stat->count || latency_ns < stat->min)
		stat->min = latency_ns;
	if (latency_ns > stat->max)
		stat->max = latency_ns;
	stat->cur = latency_ns;
	stat->sum += latency_ns;
	stat->count++;
}

void stat_merge(struct tlat_stat *into, const struct tlat_stat *from)
{
	if (!from->count)
		return;
	if (!into->count || from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
	into->cur = from->cur;
	into->sum += from->sum;
	into->count += from->count;
}

void agg_add_stat(struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, u64 latency_ns)
{
	if (cpu_ok(agg, cpu))
		stat_add(&agg->stats[cpu][ctx], latency_ns);
}

void agg_add_linear(struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, u64 latency_ns)
{
	u64 *b = cpu_ok(agg, cpu) ? linear_of(agg, cpu, ctx, true) : NULL;
	u64 bucket = latency_ns / agg->layout.bucket_ns;

	if (b)
		b[bucket > agg->layout.entries ? agg->layout.entries : bucket]++;
}

void agg_add_loglinear(struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, u64 latency_ns)
{
	u64 *b = cpu_ok(agg, cpu) ? loglinear_of(agg, cpu, ctx, true) : NULL;

	if (b)
		b[loglin_index(latency_ns)]++;
}

int agg_set(struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, const struct tlat_stat *stat,
	    const u64 *linear, const u64 *loglinear)
{
	u64 *b;

	if (!cpu_ok(agg, cpu) || (linear && !linear_len(agg)) ||
	    (loglinear && !loglinear_len(agg)))
		return -EINVAL;
	if (stat)
		agg->stats[cpu][ctx] = *stat;
	if (linear) {
		b = linear_of(agg, cpu, ctx, true);
		if (!b)
			return -ENOMEM;
		memcpy(b, linear, linear_len(agg) * sizeof(*b));
	}
	if (loglinear) {
		b = loglinear_of(agg, cpu, ctx, true);
		if (!b)
			return -ENOMEM;
		memcpy(b, loglinear, loglinear_len(agg) * sizeof(*b));
	}
	return 0;
}

static int merge_buckets(u64 *into, const u64 *from, size_t len)
{
	if (!from)
		return 0;
	if (!into)
		return -ENOMEM;
	for (size_t i = 0; i < len; i++)
		into[i] += from[i];
	return 0;
}

int agg_merge(struct tlat_aggregate *into, const struct tlat_aggregate *from)
{
	const struct tlat_agg_layout *a = &into->layout, *b = &from->layout;
	int ret = 0;

	if (a->nr_cpus != b->nr_cpus || a->entries != b->entries || a->bucket_ns != b->bucket_ns ||
	    a->loglinear != b->loglinear)
		return -EINVAL;
	for (int cpu = 0; cpu < a->nr_cpus && !ret; cpu++) {
		bool has = percpu_peek(&from->buckets, cpu);

		for (int ctx = 0; ctx < TLAT_NR_CTX && !ret; ctx++) {
			stat_merge(&into->stats[cpu][ctx], &from->stats[cpu][ctx]);
			if (!has)
				continue;
			ret = merge_buckets(linear_of(into, cpu, ctx, true),
					    linear_of(from, cpu, ctx, false), linear_len(into)) ?:
			      merge_buckets(loglinear_of(into, cpu, ctx, true),
					    loglinear_of(from, cpu, ctx, false), loglinear_len(into));
		}
	}
	return ret;
}

int agg_nr_cpus(const struct tlat_aggregate *agg)
{
	return agg->layout.nr_cpus;
}

const struct tlat_stat *agg_stat(const struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx)
{
	return cpu_ok(agg, cpu) ? &agg->stats[cpu][ctx] : &no_stat;
}

bool agg_cpu_has_data(const struct tlat_aggregate *agg, int cpu)
{
	return agg_stat(agg, cpu, TLAT_CTX_IRQ)->count || agg_stat(agg, cpu, TLAT_CTX_THREAD)->count;
}

unsigned int agg_entries(const struct tlat_aggregate *agg)
{
	return agg->layout.entries;
}

u64 agg_bucket(const struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, unsigned int index)
{
	const u64 *b = cpu_ok(agg, cpu) ? linear_of(agg, cpu, ctx, false) : NULL;

	return b && index <= agg->layout.entries ? b[index] : 0;
}

u64 agg_loglinear(const struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx,
		  unsigned int index)
{
	const u64 *b = cpu_ok(agg, cpu) ? loglinear_of(agg, cpu, ctx, false) : NULL;

	return b && index < LOGLIN_BUCKETS ? b[index] : 0;
}

struct tlat_stat agg_stat_merged(const struct tlat_aggregate *agg, const struct tlat_cpuset *cpus,
				 enum tlat_ctx ctx)
{
	struct tlat_stat all = no_stat;

	for (int cpu = 0; cpu < agg->layout.nr_cpus; cpu++)
		if (cpuset_has(cpus, cpu))
			stat_merge(&all, &agg->stats[cpu][ctx]);
	return all;
}

/*
 * The nearest-rank percentile over the context of the CPUs in cpus, or of
 * CPU cpu alone if cpus is NULL.
 */
static bool agg_rank(const struct tlat_aggregate *agg, const struct tlat_cpuset *cpus, int cpu,
		     enum tlat_ctx ctx, u32 ppm, u64 *ns)
{
	int lo = cpus ? 0 : cpu, hi = cpus ? agg->layout.nr_cpus : cpu + 1;
	u64 count = 0, min = UINT64_MAX, max = 0, rank, seen = 0;
	unsigned int b;

	if (!agg->layout.loglinear || lo < 0 || hi > agg->layout.nr_cpus)
		return false;
	for (int i = lo; i < hi; i++) {
		const struct tlat_stat *st = &agg->stats[i][ctx];

		if (!st->count || (cpus && !cpuset_has(cpus, i)) || !loglinear_of(agg, i, ctx, false))
			continue;
		count += st->count;
		min = st->min < min ? st->min : min;
		max = st->max > max ? st->max : max;
	}
	if (!count)
		return false;
	rank = (count * ppm + PPM - 1) / PPM ?: 1;
	/* the extremes are known exactly, also beyond the last bucket */
	if (rank == 1 || rank == count) {
		*ns = rank == 1 ? min : max;
		return true;
	}
	for (b = 0; b < LOGLIN_BUCKETS && seen < rank; b++)
		for (int i = lo; i < hi; i++)
			if (!cpus || cpuset_has(cpus, i))
				seen += agg_loglinear(agg, i, ctx, b);
	/* the exact value is within [min, max] too: never answer outside it */
	*ns = loglin_middle(b - 1);
	*ns = *ns < min ? min : *ns > max ? max : *ns;
	return true;
}

bool agg_percentile(const struct tlat_aggregate *agg, int cpu, enum tlat_ctx ctx, u32 ppm,
		    u64 *ns)
{
	return agg_rank(agg, NULL, cpu, ctx, ppm, ns);
}

bool agg_percentile_merged(const struct tlat_aggregate *agg, const struct tlat_cpuset *cpus,
			   enum tlat_ctx ctx, u32 ppm, u64 *ns)
{
	return agg_rank(agg, cpus, 0, ctx, ppm, ns);
}
