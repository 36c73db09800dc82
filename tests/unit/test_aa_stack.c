// SPDX-License-Identifier: GPL-2.0
/*
 * test_aa_stack.c - the auto-analysis's stacks: which saved stack is the
 * hit's (by the activation it names, else by its time), through restarts,
 * windows and a history that pushes old ones out; the kernel_stack and
 * tlat_stack records decoded; repeated frames dropped.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "output/text_aa.h"
#include "trace/kstack.h"
#include "unit_aa.h"

/* ---- stacks ----------------------------------------------------------- */

static const u64 stack_old[] = { 0xffffffff81000100ULL, 0xffffffff81000200ULL };
static const u64 stack_later[] = { 0xffffffff81000900ULL };

/* -T 100 -s 100, and -T 100 -s 1000000 */
static const struct fx_engine stock_t100_s100 = { &aa_stock_ops, 0, 100, 100 };
static const struct fx_engine stock_t100_s1000000 = { &aa_stock_ops, 0, 100, 1000000 };

/* the activation expected at E (seq 2), its thread at E+150 crossing 100 us */
static void stack_activation(struct fx *fx)
{
	fx_local_timer(fx, 0, AT(5), true);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 2, HOG_PID, AT(8), US(8));
	fx_local_timer(fx, 0, AT(15), false);
	fx_sched_switch(fx, 0, AT(150), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	fx_sample(fx, TLAT_CTX_THREAD, 0, 2, TLAT_PID, AT(150), US(150));
}

static void assert_hit_stack(const struct aa_result *res)
{
	assert_int_equal(res->nr_frames, 3);
	assert_memory_equal(res->frames, unit_aa_stack_hit, sizeof(unit_aa_stack_hit));
}

/* the CPU's result, and whether it shows the hit's stack or none */
static void expect_stack(struct fx *fx, int cpu, struct aa_result *res, bool shown)
{
	fx_result(fx, cpu, res);
	if (shown)
		assert_hit_stack(res);
	else
		assert_int_equal(res->nr_frames, 0);
}

/* a stack saved: when (us after E), the activation it names (0: none), which */
struct saved {
	int at;
	u32 seq;
	const u64 *ips;
	int nr;
};

#define OLD	stack_old, 2
#define HIT	unit_aa_stack_hit, 3
#define LATER	stack_later, 1

/* stacks saved before and after stack_activation(), and whether its hit shows its own */
struct pick_case {
	struct saved before[2];
	struct saved after[2];
	bool shown;
};

static const struct pick_case picks[] = {
	/* the timerlat tracer: the stack is written after the thread sample */
	{ { { -990, 0, OLD } }, { { 151, 0, HIT }, { 1151, 0, LATER } }, true },
	/* tlat.ko: saved at the timer IRQ, before the hit is known */
	{ { { -992, 1, OLD }, { 8, 2, HIT } }, { { 1008, 3, LATER }, { 2008, 4, LATER } }, true },
	/* only an older stack: none */
	{ { { -990, 0, OLD } }, {}, false },
};

static void test_stack_pick(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	for (size_t i = 0; i < UNIT_ARRAY_SIZE(picks); i++) {
		const struct pick_case *c = &picks[i];

		if (i)
			fx_reopen(fx);
		for (int k = 0; k < 2 && c->before[k].ips; k++)
			fx_stack(fx, 0, AT(c->before[k].at), c->before[k].seq, c->before[k].ips,
				 c->before[k].nr);
		stack_activation(fx);
		for (int k = 0; k < 2 && c->after[k].ips; k++)
			fx_stack(fx, 0, AT(c->after[k].at), c->after[k].seq, c->after[k].ips,
				 c->after[k].nr);
		expect_stack(fx, 0, &res, c->shown);
		if (c->shown)
			assert_true(res.complete);
	}
	/*
	 * The hit's own stack lost: the next activation's (expected at E+1000,
	 * its IRQ at E+1003) is not its, whichever comes first, sample or stack.
	 */
	fx_reopen(fx);
	stack_activation(fx);
	fx_stack(fx, 0, AT(1003), 0, LATER);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 3, 0, AT(1003), US(3));
	fx_stack(fx, 0, AT(2003), 0, LATER);
	expect_stack(fx, 0, &res, false);
}

/*
 * The tracepoint source on a CPU's first activation: the stack trigger on
 * hrtimer_expire_entry writes the stack at the expiry, the samples come at
 * the thread's marker, and no event was kept on that CPU yet. The stack is
 * the hit's all the same (it was printed without: "verify -s/--stack" of
 * upstream rtla's tests failed now and then on the host).
 */
static void test_stack_first_activation(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = fx_config(0, 10, &aa_stock_ops);
	struct aa_result res;

	cfg.stack_threshold_ns = US(3);		/* -s 3 -T 10 */
	fx_open(fx, &aa_stock_ops, &cfg);
	fx_stack(fx, 1, AT(8), 0, HIT);
	fx_sample(fx, TLAT_CTX_IRQ, 1, 0, 0, AT(8), US(8));
	fx_sample(fx, TLAT_CTX_THREAD, 1, 0, TLAT_PID, AT(40), US(40));
	fx_sample(fx, TLAT_CTX_USER, 1, 0, TLAT_PID, AT(45), US(45));
	expect_stack(fx, 1, &res, true);
	assert_int_equal(res.thread_latency_ns, US(40));
	assert_false(res.complete);	/* nothing kept: the analysis has only the samples */
	fx_close(fx);

	/* below -s: none, events or not */
	cfg.stack_threshold_ns = US(50);
	fx_open(fx, &aa_stock_ops, &cfg);
	fx_stack(fx, 1, AT(8), 0, HIT);
	fx_sample(fx, TLAT_CTX_IRQ, 1, 0, 0, AT(8), US(8));
	fx_sample(fx, TLAT_CTX_THREAD, 1, 0, TLAT_PID, AT(40), US(40));
	expect_stack(fx, 1, &res, false);
}

/*
 * tlat.ko's cold activation seq, whose thread crosses 100 us: its IRQ
 * sample (42 us of IRQ latency) implies the expiry E-12, late by the stack's
 * saving. Its timer IRQ is kept: the result is complete but for stacks.
 */
static void cold_activation(struct fx *fx, int cpu, u32 seq)
{
	fx_local_timer(fx, cpu, AT(5), true);
	fx_local_timer(fx, cpu, AT(15), false);
	fx_sample(fx, TLAT_CTX_IRQ, cpu, seq, 0, AT(30), US(42));
	fx_sample(fx, TLAT_CTX_THREAD, cpu, seq, TLAT_PID, AT(300), US(300));
}

/*
 * On CPU 1, a stack of activation seq written at at us, then cold
 * activation 2: whether its hit shows that stack
 */
static void expect_cold_hit(struct fx *fx, int at, u32 seq, bool shown)
{
	struct aa_result res;

	fx_stack(fx, 1, AT(at), seq, HIT);
	cold_activation(fx, 1, 2);
	expect_stack(fx, 1, &res, shown);
}

/* stacks of cold activation 2's CPU saved at -20 us, and whether it shows each */
static const struct {
	u32 seq;
	bool shown;
} cold_hits[] = {
	/* the hit's seq: its stack, however long its saving took (and at -5000 us below) */
	{ 2, true },
	/* another activation's seq, at the same time: not the hit's */
	{ 1, false }, { 3, false },
	/* no seq: by time, and the time is before the expiry */
	{ 0, false },
};

/*
 * tlat.ko samples the time, saves the stack, then writes stack and IRQ
 * sample: the expiry derived from the sample's time (less its latency) is
 * late by that work, and on a cold first activation under TCG the stack
 * seemed older than the expiry (42 us of IRQ latency, CI r19; 5 ms of stack
 * saving). Its stack names its activation: that, not its time, makes it the
 * hit's. A stack that does not name one is placed by its time.
 */
static void test_stack_before_derived_expiry(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	for (size_t i = 0; i < UNIT_ARRAY_SIZE(cold_hits); i++) {
		expect_cold_hit(fx, -20, cold_hits[i].seq, cold_hits[i].shown);
		fx_reopen(fx);
	}
	expect_cold_hit(fx, -5000, 2, true);

	/* after the activation before, its stack and samples: still the hit's own */
	fx_reopen(fx);
	fx_stack(fx, 1, AT(-1020), 1, OLD);
	fx_sample(fx, TLAT_CTX_IRQ, 1, 1, 0, AT(-995), US(5));
	fx_sample(fx, TLAT_CTX_THREAD, 1, 1, TLAT_PID, AT(-990), US(10));
	expect_cold_hit(fx, -20, 2, true);

	/* another activation's seq after the expiry, as by time the hit's would be: not it */
	fx_reopen(fx);
	fx_stack(fx, 1, AT(10), 3, LATER);
	cold_activation(fx, 1, 2);
	expect_stack(fx, 1, &res, false);
}

/*
 * tlat.ko restarts a CPU's thread after a hotplug, and its activations count
 * from 1 again: a stack of the old count is not the stack of the new
 * activation of the same number. The new activation's own stack, saved just
 * before the sample that shows the restart, still is.
 */
static void test_stack_after_restart(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	/* the old thread's activations 1 to 3, with stacks at 2 and 3 */
	for (int with_own = 0; with_own < 2; with_own++) {
		if (with_own)
			fx_reopen(fx);
		for (u32 seq = 1; seq <= 3; seq++) {
			int at = -5000 + (int)seq * 1000;

			if (seq > 1)
				fx_stack(fx, 1, AT(at - 20), seq, OLD);
			fx_sample(fx, TLAT_CTX_IRQ, 1, seq, 0, AT(at + 5), US(5));
			fx_sample(fx, TLAT_CTX_THREAD, 1, seq, TLAT_PID, AT(at + 10), US(10));
		}
		/* the new thread: activation 1 quiet, then 2, the hit */
		fx_sample(fx, TLAT_CTX_IRQ, 1, 1, 0, AT(-995), US(5));
		fx_sample(fx, TLAT_CTX_THREAD, 1, 1, TLAT_PID, AT(-990), US(10));
		if (with_own)
			fx_stack(fx, 1, AT(-20), 2, HIT);
		cold_activation(fx, 1, 2);
		expect_stack(fx, 1, &res, with_own);
	}
}

/* more stacks than the analysis keeps before a hit */
#define MANY_STACKS	40

/*
 * The stacks kept are bounded: one pushed out before the hit was known
 * makes its result incomplete only if it may have been the hit's, by seq
 * where the source names it, else by time.
 */
static void test_stack_pushed_out(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;
	const u32 hit = MANY_STACKS + 1;

	/* the stacks of the activations before the hit's: none of them was its */
	for (u32 seq = 1; seq < hit; seq++)
		fx_stack(fx, 0, AT(-2000) + seq, seq, OLD);
	fx_stack(fx, 0, AT(-20), hit, HIT);
	cold_activation(fx, 0, hit);
	expect_stack(fx, 0, &res, true);
	assert_true(res.complete);

	/* the hit's pushed out by later ones before its samples came: lost */
	fx_reopen(fx);
	fx_stack(fx, 0, AT(-20), 2, HIT);
	for (u32 seq = 3; seq < 3 + MANY_STACKS; seq++)
		fx_stack(fx, 0, AT(-19) + seq, seq, LATER);
	cold_activation(fx, 0, 2);
	expect_stack(fx, 0, &res, false);
	assert_false(res.complete);
}

/*
 * The measured window (after --warm-up) starts between the activation's IRQ
 * and its thread sample: the hit is the thread's, explained with its IRQ.
 * A crossing before the window (the warm-up) is no hit.
 */
static void test_window(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	aa_set_window(fx->aa, AT(100), 0);
	stack_activation(fx);
	fx_result(fx, 0, &res);
	assert_int_equal(res.irq_latency_ns, US(8));
	assert_int_equal(res.total_ns, US(150));

	fx_reopen(fx);
	aa_set_window(fx->aa, AT(200), 0);
	stack_activation(fx);
	assert_false(aa_result(fx->aa, 0, &res));

	/*
	 * -d ran out between its IRQ and its thread: the activation counts
	 * whole (the pipeline counts its thread sample), so its thread is the hit
	 */
	fx_reopen(fx);
	aa_set_window(fx->aa, AT(0), AT(100));
	stack_activation(fx);
	fx_result(fx, 0, &res);
	assert_int_equal(res.total_ns, US(150));

	/*
	 * Its IRQ sample never came (the timerlat tracer's first activation,
	 * tracing turned on after its expiry): the thread over -T is the hit
	 * all the same, its blocker the task switched out for it, partial
	 */
	fx_reopen(fx);
	aa_set_window(fx->aa, AT(0), 0);
	fx_local_timer(fx, 0, AT(5), true);
	fx_local_timer(fx, 0, AT(15), false);
	fx_sched_switch(fx, 0, AT(150), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	fx_sample(fx, TLAT_CTX_THREAD, 0, 2, TLAT_PID, AT(150), US(150));
	fx_result(fx, 0, &res);
	assert_int_equal(res.total_ns, US(150));
	assert_int_equal(res.blocking_pid, HOG_PID);
	assert_false(res.complete);
	assert_true(res.blocking_ns > 0);

	/* below -T, no IRQ sample: nothing */
	fx_reopen(fx);
	aa_set_window(fx->aa, AT(0), 0);
	fx_sched_switch(fx, 0, AT(50), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	fx_sample(fx, TLAT_CTX_THREAD, 0, 2, TLAT_PID, AT(50), US(50));
	assert_false(aa_result(fx->aa, 0, &res));

	/* both past -d: no hit */
	fx_reopen(fx);
	aa_set_window(fx->aa, AT(0), AT(7));
	stack_activation(fx);
	assert_false(aa_result(fx->aa, 0, &res));
}

/* below -s, no stack is shown even when the source saved one */
static void test_stack_below_threshold(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	fx_stack(fx, 0, AT(8), 2, unit_aa_stack_hit, 3);
	stack_activation(fx);
	fx_result(fx, 0, &res);
	assert_int_equal(res.nr_frames, 0);
}

static void test_stack_drop_repeats(void **state)
{
	u64 a[] = { 1, 2, 3, 2, 3, 4 };		/* {A,B,C,B,C,D} */
	u64 b[] = { 1, 1, 2 };			/* {A,A,B} */
	u64 c[] = { 1, 2, 3 };			/* nothing repeats */
	const u64 a_want[] = { 1, 2, 3, 4 };
	const u64 b_want[] = { 1, 2 };

	(void)state;
	assert_int_equal(kstack_drop_repeats(a, 6), 4);
	assert_memory_equal(a, a_want, sizeof(a_want));
	assert_int_equal(kstack_drop_repeats(b, 3), 2);
	assert_memory_equal(b, b_want, sizeof(b_want));
	assert_int_equal(kstack_drop_repeats(c, 3), 3);
	assert_int_equal(kstack_drop_repeats(c, 0), 0);
}

/* a kernel_stack record: size at size_off, nr_ips entries at 16 */
static int stack_record(unsigned char *data, int size_off, int size, const u64 *ips, int nr_ips)
{
	uint16_t type = KERNEL_STACK_ID;

	memcpy(data, &type, 2);
	fx_put32(data, size_off, size);
	memcpy(data + 16, ips, nr_ips * sizeof(*ips));
	return 16 + nr_ips * sizeof(*ips);
}

/* a tep of ftrace:kernel_stack in a format, and its decoder of size and caller[] */
static struct tep_handle *kstack_tep(const char *format, struct kstack_event *ks)
{
	struct tep_handle *tep = unit_tep((const struct unit_format[]){ { "ftrace", format }, {} });

	assert_int_equal(kstack_event_init(ks, tep, "ftrace", "kernel_stack", "size", "caller"),
			 0);
	return tep;
}

static void test_stack_decode_61rt(void **state)
{
	/* 3 real frames, then the 8 slots 6.1 reserves and never fills */
	static const u64 ips[] = {
		0xffffffff81000010ULL, 0xffffffff81000020ULL, 0xffffffff81000030ULL,
		0xe52e00000000ULL, 0xe52e00000001ULL, 0x1ULL, 0x2ULL,
		0xdeadbeefULL, 0xffff888000000000ULL, 0x3ULL, 0x4ULL,
	};
	struct kstack_event ks;
	struct tep_handle *tep = kstack_tep(unit_aa_kernel_stack_61rt, &ks);
	unsigned char data[256] = { 0 };
	struct tep_record record = { .cpu = 0, .ts = 1, .data = data };
	u64 out[TLAT_STACK_MAX_FRAMES];

	(void)state;
	record.size = stack_record(data, 12, 3, ips, 11);
	assert_int_equal(kstack_decode(&ks, tep_find_event(tep, KERNEL_STACK_ID), &record,
				       out, TLAT_STACK_MAX_FRAMES), 3);
	assert_memory_equal(out, ips, 3 * sizeof(u64));
	tep_free(tep);
}

struct stack_sink {
	struct tlat_sink sink;
	int calls;
	int cpu;
	u64 ts;
	u32 seq;
	int nr;
	u64 ips[TLAT_STACK_MAX_FRAMES];
};

static void sink_stack(struct tlat_sink *sink, const struct tlat_stack *stack)
{
	struct stack_sink *s = (struct stack_sink *)sink;

	s->calls++;
	s->cpu = stack->cpu;
	s->ts = stack->ts_ns;
	s->seq = stack->seq;
	s->nr = stack->nr;
	memcpy(s->ips, stack->ips, stack->nr * sizeof(*stack->ips));
}

/* the sink got one stack: this one */
static void expect_forwarded(const struct stack_sink *s, int cpu, u64 ts, u32 seq, const u64 *ips,
			     int nr)
{
	assert_int_equal(s->calls, 1);
	assert_int_equal(s->cpu, cpu);
	assert_int_equal(s->ts, ts);
	assert_int_equal(s->seq, seq);
	assert_int_equal(s->nr, nr);
	assert_memory_equal(s->ips, ips, nr * sizeof(*ips));
}

/* tlat.ko's tlat_stack: a count and a __data_loc array (no element size) */
static const char tlat_stack_format[] =
	"name: tlat_stack\nID: 1500\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned int seqnum;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int nr;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc unsigned long[] ips;\toffset:16;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"#%u nr %u\", REC->seqnum, REC->nr\n";

static const struct unit_format tlat_stack_formats[] = {
	{ "tlat", tlat_stack_format }, { NULL, NULL },
};

static void test_stack_decode_module(void **state)
{
	static const u64 three[] = { 31, 32, 33 };
	struct tep_handle *tep = unit_tep(tlat_stack_formats);
	struct tep_event *event = tep_find_event(tep, 1500);
	unsigned char data[64] = { 0 };
	struct tep_record record = { .cpu = 1, .ts = 5, .data = data, .size = 20 + 24 };
	u32 loc = 20 | (24 << 16);	/* the array at offset 20, 24 bytes long */
	u32 nr = 3, seq = 7;
	u64 out[TLAT_STACK_MAX_FRAMES];
	struct stack_sink sink = { .sink.stack = sink_stack };
	struct kstack_event ks;

	(void)state;
	memcpy(data, &(unsigned short){ 1500 }, 2);
	memcpy(data + 12, &nr, 4);
	memcpy(data + 16, &loc, 4);
	memcpy(data + 20, three, sizeof(three));
	assert_int_equal(kstack_event_init(&ks, tep, "tlat", "tlat_stack", "nr", "ips"), 0);
	assert_int_equal(kstack_decode(&ks, event, &record, out, TLAT_STACK_MAX_FRAMES), 3);
	assert_memory_equal(out, three, sizeof(three));

	/* forwarded with its activation's seqnum */
	memcpy(data + 8, &seq, 4);
	kstack_forward(&ks, event, &record, &sink.sink);
	expect_forwarded(&sink, 1, 5, 7, three, 3);
	tep_free(tep);
}

static void test_stack_decode_612(void **state)
{
	static const u64 five[] = { 11, 12, 13, 14, 15 };
	static const u64 ended[] = { 21, 22, ULONG_MAX, 23 };
	static const u64 repeats[] = { 1, 2, 3, 2, 3, 4 };
	static const u64 no_repeats[] = { 1, 2, 3, 4 };
	struct kstack_event ks;
	struct tep_handle *tep = kstack_tep(unit_aa_kernel_stack_612, &ks);
	struct tep_event *event = tep_find_event(tep, KERNEL_STACK_ID);
	unsigned char data[256] = { 0 };
	struct tep_record record = { .cpu = 2, .ts = 777, .data = data };
	struct stack_sink sink = { .sink.stack = sink_stack };
	u64 out[TLAT_STACK_MAX_FRAMES];

	(void)state;
	/* the record ends with the last frame: 16 + 5 * 8 bytes */
	record.size = stack_record(data, 8, 5, five, 5);
	assert_int_equal(kstack_decode(&ks, event, &record, out, TLAT_STACK_MAX_FRAMES), 5);
	assert_memory_equal(out, five, sizeof(five));
	/* max bounds it */
	assert_int_equal(kstack_decode(&ks, event, &record, out, 2), 2);
	/* a size beyond the record is bounded by the record */
	record.size = stack_record(data, 8, 10, five, 5);
	assert_int_equal(kstack_decode(&ks, event, &record, out, TLAT_STACK_MAX_FRAMES), 5);
	/* ULONG_MAX ends the stack, as in trace_stack_print() */
	record.size = stack_record(data, 8, 4, ended, 4);
	assert_int_equal(kstack_decode(&ks, event, &record, out, TLAT_STACK_MAX_FRAMES), 2);
	assert_memory_equal(out, ended, 2 * sizeof(u64));

	/* forwarded without repeats, with the record's CPU and time */
	record.size = stack_record(data, 8, 6, repeats, 6);
	kstack_forward(&ks, event, &record, &sink.sink);
	/* kernel_stack does not name its activation: seq 0 */
	expect_forwarded(&sink, 2, 777, 0, no_repeats, 4);
	tep_free(tep);
}

UNIT_MAIN("aa_stack",
	AA_TEST(test_stack_pick, stock_t100_s100),
	FX_TEST(test_stack_first_activation),
	AA_TEST(test_stack_before_derived_expiry, stock_t100_s100),
	AA_TEST(test_stack_after_restart, stock_t100_s100),
	AA_TEST(test_stack_pushed_out, stock_t100_s100),
	AA_TEST(test_stack_below_threshold, stock_t100_s1000000),
	AA_TEST(test_window, stock_t100),
	cmocka_unit_test(test_stack_drop_repeats),
	cmocka_unit_test(test_stack_decode_61rt),
	cmocka_unit_test(test_stack_decode_612),
	cmocka_unit_test(test_stack_decode_module),
)
