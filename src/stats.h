/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - count, current, min, max and sum of latencies, per CPU and per
 * context, in nanoseconds. Renderers convert units; nothing here rounds.
 */
#ifndef TLAT_STATS_H
#define TLAT_STATS_H

#include <stdbool.h>

#include "sample.h"

struct tlat_stat {
	u64 count;
	u64 cur;
	u64 min;
	u64 max;
	u64 sum;
};

struct tlat_stats;

struct tlat_stats *stats_alloc(int nr_cpus);
void stats_free(struct tlat_stats *stats);
void stats_add_sample(struct tlat_stats *stats, const struct tlat_sample *sample);
const struct tlat_stat *stats_get(const struct tlat_stats *stats, int cpu, enum tlat_ctx ctx);
int stats_nr_cpus(const struct tlat_stats *stats);

void stat_add(struct tlat_stat *stat, u64 latency_ns);
void stat_merge(struct tlat_stat *into, const struct tlat_stat *from);
/* whether the CPU produced anything at all: rtla hides CPUs that did not */
bool stats_cpu_has_data(const struct tlat_stats *stats, int cpu);

#endif
