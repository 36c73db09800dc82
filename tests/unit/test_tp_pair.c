// SPDX-License-Identifier: GPL-2.0
/*
 * test_tp_pair.c - the activation state machine of the tracepoint source,
 * fed with synthetic event streams: what a clean activation emits, and that
 * an activation missing an event is dropped, never completed with the
 * events of another one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdbool.h>
#include <cmocka.h>

#include "sources/tracepoints/tp_pair.h"

#define NR_CPUS		4
#define NO_THREAD_CPU	2	/* a CPU without a measuring thread */
#define UNKNOWN_TID	4242
#define MAX_SAMPLES	1024

#define TID(cpu)	(1000 + (cpu))
#define TIMER(cpu)	(0xffff888000001000ULL + 0x100ULL * (cpu))

/* ring-buffer timestamps trail the clock read in the event a little */
#define TS_DELAY	5

struct fixture {
	struct tp_pairing *p;
	struct tlat_sample s[MAX_SAMPLES];
	int n;
};

static void capture(void *ctx, const struct tlat_sample *sample)
{
	struct fixture *f = ctx;

	if (f->n >= MAX_SAMPLES)
		fail_msg("too many samples");
	f->s[f->n++] = *sample;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->p = tp_pairing_alloc(NR_CPUS, capture, f);
	if (!f->p) {
		free(f);
		return -1;
	}
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu != NO_THREAD_CPU)
			tp_pairing_set_thread(f->p, cpu, TID(cpu));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	tp_pairing_free(f->p);
	free(f);
	return 0;
}

/* the thread of cpu arms its timer for expires (no slack) */
static void arm(struct fixture *f, int cpu, u64 expires)
{
	tp_timer_start(f->p, cpu, TID(cpu), false, TIMER(cpu), expires, expires);
}

static void expire(struct fixture *f, int cpu, u64 now)
{
	tp_timer_expire(f->p, cpu, TIMER(cpu), now, now + TS_DELAY, 0);
}

static void thread_runs(struct fixture *f, int cpu, u64 ts)
{
	tp_thread_runs(f->p, cpu, TID(cpu), ts);
}

static void user_return(struct fixture *f, int cpu, u64 requested, u64 now)
{
	tp_user_return(f->p, cpu, requested, now, now + TS_DELAY);
}

/* one complete activation, each latency counted from expires */
static void activation(struct fixture *f, int cpu, u64 expires, u64 irq, u64 thread, u64 user)
{
	arm(f, cpu, expires);
	expire(f, cpu, expires + irq);
	thread_runs(f, cpu, expires + thread);
	user_return(f, cpu, expires, expires + user);
}

static void check_sample(const struct tlat_sample *s, int cpu, u32 seq, enum tlat_ctx ctx,
			 u64 latency, u64 ts)
{
	assert_int_equal(s->cpu, cpu);
	assert_int_equal(s->seq, seq);
	assert_int_equal(s->ctx, ctx);
	assert_int_equal(s->latency_ns, latency);
	assert_int_equal(s->ts_ns, ts);
}

/* samples i, i+1, i+2 are the IRQ, thread and user samples of one activation */
static void check_latencies(const struct fixture *f, int i, int cpu, u64 irq, u64 thread,
			    u64 user)
{
	assert_true(i + 2 < f->n);
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		assert_int_equal(f->s[i + ctx].cpu, cpu);
		assert_int_equal(f->s[i + ctx].ctx, ctx);
		assert_int_equal(f->s[i + ctx].seq, f->s[i].seq);
	}
	assert_int_equal(f->s[i].latency_ns, irq);
	assert_int_equal(f->s[i + 1].latency_ns, thread);
	assert_int_equal(f->s[i + 2].latency_ns, user);
}

static void test_clean_activation(void **state)
{
	struct fixture *f = *state;

	arm(f, 1, 10000);
	expire(f, 1, 10300);
	assert_int_equal(f->n, 0);
	thread_runs(f, 1, 11000);
	assert_int_equal(f->n, 0);
	user_return(f, 1, 10000, 12500);

	assert_int_equal(f->n, 3);
	check_sample(&f->s[0], 1, 0, TLAT_CTX_IRQ, 300, 10300 + TS_DELAY);
	check_sample(&f->s[1], 1, 0, TLAT_CTX_THREAD, 1000, 11000);
	check_sample(&f->s[2], 1, 0, TLAT_CTX_USER, 2500, 12500 + TS_DELAY);
	assert_int_equal(tp_dropped(f->p), 0);
}

static void test_seq_counts_up(void **state)
{
	struct fixture *f = *state;

	for (int i = 0; i < 3; i++)
		activation(f, 0, 1000000 * (i + 1), 100 + i, 200 + i, 300 + i);
	assert_int_equal(f->n, 9);
	for (int i = 0; i < 3; i++) {
		check_latencies(f, 3 * i, 0, 100 + i, 200 + i, 300 + i);
		assert_int_equal(f->s[3 * i].seq, i);
	}
	assert_int_equal(tp_dropped(f->p), 0);
}

/* latencies count from the programmed expiry; the marker carries the requested time */
static void test_timer_slack(void **state)
{
	struct fixture *f = *state;

	tp_timer_start(f->p, 1, TID(1), false, TIMER(1), 10050, 10000);
	expire(f, 1, 10100);
	thread_runs(f, 1, 10200);
	user_return(f, 1, 10000, 10300);
	assert_int_equal(f->n, 3);
	check_latencies(f, 0, 1, 50, 150, 250);
}

/* each CPU pairs its own activations, with its own sequence numbers */
static void test_cpus_interleaved(void **state)
{
	struct fixture *f = *state;

	activation(f, 3, 5000, 1, 2, 3);
	arm(f, 0, 10000);
	arm(f, 3, 10000);
	expire(f, 3, 10030);
	expire(f, 0, 10010);
	thread_runs(f, 0, 10020);
	thread_runs(f, 3, 10040);
	user_return(f, 3, 10000, 10050);
	user_return(f, 0, 10000, 10060);

	assert_int_equal(f->n, 9);
	check_latencies(f, 3, 3, 30, 40, 50);
	assert_int_equal(f->s[3].seq, 1);
	check_latencies(f, 6, 0, 10, 20, 60);
	assert_int_equal(f->s[6].seq, 0);
	assert_int_equal(tp_dropped(f->p), 0);
}

/* the thread was preempted after arming its timer: that switch-in is not its wakeup */
static void test_switch_before_expiry_ignored(void **state)
{
	struct fixture *f = *state;

	arm(f, 1, 10000);
	thread_runs(f, 1, 9500);
	expire(f, 1, 10100);
	thread_runs(f, 1, 10700);
	user_return(f, 1, 10000, 11000);
	assert_int_equal(f->n, 3);
	check_latencies(f, 0, 1, 100, 700, 1000);
	assert_int_equal(tp_dropped(f->p), 0);
}

/* the switch-in and the syscall return both say "runs": the first one counts */
static void test_thread_runs_taken_once(void **state)
{
	struct fixture *f = *state;

	arm(f, 1, 10000);
	expire(f, 1, 10100);
	thread_runs(f, 1, 10400);
	thread_runs(f, 1, 10900);
	thread_runs(f, 1, 10950);
	user_return(f, 1, 10000, 11000);
	assert_int_equal(f->n, 3);
	check_latencies(f, 0, 1, 100, 400, 1000);
	assert_int_equal(f->s[1].ts_ns, 10400);
}

/* a second expiry event for the same timer does not overwrite the first */
static void test_expire_taken_once(void **state)
{
	struct fixture *f = *state;

	arm(f, 1, 10000);
	expire(f, 1, 10100);
	expire(f, 1, 10600);
	thread_runs(f, 1, 10800);
	user_return(f, 1, 10000, 11000);
	assert_int_equal(f->n, 3);
	check_latencies(f, 0, 1, 100, 800, 1000);
}

/* the kernel moved the timer: it expires in another CPU's buffer */
static void test_expire_on_other_cpu(void **state)
{
	struct fixture *f = *state;

	arm(f, 1, 10000);
	arm(f, 3, 10000);
	tp_timer_expire(f->p, 3, TIMER(1), 10200, 10205, 0);
	/* CPU 3's activation is still waiting for its own expiry */
	thread_runs(f, 3, 10300);
	user_return(f, 3, 10000, 10400);
	assert_int_equal(f->n, 0);
	assert_int_equal(tp_dropped(f->p), 1);

	thread_runs(f, 1, 10500);
	user_return(f, 1, 10000, 10600);
	assert_int_equal(f->n, 3);
	check_latencies(f, 0, 1, 200, 500, 600);
	assert_int_equal(f->s[0].ts_ns, 10205);
}

/* the thread's switch-in recorded in another CPU's buffer is still its own */
static void test_thread_runs_on_other_cpu(void **state)
{
	struct fixture *f = *state;

	arm(f, 1, 10000);
	expire(f, 1, 10100);
	tp_thread_runs(f->p, 0, TID(1), 10200);
	user_return(f, 1, 10000, 10300);
	assert_int_equal(f->n, 3);
	check_latencies(f, 0, 1, 100, 200, 300);
}

/* hrtimer_expire_entry was lost: the user return arrives without an IRQ */
static void test_lost_expire_dropped(void **state)
{
	struct fixture *f = *state;

	activation(f, 1, 10000, 10, 20, 30);
	assert_int_equal(f->n, 3);

	arm(f, 1, 20000);
	thread_runs(f, 1, 21000);
	user_return(f, 1, 20000, 21500);
	assert_int_equal(f->n, 3);
	assert_int_equal(tp_dropped(f->p), 1);

	/* the next activation pairs as if nothing happened */
	activation(f, 1, 30000, 40, 50, 60);
	assert_int_equal(f->n, 6);
	check_latencies(f, 3, 1, 40, 50, 60);
	assert_true(f->s[3].seq > f->s[0].seq);
	assert_int_equal(tp_dropped(f->p), 1);
}

/* the thread-runs event was lost */
static void test_lost_thread_event_dropped(void **state)
{
	struct fixture *f = *state;

	arm(f, 1, 10000);
	expire(f, 1, 10100);
	user_return(f, 1, 10000, 10500);
	assert_int_equal(f->n, 0);
	assert_int_equal(tp_dropped(f->p), 1);
	activation(f, 1, 20000, 1, 2, 3);
	assert_int_equal(f->n, 3);
	check_latencies(f, 0, 1, 1, 2, 3);
}

/* the marker is from another activation than the armed one */
static void test_marker_mismatch_dropped(void **state)
{
	struct fixture *f = *state;

	arm(f, 1, 10000);
	expire(f, 1, 10100);
	thread_runs(f, 1, 10200);
	user_return(f, 1, 9000, 10300);
	assert_int_equal(f->n, 0);
	assert_int_equal(tp_dropped(f->p), 1);
	/* the activation is gone: its own marker, late, is not paired nor counted again */
	user_return(f, 1, 10000, 10400);
	assert_int_equal(f->n, 0);
	assert_int_equal(tp_dropped(f->p), 1);
	activation(f, 1, 20000, 1, 2, 3);
	assert_int_equal(f->n, 3);
}

/*
 * The tick fires while the thread runs, between its wakeup and its marker, and
 * re-arms itself: an hrtimer_start in interrupt context, with the thread's pid
 * (seen on the host, in the trace of an activation that was dropped). It is no
 * arming by the thread, before its expiry nor after it.
 */
#define TICK_TIMER	0xffff888627c1c6f8ULL

static void test_interrupt_start_not_the_thread(void **state)
{
	struct fixture *f = *state;

	arm(f, 1, 10000);
	tp_timer_start(f->p, 1, TID(1), true, TICK_TIMER, 14000, 14000);
	expire(f, 1, 10100);
	thread_runs(f, 1, 10200);
	tp_timer_expire(f->p, 1, TICK_TIMER, 10250, 10250, TID(1));
	tp_timer_start(f->p, 1, TID(1), true, TICK_TIMER, 15000, 15000);
	user_return(f, 1, 10000, 10300);
	assert_int_equal(f->n, 3);
	check_latencies(f, 0, 1, 100, 200, 300);
	activation(f, 1, 11000, 10, 20, 30);
	assert_int_equal(f->n, 6);
	assert_int_equal(tp_dropped(f->p), 0);
}

/* the hrtimer_start of the next activation arrives before the marker of the last */
static void test_rearm_drops_unfinished(void **state)
{
	struct fixture *f = *state;

	arm(f, 1, 10000);
	expire(f, 1, 10100);
	arm(f, 1, 20000);
	assert_int_equal(tp_dropped(f->p), 1);
	thread_runs(f, 1, 10200);	/* before the new expiry: not its wakeup */
	expire(f, 1, 20100);
	thread_runs(f, 1, 20300);
	user_return(f, 1, 20000, 20400);
	assert_int_equal(f->n, 3);
	check_latencies(f, 0, 1, 100, 300, 400);
	assert_int_equal(tp_dropped(f->p), 1);
}

static void test_events_lost_mid_activation(void **state)
{
	struct fixture *f = *state;

	arm(f, 1, 10000);
	expire(f, 1, 10100);
	tp_events_lost(f->p, 1);
	assert_int_equal(tp_dropped(f->p), 1);
	thread_runs(f, 1, 10200);
	user_return(f, 1, 10000, 10300);
	assert_int_equal(f->n, 0);
	assert_int_equal(tp_dropped(f->p), 1);
	activation(f, 1, 20000, 1, 2, 3);
	assert_int_equal(f->n, 3);
	check_latencies(f, 0, 1, 1, 2, 3);
}

/* losses on another CPU, or with nothing in flight, drop nothing */
static void test_events_lost_elsewhere(void **state)
{
	struct fixture *f = *state;

	tp_events_lost(f->p, 1);
	tp_events_lost(f->p, -1);
	tp_events_lost(f->p, NR_CPUS);
	assert_int_equal(tp_dropped(f->p), 0);
	arm(f, 1, 10000);
	expire(f, 1, 10100);
	tp_events_lost(f->p, 0);
	thread_runs(f, 1, 10200);
	user_return(f, 1, 10000, 10300);
	assert_int_equal(f->n, 3);
	assert_int_equal(tp_dropped(f->p), 0);
}

/* tracing started while the thread slept: its marker has no armed activation */
static void test_marker_without_activation(void **state)
{
	struct fixture *f = *state;

	expire(f, 1, 10100);
	thread_runs(f, 1, 10200);
	user_return(f, 1, 10000, 10300);
	assert_int_equal(f->n, 0);
	assert_int_equal(tp_dropped(f->p), 0);
	/* the first activation seen whole is paired */
	activation(f, 1, 20000, 1, 2, 3);
	assert_int_equal(f->n, 3);
	assert_int_equal(f->s[0].seq, 0);
	assert_int_equal(tp_dropped(f->p), 0);
}

static void test_unknown_tid_ignored(void **state)
{
	struct fixture *f = *state;

	/* a timer armed by some other task is not an activation */
	tp_timer_start(f->p, 1, UNKNOWN_TID, false, 0xdead0000, 10000, 10000);
	tp_timer_expire(f->p, 1, 0xdead0000, 10100, 10100, 0);
	tp_thread_runs(f->p, 1, UNKNOWN_TID, 10200);
	user_return(f, 1, 10000, 10300);
	assert_int_equal(f->n, 0);
	assert_int_equal(tp_dropped(f->p), 0);

	/* nor do other tasks' switch-ins count as the thread's wakeup */
	arm(f, 1, 20000);
	tp_timer_start(f->p, 1, UNKNOWN_TID, false, TIMER(3), 20000, 20000);
	expire(f, 1, 20100);
	tp_thread_runs(f->p, 1, UNKNOWN_TID, 20150);
	tp_thread_runs(f->p, 1, 0, 20160);	/* the idle task */
	thread_runs(f, 1, 20200);
	user_return(f, 1, 20000, 20300);
	assert_int_equal(f->n, 3);
	check_latencies(f, 0, 1, 100, 200, 300);
	assert_int_equal(tp_dropped(f->p), 0);
}

/* a CPU without a measuring thread has tid 0, which must not match the idle task */
static void test_cpu_without_thread(void **state)
{
	struct fixture *f = *state;

	tp_timer_start(f->p, NO_THREAD_CPU, 0, false, TIMER(NO_THREAD_CPU), 10000, 10000);
	tp_timer_expire(f->p, NO_THREAD_CPU, TIMER(NO_THREAD_CPU), 10100, 10100, 0);
	tp_thread_runs(f->p, NO_THREAD_CPU, 0, 10200);
	user_return(f, NO_THREAD_CPU, 10000, 10300);
	tp_timer_start(f->p, NO_THREAD_CPU, -1, false, TIMER(NO_THREAD_CPU), 10000, 10000);
	user_return(f, NO_THREAD_CPU, 10000, 10300);
	assert_int_equal(f->n, 0);
	assert_int_equal(tp_dropped(f->p), 0);
}

static void test_out_of_range_cpu(void **state)
{
	struct fixture *f = *state;

	tp_pairing_set_thread(f->p, -1, 77);
	tp_pairing_set_thread(f->p, NR_CPUS, 77);
	tp_timer_start(f->p, NR_CPUS, 77, false, 0x77, 10000, 10000);
	user_return(f, -1, 10000, 10300);
	user_return(f, NR_CPUS, 10000, 10300);
	assert_int_equal(f->n, 0);
	/* and the CPUs in range still work */
	activation(f, NR_CPUS - 1, 20000, 1, 2, 3);
	assert_int_equal(f->n, 3);
}

/* clock and trace timestamps may read before the expiry: latencies clamp at 0 */
static void test_latencies_clamped(void **state)
{
	struct fixture *f = *state;

	arm(f, 1, 10000);
	tp_timer_expire(f->p, 1, TIMER(1), 9990, 9995, 0);
	thread_runs(f, 1, 9999);
	user_return(f, 1, 10000, 9000);
	assert_int_equal(f->n, 3);
	check_latencies(f, 0, 1, 0, 0, 0);

	/* exactly on time is 0 as well */
	activation(f, 1, 20000, 0, 0, 0);
	assert_int_equal(f->n, 6);
	check_latencies(f, 3, 1, 0, 0, 0);
}

/* a long, normal stream: everything is paired and IRQ <= thread <= user */
static void test_normal_stream_ordered(void **state)
{
	struct fixture *f = *state;
	u64 expires = 1000000;

	for (int i = 0; i < 100; i++) {
		int cpu = i % 2 ? 3 : 0;
		u64 irq = 500 + (u64)(i * 37) % 2000;
		u64 thread = irq + 1000 + (u64)(i * 53) % 5000;
		u64 user = thread + 300 + (u64)(i * 11) % 700;

		activation(f, cpu, expires, irq, thread, user);
		expires += 1000000;
	}
	assert_int_equal(f->n, 300);
	assert_int_equal(tp_dropped(f->p), 0);
	for (int i = 0; i < f->n; i += 3) {
		assert_true(f->s[i].latency_ns <= f->s[i + 1].latency_ns);
		assert_true(f->s[i + 1].latency_ns <= f->s[i + 2].latency_ns);
		assert_int_equal(f->s[i].seq, i / 6);
	}
}

#define PAIR_TEST(fn)	cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		PAIR_TEST(test_clean_activation),
		PAIR_TEST(test_seq_counts_up),
		PAIR_TEST(test_timer_slack),
		PAIR_TEST(test_cpus_interleaved),
		PAIR_TEST(test_switch_before_expiry_ignored),
		PAIR_TEST(test_thread_runs_taken_once),
		PAIR_TEST(test_expire_taken_once),
		PAIR_TEST(test_expire_on_other_cpu),
		PAIR_TEST(test_thread_runs_on_other_cpu),
		PAIR_TEST(test_lost_expire_dropped),
		PAIR_TEST(test_lost_thread_event_dropped),
		PAIR_TEST(test_marker_mismatch_dropped),
		PAIR_TEST(test_interrupt_start_not_the_thread),
		PAIR_TEST(test_rearm_drops_unfinished),
		PAIR_TEST(test_events_lost_mid_activation),
		PAIR_TEST(test_events_lost_elsewhere),
		PAIR_TEST(test_marker_without_activation),
		PAIR_TEST(test_unknown_tid_ignored),
		PAIR_TEST(test_cpu_without_thread),
		PAIR_TEST(test_out_of_range_cpu),
		PAIR_TEST(test_latencies_clamped),
		PAIR_TEST(test_normal_stream_ordered),
	};

	return cmocka_run_group_tests_name("tp_pair", tests, NULL, NULL);
}
