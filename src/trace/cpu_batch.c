// SPDX-License-Identifier: GPL-2.0
/*
 * cpu_batch.c - a pass's samples and stacks per CPU (see cpu_batch.h).
 */
#include <stdlib.h>
#include <string.h>

#include "trace/cpu_batch.h"

static bool batch_grow(void **arr, size_t *max, size_t need, size_t size)
{
	size_t n = *max ? *max : 64;
	void *p;

	if (need <= *max)
		return true;
	while (n < need)
		n *= 2;
	p = reallocarray(*arr, n, size);
	if (!p)
		return false;
	*arr = p;
	*max = n;
	return true;
}

static struct cpu_batch *batch_of(struct batch_sink *bs, int cpu)
{
	if (cpu < 0 || cpu >= bs->nr_cpus) {
		bs->outside++;
		return NULL;
	}
	return &bs->by_cpu[cpu];
}

static void batch_sample(struct tlat_sink *sink, const struct tlat_sample *sample)
{
	struct cpu_batch *b = batch_of((struct batch_sink *)sink, sample->cpu);

	if (!b)
		return;
	if (!batch_grow((void **)&b->samples, &b->max_samples, b->nr_samples + 1,
			sizeof(*b->samples))) {
		b->nomem = true;
		return;
	}
	b->samples[b->nr_samples++] = *sample;
}

static void batch_stack(struct tlat_sink *sink, const struct tlat_stack *stack)
{
	struct cpu_batch *b = batch_of((struct batch_sink *)sink, stack->cpu);
	struct batch_stack *s;

	if (!b)
		return;
	if (!batch_grow((void **)&b->stacks, &b->max_stacks, b->nr_stacks + 1,
			sizeof(*b->stacks)) ||
	    !batch_grow((void **)&b->ips, &b->max_ips, b->nr_ips + stack->nr, sizeof(*b->ips))) {
		b->nomem = true;
		return;
	}
	s = &b->stacks[b->nr_stacks++];
	*s = (struct batch_stack){ .stack = *stack, .at = b->nr_ips, .before = b->nr_samples };
	s->stack.ips = NULL;
	if (stack->nr > 0)
		memcpy(b->ips + b->nr_ips, stack->ips, stack->nr * sizeof(*b->ips));
	b->nr_ips += stack->nr;
}

void batch_sink_init(struct batch_sink *bs, struct cpu_batch *by_cpu, int nr_cpus)
{
	*bs = (struct batch_sink){
		.sink = { .sample = batch_sample, .stack = batch_stack },
		.by_cpu = by_cpu,
		.nr_cpus = nr_cpus,
	};
}

static struct batch_key sample_key(const struct tlat_sample *s, int cpu)
{
	return (struct batch_key){ s->ts_ns, cpu };
}

static struct batch_key stack_key(const struct batch_stack *s, int cpu)
{
	return (struct batch_key){ s->stack.ts_ns, cpu };
}

size_t batch_count_until(const struct cpu_batch *b, int cpu, struct batch_key limit)
{
	size_t n = 0;

	while (n < b->nr_samples && batch_key_le(sample_key(&b->samples[n], cpu), limit))
		n++;
	return n;
}

static void batch_stack_to(const struct cpu_batch *b, const struct batch_stack *s,
			   struct tlat_sink *sink)
{
	struct tlat_stack stack = s->stack;

	if (!sink->stack)
		return;
	stack.ips = b->ips ? b->ips + s->at : NULL;
	sink->stack(sink, &stack);
}

void batch_feed(const struct cpu_batch *b, int cpu, size_t nr, struct batch_key stack_limit,
		struct tlat_sink *sink)
{
	size_t st = 0;

	for (size_t i = 0; i < nr; i++) {
		for (; st < b->nr_stacks && b->stacks[st].before <= i; st++)
			batch_stack_to(b, &b->stacks[st], sink);
		sink->sample(sink, &b->samples[i]);
	}
	for (; st < b->nr_stacks && batch_key_le(stack_key(&b->stacks[st], cpu), stack_limit);
	     st++)
		batch_stack_to(b, &b->stacks[st], sink);
}

void batch_consume(struct cpu_batch *b, int cpu, struct batch_key limit)
{
	size_t ns = batch_count_until(b, cpu, limit), nk = 0, ips = 0;

	while (nk < b->nr_stacks && batch_key_le(stack_key(&b->stacks[nk], cpu), limit))
		nk++;
	if (nk < b->nr_stacks)
		ips = b->stacks[nk].at;
	else
		ips = b->nr_ips;
	/* what stays goes to the front (an array never grown is NULL) */
	if (ns)
		memmove(b->samples, b->samples + ns, (b->nr_samples - ns) * sizeof(*b->samples));
	b->nr_samples -= ns;
	if (nk)
		memmove(b->stacks, b->stacks + nk, (b->nr_stacks - nk) * sizeof(*b->stacks));
	b->nr_stacks -= nk;
	if (ips)
		memmove(b->ips, b->ips + ips, (b->nr_ips - ips) * sizeof(*b->ips));
	b->nr_ips -= ips;
	for (size_t i = 0; i < b->nr_stacks; i++) {
		b->stacks[i].at -= ips;
		b->stacks[i].before = b->stacks[i].before > ns ? b->stacks[i].before - ns : 0;
	}
}

void batch_free(struct cpu_batch *b)
{
	free(b->samples);
	free(b->stacks);
	free(b->ips);
	memset(b, 0, sizeof(*b));
}
