// SPDX-License-Identifier: GPL-2.0
/*
 * test_aggregate.c - the aggregate as the seam between counting and
 * showing: filled whole, as a collector counting in the kernel would fill
 * it (agg_set, with buckets made by loglinear.h's arithmetic), it must read
 * exactly as the one the consumers fill from the same samples, down to every
 * output's bytes; and two aggregates merged must read as one fed both
 * halves.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "output/json_doc.h"
#include "output/text.h"
#include "stats/consumer.h"
#include "stats/loglinear.h"
#include "unit_helpers.h"

#define NR_CPUS		3
#define NR_SAMPLES	5000
#define ENTRIES		64
#define BUCKET_NS	1000

static const struct tlat_agg_layout layout = {
	.nr_cpus = NR_CPUS, .entries = ENTRIES, .bucket_ns = BUCKET_NS, .loglinear = true,
};

/* the samples of a run: a band, with spikes past the last bucket */
static struct tlat_sample sample_at(int i, u64 *rng)
{
	u64 lat = 1000 + unit_rng(rng) % 40000;

	if (i % 97 == 0)
		lat += 100000 + unit_rng(rng) % 10000000;
	return (struct tlat_sample){ .cpu = i % NR_CPUS, .ctx = (i / NR_CPUS) % TLAT_NR_CTX,
				     .latency_ns = lat, .seq = i };
}

/* fed from samples by the consumers a run with --json in hist mode has */
static struct tlat_aggregate *from_samples(int from, int to)
{
	struct tlat_aggregate *agg = agg_alloc(&layout);
	u64 rng = UNIT_RNG_SEED;

	assert_non_null(agg);
	for (int i = 0; i < to; i++) {
		struct tlat_sample s = sample_at(i, &rng);

		if (i < from)
			continue;
		stats_consumer_ops.sample(agg, &s);
		hist_consumer_ops.sample(agg, &s);
		pctl_consumer_ops.sample(agg, &s);
	}
	return agg;
}

/* counted apart, then set whole, as the kernel side hands over its maps */
static struct tlat_aggregate *as_kernel_counts(void)
{
	static u64 linear[NR_CPUS][TLAT_NR_CTX][ENTRIES + 1];
	static u64 loglin[NR_CPUS][TLAT_NR_CTX][LOGLIN_BUCKETS];
	struct tlat_stat stat[NR_CPUS][TLAT_NR_CTX];
	struct tlat_aggregate *agg = agg_alloc(&layout);
	u64 rng = UNIT_RNG_SEED;

	assert_non_null(agg);
	memset(stat, 0, sizeof(stat));
	memset(linear, 0, sizeof(linear));
	memset(loglin, 0, sizeof(loglin));
	for (int i = 0; i < NR_SAMPLES; i++) {
		struct tlat_sample s = sample_at(i, &rng);
		u64 b = s.latency_ns / BUCKET_NS;

		stat_add(&stat[s.cpu][s.ctx], s.latency_ns);
		linear[s.cpu][s.ctx][b > ENTRIES ? ENTRIES : b]++;
		loglin[s.cpu][s.ctx][loglin_index(s.latency_ns)]++;
	}
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			assert_int_equal(agg_set(agg, cpu, ctx, &stat[cpu][ctx], linear[cpu][ctx],
						 loglin[cpu][ctx]), 0);
	return agg;
}

/* every output's text of a report of agg: hist's text, and both documents */
static char *outputs_of(const struct tlat_aggregate *agg)
{
	struct tlat_sysinfo sys = { .uts = { .sysname = "Linux" }, .nr_cpus = NR_CPUS };
	struct tlat_params p;
	struct tlat_report r;
	struct json_object *doc;
	char err[TLAT_ERR_LEN];
	char *argv[] = { "hist", "-E", "64", "--json", "x.json", NULL };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	assert_int_equal(cli_params_init(&p, TLAT_MODE_HIST, NR_CPUS), 0);
	p.argc = 5;
	p.argv = argv;
	assert_int_equal(cli_parse(&p, 5, argv, err), 0);
	memset(&r, 0, sizeof(r));
	r.params = &p;
	r.agg = agg;
	r.user_data = true;
	r.source = "tracepoints";
	r.sys = &sys;
	r.start_time = r.end_time = 1700000000;
	text_hist_renderer.final(out, &r);
	doc = json_tlat_document(&r);
	fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY), out);
	json_object_put(doc);
	doc = json_rttests_document(&r);
	fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY), out);
	json_object_put(doc);
	fclose(out);
	cli_params_free(&p);
	return text;
}

static void test_kernel_counts_read_as_samples(void **state)
{
	struct tlat_aggregate *a = from_samples(0, NR_SAMPLES), *b = as_kernel_counts();
	char *ta = outputs_of(a), *tb = outputs_of(b);

	(void)state;
	/* the outputs have something to compare: percentiles, buckets and over: */
	assert_non_null(strstr(ta, "\"p99_99\""));
	assert_non_null(strstr(ta, "over: "));
	assert_string_equal(ta, tb);
	free(ta);
	free(tb);
	agg_free(a);
	agg_free(b);
}

/* per-CPU collectors (or parallel readers) merged: as one fed everything */
static void test_merge_halves(void **state)
{
	struct tlat_aggregate *whole = from_samples(0, NR_SAMPLES);
	struct tlat_aggregate *first = from_samples(0, NR_SAMPLES / 2);
	struct tlat_aggregate *second = from_samples(NR_SAMPLES / 2, NR_SAMPLES);
	char *tw, *tm;

	(void)state;
	assert_int_equal(agg_merge(first, second), 0);
	tw = outputs_of(whole);
	tm = outputs_of(first);
	assert_string_equal(tw, tm);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			for (unsigned int i = 0; i < LOGLIN_BUCKETS; i++)
				assert_int_equal(agg_loglinear(whole, cpu, ctx, i),
						 agg_loglinear(first, cpu, ctx, i));
	free(tw);
	free(tm);
	agg_free(whole);
	agg_free(first);
	agg_free(second);
}

/* only aggregates of one layout merge; set refuses what the layout does not keep */
static void test_refusals(void **state)
{
	struct tlat_agg_layout top = { .nr_cpus = NR_CPUS };
	struct tlat_aggregate *a = agg_alloc(&layout), *b = agg_alloc(&top);
	struct tlat_stat st = { .count = 1, .min = 5, .max = 5, .sum = 5, .cur = 5 };
	u64 buckets[ENTRIES + 1] = { 0 };

	(void)state;
	assert_int_equal(agg_merge(a, b), -EINVAL);
	assert_int_equal(agg_set(b, 0, TLAT_CTX_IRQ, &st, buckets, NULL), -EINVAL);
	assert_int_equal(agg_set(a, NR_CPUS, TLAT_CTX_IRQ, &st, NULL, NULL), -EINVAL);
	assert_int_equal(agg_set(a, -1, TLAT_CTX_IRQ, &st, NULL, NULL), -EINVAL);
	assert_int_equal(agg_set(b, 1, TLAT_CTX_USER, &st, NULL, NULL), 0);
	assert_int_equal(agg_stat(b, 1, TLAT_CTX_USER)->count, 1);
	/* a percentile needs the log-linear buckets */
	assert_false(agg_percentile(b, 1, TLAT_CTX_USER, 500000, &(u64){ 0 }));
	agg_free(a);
	agg_free(b);
}

/* the bucket arithmetic a kernel-side counter copies: bounds and widths meet */
static void test_loglinear_buckets(void **state)
{
	(void)state;
	for (unsigned int i = 0; i + 1 < LOGLIN_BUCKETS; i++) {
		assert_int_equal(loglin_lowest(i) + loglin_width(i), loglin_lowest(i + 1));
		assert_int_equal(loglin_index(loglin_lowest(i)), i);
		assert_int_equal(loglin_index(loglin_lowest(i) + loglin_width(i) - 1), i);
	}
	assert_int_equal(loglin_index(UINT64_MAX), LOGLIN_BUCKETS - 1);
}

UNIT_MAIN("aggregate",
	cmocka_unit_test(test_kernel_counts_read_as_samples),
	cmocka_unit_test(test_merge_halves),
	cmocka_unit_test(test_refusals),
	cmocka_unit_test(test_loglinear_buckets),
)
