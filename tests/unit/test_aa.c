// SPDX-License-Identifier: GPL-2.0
/*
 * test_aa.c - the auto-analysis: the engine (aa.c) through its two adapters
 * (aa_stock.c, aa_osnoise.c). The analysis is what a user reads when a run
 * stops, and its numbers cannot be checked against the running system, so
 * each case here is a small timeline whose right answer is worked out by
 * hand in the comments, fed through the adapters as the kernel would write
 * it (unit_aa.h: the events of real kernels, embedded so that tracefs is
 * never touched). Samples are fed both before the events they explain
 * (kernel sources) and after them (the tracepoint source): the engine works
 * by time, so both orders must give the same answer. More timelines:
 * test_aa_timelines.c; the stacks (kstack.c): test_aa_stack.c; the report
 * (aa_render.c): test_aa_render.c.
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

/* ---- 1. the hog pattern, through the stock adapter, in both orders ----- */

static void test_hog_kernel_order(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	fx_expect_hog(fx, false);
	for (int cpu = 1; cpu < NR_CPUS; cpu++)
		assert_false(aa_result(fx->aa, cpu, &res));
}

static void test_hog_tracepoint_order(void **state)
{
	fx_expect_hog(*state, true);
}

/* ---- 2. an IRQ nested in a softirq ------------------------------------ */

static void test_irq_in_softirq(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	fx_stress_timer_irq(fx, 0);
	/* NET_RX E+50..E+80, eth0 E+60..E+64 in it */
	fx_irq_in_softirq(fx, 0, 3, AT(50), AT(80), 11, "eth0", AT(60), AT(64));
	fx_stress_thread(fx, 0, 1500);

	fx_result(fx, 0, &res);
	fx_check_stress_head(&res, 1500);
	assert_true(res.complete);
	assert_int_equal(res.timer_irq_ns, US(10));
	/* E+60..E+64 */
	assert_one_line(&res.parts[AA_IRQ], 11, "eth0", US(4));
	/* E+50..E+80 = 30, minus the 4 of the IRQ nested in it */
	assert_one_line(&res.parts[AA_SOFTIRQ], 3, "NET_RX", US(26));
	assert_empty(&res.parts[AA_NMI]);
	assert_empty(&res.parts[AA_THREAD]);
	/* E+5..E+1500 = 1495, minus timer IRQ 10, softirq 26, IRQ 4 */
	assert_int_equal(res.blocking_ns, US(1495 - 10 - 26 - 4));
	/* 1500 - (5 + 10 + 1455 + 4 + 26) */
	assert_int_equal(res.unexplained_ns, 0);
}

/* ---- 3. an NMI inside an IRQ ------------------------------------------ */

static void test_nmi_in_irq(void **state)
{
	struct fx *fx = *state;
	struct aa_render_opts opts = { .stack_format = TLAT_STACK_TRUNCATE };
	struct aa_result res;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	fx_running(fx, 0, "stress", STRESS_PID);
	fx_local_timer(fx, 0, AT(5), true);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, STRESS_PID, AT(8), US(8));
	fx_nmi(fx, 0, AT(12), 2000);		/* E+10..E+12, in the timer IRQ */
	fx_local_timer(fx, 0, AT(15), false);
	fx_irq_entry(fx, 0, AT(50), 11, "eth0");
	fx_nmi(fx, 0, AT(62), 5000);		/* E+57..E+62, in eth0 */
	fx_irq_exit(fx, 0, AT(70), 11);
	fx_stress_thread(fx, 0, 1500);

	fx_result(fx, 0, &res);
	fx_check_stress_head(&res, 1500);
	/* E+5..E+15 = 10, minus the NMI's 2 */
	assert_int_equal(res.timer_irq_ns, US(8));
	/* 2 + 5 */
	assert_int_equal(res.parts[AA_NMI].sum_ns, US(7));
	/* E+50..E+70 = 20, minus the NMI's 5 */
	assert_one_line(&res.parts[AA_IRQ], 11, "eth0", US(15));
	assert_empty(&res.parts[AA_SOFTIRQ]);
	/* E+5..E+1500 = 1495, minus timer 8 + NMI 2 + eth0 15 + NMI 5 */
	assert_int_equal(res.blocking_ns, US(1495 - 8 - 2 - 15 - 5));
	/* 1500 - (5 + 8 + 1465 + 7 + 15) */
	assert_int_equal(res.unexplained_ns, 0);

	/* thread stops print the NMI sum: 7 us of 1500 = 0.47 % */
	out = open_memstream(&text, &len);
	assert_non_null(out);
	aa_render_result(out, &res, &opts);
	fclose(out);
	assert_non_null(strstr(text, "\n  NMI interference " SP36 " " "     7.00 us (0.47 %)\n"));
	free(text);
}

/* ---- 4. equal timestamps of nested writes, and an exit before its entry */

static void test_equal_timestamps(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	fx_stress_timer_irq(fx, 0);
	/* older kernels stamp nested ring-buffer writes with their parent's time: TIMER */
	fx_irq_in_softirq(fx, 0, 1, AT(50), AT(70), 11, "eth0", AT(50), AT(50));
	/* an exit stamped before its entry */
	fx_irq_entry(fx, 0, AT(100), 12, "ahci");
	fx_irq_exit(fx, 0, AT(99), 12);
	/* the nesting is still in step afterwards */
	fx_irq_entry(fx, 0, AT(200), 11, "eth0");
	fx_irq_exit(fx, 0, AT(203), 11);
	fx_stress_thread(fx, 0, 1500);

	fx_result(fx, 0, &res);
	fx_check_stress_head(&res, 1500);
	assert_int_equal(res.timer_irq_ns, US(10));
	/* E+50..E+70 = 20, minus the eth0 of 0 in it */
	assert_one_line(&res.parts[AA_SOFTIRQ], 1, "TIMER", US(20));
	/* eth0: 0 + 3; ahci: clamped to 0 */
	assert_int_equal(res.parts[AA_IRQ].sum_ns, US(3));
	for (int i = 0; i < res.parts[AA_IRQ].nr_lines; i++) {
		const struct aa_line *l = &res.parts[AA_IRQ].lines[i];

		if (l->id == 11)
			assert_int_equal(l->ns, US(3));
		else
			assert_int_equal(l->ns, 0);
	}
	/* 1495 - timer 10 - softirq 20 - eth0 3 - ahci 0 */
	assert_int_equal(res.blocking_ns, US(1495 - 10 - 20 - 3));
	/* 1500 - (5 + 10 + 1462 + 20 + 3) */
	assert_int_equal(res.unexplained_ns, 0);
}

/* ---- 5. events lost in the middle ------------------------------------- */

static void test_lost_events(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	fx_stress_timer_irq(fx, 0);		/* IRQ sample at E+8 */
	fx_irq_entry(fx, 0, AT(30), 11, "eth0");
	fx_lost(fx, 0);
	/* its entry went with the loss: no interval */
	fx_irq_exit(fx, 0, AT(40), 11);
	/* a whole IRQ after the loss counts again */
	fx_irq_entry(fx, 0, AT(60), 12, "ahci");
	fx_irq_exit(fx, 0, AT(63), 12);
	fx_stress_thread(fx, 0, 100);

	fx_result(fx, 0, &res);
	assert_false(res.complete);
	fx_check_stress_head(&res, 100);
	assert_int_equal(res.timer_irq_ns, US(10));
	assert_one_line(&res.parts[AA_IRQ], 12, "ahci", US(3));
	/* E+5..E+100 = 95, minus timer 10 and ahci 3 */
	assert_int_equal(res.blocking_ns, US(95 - 10 - 3));
	/* 100 - (5 + 10 + 82 + 3) */
	assert_int_equal(res.unexplained_ns, 0);
}

/* ---- 6. which threshold hit ------------------------------------------- */

/*
 * CPU 0: tlat-hog runs; the timer expires at E, its IRQ runs E+25..E+35
 * with an NMI E+26..E+28 in it; the IRQ sample at E+30 reads 30 us.
 */
static void late_timer_irq(struct fx *fx)
{
	fx_running(fx, 0, "tlat-hog", HOG_PID);
	fx_local_timer(fx, 0, AT(25), true);
	fx_nmi(fx, 0, AT(28), 2000);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(30), US(30));
	fx_local_timer(fx, 0, AT(35), false);
}

static void test_irq_threshold_hit(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	late_timer_irq(fx);
	/* its own thread sample crosses the thread threshold too */
	fx_sched_switch(fx, 0, AT(500), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(500), US(500));
	/* and a later activation with a bigger thread latency */
	fx_local_timer(fx, 0, AT(1005), true);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 2, TLAT_PID, AT(1008), US(8));
	fx_local_timer(fx, 0, AT(1015), false);
	fx_irq_entry(fx, 0, AT(1020), 11, "eth0");
	fx_nmi(fx, 0, AT(1022), 1000);
	fx_irq_exit(fx, 0, AT(1030), 11);
	fx_sample(fx, TLAT_CTX_THREAD, 0, 2, TLAT_PID, AT(2000), US(1000));

	fx_result(fx, 0, &res);
	assert_true(res.irq_stop);
	assert_true(res.complete);
	assert_int_equal(res.seq, 1);
	/* the IRQ latency is the 100 % */
	assert_int_equal(res.total_ns, US(30));
	assert_int_equal(res.irq_latency_ns, US(30));
	/* E+25 - (E+30 - 30 us) */
	assert_int_equal(res.irq_delay_ns, US(25));
	assert_true(res.timer_irq_seen);
	/* E+25..E+35 = 10, minus the NMI's 2 */
	assert_int_equal(res.timer_irq_ns, US(8));
	assert_blocked_by(&res, HOG_PID, "tlat-hog");
	/* the NMI E+26..E+28 is inside [E+25, E+30); the later one is not */
	assert_int_equal(res.parts[AA_NMI].sum_ns, US(2));
	assert_empty(&res.parts[AA_IRQ]);
	assert_empty(&res.parts[AA_SOFTIRQ]);
	assert_empty(&res.parts[AA_THREAD]);
}

static void test_thread_threshold_hit(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	late_timer_irq(fx);		/* 30 us: no IRQ threshold to cross */
	fx_sched_switch(fx, 0, AT(300), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(300), US(300));

	fx_result(fx, 0, &res);
	assert_false(res.irq_stop);
	assert_int_equal(res.seq, 1);
	assert_int_equal(res.total_ns, US(300));
	assert_int_equal(res.irq_latency_ns, US(30));
	assert_int_equal(res.irq_delay_ns, US(25));
	assert_int_equal(res.timer_irq_ns, US(8));
	assert_int_equal(res.parts[AA_NMI].sum_ns, US(2));
	/* E+25..E+300 = 275, minus timer 8 and NMI 2 */
	assert_int_equal(res.blocking_ns, US(275 - 8 - 2));
	/* 300 - (25 + 8 + 265 + 2) */
	assert_int_equal(res.unexplained_ns, 0);
}

/* ---- 7. only the first hit per CPU ------------------------------------ */

/* an activation expected at E+at: timer IRQ at +5..+15, thread at +lat */
static void activation(struct fx *fx, int cpu, u32 seq, int at, int lat)
{
	fx_local_timer(fx, cpu, AT(at + 5), true);
	fx_sample(fx, TLAT_CTX_IRQ, cpu, seq, HOG_PID, AT(at + 8), US(8));
	fx_local_timer(fx, cpu, AT(at + 15), false);
	fx_sched_switch(fx, cpu, AT(at + lat), "tlat-hog", HOG_PID, "tlat/x", TLAT_PID + cpu);
	fx_sample(fx, TLAT_CTX_THREAD, cpu, seq, TLAT_PID + cpu, AT(at + lat), US(lat));
	fx_sched_switch(fx, cpu, AT(at + lat + 1), "tlat/x", TLAT_PID + cpu, "tlat-hog", HOG_PID);
}

static void test_first_hit_per_cpu(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;
	struct aa_task task;

	activation(fx, 0, 1, 0, 150);		/* hit */
	activation(fx, 1, 1, 0, 50);
	activation(fx, 2, 1, 0, 60);
	activation(fx, 1, 2, 1000, 200);	/* hit */
	activation(fx, 0, 2, 1000, 400);	/* bigger, but second */
	activation(fx, 1, 3, 2000, 300);

	fx_result(fx, 0, &res);
	assert_int_equal(res.seq, 1);
	assert_int_equal(res.total_ns, US(150));
	/* E+5..E+150 = 145, minus timer 10 */
	assert_int_equal(res.blocking_ns, US(135));
	assert_int_equal(res.unexplained_ns, 0);

	fx_result(fx, 1, &res);
	assert_int_equal(res.seq, 2);
	assert_int_equal(res.total_ns, US(200));
	assert_int_equal(res.irq_delay_ns, US(5));
	/* E+1005..E+1200 = 195, minus timer 10 */
	assert_int_equal(res.blocking_ns, US(185));
	assert_int_equal(res.unexplained_ns, 0);

	assert_false(aa_result(fx->aa, 2, &res));
	assert_false(aa_result(fx->aa, 3, &res));
	/* the task each CPU ran last, for --dump-tasks */
	assert_true(aa_current_task(fx->aa, 0, &task));
	assert_int_equal(task.pid, HOG_PID);
	assert_string_equal(task.comm, "tlat-hog");
	assert_false(aa_current_task(fx->aa, 3, &task));
}

/*
 * A run that measures on after a hit (--on-threshold continue): once
 * re-armed, the CPU's next crossing is frozen and explained on its own;
 * what was dropped while frozen is a gap up to the next event seen.
 */
static void test_rearm(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	activation(fx, 0, 1, 0, 150);		/* hit */
	activation(fx, 0, 2, 1000, 400);	/* frozen out */
	fx_result(fx, 0, &res);
	assert_int_equal(res.seq, 1);
	aa_rearm(fx->aa, 0);
	aa_rearm(fx->aa, 1);			/* no hit there: nothing to forget */
	assert_false(aa_result(fx->aa, 0, &res));
	assert_false(aa_result(fx->aa, 1, &res));

	activation(fx, 0, 3, 2000, 50);		/* closes the gap */
	activation(fx, 0, 4, 3000, 300);	/* the next hit */
	activation(fx, 0, 5, 4000, 500);	/* frozen out again */
	fx_result(fx, 0, &res);
	assert_int_equal(res.seq, 4);
	assert_int_equal(res.total_ns, US(300));
	assert_true(res.complete);
	/* E+3005..E+3300 = 295, minus the timer IRQ's 10 */
	assert_int_equal(res.blocking_ns, US(285));
	assert_int_equal(res.unexplained_ns, 0);

	/* a hit right after the re-arm: its window reaches into what was dropped */
	aa_rearm(fx->aa, 0);
	activation(fx, 0, 6, 5000, 200);
	fx_result(fx, 0, &res);
	assert_int_equal(res.seq, 6);
	assert_false(res.complete);
}

/* ---- 8. exits from idle ----------------------------------------------- */

/* CPU 0 idle: timer IRQ E+11..E+21, IRQ sample E+13 reading 13 us */
static void idle_exit_cpu0(struct fx *fx)
{
	fx_sched_switch(fx, 0, AT(-100), "tlat/0", TLAT_PID, "swapper/0", 0);
	fx_local_timer(fx, 0, AT(11), true);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, 0, AT(13), US(13));
	fx_local_timer(fx, 0, AT(21), false);
	fx_sched_switch(fx, 0, AT(150), "swapper/0", 0, "tlat/0", TLAT_PID);
	fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(150), US(150));
}

/*
 * CPU 1 idle, but eth0 runs E-10..E+20 across the expiry and delays the
 * timer IRQ (E+20..E+30, sample at E+25 reading 25 us): not an idle exit.
 */
static void idle_exit_cpu1(struct fx *fx)
{
	fx_sched_switch(fx, 1, AT(-100), "tlat/1", 98, "swapper/1", 0);
	fx_irq_entry(fx, 1, AT(-10), 11, "eth0");
	fx_irq_exit(fx, 1, AT(20), 11);
	fx_local_timer(fx, 1, AT(20), true);
	fx_sample(fx, TLAT_CTX_IRQ, 1, 1, 0, AT(25), US(25));
	fx_local_timer(fx, 1, AT(30), false);
	fx_sched_switch(fx, 1, AT(200), "swapper/1", 0, "tlat/1", 98);
	fx_sample(fx, TLAT_CTX_THREAD, 1, 1, 98, AT(200), US(200));
}

static void test_idle_exit(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = fx_config(0, 100, &aa_stock_ops);
	struct aa_result res;
	u64 lat;
	int cpu;

	fx_open(fx, &aa_stock_ops, &cfg);
	idle_exit_cpu0(fx);
	idle_exit_cpu1(fx);
	assert_true(aa_max_idle_exit(fx->aa, &lat, &cpu));
	assert_int_equal(lat, US(13));
	assert_int_equal(cpu, 0);

	fx_result(fx, 0, &res);
	assert_true(res.exit_from_idle);
	assert_int_equal(res.prev_irq_ns, 0);
	assert_int_equal(res.irq_delay_ns, US(11));
	assert_blocked_by(&res, 0, "swapper/0");
	/* E+11..E+150 = 139, minus timer 10 */
	assert_int_equal(res.blocking_ns, US(129));
	/* 150 - (11 + 10 + 129) */
	assert_int_equal(res.unexplained_ns, 0);

	fx_result(fx, 1, &res);
	assert_false(res.exit_from_idle);
	/* eth0: E-10..E+20 */
	assert_int_equal(res.prev_irq_ns, US(30));
	/* E+20 - E */
	assert_int_equal(res.irq_delay_ns, US(20));
	assert_int_equal(res.timer_irq_ns, US(10));
	/* eth0 began before the window: not interference */
	assert_empty(&res.parts[AA_IRQ]);
	/* E+20..E+200 = 180, minus timer 10 */
	assert_int_equal(res.blocking_ns, US(170));
	assert_int_equal(res.unexplained_ns, 0);
	fx_close(fx);

	/* with only the delayed one, there is no idle exit to report */
	fx_open(fx, &aa_stock_ops, &cfg);
	idle_exit_cpu1(fx);
	assert_false(aa_max_idle_exit(fx->aa, &lat, &cpu));
	fx_close(fx);
}

/* ---- 9. the osnoise adapter ------------------------------------------- */

/*
 * The hog pattern as the timerlat tracer's noise events tell it: the timer
 * IRQ E+5..E+15; tlat-hog runs E+15..E+2996 (2981 us) with a NET_RX of
 * 4 us and an NMI of 2 us in it, so its thread_noise says 2975; then
 * kworker/1:1 (7) for 3 us, E+2996..E+2999; the thread sample at E+3000.
 */
static void test_osnoise_adapter(void **state)
{
	struct fx *fx = *state;
	struct aa_result res;

	/* the engine has the threads from the noise events, not from switches */
	assert_false(aa_osnoise_ops.threads_from_switches);
	/* the hog's previous stretch, before the window */
	fx_thread_noise(fx, 0, AT(-50), AT(-150), "tlat-hog", HOG_PID, US(100));
	fx_sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
	fx_irq_noise(fx, 0, AT(15), AT(5), "local_timer", 236, US(10));
	fx_softirq_noise(fx, 0, AT(1004), AT(1000), 3, US(4));
	fx_nmi_noise(fx, 0, AT(2000), AT(1998), US(2));
	fx_thread_noise(fx, 0, AT(2996), AT(15), "tlat-hog", HOG_PID, US(2975));
	fx_thread_noise(fx, 0, AT(2999), AT(2996), "kworker/1:1", 7, US(3));
	fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(3000), US(3000));

	fx_result(fx, 0, &res);
	assert_false(res.irq_stop);
	assert_true(res.complete);
	assert_int_equal(res.total_ns, US(3000));
	/* irq_noise start = E+15 - 10 = E+5; E+5 - E */
	assert_int_equal(res.irq_delay_ns, US(5));
	assert_int_equal(res.timer_irq_ns, US(10));
	assert_blocked_by(&res, HOG_PID, "tlat-hog");
	assert_int_equal(res.blocking_ns, US(2975));
	assert_one_line(&res.parts[AA_THREAD], 7, "kworker/1:1", US(3));
	assert_one_line(&res.parts[AA_SOFTIRQ], 3, "NET_RX", US(4));
	assert_int_equal(res.parts[AA_NMI].sum_ns, US(2));
	assert_empty(&res.parts[AA_IRQ]);
	/* 3000 - (5 + 10 + 2975 + 3 + 4 + 2): the switch to the thread */
	assert_int_equal(res.unexplained_ns, US(1));
}

UNIT_MAIN("aa",
	AA_TEST(test_hog_kernel_order, stock_t1000),
	AA_TEST(test_hog_tracepoint_order, stock_t1000),
	AA_TEST(test_irq_in_softirq, stock_t1000),
	AA_TEST(test_nmi_in_irq, stock_t1000),
	AA_TEST(test_equal_timestamps, stock_t1000),
	AA_TEST(test_lost_events, stock_t50),
	AA_TEST(test_irq_threshold_hit, stock_i20_t100),
	AA_TEST(test_thread_threshold_hit, stock_t100),
	AA_TEST(test_first_hit_per_cpu, stock_t100),
	AA_TEST(test_rearm, stock_t100),
	FX_TEST(test_idle_exit),
	AA_TEST(test_osnoise_adapter, osnoise_t1000),
)
