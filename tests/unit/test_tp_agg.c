// SPDX-License-Identifier: GPL-2.0
/*
 * test_tp_agg.c - a measuring thread's aggregate (sources/tp_agg.h): what
 * it counts reads back as the consumers count the same samples, handed to
 * the pipeline whole as the drain does; the contexts left out stay out; a
 * reset empties it; and a reader copying it while its writer adds never
 * sees half an activation, nor numbers and buckets that disagree.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "run/pipeline.h"
#include "sources/tracepoints/tp_agg.h"
#include "stats/consumer.h"
#include "unit_helpers.h"

#define NR_ACTIVATIONS	20000
#define ENTRIES		2048
#define BUCKET_NS	1000
/* the concurrent test's activations: enough for many reads meanwhile */
#define NR_RACE		2000000

static const struct tlat_agg_layout layout = {
	.nr_cpus = 1, .entries = ENTRIES, .bucket_ns = BUCKET_NS, .loglinear = true,
};

/* a fixed sequence (Knuth's MMIX LCG), its high bits used */
static u64 rng(void)
{
	static u64 x = 1;

	x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x >> 11;
}

/* spread over the buckets: from a few ns to past LOGLIN_MAX_NS, mostly us */
static u64 latency(void)
{
	u64 r = rng();

	switch (r % 8) {
	case 0:
		return r % 300;
	case 1:
		return LOGLIN_MAX_NS - 1000 + (r >> 8) % 4000;
	default:
		return 1000 + (r >> 8) % 200000;
	}
}

/* as tp_thread.c's drain: each context whole, buckets only with samples */
static void hand_over(struct pipeline *pl, const struct tp_agg_snapshot *snap)
{
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		const struct tp_agg_ctx *c = &snap->ctx[ctx];

		pl->sink.aggregate(&pl->sink, 0, ctx, &c->stat,
				   c->stat.count ? c->buckets : NULL);
	}
}

static void run_pipeline(struct pipeline *pl, struct tlat_aggregate *agg)
{
	pipeline_init(pl, NULL);
	assert_int_equal(pipeline_add(pl, &stats_consumer_ops, agg), 0);
	assert_int_equal(pipeline_add(pl, &hist_consumer_ops, agg), 0);
	assert_int_equal(pipeline_add(pl, &pctl_consumer_ops, agg), 0);
}

/* the consumers' own count of a sample */
static void count_sample(struct tlat_aggregate *agg, int ctx, u64 ns)
{
	struct tlat_sample s = { .cpu = 0, .ctx = ctx, .latency_ns = ns };

	stats_consumer_ops.sample(agg, &s);
	hist_consumer_ops.sample(agg, &s);
	pctl_consumer_ops.sample(agg, &s);
}

static void check_same(const struct tlat_aggregate *got, const struct tlat_aggregate *want)
{
	static const u32 ppm[] = { 0, 500000, 900000, 990000, 999000, 999900, 1000000 };

	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		const struct tlat_stat *g = agg_stat(got, 0, ctx);
		const struct tlat_stat *w = agg_stat(want, 0, ctx);
		u64 linear = 0, pg, pw;

		assert_int_equal(g->count, w->count);
		assert_int_equal(g->min, w->min);
		assert_int_equal(g->max, w->max);
		assert_int_equal(g->sum, w->sum);
		assert_int_equal(g->cur, w->cur);
		for (unsigned int b = 0; b < LOGLIN_BUCKETS; b++)
			assert_int_equal(agg_loglinear(got, 0, ctx, b), agg_loglinear(want, 0, ctx, b));
		for (size_t i = 0; i < sizeof(ppm) / sizeof(ppm[0]); i++) {
			assert_true(agg_percentile(got, 0, ctx, ppm[i], &pg));
			assert_true(agg_percentile(want, 0, ctx, ppm[i], &pw));
			assert_int_equal(pg, pw);
		}
		/* hist's buckets from the middles: the same total and over: */
		for (unsigned int b = 0; b <= ENTRIES; b++)
			linear += agg_bucket(got, 0, ctx, b);
		assert_int_equal(linear, w->count);
		assert_int_equal(agg_bucket(got, 0, ctx, ENTRIES), agg_bucket(want, 0, ctx, ENTRIES));
	}
}

/* what a thread counts reads, through the pipeline, as the consumers count it */
static void test_reads_as_samples(void **state)
{
	struct tlat_aggregate *want = agg_alloc(&layout), *got = agg_alloc(&layout);
	struct tp_agg_snapshot *snap = malloc(sizeof(*snap));
	struct tp_agg *a = tp_agg_alloc();
	struct pipeline pl;

	(void)state;
	assert_non_null(want);
	assert_non_null(got);
	assert_non_null(snap);
	assert_non_null(a);
	/* on a cache line of its own */
	assert_int_equal((uintptr_t)a % 64, 0);
	for (int i = 0; i < NR_ACTIVATIONS; i++) {
		u64 ns[TLAT_NR_CTX];
		bool counts[TLAT_NR_CTX];

		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			ns[ctx] = latency();
			/* the window's edges leave some out, the IRQ's first */
			counts[ctx] = i > 10 || ctx == TLAT_CTX_USER;
			if (counts[ctx])
				count_sample(want, ctx, ns[ctx]);
		}
		tp_agg_add(a, ns, counts);
	}
	tp_agg_read(a, snap);
	assert_int_equal(snap->ctx[TLAT_CTX_IRQ].stat.count, NR_ACTIVATIONS - 11);
	assert_int_equal(snap->ctx[TLAT_CTX_USER].stat.count, NR_ACTIVATIONS);
	run_pipeline(&pl, got);
	hand_over(&pl, snap);
	check_same(got, want);
	/* handed over again: it replaces what the run had, it does not add */
	hand_over(&pl, snap);
	check_same(got, want);
	pipeline_free(&pl);
	tp_agg_free(a);
	free(snap);
	agg_free(want);
	agg_free(got);
}

/* empty, and after a reset: nothing, no bucket; then it counts anew */
static void test_reset(void **state)
{
	struct tp_agg_snapshot *snap = malloc(sizeof(*snap));
	struct tp_agg *a = tp_agg_alloc();
	static const u64 ns[TLAT_NR_CTX] = { 500, 7000, 9000 };
	static const bool all[TLAT_NR_CTX] = { true, true, true };

	(void)state;
	assert_non_null(snap);
	assert_non_null(a);
	tp_agg_read(a, snap);
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
		assert_int_equal(snap->ctx[ctx].stat.count, 0);
	tp_agg_add(a, ns, all);
	tp_agg_add(a, ns, all);
	tp_agg_reset(a);
	tp_agg_read(a, snap);
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		assert_int_equal(snap->ctx[ctx].stat.count, 0);
		assert_int_equal(snap->ctx[ctx].stat.max, 0);
		assert_int_equal(snap->ctx[ctx].stat.sum, 0);
		for (unsigned int b = 0; b < LOGLIN_BUCKETS; b++)
			assert_int_equal(snap->ctx[ctx].buckets[b], 0);
	}
	tp_agg_add(a, ns, all);
	tp_agg_read(a, snap);
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		assert_int_equal(snap->ctx[ctx].stat.count, 1);
		assert_int_equal(snap->ctx[ctx].stat.min, ns[ctx]);
		assert_int_equal(snap->ctx[ctx].stat.max, ns[ctx]);
		assert_int_equal(snap->ctx[ctx].buckets[loglin_index(ns[ctx])], 1);
	}
	tp_agg_free(a);
	free(snap);
}

/* the n-th activation (from 1) has latency n, n + 1, n + 2 */
static void *race_writer(void *arg)
{
	static const bool all[TLAT_NR_CTX] = { true, true, true };
	struct tp_agg *a = arg;

	for (u64 n = 1; n <= NR_RACE; n++) {
		u64 ns[TLAT_NR_CTX] = { n, n + 1, n + 2 };

		tp_agg_add(a, ns, all);
	}
	return NULL;
}

/*
 * Each copy the reader gets is the aggregate after some activation n:
 * every context counts n, its numbers are those of 1..n, and its buckets
 * hold n samples, the latest in the bucket of cur.
 */
static void test_one_writer_one_reader(void **state)
{
	struct tp_agg_snapshot *snap = malloc(sizeof(*snap));
	struct tp_agg *a = tp_agg_alloc();
	u64 reads = 0, last = 0, n;
	pthread_t writer;

	(void)state;
	assert_non_null(snap);
	assert_non_null(a);
	assert_int_equal(pthread_create(&writer, NULL, race_writer, a), 0);
	do {
		tp_agg_read(a, snap);
		n = snap->ctx[TLAT_CTX_IRQ].stat.count;
		assert_true(n >= last);
		last = n;
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			const struct tlat_stat *st = &snap->ctx[ctx].stat;
			u64 buckets = 0;

			assert_int_equal(st->count, n);
			if (!n)
				continue;
			assert_int_equal(st->min, 1 + ctx);
			assert_int_equal(st->max, n + ctx);
			assert_int_equal(st->cur, n + ctx);
			assert_int_equal(st->sum, n * (n + 1) / 2 + n * ctx);
			for (unsigned int b = 0; b < LOGLIN_BUCKETS; b++)
				buckets += snap->ctx[ctx].buckets[b];
			assert_int_equal(buckets, n);
			assert_true(snap->ctx[ctx].buckets[loglin_index(n + ctx)] > 0);
		}
		reads++;
	} while (n < NR_RACE);
	assert_int_equal(pthread_join(writer, NULL), 0);
	/* the reader read while the writer wrote, not only at the end */
	print_message("%llu reads\n", (unsigned long long)reads);
	assert_true(reads > 1);
	tp_agg_free(a);
	free(snap);
}

UNIT_MAIN("tp_agg",
	cmocka_unit_test(test_reads_as_samples),
	cmocka_unit_test(test_reset),
	cmocka_unit_test(test_one_writer_one_reader),
)
