// SPDX-License-Identifier: GPL-2.0
/*
 * test_percpu.c - the per-CPU read (trace/collector_percpu.c,
 * trace/buffer_percpu.c, trace/cpu_batch.c) against the merged one, on
 * synthetic per-CPU record streams decoded by a per-CPU source into the
 * real pipeline: the same statistics, in one reader or several threads;
 * the threshold cut exact (a later sample of another CPU is not counted);
 * a pass's deadline ends it with records left, and passes cut short lose
 * nothing and cut at the same sample.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "run/pipeline.h"
#include "trace/buffer_percpu.h"
#include "trace/collector.h"
#include "trace/collector_percpu.h"
#include "unit_helpers.h"
#include "core/cpuset.h"

#define NR_CPUS		4
#define MAX_RECORDS	4096
#define US		1000ull

/* what a record carries: one sample's own fields */
struct payload {
	u64 latency_ns;
	u32 seq;
	enum tlat_ctx ctx;
};

/* the per-CPU streams: each CPU's records in its order, and where each is read to */
struct streams {
	struct tep_record records[NR_CPUS][MAX_RECORDS];
	struct payload payloads[NR_CPUS][MAX_RECORDS];
	int nr[NR_CPUS];
	int next[NR_CPUS];
};

static struct tep_event fake_event;

static bool streams_peek(void *sctx, int cpu, struct tep_event **event,
			 struct tep_record **record)
{
	struct streams *s = sctx;

	if (s->next[cpu] >= s->nr[cpu])
		return false;
	*event = &fake_event;
	*record = &s->records[cpu][s->next[cpu]];
	return true;
}

static void streams_take(void *sctx, int cpu)
{
	((struct streams *)sctx)->next[cpu]++;
}

static const struct percpu_stream_ops streams_ops = {
	.peek = streams_peek,
	.take = streams_take,
};

/* one sample of cpu at ts */
static void add(struct streams *s, int cpu, u64 ts, u32 seq, enum tlat_ctx ctx, u64 lat)
{
	int i = s->nr[cpu]++;

	assert_true(i < MAX_RECORDS);
	s->payloads[cpu][i] = (struct payload){ lat, seq, ctx };
	s->records[cpu][i] = (struct tep_record){ .ts = ts, .cpu = cpu,
						  .data = &s->payloads[cpu][i],
						  .size = sizeof(struct payload) };
}

/* the records of all CPUs in time order, as the merged read hands them on */
static void merged(struct streams *s, struct tlat_collector *c)
{
	int next[NR_CPUS] = { 0 }, best;

	for (;;) {
		best = -1;
		for (int cpu = 0; cpu < NR_CPUS; cpu++)
			if (next[cpu] < s->nr[cpu] &&
			    (best < 0 || s->records[cpu][next[cpu]].ts <
					 s->records[best][next[best]].ts))
				best = cpu;
		if (best < 0)
			return;
		collector_record(&fake_event, &s->records[best][next[best]++], best, c);
	}
}

/* the source: a record is a sample of its CPU at its time */
static void fake_record(struct tlat_source *src, struct tep_event *event,
			struct tep_record *record, struct tlat_sink *sink)
{
	const struct payload *p = record->data;
	struct tlat_sample sample = {
		.ts_ns = record->ts, .latency_ns = p->latency_ns, .seq = p->seq,
		.cpu = record->cpu, .ctx = p->ctx,
	};

	(void)src;
	(void)event;
	sink->sample(sink, &sample);
	/* a stack at every tenth IRQ, as -s saves one past its threshold */
	if (p->ctx == TLAT_CTX_IRQ && p->seq % 10 == 0) {
		u64 ips[3] = { p->seq, record->cpu, 3 };
		struct tlat_stack stack = { .ts_ns = record->ts, .seq = p->seq,
					    .cpu = record->cpu, .nr = 3, .ips = ips };

		sink->stack(sink, &stack);
	}
}

static const struct tlat_decoder_ops fake_ops = {
	.per_cpu_order = true,
	.record = fake_record,
};

/* a run's pipeline and what it counted: per CPU and context, count and sum */
struct counted {
	struct tlat_params params;
	struct pipeline pl;
	u64 count[NR_CPUS][TLAT_NR_CTX];
	u64 sum[NR_CPUS][TLAT_NR_CTX];
	u64 last_ts[NR_CPUS];
	u64 stacks[NR_CPUS];
	u64 ips_sum[NR_CPUS];
};

static void counted_sample(void *priv, const struct tlat_sample *s)
{
	struct counted *ct = priv;

	ct->count[s->cpu][s->ctx]++;
	ct->sum[s->cpu][s->ctx] += s->latency_ns;
	if (s->ts_ns > ct->last_ts[s->cpu])
		ct->last_ts[s->cpu] = s->ts_ns;
}

static void counted_stack(void *priv, const struct tlat_stack *st)
{
	struct counted *ct = priv;

	ct->stacks[st->cpu]++;
	for (int i = 0; i < st->nr; i++)
		ct->ips_sum[st->cpu] += st->ips[i];
	/* the frames of this stack, not another's */
	assert_int_equal(st->ips[0], st->seq);
	assert_int_equal(st->ips[1], st->cpu);
}

static const struct tlat_consumer_ops counted_ops = {
	.sample = counted_sample,
	.stack = counted_stack,
};

static void counted_init(struct counted *ct, u64 stop_thread_us)
{
	memset(ct, 0, sizeof(*ct));
	assert_int_equal(cli_params_init(&ct->params, TLAT_MODE_TOP, NR_CPUS), 0);
	assert_int_equal(ct->params.cpus.nr_cpus, NR_CPUS);
	ct->params.stop.thread_us = stop_thread_us;
	pipeline_init(&ct->pl, &ct->params);
	assert_int_equal(pipeline_add(&ct->pl, &counted_ops, ct), 0);
}

static void counted_free(struct counted *ct)
{
	pipeline_free(&ct->pl);
	cli_params_free(&ct->params);
}

/* one pass of the per-CPU read, as collector_drain() makes it */
static int percpu_pass(struct tlat_collector *c, u64 until_ns)
{
	return collector_percpu_drain(c->percpu, until_ns, c->sink, &c->counts);
}

static void collector_on(struct tlat_collector *c, struct counted *ct, struct streams *s,
			 int readers)
{
	collector_init_offline(c, NULL, &fake_ops);
	collector_attach(c, NULL, &ct->pl.sink);
	c->nr_cpus = NR_CPUS;
	c->readers = readers;
	c->streams = &streams_ops;
	c->streams_ctx = s;
	assert_int_equal(collector_choose_read(c), 0);
	assert_non_null(c->percpu);
}

/* activations on every CPU, their times interleaved, a latency of each */
static struct streams *activations(int nr, u64 (*latency)(int cpu, int i))
{
	struct streams *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	for (int i = 0; i < nr; i++) {
		for (int cpu = 0; cpu < NR_CPUS; cpu++) {
			u64 ts = 1000000 + i * 100 * US + cpu * 7 * US;

			add(s, cpu, ts, i + 1, TLAT_CTX_IRQ, latency(cpu, i) / 2);
			add(s, cpu, ts + US, i + 1, TLAT_CTX_THREAD, latency(cpu, i));
		}
	}
	/* the kernel dropped events before a few records: counted by the readers too */
	s->records[1][10].missed_events = 5;
	s->records[3][500].missed_events = 7;
	return s;
}

static u64 varied(int cpu, int i)
{
	return (u64)(cpu + 1) * US + (u64)(i * 37 % 50) * US;
}

/* per-CPU and merged reads of @s; the per-CPU one in passes ended at once if @cut_short */
static void compare_from(struct streams *s, int readers, u64 stop_thread_us, bool cut_short,
			 u64 from_ns, struct counted *per_cpu, struct counted *merge)
{
	struct tlat_collector c, m;
	int ret, passes = 0;

	counted_init(per_cpu, stop_thread_us);
	counted_init(merge, stop_thread_us);
	pipeline_window(&per_cpu->pl, from_ns, 0);
	pipeline_window(&merge->pl, from_ns, 0);
	collector_on(&c, per_cpu, s, readers);
	do {
		/* a deadline passed already: each reader hands on a few records */
		ret = percpu_pass(&c, cut_short ? 1 : 0);
		assert_true(ret == 0 || ret == 1);
		passes++;
	} while (ret);
	if (cut_short)
		assert_true(passes > 8);
	else
		assert_int_equal(passes, 1);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		assert_int_equal(s->next[cpu], s->nr[cpu]);
	collector_init_offline(&m, NULL, &fake_ops);
	collector_attach(&m, NULL, &merge->pl.sink);
	merged(s, &m);
	assert_int_equal(c.counts.processed, m.counts.processed);
	assert_int_equal(c.counts.missed, m.counts.missed);
	assert_int_equal(c.counts.missed, s->nr[3] > 500 ? 12 : 0);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		assert_int_equal(per_cpu->stacks[cpu], merge->stacks[cpu]);
		assert_int_equal(per_cpu->ips_sum[cpu], merge->ips_sum[cpu]);
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			assert_int_equal(per_cpu->count[cpu][ctx], merge->count[cpu][ctx]);
			assert_int_equal(per_cpu->sum[cpu][ctx], merge->sum[cpu][ctx]);
		}
	}
	assert_int_equal(per_cpu->pl.stopped, merge->pl.stopped);
	assert_int_equal(per_cpu->pl.early_seen, merge->pl.early_seen);
	if (merge->pl.early_seen) {
		assert_int_equal(per_cpu->pl.early.cpu, merge->pl.early.cpu);
		assert_int_equal(per_cpu->pl.early.ts_ns, merge->pl.early.ts_ns);
	}
	assert_int_equal(per_cpu->pl.hit_seen, merge->pl.hit_seen);
	if (merge->pl.hit_seen) {
		assert_int_equal(per_cpu->pl.hit.cpu, merge->pl.hit.cpu);
		assert_int_equal(per_cpu->pl.hit.ts_ns, merge->pl.hit.ts_ns);
	}
	collector_free(&c);
	collector_free(&m);
}

static void compare(struct streams *s, int readers, u64 stop_thread_us, bool cut_short,
		    struct counted *per_cpu, struct counted *merge)
{
	compare_from(s, readers, stop_thread_us, cut_short, 0, per_cpu, merge);
}

/*
 * Warm-up samples over the threshold (the kernel may still stop on the
 * last one): the pass ends with the same one kept as in time order, or
 * none where its CPU went on.
 */
static void test_warmup_sample_kept_as_in_time_order(void **state)
{
	static const struct { int cpu; u64 ts; bool over; } cases[][4] = {
		/* the latest over the threshold, on CPU 3, is its CPU's last */
		{ { 1, 50, true }, { 3, 60, true }, { 1, 70, false }, { 0, 80, false } },
		/* the latest, on CPU 1, is followed by one of CPU 1's */
		{ { 3, 50, true }, { 1, 60, true }, { 1, 70, false }, { 0, 80, false } },
		/* none over: none kept */
		{ { 3, 50, false }, { 1, 60, false }, { 1, 70, false }, { 0, 80, false } },
	};

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct streams *s = calloc(1, sizeof(*s));
		struct counted a, b;

		assert_non_null(s);
		for (int i = 0; i < 4; i++)
			add(s, cases[k][i].cpu, cases[k][i].ts * US, i + 1, TLAT_CTX_THREAD,
			    cases[k][i].over ? 200 * US : US);
		compare_from(s, 2, 100, false, 1000 * US, &a, &b);
		assert_int_equal(a.pl.early_seen, k == 0);
		if (k == 0)
			assert_int_equal(a.pl.early.cpu, 3);
		counted_free(&a);
		counted_free(&b);
		free(s);
	}
}

/* one sample over 100 us: CPU 2's thread sample of activation 300 */
static u64 one_hit(int cpu, int i)
{
	return cpu == 2 && i == 299 ? 150 * US : varied(cpu, i);
}

static void test_threshold_cut_is_exact(void **state)
{
	struct streams *s = activations(1000, one_hit);
	u64 hit_ts = 1000000 + 299 * 100 * US + 2 * 7 * US + US;
	struct counted a, b;

	(void)state;
	compare(s, 2, 100, false, &a, &b);
	assert_true(a.pl.hit_seen);
	assert_int_equal(a.pl.hit.cpu, 2);
	assert_int_equal(a.pl.hit.ts_ns, hit_ts);
	/* CPU 3's activation 300 came after the hit: not counted; CPU 1's came before */
	assert_int_equal(a.count[3][TLAT_CTX_THREAD], 299);
	assert_int_equal(a.count[1][TLAT_CTX_THREAD], 300);
	assert_int_equal(a.count[2][TLAT_CTX_THREAD], 300);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		assert_true(a.last_ts[cpu] <= hit_ts);
	counted_free(&a);
	counted_free(&b);
	free(s);
}

/*
 * A run read per CPU and merged alike (compare()), and what the per-CPU read
 * counted: one CPU's samples of one context, whether a hit stopped it, and
 * CPU 1's stacks if they are given
 */
struct compare_case {
	u64 (*latency)(int cpu, int i);
	int readers;
	u64 stop_thread_us;
	bool cut_short;
	int cpu;
	enum tlat_ctx ctx;
	u64 count;
	bool hit;
	u64 cpu1_stacks;
};

static const struct compare_case same_statistics_one_reader = {
	varied, 1, 0, false, 3, TLAT_CTX_THREAD, 1000, false, 0
};
static const struct compare_case same_statistics_reader_threads = {
	varied, 3, 0, false, 0, TLAT_CTX_IRQ, 1000, false, 0
};
static const struct compare_case deadline_passes_lose_nothing = {
	varied, 2, 0, true, 1, TLAT_CTX_THREAD, 1000, false, 100
};
/* CPU 3's activation 300 came after the hit */
static const struct compare_case deadline_passes_cut_at_the_same_sample = {
	one_hit, 1, 100, true, 3, TLAT_CTX_THREAD, 299, true, 0
};

static void test_compare_case(void **state)
{
	const struct compare_case *k = *state;
	struct streams *s = activations(1000, k->latency);
	struct counted a, b;

	compare(s, k->readers, k->stop_thread_us, k->cut_short, &a, &b);
	assert_int_equal(a.count[k->cpu][k->ctx], k->count);
	assert_int_equal(a.pl.hit_seen, k->hit);
	if (k->cpu1_stacks)
		assert_int_equal(a.stacks[1], k->cpu1_stacks);
	counted_free(&a);
	counted_free(&b);
	free(s);
}

static void test_deadline_leaves_records(void **state)
{
	struct streams *s = activations(1000, varied);
	struct counted a;
	struct tlat_collector c;
	int read = 0;

	(void)state;
	counted_init(&a, 0);
	collector_on(&c, &a, s, 1);
	assert_int_equal(percpu_pass(&c, 1), 1);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		read += s->next[cpu];
	/* the clock is looked at every 64 records: 63 handed on, one pending */
	assert_int_equal(read, 63);
	assert_int_equal(c.counts.processed, 63);
	assert_int_equal(percpu_pass(&c, 0), 0);
	assert_int_equal(c.counts.processed, NR_CPUS * 2000);
	assert_int_equal(a.count[0][TLAT_CTX_IRQ], 1000);
	collector_free(&c);
	counted_free(&a);
	free(s);
}

/* auto: one reader per 8 measured CPUs, not per 8 possible ones */
static void test_auto_readers_follow_the_measured_cpus(void **state)
{
	/* readers 0: merged, below 8 measured CPUs */
	static const struct { int possible, measured, readers; } cases[] = {
		{ 4, 4, 0 }, { 32, 7, 0 }, { 32, 8, 1 }, { 32, 16, 2 }, { 32, 17, 3 },
		{ 256, 256, 8 },
	};
	struct tlat_collector c;
	struct tlat_cpuset set;
	struct counted a;
	char buf[128], want[64];

	(void)state;
	counted_init(&a, 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(cpuset_init(&set, cases[i].possible), 0);
		for (int cpu = 0; cpu < cases[i].measured; cpu++)
			CPU_SET_S(cpu, set.size, set.set);
		collector_init_offline(&c, NULL, &fake_ops);
		collector_attach(&c, NULL, &a.pl.sink);
		c.nr_cpus = cases[i].possible;
		c.measured = &set;
		assert_int_equal(collector_choose_read(&c), 0);
		if (!cases[i].readers)
			snprintf(want, sizeof(want),
				 "merged, because auto reads per CPU from 8 measured CPUs");
		else
			snprintf(want, sizeof(want), "per-CPU, %d reader%s", cases[i].readers,
				 cases[i].readers == 1 ? "" : "s");
		assert_string_equal(collector_read_mode(&c, buf, sizeof(buf)), want);
		collector_free(&c);
		cpuset_free(&set);
	}
	counted_free(&a);
}

static void test_read_mode_says_why(void **state)
{
	/* the tracepoint source's decoder, else the fake one */
	static const struct {
		bool tracepoints;
		int readers;
		const char *mode;
	} cases[] = {
		{ true, 0, "merged, because the source pairs events across CPUs" },
		{ false, 2, "per-CPU, 2 readers" },
		{ false, -1, "merged, because --readers merged" },
	};
	struct tlat_collector c;
	struct counted a;
	char buf[128];

	(void)state;
	counted_init(&a, 0);
	for (size_t i = 0; i < UNIT_ARRAY_SIZE(cases); i++) {
		collector_init_offline(&c, NULL, cases[i].tracepoints ?
				       tracepoints_source_ops.decoder : &fake_ops);
		collector_attach(&c, NULL, &a.pl.sink);
		c.nr_cpus = NR_CPUS;
		c.readers = cases[i].readers;
		assert_int_equal(collector_choose_read(&c), 0);
		if (cases[i].tracepoints)
			assert_null(c.percpu);
		assert_string_equal(collector_read_mode(&c, buf, sizeof(buf)), cases[i].mode);
		collector_free(&c);
	}
	counted_free(&a);
}

#define CASE(name)	UNIT_CASE("test_" #name, test_compare_case, NULL, NULL, &name)

UNIT_MAIN("percpu",
	CASE(same_statistics_one_reader),
	CASE(same_statistics_reader_threads),
	cmocka_unit_test(test_threshold_cut_is_exact),
	CASE(deadline_passes_lose_nothing),
	CASE(deadline_passes_cut_at_the_same_sample),
	cmocka_unit_test(test_deadline_leaves_records),
	cmocka_unit_test(test_read_mode_says_why),
	cmocka_unit_test(test_auto_readers_follow_the_measured_cpus),
	cmocka_unit_test(test_warmup_sample_kept_as_in_time_order),
)
