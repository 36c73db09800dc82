// SPDX-License-Identifier: GPL-2.0
/*
 * test_pctl.c - the percentile histogram's promise: every percentile within
 * 1% (in fact 1/256) of the exact nearest-rank percentile of the same
 * samples, which this test works out by sorting them. Synthetic data sets
 * cover the shapes latencies take: a tight band with rare spikes, a uniform
 * spread, values spread over every power of two up to 2^36 ns, values on
 * bucket edges, tiny sets where the rank rule decides, and CPUs merged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/cpuset.h"
#include "stats/aggregate.h"

#define NR_CPUS		4

static const u32 ppms[] = { 1, 10000, 250000, 500000, 900000, 990000, 999000, 999900,
			    999990, 1000000 };

static u64 rng_state;

/* xorshift64: the same data on every run */
static u64 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

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
static struct tlat_aggregate *pctl_alloc(void)
{
	return agg_alloc(&(struct tlat_agg_layout){ .nr_cpus = NR_CPUS, .loglinear = true });
}

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
	struct tlat_aggregate *pctl = pctl_alloc();
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

static void test_band_with_spikes(void **state)
{
	u64 *v = malloc(N_BIG * sizeof(*v));

	(void)state;
	assert_non_null(v);
	rng_state = 1;
	/* 2-6 us, one in 1000 samples 50 us to 5 ms: a loaded RT system */
	for (size_t i = 0; i < N_BIG; i++)
		v[i] = rng() % 1000 ? 2000 + rng() % 4000 : 50000 + rng() % 5000000;
	check_set(v, N_BIG, "band with spikes");
	free(v);
}

static void test_uniform(void **state)
{
	u64 *v = malloc(N_BIG * sizeof(*v));

	(void)state;
	assert_non_null(v);
	rng_state = 2;
	for (size_t i = 0; i < N_BIG; i++)
		v[i] = rng() % 1000000;
	check_set(v, N_BIG, "uniform 0-1 ms");
	free(v);
}

static void test_every_octave(void **state)
{
	u64 *v = malloc(N_BIG * sizeof(*v));

	(void)state;
	assert_non_null(v);
	rng_state = 3;
	/* log-uniform from 1 ns to 2^36 ns: every bucket width is exercised */
	for (size_t i = 0; i < N_BIG; i++) {
		unsigned int bits = rng() % 36;

		v[i] = (1ull << bits) + rng() % (1ull << bits);
	}
	check_set(v, N_BIG, "log-uniform");
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
	struct tlat_aggregate *pctl = pctl_alloc();
	u64 got;

	(void)state;
	assert_non_null(pctl);
	/* 0..255, one each: the p-th percentile is exactly rank - 1 */
	for (u64 ns = 0; ns < 256; ns++)
		add(pctl, 2, TLAT_CTX_IRQ, ns);
	for (u32 r = 1; r <= 256; r++) {
		assert_true(agg_percentile(pctl, 2, TLAT_CTX_IRQ, r * 1000000 / 256, &got));
		assert_int_equal(got, r - 1);
	}
	agg_free(pctl);
}

static void test_rank_rule(void **state)
{
	struct tlat_aggregate *pctl = pctl_alloc();
	u64 got;

	(void)state;
	assert_non_null(pctl);
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
	agg_free(pctl);
}

static void test_beyond_last_bucket(void **state)
{
	struct tlat_aggregate *pctl = pctl_alloc();
	u64 got;

	(void)state;
	assert_non_null(pctl);
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
	agg_free(pctl);
}

static void test_merged(void **state)
{
	struct tlat_aggregate *pctl = pctl_alloc();
	struct tlat_cpuset set;
	size_t n_in_set = 0;
	u64 *all = malloc(N_BIG * sizeof(*all)), got;

	(void)state;
	assert_non_null(pctl);
	assert_non_null(all);
	assert_int_equal(cpuset_init(&set, NR_CPUS), 0);
	CPU_SET_S(0, set.size, set.set);
	CPU_SET_S(2, set.size, set.set);
	rng_state = 4;
	/* CPU 0 fast, CPU 2 slow, CPU 3 (not in the set) slower still */
	for (size_t i = 0; i < N_BIG; i++) {
		int cpu = i % 3 == 0 ? 0 : i % 3 == 1 ? 2 : 3;
		u64 ns = cpu == 0 ? 1000 + rng() % 2000 : cpu == 2 ? 5000 + rng() % 50000
								   : 900000 + rng() % 100000;

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
	agg_free(pctl);
	free(all);
}

static void test_bad_cpu_is_ignored(void **state)
{
	struct tlat_aggregate *pctl = pctl_alloc();
	u64 got;

	(void)state;
	assert_non_null(pctl);
	add(pctl, NR_CPUS, TLAT_CTX_IRQ, 1000);
	add(pctl, -1, TLAT_CTX_IRQ, 1000);
	assert_false(agg_percentile(pctl, NR_CPUS, TLAT_CTX_IRQ, 500000, &got));
	assert_false(agg_percentile(pctl, -1, TLAT_CTX_IRQ, 500000, &got));
	agg_free(pctl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_band_with_spikes),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_every_octave),
		cmocka_unit_test(test_bucket_edges),
		cmocka_unit_test(test_small_values_are_exact),
		cmocka_unit_test(test_rank_rule),
		cmocka_unit_test(test_beyond_last_bucket),
		cmocka_unit_test(test_merged),
		cmocka_unit_test(test_bad_cpu_is_ignored),
	};

	return cmocka_run_group_tests_name("pctl", tests, NULL, NULL);
}
