// SPDX-License-Identifier: GPL-2.0
/*
 * pctl.c - the percentile consumer (see pctl.h). A value v of 2^e..2^(e+1)-1
 * ns (e >= 8) falls into one of 128 buckets of 2^(e-7) ns: a bucket is at
 * most 1/128 of its lower bound wide, and its middle is within 1/256 (0.4%)
 * of anything in it. Below 256 ns every value has a bucket of its own.
 */
#include <stdlib.h>

#include "cpuset.h"
#include "pctl.h"

#define PCTL_SUB_BITS	7
#define PCTL_SUB	(1u << PCTL_SUB_BITS)
#define PCTL_MAX_BITS	36
#define PCTL_MAX_NS	((1ull << PCTL_MAX_BITS) - 1)
#define PCTL_BUCKETS	((PCTL_MAX_BITS - PCTL_SUB_BITS + 1) * PCTL_SUB)
#define PPM		1000000ull

struct pctl_ctx {
	u64 count;
	u64 min;
	u64 max;
	u64 buckets[PCTL_BUCKETS];
};

struct tlat_pctl {
	int nr_cpus;
	struct pctl_ctx **cpu;	/* [cpu] -> [TLAT_NR_CTX], NULL until its first sample */
};

struct tlat_pctl *pctl_alloc(int nr_cpus)
{
	struct tlat_pctl *pctl = calloc(1, sizeof(*pctl));

	if (!pctl)
		return NULL;
	pctl->nr_cpus = nr_cpus;
	pctl->cpu = calloc(nr_cpus, sizeof(*pctl->cpu));
	if (!pctl->cpu) {
		free(pctl);
		return NULL;
	}
	return pctl;
}

void pctl_free(struct tlat_pctl *pctl)
{
	if (!pctl)
		return;
	for (int cpu = 0; cpu < pctl->nr_cpus; cpu++)
		free(pctl->cpu[cpu]);
	free(pctl->cpu);
	free(pctl);
}

static unsigned int pctl_index(u64 ns)
{
	unsigned int shift;

	if (ns > PCTL_MAX_NS)
		ns = PCTL_MAX_NS;
	if (ns < 2 * PCTL_SUB)
		return ns;
	shift = 63 - __builtin_clzll(ns) - PCTL_SUB_BITS;
	return shift * PCTL_SUB + (unsigned int)(ns >> shift);
}

/* the middle of a bucket: within half its width of anything in it */
static u64 pctl_middle(unsigned int index)
{
	unsigned int shift;

	if (index < 2 * PCTL_SUB)
		return index;
	shift = index / PCTL_SUB - 1;
	return ((u64)(index - shift * PCTL_SUB) << shift) + ((1ull << shift) - 1) / 2;
}

void pctl_add_sample(struct tlat_pctl *pctl, const struct tlat_sample *sample)
{
	struct pctl_ctx *c;

	if (sample->cpu < 0 || sample->cpu >= pctl->nr_cpus)
		return;
	if (!pctl->cpu[sample->cpu]) {
		pctl->cpu[sample->cpu] = calloc(TLAT_NR_CTX, sizeof(struct pctl_ctx));
		if (!pctl->cpu[sample->cpu])
			return;
	}
	c = &pctl->cpu[sample->cpu][sample->ctx];
	if (!c->count || sample->latency_ns < c->min)
		c->min = sample->latency_ns;
	if (sample->latency_ns > c->max)
		c->max = sample->latency_ns;
	c->count++;
	c->buckets[pctl_index(sample->latency_ns)]++;
}

/*
 * The nearest-rank percentile over the contexts of the CPUs in cpus, or of
 * CPU cpu alone if cpus is NULL.
 */
static bool pctl_rank(const struct tlat_pctl *pctl, const struct tlat_cpuset *cpus, int cpu,
		      enum tlat_ctx ctx, u32 ppm, u64 *ns)
{
	int lo = cpus ? 0 : cpu, hi = cpus ? pctl->nr_cpus : cpu + 1;
	u64 count = 0, min = UINT64_MAX, max = 0, rank, seen = 0;
	unsigned int b;

	if (lo < 0 || hi > pctl->nr_cpus)
		return false;
	for (int i = lo; i < hi; i++) {
		const struct pctl_ctx *c = pctl->cpu[i] ? &pctl->cpu[i][ctx] : NULL;

		if (!c || !c->count || (cpus && !cpuset_has(cpus, i)))
			continue;
		count += c->count;
		min = c->min < min ? c->min : min;
		max = c->max > max ? c->max : max;
	}
	if (!count)
		return false;
	rank = (count * ppm + PPM - 1) / PPM ?: 1;
	/* the extremes are known exactly, also beyond the last bucket */
	if (rank == 1 || rank == count) {
		*ns = rank == 1 ? min : max;
		return true;
	}
	for (b = 0; b < PCTL_BUCKETS && seen < rank; b++)
		for (int i = lo; i < hi; i++)
			if (pctl->cpu[i] && (!cpus || cpuset_has(cpus, i)))
				seen += pctl->cpu[i][ctx].buckets[b];
	/* the exact value is within [min, max] too: never answer outside it */
	*ns = pctl_middle(b - 1);
	*ns = *ns < min ? min : *ns > max ? max : *ns;
	return true;
}

bool pctl_get(const struct tlat_pctl *pctl, int cpu, enum tlat_ctx ctx, u32 ppm, u64 *ns)
{
	return pctl_rank(pctl, NULL, cpu, ctx, ppm, ns);
}

bool pctl_get_merged(const struct tlat_pctl *pctl, const struct tlat_cpuset *cpus,
		     enum tlat_ctx ctx, u32 ppm, u64 *ns)
{
	return pctl_rank(pctl, cpus, 0, ctx, ppm, ns);
}
