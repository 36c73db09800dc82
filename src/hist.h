/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - latency histograms per CPU and context: `entries` buckets of
 * `bucket_ns` each, and one overflow bucket ("over:") for everything above.
 */
#ifndef TLAT_HIST_H
#define TLAT_HIST_H

#include <stdbool.h>

#include "sample.h"

struct tlat_hist;

struct tlat_hist *hist_alloc(int nr_cpus, unsigned int entries, u64 bucket_ns);
void hist_free(struct tlat_hist *hist);
void hist_add_sample(struct tlat_hist *hist, const struct tlat_sample *sample);
/* index == entries reads the overflow bucket */
u64 hist_bucket(const struct tlat_hist *hist, int cpu, enum tlat_ctx ctx, unsigned int index);
unsigned int hist_entries(const struct tlat_hist *hist);

#endif
