/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample_ring.h - a measuring thread's samples on their way to the main
 * thread, without a lock or a syscall: one writer (the thread), one reader
 * (the drain), a power-of-two ring of struct tlat_sample. A full ring drops
 * the new sample and counts it, as a full trace buffer loses events.
 */
#ifndef TLAT_SOURCES_TRACEPOINTS_SAMPLE_RING_H
#define TLAT_SOURCES_TRACEPOINTS_SAMPLE_RING_H

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "core/sample.h"

struct sample_ring {
	u64 head;			/* written by the thread: next to fill */
	u64 tail;			/* written by the reader: next to read */
	u64 lost;			/* the thread's: dropped when full */
	u64 mask;
	struct tlat_sample *buf;
};

/**
 * sample_ring_init - an empty ring
 * @r: the ring, the caller's memory
 * @order: it holds 2^order samples
 *
 * Returns 0, or -ENOMEM.
 */
static inline int sample_ring_init(struct sample_ring *r, unsigned int order)
{
	*r = (struct sample_ring){ .mask = (1ull << order) - 1 };
	r->buf = calloc(r->mask + 1, sizeof(*r->buf));
	return r->buf ? 0 : -ENOMEM;
}

/**
 * sample_ring_free - free a ring's samples
 * @r: the ring, from sample_ring_init(); it can be initialised again
 */
static inline void sample_ring_free(struct sample_ring *r)
{
	free(r->buf);
	r->buf = NULL;
}

/**
 * sample_ring_push - the writer's: add a sample
 * @r: the ring
 * @s: the sample, copied
 *
 * Returns false, counted in lost, if the ring is full.
 */
static inline bool sample_ring_push(struct sample_ring *r, const struct tlat_sample *s)
{
	u64 head = r->head;

	if (head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) > r->mask) {
		__atomic_store_n(&r->lost, r->lost + 1, __ATOMIC_RELAXED);
		return false;
	}
	r->buf[head & r->mask] = *s;
	__atomic_store_n(&r->head, head + 1, __ATOMIC_RELEASE);
	return true;
}

/**
 * sample_ring_pop - the reader's: take the oldest sample
 * @r: the ring
 * @s: set to it
 *
 * Returns false if the ring is empty.
 */
static inline bool sample_ring_pop(struct sample_ring *r, struct tlat_sample *s)
{
	u64 tail = r->tail;

	if (tail == __atomic_load_n(&r->head, __ATOMIC_ACQUIRE))
		return false;
	*s = r->buf[tail & r->mask];
	__atomic_store_n(&r->tail, tail + 1, __ATOMIC_RELEASE);
	return true;
}

#endif
