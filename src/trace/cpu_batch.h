/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu_batch.h - a pass's samples and stacks kept per CPU, each CPU's in
 * its own order, for the per-CPU read (collector_percpu.c): decoders
 * append to them through a sink, possibly from several threads, one CPU's
 * batch from one thread; the collector then hands them on CPU by CPU up to
 * a time. What comes later stays for the next pass.
 */
#ifndef TLAT_TRACE_CPU_BATCH_H
#define TLAT_TRACE_CPU_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/sink.h"

/* a stack whose frames are in its batch's ips */
struct batch_stack {
	struct tlat_stack stack;	/* .ips unset: at ips + at */
	size_t at;
	size_t before;			/* the batch's samples before it */
};

struct cpu_batch {
	struct tlat_sample *samples;
	size_t nr_samples, max_samples;
	struct batch_stack *stacks;
	size_t nr_stacks, max_stacks;
	u64 *ips;
	size_t nr_ips, max_ips;
	bool nomem;			/* something could not be kept */
};

/* the sink the decoders write to: appends to the batch of each sample's CPU */
struct batch_sink {
	struct tlat_sink sink;		/* first: the decoder calls back through it */
	struct cpu_batch *by_cpu;
	int nr_cpus;
	u64 outside;			/* samples of a CPU beyond nr_cpus: dropped */
};

/* a time across CPUs: records are handed on in (ts, cpu) order */
struct batch_key {
	u64 ts_ns;
	int cpu;
};

#define BATCH_KEY_MAX	((struct batch_key){ ~0ull, ~0u >> 1 })

/**
 * batch_sink_init - a sink that appends to @by_cpu
 * @bs: the sink, the caller's memory
 * @by_cpu: @nr_cpus batches, zeroed or from before
 * @nr_cpus: how many
 */
void batch_sink_init(struct batch_sink *bs, struct cpu_batch *by_cpu, int nr_cpus);

/**
 * batch_key_le - whether @a is not later than @b
 */
static inline bool batch_key_le(struct batch_key a, struct batch_key b)
{
	return a.ts_ns < b.ts_ns || (a.ts_ns == b.ts_ns && a.cpu <= b.cpu);
}

/**
 * batch_count_until - how many of a batch's first samples are not later than @limit
 * @b: the batch
 * @cpu: its CPU
 * @limit: the time
 */
size_t batch_count_until(const struct cpu_batch *b, int cpu, struct batch_key limit);

/**
 * batch_feed - hand on a batch's first samples, and its stacks not later
 * than the last of them or than @stack_limit, in time order
 * @b: the batch
 * @cpu: its CPU
 * @nr: how many samples
 * @stack_limit: the stacks up to this time go too
 * @sink: where
 */
void batch_feed(const struct cpu_batch *b, int cpu, size_t nr, struct batch_key stack_limit,
		struct tlat_sink *sink);

/**
 * batch_consume - forget a batch's samples and stacks up to @limit
 * @b: the batch
 * @cpu: its CPU
 * @limit: the time; what is later stays, in order
 */
void batch_consume(struct cpu_batch *b, int cpu, struct batch_key limit);

/**
 * batch_free - free a batch's memory
 * @b: the batch, zeroed again
 */
void batch_free(struct cpu_batch *b);

#endif
