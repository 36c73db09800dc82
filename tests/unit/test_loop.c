// SPDX-License-Identifier: GPL-2.0
/*
 * test_loop.c - the run's own logic without tracefs: a synthetic source
 * whose samples appear in a "buffer" at given times, a clock that moves only
 * when the loop sleeps, and the real pipeline and measurement loop. It
 * checks the sample fan-out (every consumer, whole-run ones too), the
 * measured window (warm-up, -d), the thresholds (tlat's own check and the
 * kernel's stop, armed after the warm-up), continue (measure on after a
 * hit), the refreshes of top's screen, and a reader slower than the
 * writers.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "core/array.h"
#include "run/loop.h"
#include "run/pipeline.h"
#include "unit_helpers.h"

#define MS		1000000ull
#define S		(1000 * MS)
#define MAX_SAMPLES	8192

/* the synthetic source, its clock and what the loop asked of them */
struct synth {
	struct tlat_params params;
	struct pipeline pl;
	struct tlat_aggregate *agg;
	/* the samples, in time order; ts_ns is when each reaches the buffer */
	struct tlat_sample samples[MAX_SAMPLES];
	int nr, next;
	u64 now;
	u64 kernel_stop_ns;		/* tracing goes off then (0: never) */
	bool tracing_on;
	u64 off_since_ns;		/* when tracing went off: nothing is written after */
	u64 stop_signal_ns;		/* a stop signal comes then (0: never) */
	int continues;			/* hits that measure on */
	int hits, arms, frames, drains, sleeps;
	u64 read_cost_ns;		/* the clock moves this much per sample read (0: free) */
	u64 hit_at[8];
	int whole_run_seen;		/* samples a whole-run consumer saw */
};

static void whole_run_sample(void *priv, const struct tlat_sample *s)
{
	(void)s;
	((struct synth *)priv)->whole_run_seen++;
}

static const struct tlat_consumer_ops whole_run_ops = {
	.whole_run = true,
	.sample = whole_run_sample,
};

static u64 synth_now(void *ctx)
{
	return ((struct synth *)ctx)->now;
}

/* the kernel's stop, when its time has come */
static void synth_kernel(struct synth *sy)
{
	if (sy->tracing_on && sy->kernel_stop_ns && sy->now >= sy->kernel_stop_ns) {
		sy->tracing_on = false;
		sy->off_since_ns = sy->kernel_stop_ns;
	}
}

static void synth_sleep(void *ctx, u64 ns)
{
	struct synth *sy = ctx;

	/* a stop signal cuts the sleep short */
	if (sy->stop_signal_ns && sy->now < sy->stop_signal_ns && sy->now + ns > sy->stop_signal_ns)
		ns = sy->stop_signal_ns - sy->now;
	sy->now += ns;
	sy->sleeps++;
	synth_kernel(sy);
}

static bool synth_stop_requested(void *ctx)
{
	struct synth *sy = ctx;

	return sy->stop_signal_ns && sy->now >= sy->stop_signal_ns;
}

static bool synth_tracing_on(void *ctx)
{
	synth_kernel(ctx);
	return ((struct synth *)ctx)->tracing_on;
}

/* what reached the buffer by now, to the pipeline, as a collector would */
static int synth_drain(void *ctx, u64 until_ns, char *err)
{
	struct synth *sy = ctx;

	(void)err;
	sy->drains++;
	for (; sy->next < sy->nr && sy->samples[sy->next].ts_ns <= sy->now; sy->next++) {
		/* reading takes time, in which more samples reach the buffer */
		if (until_ns && sy->now >= until_ns)
			return 1;
		sy->now += sy->read_cost_ns;
		synth_kernel(sy);
		if (sy->tracing_on || sy->samples[sy->next].ts_ns < sy->off_since_ns)
			sy->pl.sink.sample(&sy->pl.sink, &sy->samples[sy->next]);
	}
	return 0;
}

static int synth_arm(void *ctx, char *err)
{
	(void)err;
	((struct synth *)ctx)->arms++;
	return 0;
}

static void synth_frame(void *ctx, u64 now_ns)
{
	(void)now_ns;
	((struct synth *)ctx)->frames++;
}

/* the --on-threshold actions: continue for the first hits, as many as asked */
static int synth_hit(void *ctx, char *err)
{
	struct synth *sy = ctx;

	(void)err;
	sy->hit_at[sy->hits++ % 8] = sy->now;
	if (sy->continues-- <= 0)
		return 0;
	pipeline_resume(&sy->pl);
	sy->tracing_on = true;
	sy->kernel_stop_ns = 0;
	return 1;
}

static const struct loop_env synth_env = {
	.now_ns = synth_now,
	.sleep_ns = synth_sleep,
	.stop_requested = synth_stop_requested,
	.tracing_on = synth_tracing_on,
	.drain = synth_drain,
	.arm = synth_arm,
	.frame = synth_frame,
	.hit = synth_hit,
};

static int setup(void **state)
{
	struct synth *sy = calloc(1, sizeof(*sy));

	if (!sy || cli_params_init(&sy->params, TLAT_MODE_TOP, 2))
		return -1;
	sy->agg = agg_alloc(&(struct tlat_agg_layout){ .nr_cpus = 2 });
	if (!sy->agg)
		return -1;
	pipeline_init(&sy->pl, &sy->params);
	if (pipeline_add(&sy->pl, &stats_consumer_ops, sy->agg) ||
	    pipeline_add(&sy->pl, &whole_run_ops, sy))
		return -1;
	sy->tracing_on = true;
	*state = sy;
	return 0;
}

static int teardown(void **state)
{
	struct synth *sy = *state;

	pipeline_free(&sy->pl);
	agg_free(sy->agg);
	cli_params_free(&sy->params);
	free(sy);
	return 0;
}

/* an activation of cpu: its IRQ and thread samples reach the buffer at ts */
static void activation(struct synth *sy, int cpu, u32 seq, u64 ts, u64 irq_ns, u64 thread_ns)
{
	assert_true(sy->nr + 2 <= MAX_SAMPLES);
	sy->samples[sy->nr++] = (struct tlat_sample){ .ts_ns = ts, .latency_ns = irq_ns,
						      .seq = seq, .cpu = cpu,
						      .ctx = TLAT_CTX_IRQ };
	sy->samples[sy->nr++] = (struct tlat_sample){ .ts_ns = ts, .latency_ns = thread_ns,
						      .seq = seq, .cpu = cpu,
						      .ctx = TLAT_CTX_THREAD };
}

static u64 count(struct synth *sy, int cpu, enum tlat_ctx ctx)
{
	return agg_stat(sy->agg, cpu, ctx)->count;
}

static void run(struct synth *sy, const struct loop_window *w)
{
	struct loop_env env = synth_env;
	char err[TLAT_ERR_LEN] = "";

	env.ctx = sy;
	pipeline_window(&sy->pl, w->start_ns, w->end_ns);
	assert_int_equal(run_loop(&env, &sy->pl, w, err), 0);
	assert_string_equal(err, "");
}

/* -d 3 with a warm-up of 1 s: only the 3 s after it count, every consumer sees its samples */
static void test_window(void **state)
{
	struct synth *sy = *state;

	for (int i = 0; i < 10; i++)
		activation(sy, i % 2, i, i * 500 * MS + 1, 10000, 20000);
	run(sy, &(struct loop_window){ .start_ns = 1 * S, .end_ns = 4 * S, .armed = false });
	/* 1.0..4.0 s: the activations at 1.0005, 1.5005, ..., 3.5005 s */
	assert_int_equal(count(sy, 0, TLAT_CTX_IRQ) + count(sy, 1, TLAT_CTX_IRQ), 6);
	assert_int_equal(count(sy, 0, TLAT_CTX_THREAD), 3);
	assert_int_equal(count(sy, 1, TLAT_CTX_THREAD), 3);
	/* the analysis's kind of consumer: the warm-up's samples too, not those past -d */
	assert_int_equal(sy->whole_run_seen, 2 * 8);
	/* ends at -d, not before */
	assert_true(sy->now >= 4 * S && sy->now < 4 * S + LOOP_POLL_NS);
	assert_false(sy->pl.stopped);
	assert_int_equal(sy->hits, 0);
	/* the kernel's stops are armed once, as the warm-up ends, not a poll later */
	assert_int_equal(sy->arms, 1);
	/* top's refreshes: one per second of the measured window */
	assert_int_equal(sy->frames, 2);
}

/* -T 100: the first thread sample of 100 us or more stops counting and ends the run */
static void test_threshold(void **state)
{
	struct synth *sy = *state;

	sy->params.stop.thread_us = 100;
	activation(sy, 0, 1, 100 * MS, 10000, 20000);
	activation(sy, 1, 1, 300 * MS, 10000, 150000);	/* the hit */
	activation(sy, 0, 2, 300 * MS, 10000, 20000);	/* drained after it: not counted */
	activation(sy, 0, 3, 900 * MS, 10000, 20000);
	run(sy, &(struct loop_window){ .end_ns = 10 * S, .armed = true });
	assert_true(sy->pl.stopped);
	assert_true(sy->pl.hit_seen);
	assert_int_equal(sy->pl.hit.cpu, 1);
	assert_int_equal(sy->pl.hit.latency_ns, 150000);
	assert_int_equal(sy->hits, 1);
	/* found at the poll after the sample reached the buffer; the run ends there */
	assert_int_equal(sy->hit_at[0], 500 * MS);
	assert_int_equal(sy->now, 500 * MS);
	/* the hit itself counts; nothing after it does */
	assert_int_equal(count(sy, 1, TLAT_CTX_THREAD), 1);
	assert_int_equal(count(sy, 0, TLAT_CTX_THREAD), 1);
	assert_int_equal(sy->arms, 0);
}

/* a continue action: each hit is handled, and the run measures on to -d */
static void test_continue(void **state)
{
	struct synth *sy = *state;

	sy->params.stop.irq_us = 50;
	sy->continues = 10;
	activation(sy, 0, 1, 100 * MS, 60000, 70000);		/* a hit at the IRQ */
	activation(sy, 0, 2, 200 * MS, 10000, 20000);		/* before the hit is handled */
	activation(sy, 0, 3, 1100 * MS, 10000, 20000);
	activation(sy, 0, 4, 1600 * MS, 90000, 95000);		/* a second hit */
	activation(sy, 0, 5, 2100 * MS, 10000, 20000);
	run(sy, &(struct loop_window){ .end_ns = 3 * S, .armed = true });
	assert_int_equal(sy->hits, 2);
	assert_int_equal(sy->hit_at[0], 250 * MS);
	assert_int_equal(sy->hit_at[1], 1750 * MS);
	assert_false(sy->pl.stopped);
	assert_true(sy->now >= 3 * S);
	/* counted: each hit's IRQ sample, and what came after it was handled */
	assert_int_equal(count(sy, 0, TLAT_CTX_IRQ), 4);
	assert_int_equal(count(sy, 0, TLAT_CTX_THREAD), 2);
}

/* the kernel stopped tracing at a threshold whose sample tlat never saw */
static void test_kernel_stop(void **state)
{
	struct synth *sy = *state;

	activation(sy, 0, 1, 100 * MS, 10000, 20000);
	sy->kernel_stop_ns = 600 * MS;
	activation(sy, 0, 2, 700 * MS, 10000, 20000);	/* written after the stop: never */
	run(sy, &(struct loop_window){ .end_ns = 10 * S, .armed = true,
				       .kernel_stops = true });
	assert_int_equal(sy->hits, 1);
	assert_true(sy->pl.stopped);
	assert_false(sy->pl.hit_seen);
	assert_int_equal(sy->hit_at[0], 750 * MS);
	assert_int_equal(count(sy, 0, TLAT_CTX_IRQ), 1);
}

/*
 * The kernel wrote a sample as the warm-up ended and checked it against the
 * stops armed just after: its stop's sample counts, as the hit. A warm-up
 * sample whose CPU wrote another after it was checked before the arming.
 */
static void test_kernel_stop_on_warm_up_sample(void **state)
{
	struct synth *sy = *state;

	sy->params.stop.thread_us = 100;
	activation(sy, 1, 1, 1 * S - 2 * MS, 10000, 150000);	/* checked before the arming */
	activation(sy, 1, 2, 1 * S - 1 * MS, 10000, 20000);
	activation(sy, 0, 1, 1 * S - 1 * MS, 10000, 150000);	/* checked after it */
	sy->kernel_stop_ns = 1 * S + 1 * MS;
	run(sy, &(struct loop_window){ .start_ns = 1 * S, .end_ns = 10 * S,
				       .kernel_stops = true });
	assert_int_equal(sy->arms, 1);
	assert_int_equal(sy->hits, 1);
	assert_true(sy->pl.hit_seen);
	assert_int_equal(sy->pl.hit.cpu, 0);
	assert_int_equal(sy->pl.hit.seq, 1);
	assert_int_equal(count(sy, 0, TLAT_CTX_THREAD), 1);
	assert_int_equal(count(sy, 0, TLAT_CTX_IRQ), 0);
	assert_int_equal(count(sy, 1, TLAT_CTX_THREAD), 0);
}

/* a warm-up sample over the threshold whose CPU went on is no later stop's */
static void test_kernel_stop_not_on_checked_sample(void **state)
{
	struct synth *sy = *state;

	sy->params.stop.thread_us = 100;
	activation(sy, 0, 1, 1 * S - 2 * MS, 10000, 150000);
	activation(sy, 0, 2, 1 * S - 1 * MS, 10000, 20000);
	sy->kernel_stop_ns = 3 * S;
	run(sy, &(struct loop_window){ .start_ns = 1 * S, .end_ns = 10 * S,
				       .kernel_stops = true });
	assert_int_equal(sy->hits, 1);
	assert_false(sy->pl.hit_seen);
	assert_int_equal(count(sy, 0, TLAT_CTX_THREAD), 0);
}

/*
 * The kernel stopped on the warm-up's last sample while tlat read a backlog
 * (a slow guest): the hit waits until what was written before the stop is
 * read, and is that sample, not the last one read when the stop was seen.
 */
static void test_kernel_stop_behind_backlog(void **state)
{
	struct synth *sy = *state;
	const int n = 999;

	sy->params.stop.thread_us = 100;
	/* every warm-up activation is over the threshold; reading one takes 2 ms */
	for (int i = 1; i <= n; i++)
		activation(sy, 0, i, i * MS, 10000, 150000);
	sy->read_cost_ns = 1 * MS;
	sy->kernel_stop_ns = 1 * S + 1 * MS;
	run(sy, &(struct loop_window){ .start_ns = 1 * S, .end_ns = 10 * S,
				       .kernel_stops = true });
	assert_int_equal(sy->hits, 1);
	assert_true(sy->pl.hit_seen);
	assert_int_equal(sy->pl.hit.seq, n);
	assert_int_equal(sy->next, sy->nr);
	assert_int_equal(count(sy, 0, TLAT_CTX_THREAD), 1);
}

/* a kernel stop that comes past -d's end is the end, not a hit */
static void test_kernel_stop_after_end(void **state)
{
	struct synth *sy = *state;

	sy->kernel_stop_ns = 1 * S;
	run(sy, &(struct loop_window){ .end_ns = 1 * S, .armed = true, .kernel_stops = true });
	assert_int_equal(sy->hits, 0);
	assert_false(sy->pl.stopped);
}

/*
 * tlat's check saw the hit before the kernel stopped: the kernel gets one
 * more poll to finish the activation (its stack), whose records still count
 */
static void test_kernel_finishes_first(void **state)
{
	struct synth *sy = *state;

	sy->params.stop.thread_us = 100;
	activation(sy, 0, 1, 100 * MS, 10000, 150000);	/* the hit */
	run(sy, &(struct loop_window){ .end_ns = 10 * S, .armed = true,
				       .kernel_stops = true });
	assert_int_equal(sy->hits, 1);
	/* seen at 250 ms, tracing still on: the hit is handled a poll later */
	assert_int_equal(sy->hit_at[0], 500 * MS);
	assert_int_equal(sy->drains, 2);
}

/* a stop signal ends the run where it comes, whatever -d says */
static void test_stop_signal(void **state)
{
	struct synth *sy = *state;

	sy->stop_signal_ns = 1100 * MS;
	activation(sy, 0, 1, 1000 * MS, 10000, 20000);
	run(sy, &(struct loop_window){ .armed = true });
	assert_int_equal(sy->now, 1100 * MS);
	assert_int_equal(count(sy, 0, TLAT_CTX_IRQ), 1);
	assert_int_equal(sy->frames, 1);
}

/* samples of a CPU the run does not know are nobody's: consumers drop them */
static void test_fanout_unknown_cpu(void **state)
{
	struct synth *sy = *state;

	activation(sy, 5, 1, 100 * MS, 10000, 20000);
	activation(sy, 1, 1, 100 * MS, 10000, 20000);
	run(sy, &(struct loop_window){ .end_ns = 1 * S, .armed = true });
	assert_int_equal(count(sy, 1, TLAT_CTX_IRQ), 1);
	assert_int_equal(sy->whole_run_seen, 4);
}

/*
 * A reader slower than the writers (16 vCPUs of events under TCG): a pass
 * until the buffers are empty would never end. The loop still ends at -d,
 * and reads the backlog pass after pass without sleeping.
 */
static void test_backlog_ends_at_duration(void **state)
{
	struct synth *sy = *state;

	/* an activation every 1 ms; reading its two samples takes 3 ms */
	for (int i = 0; i < MAX_SAMPLES / 2; i++)
		activation(sy, i % 2, i, (i + 1) * MS, 10000, 20000);
	sy->read_cost_ns = 1500 * 1000;
	run(sy, &(struct loop_window){ .end_ns = 2 * S, .armed = true });
	assert_true(sy->now >= 2 * S && sy->now < 2 * S + 2 * LOOP_POLL_NS);
	/* the first poll's sleep only: from then on there is always a backlog */
	assert_int_equal(sy->sleeps, 1);
	assert_true(sy->drains >= 7);
	/* what was read is counted: the 1.75 s after the first poll, 3 ms each */
	assert_true(count(sy, 0, TLAT_CTX_IRQ) + count(sy, 1, TLAT_CTX_IRQ) >= 580);
	/* and the writers were ahead all along */
	assert_true(sy->next < sy->nr && sy->samples[sy->next].ts_ns < sy->now);
	assert_int_equal(sy->frames, 1);
}

/*
 * An activation whose IRQ came before -d ran out counts whole: its thread
 * and user return after it too. Otherwise a CPU's IRQ count exceeds its
 * thread's. The start stays per sample (the kernel's stops, armed as the
 * warm-up ends, check a thread whose IRQ came before): that thread counts.
 */
static void test_window_end_whole_activations(void **state)
{
	struct synth *sy = *state;
	const struct tlat_sample samples[] = {
		{ .ts_ns = 1 * S - 1, .latency_ns = 10000, .seq = 1, .ctx = TLAT_CTX_IRQ },
		{ .ts_ns = 1 * S + 1, .latency_ns = 20000, .seq = 1, .ctx = TLAT_CTX_THREAD },
		{ .ts_ns = 2 * S, .latency_ns = 10000, .seq = 2, .ctx = TLAT_CTX_IRQ },
		{ .ts_ns = 2 * S, .latency_ns = 20000, .seq = 2, .ctx = TLAT_CTX_THREAD },
		{ .ts_ns = 2 * S, .latency_ns = 30000, .seq = 2, .ctx = TLAT_CTX_USER },
		{ .ts_ns = 3 * S - 1, .latency_ns = 10000, .seq = 3, .ctx = TLAT_CTX_IRQ },
		{ .ts_ns = 3 * S + 1, .latency_ns = 20000, .seq = 3, .ctx = TLAT_CTX_THREAD },
		{ .ts_ns = 3 * S + 1, .latency_ns = 30000, .seq = 3, .ctx = TLAT_CTX_USER },
		/* past -d: the same seq again from IRQ is another activation */
		{ .ts_ns = 3 * S + 2, .latency_ns = 10000, .seq = 3, .ctx = TLAT_CTX_IRQ },
		{ .ts_ns = 3 * S + 3, .latency_ns = 20000, .seq = 3, .ctx = TLAT_CTX_THREAD },
		{ .ts_ns = 3 * S + 4, .latency_ns = 10000, .seq = 4, .ctx = TLAT_CTX_IRQ },
	};

	/* as a reader's pass that began before -d ran out hands them */
	pipeline_window(&sy->pl, 1 * S, 3 * S);
	for (size_t i = 0; i < ARRAY_SIZE(samples); i++)
		sy->pl.sink.sample(&sy->pl.sink, &samples[i]);
	assert_int_equal(count(sy, 0, TLAT_CTX_IRQ), 2);
	assert_int_equal(count(sy, 0, TLAT_CTX_THREAD), 3);
	assert_int_equal(count(sy, 0, TLAT_CTX_USER), 2);
	assert_int_equal(sy->whole_run_seen, ARRAY_SIZE(samples));
}

#define LOOP_TEST(fn)	cmocka_unit_test_setup_teardown(fn, setup, teardown)

UNIT_MAIN("loop",
	LOOP_TEST(test_window),
	LOOP_TEST(test_window_end_whole_activations),
	LOOP_TEST(test_threshold),
	LOOP_TEST(test_continue),
	LOOP_TEST(test_kernel_stop),
	LOOP_TEST(test_kernel_stop_on_warm_up_sample),
	LOOP_TEST(test_kernel_stop_not_on_checked_sample),
	LOOP_TEST(test_kernel_stop_behind_backlog),
	LOOP_TEST(test_kernel_stop_after_end),
	LOOP_TEST(test_kernel_finishes_first),
	LOOP_TEST(test_stop_signal),
	LOOP_TEST(test_fanout_unknown_cpu),
	LOOP_TEST(test_backlog_ends_at_duration),
)
