// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - latency histograms. Buckets are kept per CPU and allocated on the
 * first sample of that CPU, so a big -E costs memory only where it is used.
 */
#include <stdlib.h>

#include "hist.h"

struct tlat_hist {
	int nr_cpus;
	unsigned int entries;
	u64 bucket_ns;
	u64 **cpu;		/* [cpu] -> [ctx * (entries + 1) + bucket] */
};

struct tlat_hist *hist_alloc(int nr_cpus, unsigned int entries, u64 bucket_ns)
{
	struct tlat_hist *hist = calloc(1, sizeof(*hist));

	if (!hist)
		return NULL;
	hist->nr_cpus = nr_cpus;
	hist->entries = entries;
	hist->bucket_ns = bucket_ns ? bucket_ns : 1;
	hist->cpu = calloc(nr_cpus, sizeof(*hist->cpu));
	if (!hist->cpu) {
		free(hist);
		return NULL;
	}
	return hist;
}

void hist_free(struct tlat_hist *hist)
{
	if (!hist)
		return;
	for (int cpu = 0; cpu < hist->nr_cpus; cpu++)
		free(hist->cpu[cpu]);
	free(hist->cpu);
	free(hist);
}

void hist_add_sample(struct tlat_hist *hist, const struct tlat_sample *sample)
{
	u64 bucket = sample->latency_ns / hist->bucket_ns;
	u64 **buckets;

	if (sample->cpu < 0 || sample->cpu >= hist->nr_cpus)
		return;
	buckets = &hist->cpu[sample->cpu];
	if (!*buckets) {
		*buckets = calloc((size_t)TLAT_NR_CTX * (hist->entries + 1), sizeof(u64));
		if (!*buckets)
			return;
	}
	if (bucket > hist->entries)
		bucket = hist->entries;
	(*buckets)[sample->ctx * (hist->entries + 1) + bucket]++;
}

u64 hist_bucket(const struct tlat_hist *hist, int cpu, enum tlat_ctx ctx, unsigned int index)
{
	const u64 *buckets = hist->cpu[cpu];

	if (!buckets || index > hist->entries)
		return 0;
	return buckets[ctx * (hist->entries + 1) + index];
}

unsigned int hist_entries(const struct tlat_hist *hist)
{
	return hist->entries;
}
