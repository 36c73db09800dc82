// SPDX-License-Identifier: GPL-2.0
/*
 * test_tp_pair.c - the activation state machine of the tracepoint source,
 * fed with synthetic event streams: what a clean activation emits, and that
 * an activation missing an event is dropped, never completed with the
 * events of another one. Most cases are streams written as script lines
 * (play()), each an event on a CPU's buffer or a check of what came out.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/tracepoints/tp_pair.h"
#include "unit_helpers.h"

#define NR_CPUS		4
#define NO_THREAD_CPU	2	/* a CPU without a measuring thread */
#define UNKNOWN_TID	4242
#define MAX_SAMPLES	1024

#define TID(cpu)	(1000 + (cpu))
#define TIMER(cpu)	(0xffff888000001000ULL + 0x100ULL * (cpu))

/* ring-buffer timestamps trail the clock read in the event a little */
#define TS_DELAY	5

struct fixture {
	const void *c;			/* the test's case: *state before the setup */
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
	f->c = *state;
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

/* the thread of cpu arms its timer for expires, as it asked for requested (slack) */
static void arm(struct fixture *f, int cpu, u64 expires, u64 requested)
{
	tp_timer_start(f->p, cpu, TID(cpu), false, TIMER(cpu), expires, requested);
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
	arm(f, cpu, expires, expires);
	expire(f, cpu, expires + irq);
	thread_runs(f, cpu, expires + thread);
	user_return(f, cpu, expires, expires + user);
}

/* sample i is the one what says, or the test fails saying what it is */
static void check_sample(const struct fixture *f, const char *what, int i, int cpu, u32 seq,
			 enum tlat_ctx ctx, u64 latency, u64 ts)
{
	const struct tlat_sample *s = &f->s[i];

	if (i >= f->n)
		fail_msg("%s: %d samples only", what, f->n);
	if (s->cpu != cpu || s->seq != seq || s->ctx != ctx || s->latency_ns != latency ||
	    s->ts_ns != ts)
		fail_msg("%s: sample %d is CPU %d, seq %u, context %d, %llu ns at %llu", what, i,
			 s->cpu, s->seq, s->ctx, (unsigned long long)s->latency_ns,
			 (unsigned long long)s->ts_ns);
}

/* samples i, i+1, i+2 are the IRQ, thread and user samples of one activation */
static void check_latencies(const struct fixture *f, const char *what, int i, int cpu, u64 irq,
			    u64 thread, u64 user)
{
	const u64 want[TLAT_NR_CTX] = { irq, thread, user };

	if (i + 2 >= f->n)
		fail_msg("%s: %d samples only", what, f->n);
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
		check_sample(f, what, i + ctx, cpu, f->s[i].seq, ctx, want[ctx],
			     f->s[i + ctx].ts_ns);
}

/* a number of the fixture is the one what says */
static void check_count(const char *what, const char *of, long long got, long long want)
{
	if (got != want)
		fail_msg("%s: %lld %s, not %lld", what, got, of, want);
}

/* up to max numbers of text, returned in v; how many */
static int numbers(const char *text, long long *v, int max)
{
	int n = 0;

	for (char *end; n < max; text = end) {
		v[n] = strtoll(text, &end, 0);
		if (end == text)
			break;
		n++;
	}
	return n;
}

/*
 * One line of a stream, an event on a CPU's buffer:
 *   "C: arm EXPIRES [REQUESTED]"	C's thread arms its timer (requested: with slack)
 *   "C: expire NOW"			C's timer fires, its ring-buffer stamp TS_DELAY later
 *   "C: runs TS"			C's thread runs
 *   "C: return REQUESTED NOW"		C's thread's marker, stamped TS_DELAY later
 *   "C: activation EXPIRES IRQ THREAD USER"	all four, latencies from EXPIRES
 *   "C: lost"				the kernel lost events on C's buffer
 * or a check of the samples (in the order they came) and of the drops:
 *   "samples N", "dropped N", "latencies I CPU IRQ THREAD USER" (check_latencies()),
 *   "sample I CPU SEQ CTX LATENCY TS" (CTX irq, thread or user), "seq I SEQ",
 *   "ts I TS", "later I J" (sample I's activation is numbered after sample J's)
 */
static void play_line(struct fixture *f, const char *line)
{
	static const char *const ctx[] = { "irq", "thread", "user" };
	char verb[16], name[8];
	long long v[6];
	int cpu = 0, at = 0, n = 0;

	if (sscanf(line, "%d: %15s %n", &cpu, verb, &at) == 2 ||
	    sscanf(line, "%15s %n", verb, &at) == 1)
		n = numbers(line + at, v, 6);
	else
		fail_msg("not a line of a stream: '%s'", line);
	if (!strcmp(verb, "arm") && (n == 1 || n == 2))
		arm(f, cpu, v[0], v[n - 1]);
	else if (!strcmp(verb, "expire") && n == 1)
		expire(f, cpu, v[0]);
	else if (!strcmp(verb, "runs") && n == 1)
		thread_runs(f, cpu, v[0]);
	else if (!strcmp(verb, "return") && n == 2)
		user_return(f, cpu, v[0], v[1]);
	else if (!strcmp(verb, "activation") && n == 4)
		activation(f, cpu, v[0], v[1], v[2], v[3]);
	else if (!strcmp(verb, "lost") && n == 0)
		tp_events_lost(f->p, cpu);
	else if (!strcmp(verb, "samples") && n == 1)
		check_count(line, "samples", f->n, v[0]);
	else if (!strcmp(verb, "dropped") && n == 1)
		check_count(line, "dropped", tp_dropped(f->p), v[0]);
	else if (!strcmp(verb, "latencies") && n == 5)
		check_latencies(f, line, v[0], v[1], v[2], v[3], v[4]);
	else if (!strcmp(verb, "seq") && n == 2 && v[0] < f->n)
		check_count(line, "its seq", f->s[v[0]].seq, v[1]);
	else if (!strcmp(verb, "ts") && n == 2 && v[0] < f->n)
		check_count(line, "its stamp", f->s[v[0]].ts_ns, v[1]);
	else if (!strcmp(verb, "later") && n == 2 && v[0] < f->n && v[1] < f->n)
		check_count(line, "later", f->s[v[0]].seq > f->s[v[1]].seq, 1);
	else if (!strcmp(verb, "sample") && sscanf(line + at, "%lld %lld %lld %7s %lld %lld", &v[0],
						   &v[1], &v[2], name, &v[3], &v[4]) == 6) {
		for (n = 0; n < TLAT_NR_CTX && strcmp(name, ctx[n]); n++)
			;
		assert_true(n < TLAT_NR_CTX);
		check_sample(f, line, v[0], v[1], v[2], n, v[3], v[4]);
	} else {
		fail_msg("not a line of a stream: '%s'", line);
	}
}

/* the lines of a stream, up to a NULL one; a failed check says which line */
static void play(struct fixture *f, const char *const *lines)
{
	for (; *lines; lines++)
		play_line(f, *lines);
}

#define PLAY(f, ...)	play(f, (const char *const[]){ __VA_ARGS__, NULL })

/* a test that is a stream alone */
struct stream {
	const char *lines[20];
};

static void test_stream(void **state)
{
	struct fixture *f = *state;

	play(f, ((const struct stream *)f->c)->lines);
}

/* the stamps of expire and return are TS_DELAY (5 ns) after their clocks */
static const struct stream clean_activation = { {
	"1: arm 10000", "1: expire 10300",
	"samples 0",
	"1: runs 11000",
	"samples 0",
	"1: return 10000 12500",
	"samples 3", "sample 0 1 0 irq 300 10305", "sample 1 1 0 thread 1000 11000",
	"sample 2 1 0 user 2500 12505", "dropped 0",
} };

/* latencies count from the programmed expiry; the marker carries the requested time */
static const struct stream timer_slack = { {
	"1: arm 10050 10000", "1: expire 10100", "1: runs 10200", "1: return 10000 10300",
	"samples 3", "latencies 0 1 50 150 250",
} };

/* each CPU pairs its own activations, with its own sequence numbers */
static const struct stream cpus_interleaved = { {
	"3: activation 5000 1 2 3", "0: arm 10000", "3: arm 10000", "3: expire 10030",
	"0: expire 10010", "0: runs 10020", "3: runs 10040", "3: return 10000 10050",
	"0: return 10000 10060",
	"samples 9", "latencies 3 3 30 40 50", "seq 3 1", "latencies 6 0 10 20 60",
	"seq 6 0", "dropped 0",
} };

/* the thread was preempted after arming its timer: that switch-in is not its wakeup */
static const struct stream switch_before_expiry_ignored = { {
	"1: arm 10000", "1: runs 9500", "1: expire 10100", "1: runs 10700",
	"1: return 10000 11000",
	"samples 3", "latencies 0 1 100 700 1000", "dropped 0",
} };

/* the switch-in and the syscall return both say "runs": the first one counts */
static const struct stream thread_runs_taken_once = { {
	"1: arm 10000", "1: expire 10100", "1: runs 10400", "1: runs 10900",
	"1: runs 10950", "1: return 10000 11000",
	"samples 3", "latencies 0 1 100 400 1000", "ts 1 10400",
} };

/* a second expiry event for the same timer does not overwrite the first */
static const struct stream expire_taken_once = { {
	"1: arm 10000", "1: expire 10100", "1: expire 10600", "1: runs 10800",
	"1: return 10000 11000",
	"samples 3", "latencies 0 1 100 800 1000",
} };

/* hrtimer_expire_entry was lost: the user return arrives without an IRQ */
static const struct stream lost_expire_dropped = { {
	"1: activation 10000 10 20 30",
	"samples 3",
	"1: arm 20000", "1: runs 21000", "1: return 20000 21500",
	"samples 3", "dropped 1",
	/* the next activation pairs as if nothing happened */
	"1: activation 30000 40 50 60",
	"samples 6", "latencies 3 1 40 50 60", "later 3 0", "dropped 1",
} };

/* the thread-runs event was lost */
static const struct stream lost_thread_event_dropped = { {
	"1: arm 10000", "1: expire 10100", "1: return 10000 10500",
	"samples 0", "dropped 1",
	"1: activation 20000 1 2 3",
	"samples 3", "latencies 0 1 1 2 3",
} };

/* the marker is from another activation than the armed one */
static const struct stream marker_mismatch_dropped = { {
	"1: arm 10000", "1: expire 10100", "1: runs 10200", "1: return 9000 10300",
	"samples 0", "dropped 1",
	/* the activation is gone: its own marker, late, is not paired nor counted again */
	"1: return 10000 10400",
	"samples 0", "dropped 1",
	"1: activation 20000 1 2 3",
	"samples 3",
} };

/* the hrtimer_start of the next activation arrives before the marker of the last */
static const struct stream rearm_drops_unfinished = { {
	"1: arm 10000", "1: expire 10100", "1: arm 20000",
	"dropped 1",
	"1: runs 10200",		/* before the new expiry: not its wakeup */
	"1: expire 20100", "1: runs 20300", "1: return 20000 20400",
	"samples 3", "latencies 0 1 100 300 400", "dropped 1",
} };

static const struct stream events_lost_mid_activation = { {
	"1: arm 10000", "1: expire 10100", "1: lost",
	"dropped 1",
	"1: runs 10200", "1: return 10000 10300",
	"samples 0", "dropped 1",
	"1: activation 20000 1 2 3",
	"samples 3", "latencies 0 1 1 2 3",
} };

/* losses on another CPU, or with nothing in flight, drop nothing */
static const struct stream events_lost_elsewhere = { {
	"1: lost", "-1: lost",
	"4: lost",			/* NR_CPUS */
	"dropped 0",
	"1: arm 10000", "1: expire 10100", "0: lost", "1: runs 10200",
	"1: return 10000 10300",
	"samples 3", "dropped 0",
} };

/* tracing started while the thread slept: its marker has no armed activation */
static const struct stream marker_without_activation = { {
	"1: expire 10100", "1: runs 10200", "1: return 10000 10300",
	"samples 0", "dropped 0",
	/* the first activation seen whole is paired */
	"1: activation 20000 1 2 3",
	"samples 3", "seq 0 0", "dropped 0",
} };

static void test_seq_counts_up(void **state)
{
	struct fixture *f = *state;

	for (int i = 0; i < 3; i++)
		activation(f, 0, 1000000 * (i + 1), 100 + i, 200 + i, 300 + i);
	check_count("3 activations", "samples", f->n, 9);
	for (int i = 0; i < 3; i++) {
		check_latencies(f, "an activation", 3 * i, 0, 100 + i, 200 + i, 300 + i);
		check_count("an activation", "its seq", f->s[3 * i].seq, i);
	}
	check_count("3 activations", "dropped", tp_dropped(f->p), 0);
}

/* the kernel moved the timer: it expires in another CPU's buffer */
static void test_expire_on_other_cpu(void **state)
{
	struct fixture *f = *state;

	PLAY(f, "1: arm 10000", "3: arm 10000");
	tp_timer_expire(f->p, 3, TIMER(1), 10200, 10205, 0);
	/* CPU 3's activation is still waiting for its own expiry */
	PLAY(f, "3: runs 10300", "3: return 10000 10400", "samples 0", "dropped 1",
	     "1: runs 10500", "1: return 10000 10600", "samples 3", "latencies 0 1 200 500 600",
	     "ts 0 10205");
}

/* the thread's switch-in recorded in another CPU's buffer is still its own */
static void test_thread_runs_on_other_cpu(void **state)
{
	struct fixture *f = *state;

	PLAY(f, "1: arm 10000", "1: expire 10100");
	tp_thread_runs(f->p, 0, TID(1), 10200);
	PLAY(f, "1: return 10000 10300", "samples 3", "latencies 0 1 100 200 300");
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

	PLAY(f, "1: arm 10000");
	tp_timer_start(f->p, 1, TID(1), true, TICK_TIMER, 14000, 14000);
	PLAY(f, "1: expire 10100", "1: runs 10200");
	tp_timer_expire(f->p, 1, TICK_TIMER, 10250, 10250, TID(1));
	tp_timer_start(f->p, 1, TID(1), true, TICK_TIMER, 15000, 15000);
	PLAY(f, "1: return 10000 10300", "samples 3", "latencies 0 1 100 200 300",
	     "1: activation 11000 10 20 30", "samples 6", "dropped 0");
}

static void test_unknown_tid_ignored(void **state)
{
	struct fixture *f = *state;

	/* a timer armed by some other task is not an activation */
	tp_timer_start(f->p, 1, UNKNOWN_TID, false, 0xdead0000, 10000, 10000);
	tp_timer_expire(f->p, 1, 0xdead0000, 10100, 10100, 0);
	tp_thread_runs(f->p, 1, UNKNOWN_TID, 10200);
	PLAY(f, "1: return 10000 10300", "samples 0", "dropped 0");

	/* nor do other tasks' switch-ins count as the thread's wakeup */
	PLAY(f, "1: arm 20000");
	tp_timer_start(f->p, 1, UNKNOWN_TID, false, TIMER(3), 20000, 20000);
	PLAY(f, "1: expire 20100");
	tp_thread_runs(f->p, 1, UNKNOWN_TID, 20150);
	tp_thread_runs(f->p, 1, 0, 20160);	/* the idle task */
	PLAY(f, "1: runs 20200", "1: return 20000 20300", "samples 3",
	     "latencies 0 1 100 200 300", "dropped 0");
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
	PLAY(f, "samples 0", "dropped 0");
}

static void test_out_of_range_cpu(void **state)
{
	struct fixture *f = *state;

	tp_pairing_set_thread(f->p, -1, 77);
	tp_pairing_set_thread(f->p, NR_CPUS, 77);
	tp_timer_start(f->p, NR_CPUS, 77, false, 0x77, 10000, 10000);
	/* CPU 4 is NR_CPUS */
	PLAY(f, "-1: return 10000 10300", "4: return 10000 10300", "samples 0",
	     /* and the CPUs in range still work */
	     "3: activation 20000 1 2 3", "samples 3");
}

/* clock and trace timestamps may read before the expiry: latencies clamp at 0 */
static void test_latencies_clamped(void **state)
{
	struct fixture *f = *state;

	PLAY(f, "1: arm 10000");
	tp_timer_expire(f->p, 1, TIMER(1), 9990, 9995, 0);
	PLAY(f, "1: runs 9999", "1: return 10000 9000", "samples 3", "latencies 0 1 0 0 0",
	     /* exactly on time is 0 as well */
	     "1: activation 20000 0 0 0", "samples 6", "latencies 3 1 0 0 0");
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
	PLAY(f, "samples 300", "dropped 0");
	for (int i = 0; i < f->n; i += 3) {
		assert_true(f->s[i].latency_ns <= f->s[i + 1].latency_ns);
		assert_true(f->s[i + 1].latency_ns <= f->s[i + 2].latency_ns);
		assert_int_equal(f->s[i].seq, i / 6);
	}
}

#define PAIR_TEST(fn)	cmocka_unit_test_setup_teardown(fn, setup, teardown)
#define STREAM(name)	UNIT_CASE("test_" #name, test_stream, setup, teardown, &name)

UNIT_MAIN("tp_pair",
	STREAM(clean_activation),
	PAIR_TEST(test_seq_counts_up),
	STREAM(timer_slack),
	STREAM(cpus_interleaved),
	STREAM(switch_before_expiry_ignored),
	STREAM(thread_runs_taken_once),
	STREAM(expire_taken_once),
	PAIR_TEST(test_expire_on_other_cpu),
	PAIR_TEST(test_thread_runs_on_other_cpu),
	STREAM(lost_expire_dropped),
	STREAM(lost_thread_event_dropped),
	STREAM(marker_mismatch_dropped),
	PAIR_TEST(test_interrupt_start_not_the_thread),
	STREAM(rearm_drops_unfinished),
	STREAM(events_lost_mid_activation),
	STREAM(events_lost_elsewhere),
	STREAM(marker_without_activation),
	PAIR_TEST(test_unknown_tid_ignored),
	PAIR_TEST(test_cpu_without_thread),
	PAIR_TEST(test_out_of_range_cpu),
	PAIR_TEST(test_latencies_clamped),
	PAIR_TEST(test_normal_stream_ordered),
)
