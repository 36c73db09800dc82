// SPDX-License-Identifier: GPL-2.0
/*
 * test_hist.c - the latency histograms: which bucket a latency lands in,
 * the overflow bucket at index == entries, and what reads return where
 * nothing was ever counted.
 */
#include <limits.h>

#include "stats/aggregate.h"
#include "unit_helpers.h"

#define NR_CPUS		4
#define ENTRIES		10
#define BUCKET_NS	1000

/* an aggregate that keeps hist's buckets only, as a run of tlat hist fills them */
static const struct tlat_agg_layout layout = {
	.nr_cpus = NR_CPUS, .entries = ENTRIES, .bucket_ns = BUCKET_NS,
};

static void add(struct tlat_aggregate *hist, int cpu, enum tlat_ctx ctx, u64 latency_ns)
{
	agg_add_linear(hist, cpu, ctx, latency_ns);
}

static u64 total(const struct tlat_aggregate *hist, int cpu, enum tlat_ctx ctx)
{
	u64 n = 0;

	for (unsigned int i = 0; i <= agg_entries(hist); i++)
		n += agg_bucket(hist, cpu, ctx, i);
	return n;
}

/* one sample of latency_ns must land in bucket index, and nowhere else */
static void expect_bucket(u64 latency_ns, unsigned int index)
{
	struct tlat_aggregate *hist = agg_alloc(&layout);

	assert_non_null(hist);
	add(hist, 1, TLAT_CTX_IRQ, latency_ns);
	if (agg_bucket(hist, 1, TLAT_CTX_IRQ, index) != 1 || total(hist, 1, TLAT_CTX_IRQ) != 1)
		fail_msg("%llu ns: not (only) in bucket %u", (unsigned long long)latency_ns, index);
	agg_free(hist);
}

static void test_entries(void **state)
{
	assert_int_equal(agg_entries(*state), ENTRIES);
}

static void test_bucketing(void **state)
{
	(void)state;
	expect_bucket(0, 0);
	expect_bucket(999, 0);
	expect_bucket(1000, 1);
	expect_bucket(1999, 1);
	expect_bucket(5500, 5);
}

static void test_last_bucket_and_overflow(void **state)
{
	(void)state;
	expect_bucket(ENTRIES * BUCKET_NS - 1, ENTRIES - 1);	/* 9999: the last bucket */
	expect_bucket((ENTRIES - 1) * BUCKET_NS, ENTRIES - 1);	/* 9000 */
	expect_bucket(ENTRIES * BUCKET_NS, ENTRIES);		/* 10000: overflow */
	expect_bucket(ENTRIES * BUCKET_NS + 1, ENTRIES);
	expect_bucket((ENTRIES + 1) * BUCKET_NS, ENTRIES);	/* one bucket past the overflow */
	expect_bucket(1000000000ULL, ENTRIES);			/* far above */
	expect_bucket(UINT64_MAX, ENTRIES);
}

static void test_counts_accumulate(void **state)
{
	struct tlat_aggregate *hist = *state;

	for (int i = 0; i < 3; i++)
		add(hist, 0, TLAT_CTX_THREAD, 2500);
	add(hist, 0, TLAT_CTX_THREAD, 2000);
	add(hist, 0, TLAT_CTX_THREAD, 50000);
	add(hist, 0, TLAT_CTX_THREAD, 60000);
	assert_int_equal(agg_bucket(hist, 0, TLAT_CTX_THREAD, 2), 4);
	assert_int_equal(agg_bucket(hist, 0, TLAT_CTX_THREAD, ENTRIES), 2);
	assert_int_equal(total(hist, 0, TLAT_CTX_THREAD), 6);
}

static void test_per_context(void **state)
{
	struct tlat_aggregate *hist = *state;

	add(hist, 2, TLAT_CTX_IRQ, 1000);
	add(hist, 2, TLAT_CTX_IRQ, 1000000);	/* IRQ overflow */
	add(hist, 2, TLAT_CTX_THREAD, 3000);
	add(hist, 2, TLAT_CTX_THREAD, 3000);
	add(hist, 2, TLAT_CTX_USER, 20000);	/* user overflow */

	assert_int_equal(agg_bucket(hist, 2, TLAT_CTX_IRQ, 1), 1);
	assert_int_equal(agg_bucket(hist, 2, TLAT_CTX_THREAD, 1), 0);
	assert_int_equal(agg_bucket(hist, 2, TLAT_CTX_USER, 1), 0);
	assert_int_equal(agg_bucket(hist, 2, TLAT_CTX_THREAD, 3), 2);
	assert_int_equal(agg_bucket(hist, 2, TLAT_CTX_IRQ, 3), 0);
	assert_int_equal(agg_bucket(hist, 2, TLAT_CTX_USER, 3), 0);
	/* each overflow bucket belongs to its context only, not to the next one's bucket 0 */
	assert_int_equal(agg_bucket(hist, 2, TLAT_CTX_IRQ, ENTRIES), 1);
	assert_int_equal(agg_bucket(hist, 2, TLAT_CTX_THREAD, 0), 0);
	assert_int_equal(agg_bucket(hist, 2, TLAT_CTX_THREAD, ENTRIES), 0);
	assert_int_equal(agg_bucket(hist, 2, TLAT_CTX_USER, 0), 0);
	assert_int_equal(agg_bucket(hist, 2, TLAT_CTX_USER, ENTRIES), 1);
	assert_int_equal(total(hist, 2, TLAT_CTX_IRQ), 2);
	assert_int_equal(total(hist, 2, TLAT_CTX_THREAD), 2);
	assert_int_equal(total(hist, 2, TLAT_CTX_USER), 1);
}

static void test_per_cpu(void **state)
{
	struct tlat_aggregate *hist = *state;

	add(hist, 0, TLAT_CTX_IRQ, 4000);
	add(hist, 3, TLAT_CTX_IRQ, 4000);
	add(hist, 3, TLAT_CTX_IRQ, 4000);
	assert_int_equal(agg_bucket(hist, 0, TLAT_CTX_IRQ, 4), 1);
	assert_int_equal(agg_bucket(hist, 3, TLAT_CTX_IRQ, 4), 2);
	/* untouched CPUs read 0 everywhere, the overflow bucket included */
	for (int cpu = 1; cpu <= 2; cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			for (unsigned int i = 0; i <= ENTRIES; i++)
				assert_int_equal(agg_bucket(hist, cpu, ctx, i), 0);
}

static void test_read_beyond_overflow(void **state)
{
	struct tlat_aggregate *hist = *state;

	/* fill every bucket of CPU 0, so a stray read would see a count */
	for (unsigned int i = 0; i <= ENTRIES; i++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			add(hist, 0, ctx, (u64)i * BUCKET_NS);
	add(hist, 1, TLAT_CTX_IRQ, 0);
	assert_int_equal(agg_bucket(hist, 0, TLAT_CTX_IRQ, ENTRIES), 1);
	assert_int_equal(agg_bucket(hist, 0, TLAT_CTX_IRQ, ENTRIES + 1), 0);
	assert_int_equal(agg_bucket(hist, 0, TLAT_CTX_THREAD, ENTRIES + 1), 0);
	assert_int_equal(agg_bucket(hist, 0, TLAT_CTX_USER, ENTRIES + 1), 0);
	assert_int_equal(agg_bucket(hist, 0, TLAT_CTX_USER, UINT_MAX), 0);
	assert_int_equal(agg_bucket(hist, 3, TLAT_CTX_IRQ, ENTRIES + 1), 0);
}

static void test_out_of_range_cpu(void **state)
{
	struct tlat_aggregate *hist = *state;

	add(hist, -1, TLAT_CTX_IRQ, 1000);
	add(hist, NR_CPUS, TLAT_CTX_IRQ, 1000);
	add(hist, INT32_MAX, TLAT_CTX_THREAD, 1000);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			assert_int_equal(total(hist, cpu, ctx), 0);
}

/* latencies in a layout of one CPU, each alone in its bucket */
struct bucket_case {
	struct tlat_agg_layout layout;
	struct {
		u64 ns;
		unsigned int bucket;
	} hits[4];
	int nr_hits;
};

/* nanosecond display with the default bucket: 256 buckets of 1 ns */
static const struct bucket_case one_ns_buckets = {
	{ .nr_cpus = 1, .entries = 256, .bucket_ns = 1 },
	{ { 0, 0 }, { 255, 255 }, { 256, 256 } }, 3
};

/* a bucket size of 0 would divide by zero: it is taken as 1 ns */
static const struct bucket_case zero_bucket_size = {
	{ .nr_cpus = 1, .entries = ENTRIES, .bucket_ns = 0 },
	{ { 5, 5 }, { ENTRIES, ENTRIES } }, 2
};

/* a wide bucket: -b 10 in microseconds is 10000 ns */
static const struct bucket_case wide_buckets = {
	{ .nr_cpus = 1, .entries = ENTRIES, .bucket_ns = 10000 },
	{ { 9999, 0 }, { 10000, 1 }, { 99999, ENTRIES - 1 }, { 100000, ENTRIES } }, 4
};

static void test_buckets_of(void **state)
{
	const struct bucket_case *c = *state;
	struct tlat_aggregate *hist = agg_alloc(&c->layout);

	assert_non_null(hist);
	for (int i = 0; i < c->nr_hits; i++)
		add(hist, 0, TLAT_CTX_IRQ, c->hits[i].ns);
	for (int i = 0; i < c->nr_hits; i++)
		assert_int_equal(agg_bucket(hist, 0, TLAT_CTX_IRQ, c->hits[i].bucket), 1);
	agg_free(hist);
}

#define HIST_TEST(fn)	UNIT_AGG_TEST(fn, &layout)

UNIT_MAIN("hist",
	HIST_TEST(test_entries),
	cmocka_unit_test(test_bucketing),
	cmocka_unit_test(test_last_bucket_and_overflow),
	HIST_TEST(test_counts_accumulate),
	HIST_TEST(test_per_context),
	HIST_TEST(test_per_cpu),
	HIST_TEST(test_read_beyond_overflow),
	HIST_TEST(test_out_of_range_cpu),
	UNIT_CASE("test_one_ns_buckets", test_buckets_of, NULL, NULL, &one_ns_buckets),
	UNIT_CASE("test_zero_bucket_size", test_buckets_of, NULL, NULL, &zero_bucket_size),
	UNIT_CASE("test_wide_buckets", test_buckets_of, NULL, NULL, &wide_buckets),
)
