/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pctl.h - latency percentiles per CPU and context, from a log-linear
 * (HDR-style) histogram: exact below 256 ns, then 128 buckets per power of
 * two, so that a percentile is within 0.4% of the exact one (up to 2^36 ns,
 * about 68 s; larger latencies share the last bucket). A CPU's buckets are
 * allocated on its first sample.
 */
#ifndef TLAT_PCTL_H
#define TLAT_PCTL_H

#include <stdbool.h>

#include "params.h"
#include "sample.h"

struct tlat_pctl;

struct tlat_pctl *pctl_alloc(int nr_cpus);
void pctl_free(struct tlat_pctl *pctl);
void pctl_add_sample(struct tlat_pctl *pctl, const struct tlat_sample *sample);
/*
 * The nearest-rank percentile (the smallest latency that at least ppm/10^6
 * of the samples do not exceed; 99.99% is 999900) of one CPU's context;
 * false if it has no sample.
 */
bool pctl_get(const struct tlat_pctl *pctl, int cpu, enum tlat_ctx ctx, u32 ppm, u64 *ns);
/* the same over the samples of every CPU in cpus together */
bool pctl_get_merged(const struct tlat_pctl *pctl, const struct tlat_cpuset *cpus,
		     enum tlat_ctx ctx, u32 ppm, u64 *ns);

#endif
