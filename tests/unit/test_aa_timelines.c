// SPDX-License-Identifier: GPL-2.0
/*
 * test_aa_timelines.c - more timelines through the auto-analysis, each
 * worked out by hand in its comment: thread interference, user-return hits,
 * windows that start inside a softirq, NMIs in the timer IRQ, lost and
 * overwritten events, idle exits at IRQ stops, the osnoise adapter's late
 * records; and the adapters' opening and names.
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

/* ---- more timelines ---------------------------------------------------- */

/*
 * Thread interference from switches: the hog is preempted by kworker/0:1
 * (31) at E+1000, which runs 3 us; the hog gets the CPU back for 2 us,
 * then switches to the thread at E+1005; the thread sample comes at
 * E+1010. rtla's rule: the interrupted task's first stretch is the
 * blocking thread, anything after it is thread interference.
 */
static void test_thread_interference_stock(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	fx_sched_switch(fx, 0, AT(-100), "kworker/0:1", 31, "tlat-hog", HOG_PID);
	fx_local_timer(fx, 0, AT(5), true);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
	fx_local_timer(fx, 0, AT(15), false);
	fx_sched_switch(fx, 0, AT(1000), "tlat-hog", HOG_PID, "kworker/0:1", 31);
	fx_sched_switch(fx, 0, AT(1003), "kworker/0:1", 31, "tlat-hog", HOG_PID);
	fx_sched_switch(fx, 0, AT(1005), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(1010), US(1010));

	fx_result(fx, 0, &res);
	assert_int_equal(res.total_ns, US(1010));
	assert_int_equal(res.irq_delay_ns, US(5));
	assert_int_equal(res.timer_irq_ns, US(10));
	assert_blocked_by(&res, HOG_PID, "tlat-hog");
	/* E+5..E+1000 = 995, minus the timer IRQ's 10 */
	assert_int_equal(res.blocking_ns, US(985));
	/* kworker/0:1 E+1000..E+1003, the hog again E+1003..E+1005 */
	assert_int_equal(res.parts[AA_THREAD].sum_ns, US(5));
	assert_int_equal(res.parts[AA_THREAD].nr_lines, 2);
	assert_int_equal(res.parts[AA_THREAD].lines[0].id, 31);
	assert_string_equal(res.parts[AA_THREAD].lines[0].name, "kworker/0:1");
	assert_int_equal(res.parts[AA_THREAD].lines[0].ns, US(3));
	assert_int_equal(res.parts[AA_THREAD].lines[1].id, HOG_PID);
	assert_int_equal(res.parts[AA_THREAD].lines[1].ns, US(2));
	/* 1010 - (5 + 10 + 985 + 3 + 2): the thread's wake-up, E+1005..E+1010 */
	assert_int_equal(res.unexplained_ns, US(5));
}

/*
 * The user-return sample crosses the thread threshold (it is the
 * user-return context's threshold too) while the thread sample did not:
 * the window runs to the user return, and an IRQ between the thread's
 * wake-up and its return to user space is interference.
 */
static void test_user_return_hit(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	fx_stress_timer_irq(fx, 0);
	fx_sched_switch(fx, 0, AT(100), "stress", STRESS_PID, "tlat/0", TLAT_PID);
	fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(100), US(100));
	fx_irq_entry(fx, 0, AT(110), 11, "eth0");
	fx_irq_exit(fx, 0, AT(130), 11);
	fx_sample(fx, TLAT_CTX_USER, 0, 1, TLAT_PID, AT(160), US(160));

	fx_result(fx, 0, &res);
	assert_false(res.irq_stop);
	assert_int_equal(res.total_ns, US(160));
	assert_int_equal(res.thread_latency_ns, US(160));
	assert_int_equal(res.irq_delay_ns, US(5));
	assert_int_equal(res.timer_irq_ns, US(10));
	/* E+5..E+100 = 95, minus the timer IRQ's 10 */
	assert_int_equal(res.blocking_ns, US(85));
	assert_one_line(&res.parts[AA_IRQ], 11, "eth0", US(20));
	/* 160 - (5 + 10 + 85 + 20): the thread's own way back to user space */
	assert_int_equal(res.unexplained_ns, US(40));
}

/* a history of 8 events per CPU wraps many times and still holds the window */
static void test_small_history(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = fx_config(0, 1000, &aa_stock_ops);

	cfg.history = 8;
	fx_open(fx, &aa_stock_ops, &cfg);
	for (int i = 0; i < 50; i++) {
		fx_irq_entry(fx, 0, AT(-2000 + 20 * i), 11, "eth0");
		fx_irq_exit(fx, 0, AT(-2000 + 20 * i + 5), 11);
	}
	fx_expect_hog(fx, false);
	fx_close(fx);
}

/*
 * The osnoise adapter, the timer IRQ interrupting a softirq: NET_RX runs
 * E-10..E+50 with the timer IRQ E+5..E+15 in it, so its softirq_noise
 * says 50 (net), written at E+50. Inside the window: E+5..E+50 = 45,
 * minus the timer IRQ's 10 = 35; the hog runs E+50..E+200 (150).
 */
static void test_osnoise_softirq_across_window_start(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
	fx_irq_noise(fx, 0, AT(15), AT(5), "local_timer", 236, US(10));
	fx_softirq_noise(fx, 0, AT(50), AT(-10), 3, US(50));
	fx_thread_noise(fx, 0, AT(200), AT(50), "tlat-hog", HOG_PID, US(150));
	fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(200), US(200));

	fx_result(fx, 0, &res);
	assert_int_equal(res.irq_delay_ns, US(5));
	assert_int_equal(res.timer_irq_ns, US(10));
	assert_int_equal(res.blocking_ns, US(150));
	assert_one_line(&res.parts[AA_SOFTIRQ], 3, "NET_RX", US(35));
	/* 200 - (5 + 10 + 150 + 35) */
	assert_int_equal(res.unexplained_ns, 0);
}

/*
 * What both adapters make of an NMI E+9..E+14 inside the timer IRQ
 * E+5..E+15 after the IRQ sample (E+8), the thread at E+100
 */
static void expect_nmi_in_timer_irq(struct fx *fx)
{
	struct aa_result res;

	fx_result(fx, 0, &res);
	assert_true(res.timer_irq_seen);
	assert_int_equal(res.irq_delay_ns, US(5));
	/* 10 - the NMI's 5 */
	assert_int_equal(res.timer_irq_ns, US(5));
	assert_int_equal(res.parts[AA_NMI].sum_ns, US(5));
	assert_empty(&res.parts[AA_IRQ]);
	/* E+5..E+100 = 95, minus timer 5 and NMI 5 (E+15..E+100 as osnoise sees it) */
	assert_int_equal(res.blocking_ns, US(85));
	/* 100 - (5 + 5 + 5 + 85) */
	assert_int_equal(res.unexplained_ns, 0);
}

/*
 * The stock adapter, an NMI inside the timer IRQ after the IRQ sample: the
 * timer IRQ E+5..E+15, the sample at E+8, the NMI E+9..E+14. The entry and
 * exit events give the timer IRQ's start, whatever nested in it.
 */
static void test_nmi_in_timer_irq_stock(void **state)
{
	struct fx *fx = *state;

	fx_running(fx, 0, "tlat-hog", HOG_PID);
	fx_local_timer(fx, 0, AT(5), true);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
	fx_nmi(fx, 0, AT(14), 5000);
	fx_local_timer(fx, 0, AT(15), false);
	fx_sched_switch(fx, 0, AT(100), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(100), US(100));

	expect_nmi_in_timer_irq(fx);
}

/* each adapter refuses a tep without its events, and says why */
static void test_adapter_open(void **state)
{
	struct aa_config cfg = fx_config(0, 100, &aa_osnoise_ops);
	struct tep_handle *stock = unit_tep(unit_aa_stock_formats);
	struct tep_handle *osnoise = unit_tep(unit_aa_osnoise_formats);
	struct aa_engine *aa = aa_alloc(&cfg);
	char err[TLAT_ERR_LEN] = "";
	struct aa_adapter *ad = NULL;
	struct aa_task task;
	struct fx fx;

	(void)state;
	assert_non_null(aa);
	assert_int_not_equal(aa_osnoise_ops.open(&ad, stock, aa, false, err), 0);
	assert_non_null(strstr(err, "osnoise"));
	aa_osnoise_ops.close(ad);
	ad = NULL;
	err[0] = '\0';
	assert_int_not_equal(aa_stock_ops.open(&ad, osnoise, aa, false, err), 0);
	assert_true(err[0] != '\0');
	aa_stock_ops.close(ad);

	/* --dump-tasks: the osnoise adapter decodes switches too */
	fx = (struct fx){ .tep = osnoise, .aa = aa, .ops = &aa_osnoise_ops };
	assert_int_equal(aa_osnoise_ops.open(&fx.ad, osnoise, aa, true, err), 0);
	fx_sched_switch(&fx, 1, AT(0), "swapper/1", 0, "kworker/1:1", 7);
	assert_true(aa_current_task(aa, 1, &task));
	assert_int_equal(task.pid, 7);
	assert_string_equal(task.comm, "kworker/1:1");
	assert_int_equal(task.work_func, 0);
	/* the kworker takes a work item: the task does it until it switches out */
	aa_add_work(aa, 1, AT(1), 0xffff888003a1c0e8ULL, 0xffffffff81000050ULL);
	assert_true(aa_current_task(aa, 1, &task));
	assert_int_equal(task.pid, 7);
	assert_int_equal(task.work, 0xffff888003a1c0e8ULL);
	assert_int_equal(task.work_func, 0xffffffff81000050ULL);
	fx_sched_switch(&fx, 1, AT(2), "kworker/1:1", 7, "swapper/1", 0);
	assert_true(aa_current_task(aa, 1, &task));
	assert_int_equal(task.pid, 0);
	assert_int_equal(task.work, 0);
	assert_int_equal(task.work_func, 0);
	aa_osnoise_ops.close(fx.ad);
	aa_free(aa);
	tep_free(osnoise);
	tep_free(stock);
}

/* names as the kernel prints them, cut to fit */
static void test_adapter_names(void **state)
{
	static const char unterminated[4] = { 'e', 't', 'h', '0' };
	char name[AA_NAME_LEN];

	(void)state;
	assert_string_equal(aa_softirq_name(0), "HI");
	assert_string_equal(aa_softirq_name(3), "NET_RX");
	assert_string_equal(aa_softirq_name(9), "RCU");
	assert_string_equal(aa_softirq_name(10), "UNKNOWN");
	aa_copy_name(name, unterminated, sizeof(unterminated));
	assert_string_equal(name, "eth0");
	aa_copy_name(name, "a-very-long-irq-action-name-indeed", 35);
	assert_int_equal(strlen(name), AA_NAME_LEN - 1);
	assert_memory_equal(name, "a-very-long-irq-action-name-indeed", AA_NAME_LEN - 1);
}

/*
 * ---- cases that found bugs in src/ ------------------------------------
 *
 * Each comment says what the right answer is and why; the report that came
 * with this file says where the code goes wrong.
 */

/*
 * The same loss in the tracepoint source's order, where the samples come
 * after the events: the events of the window were lost all the same, so
 * the analysis must say it is partial, as it does in the kernel order.
 */
static void test_lost_events_tracepoint_order(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	fx_running(fx, 0, "stress", STRESS_PID);
	fx_local_timer(fx, 0, AT(5), true);
	fx_local_timer(fx, 0, AT(15), false);
	fx_irq_entry(fx, 0, AT(30), 11, "eth0");
	fx_lost(fx, 0);
	fx_irq_exit(fx, 0, AT(40), 11);
	fx_sched_switch(fx, 0, AT(100), "stress", STRESS_PID, "tlat/0", TLAT_PID);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, STRESS_PID, AT(8), US(8));
	fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(100), US(100));

	fx_result(fx, 0, &res);
	assert_int_equal(res.total_ns, US(100));
	assert_false(res.complete);
}

/*
 * The kernel collector's order with the analysis (events decoded only at a
 * hit): every sample first, then the buffer's events, whose oldest were
 * overwritten. Gone before the window: the explanation is whole, the
 * same as in the tracepoint order; gone into it: partial.
 */
static void deferred_stress(struct fx *fx, int overwritten_from_us)
{
	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, STRESS_PID, AT(8), US(8));
	fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(100), US(100));
	fx->ops->lost(fx->ad, 0);
	aa_overwritten(fx->aa, 0, AT(overwritten_from_us));
	fx_running(fx, 0, "stress", STRESS_PID);
	fx_local_timer(fx, 0, AT(5), true);
	fx_local_timer(fx, 0, AT(15), false);
	fx_sched_switch(fx, 0, AT(100), "stress", STRESS_PID, "tlat/0", TLAT_PID);
}

static void test_deferred_events_overwritten(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = fx_config(0, 50, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	deferred_stress(fx, -100);
	fx_result(fx, 0, &res);
	fx_check_stress_head(&res, 100);
	assert_true(res.timer_irq_seen);
	assert_int_equal(res.timer_irq_ns, US(10));
	assert_int_equal(res.blocking_ns, US(85));
	assert_true(res.complete);
	fx_close(fx);

	fx_open(fx, &aa_stock_ops, &cfg);
	deferred_stress(fx, 5);
	fx_result(fx, 0, &res);
	assert_int_equal(res.total_ns, US(100));
	assert_false(res.complete);
	fx_close(fx);
}

/*
 * An IRQ stop, kernel order: the loss comes after the IRQ sample, taking
 * the timer IRQ's exit with it, so the IRQ handler delay is unknown.
 */
static void test_lost_events_irq_stop(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	fx_running(fx, 0, "stress", STRESS_PID);
	fx_local_timer(fx, 0, AT(25), true);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, STRESS_PID, AT(30), US(30));
	fx_lost(fx, 0);
	fx_local_timer(fx, 0, AT(35), false);

	fx_result(fx, 0, &res);
	assert_true(res.irq_stop);
	assert_false(res.timer_irq_seen);
	assert_false(res.complete);
}

/*
 * The timer IRQ interrupts a NET_RX softirq (E-10..E+50) running in
 * stress's context (the IRQ sample's pid): after the timer IRQ, the
 * softirq keeps the CPU to E+50, and only then does stress run on. The
 * softirq's share of the window [E+5, E+200) is interference, not the
 * blocking thread's time: E+5..E+50 = 45, minus the timer IRQ's 10 = 35.
 */
static void test_softirq_across_window_start(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	fx_running(fx, 0, "stress", STRESS_PID);
	fx_softirq(fx, 0, AT(-10), 3, true);
	fx_local_timer(fx, 0, AT(5), true);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, STRESS_PID, AT(8), US(8));
	fx_local_timer(fx, 0, AT(15), false);
	fx_softirq(fx, 0, AT(50), 3, false);
	fx_stress_thread(fx, 0, 200);

	fx_result(fx, 0, &res);
	fx_check_stress_head(&res, 200);
	assert_int_equal(res.timer_irq_ns, US(10));
	assert_one_line(&res.parts[AA_SOFTIRQ], 3, "NET_RX", US(35));
	/* E+50..E+200 */
	assert_int_equal(res.blocking_ns, US(150));
	/* 200 - (5 + 10 + 150 + 35) */
	assert_int_equal(res.unexplained_ns, 0);
}

/*
 * rtla counts an exit from idle at the IRQ sample. The kernel tracer turns
 * tracing off in the IRQ when the IRQ threshold is crossed, so the stop's
 * own thread sample never comes: the IRQ stop on an idle CPU is still the
 * highest exit-from-idle latency there was (25 us on CPU 0 here).
 */
static void test_idle_exit_irq_stop(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;
	u64 lat;
	int cpu;

	fx_sched_switch(fx, 0, AT(-100), "tlat/0", TLAT_PID, "swapper/0", 0);
	fx_local_timer(fx, 0, AT(20), true);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, 0, AT(25), US(25));
	fx_local_timer(fx, 0, AT(30), false);

	fx_result(fx, 0, &res);
	assert_true(res.irq_stop);
	assert_true(res.exit_from_idle);
	assert_int_equal(res.irq_delay_ns, US(20));
	assert_true(aa_max_idle_exit(fx->aa, &lat, &cpu));
	assert_int_equal(lat, US(25));
	assert_int_equal(cpu, 0);
}

/*
 * The osnoise adapter, an NMI inside the timer IRQ after the IRQ sample:
 * the timer IRQ runs E+5..E+15, the sample is taken at E+8, an NMI runs
 * E+9..E+14. irq_noise says 5 us (net of the NMI) at E+15, so "record ts
 * minus duration" puts its start at E+10, after the sample. rtla, reading
 * the kernel's start field, says: delay 5, timer IRQ 5, NMI 5; the stock
 * adapter says the same for the same timeline.
 */
static void test_osnoise_nmi_in_timer_irq(void **state)
{
	struct fx *fx = *state;

	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
	fx_nmi_noise(fx, 0, AT(14), AT(9), US(5));
	fx_irq_noise(fx, 0, AT(15), AT(5), "local_timer", 236, US(5));
	fx_thread_noise(fx, 0, AT(100), AT(15), "tlat-hog", HOG_PID, US(85));
	fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(100), US(100));

	expect_nmi_in_timer_irq(fx);
}

/* an IRQ sample as the timerlat tracer writes it, in the timer IRQ */
static void timerlat_irq_sample(struct fx *fx, int cpu, u64 ts, u32 seq)
{
	unsigned char data[24] = { 0 };

	fx_put32(data, 8, (int32_t)seq);
	fx_put32(data, 12, 0);
	fx_feed(fx, TIMERLAT_ID, cpu, ts, data, 24);
}

/*
 * The clocks' offset, learned from the events, can put the timer IRQ's
 * start after its sample: here the timer IRQ's record is the CPU's first
 * event and 76 us late. The first irq_noise after the IRQ sample is the
 * timer's (rtla's rule): it starts no later than the sample.
 */
/* issue 15's activation from its IRQ sample on (see below), and its result */
static void issue15_activation(struct fx *fx, bool sample_event, struct aa_result *res)
{
	if (sample_event)
		timerlat_irq_sample(fx, 0, AT(40), 1);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(40), US(40));
	fx_irq_noise(fx, 0, AT(189), AT(4), "local_timer", 236, US(109));
	fx_thread_noise(fx, 0, AT(3000), AT(113), "tlat-hog", HOG_PID, US(2887));
	fx_sample(fx, TLAT_CTX_USER, 0, 1, TLAT_PID, AT(3010), US(3010));
	fx_result(fx, 0, res);
	assert_false(res->irq_stop);
	assert_true(res->timer_irq_seen);
	assert_int_equal(res->timer_irq_ns, US(109));
	assert_empty(&res->parts[AA_IRQ]);
	assert_int_equal(res->blocking_pid, HOG_PID);
	assert_int_equal(res->blocking_ns, US(2887));
}

static void test_osnoise_timer_irq_after_sample(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	issue15_activation(fx, true, &res);
	/* start clamped to the sample: E+40 */
	assert_int_equal(res.irq_delay_ns, US(40));
}

/*
 * Issue 15, the -u run that rtla got right and tlat did not: the timer
 * IRQ started (kernel stamp) at E+4, 36 us before the IRQ sample at E+40,
 * and ran 109 us; its irq_noise record came at E+189, so "record time less
 * duration" put it at E+80, after the sample, and it was counted as IRQ
 * interference. The events before it give the local clock's offset; the
 * kernel's stamp makes it the timer IRQ. The hog then runs E+113..E+3000,
 * and the user thread's sample is at E+3010.
 */
static void test_osnoise_timer_irq_late_record(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	fx_irq_noise(fx, 0, AT(-490), AT(-500), "virtio0", 25, US(10));
	fx_thread_noise(fx, 0, AT(-300), AT(-480), "tlat-hog", HOG_PID, US(180));
	/* without the sample event: found by its kernel stamp alone */
	issue15_activation(fx, false, &res);
	assert_int_equal(res.irq_delay_ns, US(4));
	/* 3010 - (4 + 109 + 2887) */
	assert_int_equal(res.unexplained_ns, US(10));
}

UNIT_MAIN("aa_timelines",
	FX_TEST(test_deferred_events_overwritten),
	AA_TEST(test_thread_interference_stock, stock_t1000),
	AA_TEST(test_user_return_hit, stock_t150),
	FX_TEST(test_small_history),
	AA_TEST(test_osnoise_softirq_across_window_start, osnoise_t100),
	AA_TEST(test_nmi_in_timer_irq_stock, stock_t50),
	cmocka_unit_test(test_adapter_open),
	cmocka_unit_test(test_adapter_names),
	AA_TEST(test_softirq_across_window_start, stock_t100),
	AA_TEST(test_lost_events_tracepoint_order, stock_t50),
	AA_TEST(test_lost_events_irq_stop, stock_i20),
	AA_TEST(test_idle_exit_irq_stop, stock_i20_t100),
	AA_TEST(test_osnoise_nmi_in_timer_irq, osnoise_t50),
	AA_TEST(test_osnoise_timer_irq_late_record, osnoise_t1000),
	AA_TEST(test_osnoise_timer_irq_after_sample, osnoise_t1000),
)
