// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - per-CPU, per-context latency statistics (the numbers of tlat top
 * and of the summary rows of tlat hist).
 */
#include <stdbool.h>
#include <stdlib.h>

#include "stats.h"

struct tlat_stats {
	int nr_cpus;
	struct tlat_stat (*cpu)[TLAT_NR_CTX];
};

struct tlat_stats *stats_alloc(int nr_cpus)
{
	struct tlat_stats *stats = calloc(1, sizeof(*stats));

	if (!stats)
		return NULL;
	stats->nr_cpus = nr_cpus;
	stats->cpu = calloc(nr_cpus, sizeof(*stats->cpu));
	if (!stats->cpu) {
		free(stats);
		return NULL;
	}
	return stats;
}

void stats_free(struct tlat_stats *stats)
{
	if (!stats)
		return;
	free(stats->cpu);
	free(stats);
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

void stats_add_sample(struct tlat_stats *stats, const struct tlat_sample *sample)
{
	if (sample->cpu < 0 || sample->cpu >= stats->nr_cpus)
		return;
	stat_add(&stats->cpu[sample->cpu][sample->ctx], sample->latency_ns);
}

const struct tlat_stat *stats_get(const struct tlat_stats *stats, int cpu, enum tlat_ctx ctx)
{
	return &stats->cpu[cpu][ctx];
}

int stats_nr_cpus(const struct tlat_stats *stats)
{
	return stats->nr_cpus;
}

bool stats_cpu_has_data(const struct tlat_stats *stats, int cpu)
{
	return stats->cpu[cpu][TLAT_CTX_IRQ].count || stats->cpu[cpu][TLAT_CTX_THREAD].count;
}
