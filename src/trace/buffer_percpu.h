/* SPDX-License-Identifier: GPL-2.0 */
/*
 * buffer_percpu.h - a pass over a group of CPUs' records without a time
 * merge: each CPU's records in its own order, the CPUs taking turns a few
 * records at a time, so that a pass cut short at its deadline has read
 * every CPU about as far. What each CPU was left at tells the collector up
 * to which time the pass read all CPUs (collector_percpu.c).
 */
#ifndef TLAT_TRACE_BUFFER_PERCPU_H
#define TLAT_TRACE_BUFFER_PERCPU_H

#include "trace/buffer_read.h"

/* records of one CPU handed on before the next CPU's turn */
#define PERCPU_TURN	256

/* the per-CPU record streams of a reader, or of a test */
struct percpu_stream_ops {
	/* the CPU's next record, left pending until taken; false: none now */
	bool (*peek)(void *sctx, int cpu, struct tep_event **event, struct tep_record **record);
	void (*take)(void *sctx, int cpu);
};

/* where a CPU was left */
struct percpu_state {
	bool emptied;			/* found empty in the latest pass */
	bool handed;			/* a record handed on, ever */
	u64 last_ts;			/* the latest one's time */
};

/* the CPUs one reader (thread) drains */
struct percpu_group {
	int *cpus;
	int nr;
	int next;			/* the CPU whose turn the next pass begins with */
};

/**
 * percpu_drain - one pass over a group's CPUs, each in its own order
 * @ops: the streams
 * @sctx: their first argument
 * @g: the group
 * @state: by CPU, for the group's CPUs only (other threads own the rest)
 * @until_ns: CLOCK_MONOTONIC time at which the pass ends; 0: only once
 *	every CPU of the group is empty
 * @fn: called with each record
 * @ctx: @fn's last argument
 *
 * Returns 0 when the group's buffers were emptied, 1 when @until_ns ended
 * the pass with records left.
 */
int percpu_drain(const struct percpu_stream_ops *ops, void *sctx, struct percpu_group *g,
		 struct percpu_state *state, u64 until_ns, buffer_record_fn fn, void *ctx);

/**
 * buffer_reader_percpu - a reader's streams, for percpu_drain()
 * @ops: set to them; their @sctx is the reader
 *
 * Different CPUs' streams may be drained from different threads at once.
 */
void buffer_reader_percpu(const struct percpu_stream_ops **ops);

#endif
