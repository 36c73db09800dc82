// SPDX-License-Identifier: GPL-2.0
/*
 * tp_agg.c - a measuring thread's aggregate of its samples (see tp_agg.h).
 * The sequence count is odd while the writer changes the aggregate; the
 * reader copies between two even reads of the same count, as the kernel's
 * seqcount_t does. The writer is the only one to change it, so it needs no
 * atomic read-modify-write.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "sources/tracepoints/tp_agg.h"

#define TP_AGG_ALIGN	64

struct tp_agg {
	u32 seq;
	struct tp_agg_snapshot snap;
};

struct tp_agg *tp_agg_alloc(void)
{
	size_t size = (sizeof(struct tp_agg) + TP_AGG_ALIGN - 1) & ~(size_t)(TP_AGG_ALIGN - 1);
	struct tp_agg *a = aligned_alloc(TP_AGG_ALIGN, size);

	if (a)
		memset(a, 0, size);
	return a;
}

void tp_agg_free(struct tp_agg *a)
{
	free(a);
}

/* the count odd: the data's stores come after it */
static void tp_agg_write_begin(struct tp_agg *a)
{
	__atomic_store_n(&a->seq, a->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

/* the count even again: after the data's stores */
static void tp_agg_write_end(struct tp_agg *a)
{
	__atomic_store_n(&a->seq, a->seq + 1, __ATOMIC_RELEASE);
}

void tp_agg_add(struct tp_agg *a, const u64 latency_ns[TLAT_NR_CTX],
		const bool counts[TLAT_NR_CTX])
{
	tp_agg_write_begin(a);
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		if (!counts[ctx])
			continue;
		stat_add(&a->snap.ctx[ctx].stat, latency_ns[ctx]);
		a->snap.ctx[ctx].buckets[loglin_index(latency_ns[ctx])]++;
	}
	tp_agg_write_end(a);
}

void tp_agg_reset(struct tp_agg *a)
{
	tp_agg_write_begin(a);
	memset(&a->snap, 0, sizeof(a->snap));
	tp_agg_write_end(a);
}

void tp_agg_read(const struct tp_agg *a, struct tp_agg_snapshot *out)
{
	u32 begin;

	for (;;) {
		begin = __atomic_load_n(&a->seq, __ATOMIC_ACQUIRE);
		if (begin & 1) {
			/* the writer may share this CPU, at no higher priority */
			sched_yield();
			continue;
		}
		memcpy(out, &a->snap, sizeof(*out));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&a->seq, __ATOMIC_RELAXED) == begin)
			return;
	}
}
