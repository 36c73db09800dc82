// SPDX-License-Identifier: GPL-2.0
/*
 * test_mod_agg.c - the reader of tlat.ko's aggregates (sources/mod_agg.h)
 * on synthetic snapshots laid out as kernel/tlat_uapi.h says: counted as
 * tlat.ko counts (its bucket arithmetic transcribed here), read through the
 * pipeline into the run's aggregate, they must read as the aggregate the
 * consumers fill from the same samples; the CPUs outside the run and the
 * user context of a run without it stay out; and a snapshot of another
 * layout, or cut short, is refused with one line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernel/tlat_uapi.h"
#include "core/err.h"
#include "run/pipeline.h"
#include "sources/mod_agg.h"
#include "stats/consumer.h"
#include "stats/loglinear.h"
#include "unit_helpers.h"

#define NR_IDS		4	/* CPU ids in the snapshot */
#define NR_SAMPLES	20000
#define ENTRIES		2048
#define BUCKET_NS	1000

static const struct tlat_agg_layout layout = {
	.nr_cpus = NR_IDS, .entries = ENTRIES, .bucket_ns = BUCKET_NS, .loglinear = true,
};

/* tlat_agg_index() of kernel/tlat_agg.c, with fls64(ns) - 1 as 63 - clz */
static unsigned int kernel_index(u64 ns)
{
	unsigned int shift;

	if (ns > (1ULL << TLAT_AGG_MAX_BITS) - 1)
		ns = (1ULL << TLAT_AGG_MAX_BITS) - 1;
	if (ns < 2U << TLAT_AGG_SUB_BITS)
		return ns;
	shift = 63 - __builtin_clzll(ns) - TLAT_AGG_SUB_BITS;
	return (shift << TLAT_AGG_SUB_BITS) + (unsigned int)(ns >> shift);
}

/* tlat_agg_add() of kernel/tlat_agg.c */
static void kernel_add(struct tlat_agg_ctx *c, u64 lat)
{
	if (!c->count || lat < c->min)
		c->min = lat;
	if (lat > c->max)
		c->max = lat;
	c->count++;
	c->cur = lat;
	c->sum += lat;
	c->buckets[kernel_index(lat)]++;
}

/* a band, spikes, a few past the buckets' range */
static struct tlat_sample sample_at(int i, u64 *rng)
{
	u64 lat = 800 + unit_rng(rng) % 30000;

	if (i % 97 == 0)
		lat += 100000 + unit_rng(rng) % 10000000;
	if (i % 4999 == 0)
		lat = 1ULL << 40;
	return (struct tlat_sample){ .cpu = (i / 7) % NR_IDS, .ctx = i % TLAT_NR_CTX,
				     .latency_ns = lat, .seq = i };
}

struct snapshot {
	struct tlat_agg_header h;
	struct tlat_agg_cpu cpu[NR_IDS];
};

/* an empty snapshot, as tlat.ko lays it out */
static struct snapshot *snapshot_new(void)
{
	struct snapshot *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->h = (struct tlat_agg_header){
		.magic = TLAT_AGG_MAGIC, .version = TLAT_AGG_VERSION,
		.header_size = sizeof(s->h), .nr_cpus = NR_IDS,
		.cpu_size = sizeof(s->cpu[0]), .nr_ctx = TLAT_AGG_NR_CTX,
		.nr_buckets = TLAT_AGG_BUCKETS, .sub_bits = TLAT_AGG_SUB_BITS,
		.max_bits = TLAT_AGG_MAX_BITS,
	};
	for (int i = 0; i < NR_IDS; i++)
		s->cpu[i].cpu = i;
	return s;
}

/* the snapshot of the samples tlat.ko counted, and the same fed to the consumers */
static struct snapshot *counted(struct tlat_aggregate *agg, const struct tlat_cpuset *cpus,
				int nr_ctx)
{
	struct snapshot *s = snapshot_new();
	u64 rng = UNIT_RNG_SEED;

	for (int i = 0; i < NR_SAMPLES; i++) {
		struct tlat_sample smp = sample_at(i, &rng);

		kernel_add(&s->cpu[smp.cpu].ctx[smp.ctx], smp.latency_ns);
		if (!cpuset_has(cpus, smp.cpu) || (int)smp.ctx >= nr_ctx)
			continue;
		stats_consumer_ops.sample(agg, &smp);
		hist_consumer_ops.sample(agg, &smp);
		pctl_consumer_ops.sample(agg, &smp);
	}
	return s;
}

static void run_pipeline(struct pipeline *pl, struct tlat_aggregate *agg)
{
	pipeline_init(pl, NULL);
	assert_int_equal(pipeline_add(pl, &stats_consumer_ops, agg), 0);
	assert_int_equal(pipeline_add(pl, &hist_consumer_ops, agg), 0);
	assert_int_equal(pipeline_add(pl, &pctl_consumer_ops, agg), 0);
}

static void cpus_of(struct tlat_cpuset *cpus, const int *list, int n)
{
	assert_int_equal(cpuset_init(cpus, NR_IDS), 0);
	for (int i = 0; i < n; i++)
		CPU_SET_S(list[i], cpus->size, cpus->set);
}

/* the kernel's buckets are tlat's */
static void test_kernel_buckets(void **state)
{
	(void)state;
	for (u64 ns = 0; ns < 1000000; ns++)
		assert_int_equal(kernel_index(ns), loglin_index(ns));
	for (int b = 0; b < 64; b++) {
		u64 ns = 1ULL << b;

		assert_int_equal(kernel_index(ns), loglin_index(ns));
		assert_int_equal(kernel_index(ns - 1), loglin_index(ns - 1));
		assert_int_equal(kernel_index(ns + 1), loglin_index(ns + 1));
	}
	assert_int_equal(kernel_index(UINT64_MAX), LOGLIN_BUCKETS - 1);
}

static void check_same(const struct tlat_aggregate *got, const struct tlat_aggregate *want,
		       int nr_ctx)
{
	u64 total = 0;

	for (int cpu = 0; cpu < NR_IDS; cpu++) {
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			const struct tlat_stat *g = agg_stat(got, cpu, ctx);
			const struct tlat_stat *w = agg_stat(want, cpu, ctx);
			u64 linear = 0;

			assert_int_equal(g->count, w->count);
			assert_int_equal(g->min, w->min);
			assert_int_equal(g->max, w->max);
			assert_int_equal(g->sum, w->sum);
			assert_int_equal(g->cur, w->cur);
			if (ctx >= nr_ctx)
				assert_int_equal(g->count, 0);
			for (unsigned int b = 0; b < LOGLIN_BUCKETS; b++)
				assert_int_equal(agg_loglinear(got, cpu, ctx, b),
						 agg_loglinear(want, cpu, ctx, b));
			/* hist's buckets: from the middles, the same total and over: */
			for (unsigned int b = 0; b <= ENTRIES; b++)
				linear += agg_bucket(got, cpu, ctx, b);
			assert_int_equal(linear, w->count);
			assert_int_equal(agg_bucket(got, cpu, ctx, ENTRIES),
					 agg_bucket(want, cpu, ctx, ENTRIES));
			total += g->count;
		}
	}
	assert_true(total > 0);
}

/* every CPU of the run and its contexts read as the consumers count them */
static void test_reads_as_samples(void **state)
{
	static const int run_cpus[] = { 0, 2, 3 };
	struct tlat_aggregate *want = agg_alloc(&layout), *got = agg_alloc(&layout);
	struct tlat_cpuset cpus;
	struct pipeline pl;
	struct snapshot *s;
	char err[TLAT_ERR_LEN];
	u64 total, sum = 0;
	u64 stops = 0;

	(void)state;
	assert_non_null(want);
	assert_non_null(got);
	cpus_of(&cpus, run_cpus, 3);
	s = counted(want, &cpus, TLAT_NR_CTX);
	run_pipeline(&pl, got);
	assert_int_equal(mod_agg_parse(s, sizeof(*s), &cpus, TLAT_NR_CTX, &pl.sink, &total, &stops, err),
			 0);
	check_same(got, want, TLAT_NR_CTX);
	/* CPU 1 is not the run's */
	assert_int_equal(agg_stat(got, 1, TLAT_CTX_IRQ)->count, 0);
	assert_true(s->cpu[1].ctx[TLAT_CTX_IRQ].count > 0);
	for (int cpu = 0; cpu < NR_IDS; cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			sum += agg_stat(want, cpu, ctx)->count;
	assert_int_equal(total, sum);
	/* read again: the aggregates replace what the run had, they do not add */
	assert_int_equal(mod_agg_parse(s, sizeof(*s), &cpus, TLAT_NR_CTX, &pl.sink, &total, &stops, err),
			 0);
	check_same(got, want, TLAT_NR_CTX);
	pipeline_free(&pl);
	agg_free(want);
	agg_free(got);
	cpuset_free(&cpus);
	free(s);
}

/* kernel threads: no user-return context */
static void test_two_contexts(void **state)
{
	static const int run_cpus[] = { 0, 1, 2, 3 };
	struct tlat_aggregate *want = agg_alloc(&layout), *got = agg_alloc(&layout);
	struct tlat_cpuset cpus;
	struct pipeline pl;
	struct snapshot *s;
	char err[TLAT_ERR_LEN];
	u64 total;
	u64 stops = 0;

	(void)state;
	cpus_of(&cpus, run_cpus, 4);
	s = counted(want, &cpus, 2);
	run_pipeline(&pl, got);
	assert_int_equal(mod_agg_parse(s, sizeof(*s), &cpus, 2, &pl.sink, &total, &stops, err), 0);
	check_same(got, want, 2);
	pipeline_free(&pl);
	agg_free(want);
	agg_free(got);
	cpuset_free(&cpus);
	free(s);
}

/* below 2048 ns the kernel's buckets fall whole into 1 us ones: hist is exact */
static void test_hist_exact_low(void **state)
{
	static const int run_cpus[] = { 0 };
	struct tlat_aggregate *want = agg_alloc(&layout), *got = agg_alloc(&layout);
	struct tlat_cpuset cpus;
	struct pipeline pl;
	struct snapshot *s = snapshot_new();
	char err[TLAT_ERR_LEN];
	u64 total;
	u64 stops = 0;

	(void)state;
	cpus_of(&cpus, run_cpus, 1);
	for (u64 ns = 0; ns < 2048; ns++) {
		struct tlat_sample smp = { .cpu = 0, .ctx = TLAT_CTX_THREAD, .latency_ns = ns };

		kernel_add(&s->cpu[0].ctx[TLAT_CTX_THREAD], ns);
		hist_consumer_ops.sample(want, &smp);
	}
	run_pipeline(&pl, got);
	assert_int_equal(mod_agg_parse(s, sizeof(*s), &cpus, 2, &pl.sink, &total, &stops, err), 0);
	for (unsigned int b = 0; b <= ENTRIES; b++)
		assert_int_equal(agg_bucket(got, 0, TLAT_CTX_THREAD, b),
				 agg_bucket(want, 0, TLAT_CTX_THREAD, b));
	pipeline_free(&pl);
	agg_free(want);
	agg_free(got);
	cpuset_free(&cpus);
	free(s);
}

static void refused(struct snapshot *s, size_t len, const char *what)
{
	static const int run_cpus[] = { 0 };
	struct tlat_aggregate *got = agg_alloc(&layout);
	struct tlat_cpuset cpus;
	struct pipeline pl;
	char err[TLAT_ERR_LEN] = "";
	u64 total = 1;
	u64 stops = 0;

	cpus_of(&cpus, run_cpus, 1);
	run_pipeline(&pl, got);
	assert_int_equal(mod_agg_parse(s, len, &cpus, 2, &pl.sink, &total, &stops, err), -EPROTO);
	assert_non_null(strstr(err, what));
	assert_null(strchr(err, '\n'));
	assert_int_equal(agg_stat(got, 0, TLAT_CTX_IRQ)->count, 0);
	pipeline_free(&pl);
	agg_free(got);
	cpuset_free(&cpus);
}

static void test_refusals(void **state)
{
	struct tlat_aggregate *want = agg_alloc(&layout);
	static const int all[] = { 0, 1, 2, 3 };
	struct tlat_cpuset cpus;
	struct snapshot *s;

	(void)state;
	cpus_of(&cpus, all, 4);
	s = counted(want, &cpus, 2);
	refused(s, sizeof(s->h) - 1, "not a snapshot");
	refused(s, sizeof(*s) - 1, "cut short");
	s->h.version++;
	refused(s, sizeof(*s), "another layout");
	s->h.version--;
	s->h.nr_buckets--;
	refused(s, sizeof(*s), "another layout");
	s->h.nr_buckets++;
	s->cpu[2].cpu = 3;
	refused(s, sizeof(*s), "out of order");
	s->cpu[2].cpu = 2;
	s->h.magic = 0;
	refused(s, sizeof(*s), "not a snapshot");
	s->h.magic = TLAT_AGG_MAGIC;
	/* an older tlat.ko's: version 1, a shorter header */
	s->h.version = 1;
	s->h.header_size = offsetof(struct tlat_agg_header, stops);
	refused(s, sizeof(*s), "another layout");
	s->h.version = TLAT_AGG_VERSION;
	s->h.header_size = sizeof(s->h);
	/* damaged stops */
	s->h.stopped = 2;
	s->h.stops = 1;
	refused(s, sizeof(*s), "stop out of range");
	s->h.stopped = 1;
	s->h.stop_cpu = NR_IDS;
	refused(s, sizeof(*s), "stop out of range");
	s->h.stop_cpu = 0;
	s->h.stop_ctx = TLAT_AGG_NR_CTX;
	refused(s, sizeof(*s), "stop out of range");
	s->h.stop_ctx = 0;
	s->h.stops = 0;
	refused(s, sizeof(*s), "stop out of range");
	s->h.stops = 1;
	s->h.stop_pad = 1;
	refused(s, sizeof(*s), "stop out of range");
	agg_free(want);
	cpuset_free(&cpus);
	free(s);
}

/* a whole-run consumer (as the analysis): the samples it saw */
struct seen {
	int n;
	struct tlat_sample last;
};

static void seen_sample(void *priv, const struct tlat_sample *sample)
{
	struct seen *seen = priv;

	seen->n++;
	seen->last = *sample;
}

static const struct tlat_consumer_ops seen_ops = { .whole_run = true, .sample = seen_sample };

/* the snapshot of a stop at a thread sample of 60 us on CPU 2 */
static void stop_at(struct snapshot *s, u64 stops, u64 lat, u64 ts)
{
	s->h.stops = stops;
	s->h.stopped = 1;
	s->h.stop_cpu = 2;
	s->h.stop_ctx = TLAT_CTX_THREAD;
	s->h.stop_seqnum = 7;
	s->h.stop_pid = 42;
	s->h.stop_lat = lat;
	s->h.stop_ts = ts;
}

/* the snapshot read into the pipeline: whether the run stopped */
static bool read_stops(const struct snapshot *s, const struct tlat_cpuset *cpus,
		       struct pipeline *pl, u64 *stops)
{
	char err[TLAT_ERR_LEN];
	u64 total;

	assert_int_equal(mod_agg_parse(s, sizeof(*s), cpus, TLAT_NR_CTX, &pl->sink, &total,
				       stops, err), 0);
	return pl->stopped;
}

/*
 * The aggregates' stop is the run's hit, as the sample would be: its fields,
 * the run's -T (not the kernel's) decides, only in the window, once per stop;
 * after a continue the next stop is a hit again; the statistics stay the
 * aggregates'. The samples decoded at a hit reach the whole-run consumers
 * alone, and stop nothing.
 */
static void test_stop_is_hit(void **state)
{
	static const int all[] = { 0, 1, 2, 3 };
	struct tlat_aggregate *want = agg_alloc(&layout), *got = agg_alloc(&layout);
	struct tlat_params p = { .stop.thread_us = 50 };
	struct seen seen = { 0 };
	struct tlat_cpuset cpus;
	struct pipeline pl;
	struct snapshot *s;
	u64 stops = 0;

	(void)state;
	cpus_of(&cpus, all, 4);
	s = counted(want, &cpus, TLAT_NR_CTX);
	run_pipeline(&pl, got);
	pl.params = &p;
	assert_int_equal(pipeline_add(&pl, &seen_ops, &seen), 0);
	pipeline_window(&pl, 1000, 0);

	/* counting: no hit */
	assert_false(read_stops(s, &cpus, &pl, &stops));
	assert_int_equal(stops, 0);

	stop_at(s, 3, 60000, 5000);
	assert_true(read_stops(s, &cpus, &pl, &stops));
	assert_true(pl.hit_seen);
	assert_int_equal(pl.hit.cpu, 2);
	assert_int_equal(pl.hit.ctx, TLAT_CTX_THREAD);
	assert_int_equal(pl.hit.latency_ns, 60000);
	assert_int_equal(pl.hit.ts_ns, 5000);
	assert_int_equal(pl.hit.seq, 7);
	assert_int_equal(pl.hit.pid, 42);
	assert_int_equal(stops, 3);
	/* nothing counted twice: the statistics are the aggregates' */
	check_same(got, want, TLAT_NR_CTX);
	assert_int_equal(seen.n, 0);

	/* continue: the same stop read again is no new hit */
	pipeline_resume(&pl);
	assert_false(read_stops(s, &cpus, &pl, &stops));
	/* counting again, then the next stop: a hit again */
	s->h.stopped = 0;
	assert_false(read_stops(s, &cpus, &pl, &stops));
	stop_at(s, 4, 70000, 6000);
	assert_true(read_stops(s, &cpus, &pl, &stops));
	assert_int_equal(pl.hit.latency_ns, 70000);
	assert_int_equal(stops, 4);

	/* the run's -T decides: 60 us is no hit at -T 100 */
	pipeline_resume(&pl);
	p.stop.thread_us = 100;
	stop_at(s, 5, 60000, 7000);
	assert_false(read_stops(s, &cpus, &pl, &stops));
	/* -i does not stop a thread sample */
	p.stop.thread_us = 0;
	p.stop.irq_us = 1;
	stop_at(s, 6, 60000, 7000);
	assert_false(read_stops(s, &cpus, &pl, &stops));
	/* past -d's end: no hit */
	p.stop.thread_us = 50;
	pipeline_window(&pl, 1000, 6500);
	stop_at(s, 7, 60000, 7000);
	assert_false(read_stops(s, &cpus, &pl, &stops));
	check_same(got, want, TLAT_NR_CTX);

	/* decoded at a hit: to the analysis alone, no count, no stop */
	pipeline_window(&pl, 1000, 0);
	pl.whole_run.sample(&pl.whole_run, &(struct tlat_sample){
		.cpu = 1, .ctx = TLAT_CTX_THREAD, .latency_ns = 90000, .ts_ns = 2000 });
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.last.latency_ns, 90000);
	assert_false(pl.stopped);
	check_same(got, want, TLAT_NR_CTX);
	/* the same sample through the run's sink counts and stops */
	pl.sink.sample(&pl.sink, &seen.last);
	assert_true(pl.stopped);
	assert_int_equal(agg_stat(got, 1, TLAT_CTX_THREAD)->count,
			 agg_stat(want, 1, TLAT_CTX_THREAD)->count + 1);

	pipeline_free(&pl);
	agg_free(want);
	agg_free(got);
	cpuset_free(&cpus);
	free(s);
}

UNIT_MAIN("mod_agg",
	cmocka_unit_test(test_kernel_buckets),
	cmocka_unit_test(test_reads_as_samples),
	cmocka_unit_test(test_two_contexts),
	cmocka_unit_test(test_hist_exact_low),
	cmocka_unit_test(test_refusals),
	cmocka_unit_test(test_stop_is_hit),
)
