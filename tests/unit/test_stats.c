// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats.c - count/cur/min/max/sum of one context (stat_add,
 * stat_merge) and their per-CPU, per-context table in the aggregate
 * (agg_add_stat, agg_stat).
 */
#include <stdbool.h>

#include "stats/aggregate.h"
#include "unit_helpers.h"

#define NR_CPUS	4

static void check_stat(const struct tlat_stat *st, u64 count, u64 cur, u64 min, u64 max, u64 sum)
{
	assert_int_equal(st->count, count);
	assert_int_equal(st->cur, cur);
	assert_int_equal(st->min, min);
	assert_int_equal(st->max, max);
	assert_int_equal(st->sum, sum);
}

static struct tlat_stat stat_of(const u64 *lat, int n)
{
	struct tlat_stat st = { 0 };

	for (int i = 0; i < n; i++)
		stat_add(&st, lat[i]);
	return st;
}

static void test_stat_add_one(void **state)
{
	struct tlat_stat st = { 0 };

	(void)state;
	stat_add(&st, 1234);
	check_stat(&st, 1, 1234, 1234, 1234, 1234);
}

/* the first sample sets min even though min starts at 0 */
static void test_stat_add_first_sets_min(void **state)
{
	struct tlat_stat st = { 0 };

	(void)state;
	stat_add(&st, 7);
	assert_int_equal(st.min, 7);
	stat_add(&st, 9);
	assert_int_equal(st.min, 7);
}

static void test_stat_add_sequence(void **state)
{
	static const u64 lat[] = { 5, 3, 9, 4 };
	struct tlat_stat st = stat_of(lat, 4);

	(void)state;
	/* cur is the last sample, not the biggest or the smallest */
	check_stat(&st, 4, 4, 3, 9, 21);
}

static void test_stat_add_zero(void **state)
{
	static const u64 lat[] = { 10, 0, 20 };
	struct tlat_stat st = stat_of(lat, 3);

	(void)state;
	check_stat(&st, 3, 20, 0, 20, 30);
}

static void test_stat_add_big(void **state)
{
	static const u64 lat[] = { 1ULL << 40, 1ULL << 41 };
	struct tlat_stat st = stat_of(lat, 2);

	(void)state;
	check_stat(&st, 2, 1ULL << 41, 1ULL << 40, 1ULL << 41, 3ULL << 40);
}

static void test_merge_empty_into_empty(void **state)
{
	struct tlat_stat into = { 0 }, from = { 0 };

	(void)state;
	stat_merge(&into, &from);
	check_stat(&into, 0, 0, 0, 0, 0);
}

static void test_merge_empty_into_full(void **state)
{
	static const u64 lat[] = { 30, 10, 20 };
	struct tlat_stat into = stat_of(lat, 3), from = { 0 };

	(void)state;
	stat_merge(&into, &from);
	/* nothing changes, min in particular does not drop to the empty min of 0 */
	check_stat(&into, 3, 20, 10, 30, 60);
}

static void test_merge_full_into_empty(void **state)
{
	static const u64 lat[] = { 30, 10, 20 };
	struct tlat_stat into = { 0 }, from = stat_of(lat, 3);

	(void)state;
	stat_merge(&into, &from);
	/* the empty min of 0 must not survive */
	check_stat(&into, 3, 20, 10, 30, 60);
}

static void test_merge_full_into_full(void **state)
{
	static const u64 a[] = { 50, 40 }, b[] = { 20, 90, 30 };
	static const u64 both[] = { 50, 40, 20, 90, 30 };
	struct tlat_stat into = stat_of(a, 2), from = stat_of(b, 3);
	struct tlat_stat added = stat_of(both, 5);

	(void)state;
	stat_merge(&into, &from);
	check_stat(&into, 5, 30, 20, 90, 230);
	/* the same as adding b's samples after a's */
	check_stat(&into, added.count, added.cur, added.min, added.max, added.sum);
	/* from is not modified */
	check_stat(&from, 3, 30, 20, 90, 140);
}

/* a merge that brings neither a lower min nor a higher max keeps both */
static void test_merge_inside_range(void **state)
{
	static const u64 a[] = { 10, 100 }, b[] = { 50, 60 };
	struct tlat_stat into = stat_of(a, 2), from = stat_of(b, 2);

	(void)state;
	stat_merge(&into, &from);
	check_stat(&into, 4, 60, 10, 100, 220);
}

static const struct tlat_agg_layout layout = { .nr_cpus = NR_CPUS };

static void add(struct tlat_aggregate *stats, int cpu, enum tlat_ctx ctx, u64 latency_ns)
{
	agg_add_stat(stats, cpu, ctx, latency_ns);
}

static void test_stats_empty(void **state)
{
	struct tlat_aggregate *stats = *state;

	assert_int_equal(agg_nr_cpus(stats), NR_CPUS);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		assert_false(agg_cpu_has_data(stats, cpu));
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			check_stat(agg_stat(stats, cpu, ctx), 0, 0, 0, 0, 0);
	}
}

static void test_stats_per_cpu_and_ctx(void **state)
{
	struct tlat_aggregate *stats = *state;

	add(stats, 0, TLAT_CTX_IRQ, 100);
	add(stats, 0, TLAT_CTX_IRQ, 300);
	add(stats, 0, TLAT_CTX_THREAD, 500);
	add(stats, 0, TLAT_CTX_USER, 700);
	add(stats, 3, TLAT_CTX_THREAD, 900);

	check_stat(agg_stat(stats, 0, TLAT_CTX_IRQ), 2, 300, 100, 300, 400);
	check_stat(agg_stat(stats, 0, TLAT_CTX_THREAD), 1, 500, 500, 500, 500);
	check_stat(agg_stat(stats, 0, TLAT_CTX_USER), 1, 700, 700, 700, 700);
	check_stat(agg_stat(stats, 3, TLAT_CTX_IRQ), 0, 0, 0, 0, 0);
	check_stat(agg_stat(stats, 3, TLAT_CTX_THREAD), 1, 900, 900, 900, 900);
	check_stat(agg_stat(stats, 3, TLAT_CTX_USER), 0, 0, 0, 0, 0);
	for (int cpu = 1; cpu <= 2; cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			check_stat(agg_stat(stats, cpu, ctx), 0, 0, 0, 0, 0);
}

static void test_stats_out_of_range_cpu(void **state)
{
	struct tlat_aggregate *stats = *state;

	add(stats, -1, TLAT_CTX_IRQ, 100);
	add(stats, NR_CPUS, TLAT_CTX_IRQ, 100);
	add(stats, NR_CPUS + 100, TLAT_CTX_THREAD, 100);
	add(stats, INT32_MIN, TLAT_CTX_USER, 100);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		assert_false(agg_cpu_has_data(stats, cpu));
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			assert_int_equal(agg_stat(stats, cpu, ctx)->count, 0);
	}
}

/* like rtla, a CPU has data when it has IRQ or thread samples; user ones alone do not count */
static void test_stats_cpu_has_data(void **state)
{
	struct tlat_aggregate *stats = *state;

	add(stats, 0, TLAT_CTX_IRQ, 1);
	add(stats, 1, TLAT_CTX_THREAD, 1);
	add(stats, 2, TLAT_CTX_USER, 1);
	assert_true(agg_cpu_has_data(stats, 0));
	assert_true(agg_cpu_has_data(stats, 1));
	assert_false(agg_cpu_has_data(stats, 2));
	assert_false(agg_cpu_has_data(stats, 3));
	/* a zero latency is data too */
	add(stats, 3, TLAT_CTX_IRQ, 0);
	assert_true(agg_cpu_has_data(stats, 3));
}

#define STATS_TEST(fn)	UNIT_AGG_TEST(fn, &layout)

UNIT_MAIN("stats",
	cmocka_unit_test(test_stat_add_one),
	cmocka_unit_test(test_stat_add_first_sets_min),
	cmocka_unit_test(test_stat_add_sequence),
	cmocka_unit_test(test_stat_add_zero),
	cmocka_unit_test(test_stat_add_big),
	cmocka_unit_test(test_merge_empty_into_empty),
	cmocka_unit_test(test_merge_empty_into_full),
	cmocka_unit_test(test_merge_full_into_empty),
	cmocka_unit_test(test_merge_full_into_full),
	cmocka_unit_test(test_merge_inside_range),
	STATS_TEST(test_stats_empty),
	STATS_TEST(test_stats_per_cpu_and_ctx),
	STATS_TEST(test_stats_out_of_range_cpu),
	STATS_TEST(test_stats_cpu_has_data),
)
