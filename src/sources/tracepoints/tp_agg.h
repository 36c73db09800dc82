/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tp_agg.h - a measuring thread's own aggregate of its samples, for the
 * tracepoint source's kernel collector where nothing in the run needs them
 * one by one: per context, the numbers of struct tlat_stat and the
 * log-linear buckets (stats/loglinear.h), the layout tlat.ko's
 * /dev/tlat_agg gives. One writer (the thread, which never waits) and one
 * reader (the drain), ordered by a sequence count: the reader copies the
 * whole aggregate and copies again if the writer was at it meanwhile.
 */
#ifndef TLAT_SOURCES_TRACEPOINTS_TP_AGG_H
#define TLAT_SOURCES_TRACEPOINTS_TP_AGG_H

#include "stats/aggregate.h"
#include "stats/loglinear.h"

/* one context's numbers and buckets */
struct tp_agg_ctx {
	struct tlat_stat stat;
	u64 buckets[LOGLIN_BUCKETS];
};

/* what the reader gets: every context, as they were at one moment */
struct tp_agg_snapshot {
	struct tp_agg_ctx ctx[TLAT_NR_CTX];
};

struct tp_agg;

/**
 * tp_agg_alloc - an empty aggregate, for one thread
 *
 * Returns it, on a cache line of its own, to free with tp_agg_free(), or
 * NULL out of memory.
 */
struct tp_agg *tp_agg_alloc(void);

/**
 * tp_agg_free - free an aggregate
 * @a: from tp_agg_alloc(), or NULL
 */
void tp_agg_free(struct tp_agg *a);

/**
 * tp_agg_add - count an activation's samples: the writer's side
 * @a: the aggregate
 * @latency_ns: each context's latency
 * @counts: which contexts count (false: that sample is left out)
 *
 * The reader sees all of an activation's samples or none of them.
 */
void tp_agg_add(struct tp_agg *a, const u64 latency_ns[TLAT_NR_CTX],
		const bool counts[TLAT_NR_CTX]);

/**
 * tp_agg_reset - start again from nothing: the writer's side
 * @a: the aggregate
 */
void tp_agg_reset(struct tp_agg *a);

/**
 * tp_agg_read - a consistent copy of the aggregate: the reader's side
 * @a: the aggregate
 * @out: set to every context's numbers and buckets
 *
 * Never blocks the writer: copies again while the writer changed it
 * meanwhile.
 */
void tp_agg_read(const struct tp_agg *a, struct tp_agg_snapshot *out);

#endif
