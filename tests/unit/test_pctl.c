// SPDX-License-Identifier: GPL-2.0
/*
 * test_pctl.c - the percentile histogram's promise: every percentile within
 * 1% (in fact 1/256) of the exact nearest-rank percentile of the same
 * samples, which this test works out by sorting them. Synthetic data sets
 * cover the shapes latencies take: a tight band with rare spikes, a uniform
 * spread, values spread over every power of two up to 2^36 ns, values on
 * bucket edges, tiny sets where the rank rule decides, and CPUs merged.
 */
#include <stdlib.h>

#include "stats/aggregate.h"
#include "unit_helpers.h"
#include "core/cpuset.h"

#define NR_CPUS		4

static const u32 ppms[] = { 1, 10000, 250000, 500000, 900000, 990000, 999000, 999900,
			    999990, 1000000 };

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* the nearest rank: the smallest value that ppm/10^6 of the samples do not exceed */
static u64 exact(u64 *sorted, size_t n, u32 ppm)
{
	u64 rank = ((u64)n * ppm + 999999) / 1000000;

	return sorted[(rank ? rank : 1) - 1];
}

/* an aggregate that keeps the percentiles' buckets, as a run with --json fills them */
static const struct tlat_agg_layout layout = { .nr_cpus = NR_CPUS, .loglinear = true };

static void add(struct tlat_aggregate *pctl, int cpu, enum tlat_ctx ctx, u64 ns)
{
	/* the percentiles' count, min and max are the statistics' */
	agg_add_stat(pctl, cpu, ctx, ns);
	agg_add_loglinear(pctl, cpu, ctx, ns);
}

/* within 1/256 of the exact value; exact below 256 ns */
static void expect_close(u64 got, u64 want, u32 ppm, const char *what)
{
	u64 diff = got > want ? got - want : want - got;

	if (diff * 256 > want)
		fail_msg("%s: p%u ppm: %llu, exact %llu (error %.3f%%)", what, ppm,
			 (unsigned long long)got, (unsigned long long)want,
			 want ? diff * 100.0 / want : 100.0);
}

/* feed values[] to CPU 1's thread context and check every percentile */
static void check_set(u64 *values, size_t n, const char *what)
{
	struct tlat_aggregate *pctl = agg_alloc(&layout);
	u64 got;

	assert_non_null(pctl);
	for (size_t i = 0; i < n; i++)
		add(pctl, 1, TLAT_CTX_THREAD, values[i]);
	qsort(values, n, sizeof(*values), cmp_u64);
	for (size_t i = 0; i < sizeof(ppms) / sizeof(ppms[0]); i++) {
		assert_true(agg_percentile(pctl, 1, TLAT_CTX_THREAD, ppms[i], &got));
		expect_close(got, exact(values, n, ppms[i]), ppms[i], what);
	}
	/* the other contexts and CPUs saw nothing */
	assert_false(agg_percentile(pctl, 1, TLAT_CTX_IRQ, 500000, &got));
	assert_false(agg_percentile(pctl, 0, TLAT_CTX_THREAD, 500000, &got));
	agg_free(pctl);
}

#define N_BIG	200000

/* a data set of N_BIG samples, each drawn by draw from the sequence seed starts */
struct data_set {
	const char *what;
	u64 seed;
	u64 (*draw)(u64 *rng);
};

/* 2-6 us, one in 1000 samples 50 us to 5 ms: a loaded RT system */
static u64 band_with_spikes(u64 *rng)
{
	return unit_rng(rng) % 1000 ? 2000 + unit_rng(rng) % 4000 : 50000 + unit_rng(rng) % 5000000;
}

static u64 uniform(u64 *rng)
{
	return unit_rng(rng) % 1000000;
}

/* log-uniform from 1 ns to 2^36 ns: every bucket width is exercised */
static u64 every_octave(u64 *rng)
{
	unsigned int bits = unit_rng(rng) % 36;

	return (1ull << bits) + unit_rng(rng) % (1ull << bits);
}

static const struct data_set band_set = { "band with spikes", 1, band_with_spikes };
static const struct data_set uniform_set = { "uniform 0-1 ms", 2, uniform };
static const struct data_set octave_set = { "log-uniform", 3, every_octave };

static void test_data_set(void **state)
{
	const struct data_set *set = *state;
	u64 *v = malloc(N_BIG * sizeof(*v)), rng = set->seed;

	assert_non_null(v);
	for (size_t i = 0; i < N_BIG; i++)
		v[i] = set->draw(&rng);
	check_set(v, N_BIG, set->what);
	free(v);
}

static void test_bucket_edges(void **state)
{
	u64 v[3 * 34 * 3];
	size_t n = 0;

	(void)state;
	/* 2^k - 1, 2^k, 2^k + 1: the last and first values of adjacent buckets */
	for (unsigned int k = 2; k < 36; k++)
		for (int d = -1; d <= 1; d++)
			for (int copies = 0; copies < 3; copies++)
				v[n++] = (1ull << k) + d;
	check_set(v, n, "bucket edges");
}

static void test_small_values_are_exact(void **state)
{
	struct tlat_aggregate *pctl = *state;
	u64 got;

	/* 0..255, one each: the p-th percentile is exactly rank - 1 */
	for (u64 ns = 0; ns < 256; ns++)
		add(pctl, 2, TLAT_CTX_IRQ, ns);
	for (u32 r = 1; r <= 256; r++) {
		assert_true(agg_percentile(pctl, 2, TLAT_CTX_IRQ, r * 1000000 / 256, &got));
		assert_int_equal(got, r - 1);
	}
}

static void test_rank_rule(void **state)
{
	struct tlat_aggregate *pctl = *state;
	u64 got;

	assert_false(agg_percentile(pctl, 0, TLAT_CTX_USER, 500000, &got));
	add(pctl, 0, TLAT_CTX_USER, 123456789);
	/* one sample is every percentile, exactly, though its bucket is 512 ns wide */
	for (size_t i = 0; i < sizeof(ppms) / sizeof(ppms[0]); i++) {
		assert_true(agg_percentile(pctl, 0, TLAT_CTX_USER, ppms[i], &got));
		assert_int_equal(got, 123456789);
	}
	/* two samples: the median is the lower one (rank ceil(0.5 * 2) = 1) */
	add(pctl, 0, TLAT_CTX_USER, 200000000);
	assert_true(agg_percentile(pctl, 0, TLAT_CTX_USER, 500000, &got));
	assert_int_equal(got, 123456789);
	assert_true(agg_percentile(pctl, 0, TLAT_CTX_USER, 500001, &got));
	assert_int_equal(got, 200000000);
}

static void test_beyond_last_bucket(void **state)
{
	struct tlat_aggregate *pctl = *state;
	u64 got;

	/* 100 s and 200 s share the last bucket; the maximum stays exact */
	add(pctl, 3, TLAT_CTX_THREAD, 100000000000ull);
	add(pctl, 3, TLAT_CTX_THREAD, 150000000000ull);
	add(pctl, 3, TLAT_CTX_THREAD, 200000000000ull);
	assert_true(agg_percentile(pctl, 3, TLAT_CTX_THREAD, 1000000, &got));
	assert_int_equal(got, 200000000000ull);
	assert_true(agg_percentile(pctl, 3, TLAT_CTX_THREAD, 1, &got));
	assert_int_equal(got, 100000000000ull);
	/* and nothing in between is answered outside [min, max] */
	assert_true(agg_percentile(pctl, 3, TLAT_CTX_THREAD, 500000, &got));
	assert_in_range(got, 100000000000ull, 200000000000ull);
}

static void test_merged(void **state)
{
	struct tlat_aggregate *pctl = *state;
	struct tlat_cpuset set;
	size_t n_in_set = 0;
	u64 *all = malloc(N_BIG * sizeof(*all)), got, rng = 4;

	assert_non_null(all);
	assert_int_equal(cpuset_init(&set, NR_CPUS), 0);
	CPU_SET_S(0, set.size, set.set);
	CPU_SET_S(2, set.size, set.set);
	/* CPU 0 fast, CPU 2 slow, CPU 3 (not in the set) slower still */
	for (size_t i = 0; i < N_BIG; i++) {
		int cpu = i % 3 == 0 ? 0 : i % 3 == 1 ? 2 : 3;
		u64 ns = cpu == 0 ? 1000 + unit_rng(&rng) % 2000 :
			 cpu == 2 ? 5000 + unit_rng(&rng) % 50000 :
			 900000 + unit_rng(&rng) % 100000;

		add(pctl, cpu, TLAT_CTX_IRQ, ns);
		if (cpu != 3)
			all[n_in_set++] = ns;
	}
	qsort(all, n_in_set, sizeof(*all), cmp_u64);
	for (size_t i = 0; i < sizeof(ppms) / sizeof(ppms[0]); i++) {
		assert_true(agg_percentile_merged(pctl, &set, TLAT_CTX_IRQ, ppms[i], &got));
		expect_close(got, exact(all, n_in_set, ppms[i]), ppms[i], "merged");
	}
	assert_false(agg_percentile_merged(pctl, &set, TLAT_CTX_USER, 500000, &got));
	cpuset_free(&set);
	free(all);
}

static void test_bad_cpu_is_ignored(void **state)
{
	struct tlat_aggregate *pctl = *state;
	u64 got;

	add(pctl, NR_CPUS, TLAT_CTX_IRQ, 1000);
	add(pctl, -1, TLAT_CTX_IRQ, 1000);
	assert_false(agg_percentile(pctl, NR_CPUS, TLAT_CTX_IRQ, 500000, &got));
	assert_false(agg_percentile(pctl, -1, TLAT_CTX_IRQ, 500000, &got));
}

UNIT_MAIN("pctl",
	UNIT_CASE("test_band_with_spikes", test_data_set, NULL, NULL, &band_set),
	UNIT_CASE("test_uniform", test_data_set, NULL, NULL, &uniform_set),
	UNIT_CASE("test_every_octave", test_data_set, NULL, NULL, &octave_set),
	cmocka_unit_test(test_bucket_edges),
	UNIT_AGG_TEST(test_small_values_are_exact, &layout),
	UNIT_AGG_TEST(test_rank_rule, &layout),
	UNIT_AGG_TEST(test_beyond_last_bucket, &layout),
	UNIT_AGG_TEST(test_merged, &layout),
	UNIT_AGG_TEST(test_bad_cpu_is_ignored, &layout),
)
