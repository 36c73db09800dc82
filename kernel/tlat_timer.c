// SPDX-License-Identifier: GPL-2.0
/*
 * tlat - the measurement: a per-CPU hard-IRQ hrtimer on an absolute period
 * grid, and the measuring thread it wakes.
 *
 * This follows the kernel's timerlat tracer (kernel/trace/trace_osnoise.c):
 *
 *  - The measuring thread arms the CPU's timer at the next expiry of a grid
 *    that starts when the thread starts and advances by whole periods, then
 *    sleeps. Expiries that have already passed when it re-arms are skipped:
 *    no sample is written for them and seqnum does not count them.
 *  - The callback runs in hard IRQ context, also on PREEMPT_RT, thanks to
 *    HRTIMER_MODE_ABS_PINNED_HARD. It records the IRQ latency, the
 *    CLOCK_MONOTONIC time of the callback minus the programmed expiry, and
 *    wakes the thread.
 *  - The thread records the thread latency, the time at which it runs minus
 *    the same expiry, so it includes the IRQ latency.
 *  - A user thread using /dev/tlat also records, on its next read(), the
 *    user-return latency: the time it is back minus the same expiry.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/stacktrace.h>
#include <linux/timekeeping.h>

#include "tlat_internal.h"
#include "tlat_trace.h"

/* With align_us: the first expiry of the rank 0 CPU, 0 until a thread sets it. */
static atomic64_t tlat_align_base = ATOMIC64_INIT(0);

static u64 tlat_us_to_ns(unsigned int us)
{
	return (u64)us * NSEC_PER_USEC;
}

static u64 tlat_period_ns(void)
{
	unsigned int period_us = READ_ONCE(tlat_cfg.period_us);

	return tlat_us_to_ns(clamp(period_us, TLAT_PERIOD_MIN_US, TLAT_PERIOD_MAX_US));
}

/**
 * tlat_align_reset - let the next thread to start take a new common time
 */
void tlat_align_reset(void)
{
	atomic64_set(&tlat_align_base, 0);
}

/**
 * tlat_record - count a sample, and write it with its stack and threshold events
 * @tc:		state of the CPU the sample belongs to
 * @ctx:	context of the sample
 * @lat:	latency in ns
 *
 * The saved stack of the activation goes out before the first of its samples
 * that reaches print_stack_us, so an event trigger that turns a buffer off on
 * that sample ("traceoff if timer_latency >= N") keeps the stack in it.
 *
 * The sample and the stack go out only with trace_samples; the aggregates
 * (tlat_agg.c) count every sample up to a stop, the stop's included.
 *
 * Called by the measuring task and by the hrtimer callback of its CPU, which
 * never run at the same time: the callback fires only while the task sleeps.
 */
void tlat_record(struct tlat_cpu *tc, enum tlat_ctx ctx, u64 lat)
{
	unsigned int stop_us;

	if (READ_ONCE(tlat_cfg.trace_samples)) {
		if (tc->stack_pending && lat >= tc->stack_thresh_ns) {
			tc->stack_pending = false;
			trace_tlat_stack(tc->seqnum, tc->ips, tc->nr_ips);
		}
		trace_tlat_sample(tc->seqnum, ctx, lat);
	}

	if (ctx == TLAT_CTX_IRQ)
		stop_us = READ_ONCE(tlat_cfg.stop_irq_us);
	else
		stop_us = READ_ONCE(tlat_cfg.stop_thread_us);
	/*
	 * A module cannot turn off a trace instance (tracer_tracing_off() is
	 * not exported), and tracing_off() would stop the top-level buffer of
	 * everybody. The event lets each buffer decide: a "traceoff" trigger
	 * on it stops the buffer that has it. The aggregates stop first: a
	 * reader that sees the buffer stopped finds their stop. A sample in
	 * a warm-up's aggregates stops nothing (tlat_agg.c).
	 */
	if (tlat_agg_add(tc->cpu, ctx, tc->seqnum, lat,
			 stop_us ? tlat_us_to_ns(stop_us) : 0))
		trace_tlat_threshold(tc->seqnum, ctx, lat);
}

static enum hrtimer_restart tlat_timer_fn(struct hrtimer *timer)
{
	struct tlat_cpu *tc = container_of(timer, struct tlat_cpu, timer);
	/* ktime_get() is the base clock of a CLOCK_MONOTONIC hrtimer. */
	u64 now = ktime_get_ns();
	unsigned int stack_us = READ_ONCE(tlat_cfg.print_stack_us);
	struct task_struct *task = READ_ONCE(tc->wake_task);

	tc->seqnum++;
	tc->stack_pending = false;
	if (stack_us) {
		tc->nr_ips = stack_trace_save(tc->ips, ARRAY_SIZE(tc->ips), 0);
		tc->stack_thresh_ns = tlat_us_to_ns(stack_us);
		tc->stack_pending = true;
	}

	tlat_record(tc, TLAT_CTX_IRQ, now - tc->abs_period);

	/* Pairs with the check in tlat_wait_next_period(). */
	WRITE_ONCE(tc->fired, true);
	if (!WARN_ON_ONCE(!task))
		wake_up_process(task);
	return HRTIMER_NORESTART;
}

/**
 * tlat_timer_init - set up the hrtimer of a CPU, once, at module load
 * @tc:		state of that CPU
 */
void tlat_timer_init(struct tlat_cpu *tc)
{
#ifdef TLAT_HAVE_HRTIMER_SETUP	/* see Kbuild */
	hrtimer_setup(&tc->timer, tlat_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_PINNED_HARD);
#else
	hrtimer_init(&tc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	tc->timer.function = tlat_timer_fn;
#endif
}

/**
 * tlat_measure_begin - make current the measuring task of a CPU
 * @tc:		state of that CPU, owned by current
 *
 * Starts the period grid: its first activation is one period after now, or
 * with align_us, at the common time the first thread to start set (one
 * period after it started) plus rank * align_us, as the kernel's
 * TIMERLAT_ALIGN (which ranks the threads in the order they start). A
 * thread that starts after its first expiry has passed skips whole periods
 * in tlat_wait_next_period(), so it keeps its place on the grid.
 */
void tlat_measure_begin(struct tlat_cpu *tc)
{
	int align_us = READ_ONCE(tlat_cfg.align_us);
	u64 now = ktime_get_ns();
	u64 period = tlat_period_ns();
	u64 base;

	tc->seqnum = 0;
	tc->stack_pending = false;
	tc->fired = false;
	tc->abs_period = now;
	if (align_us != TLAT_ALIGN_OFF) {
		/* abs_period is the expiry before the first: base >= period */
		base = atomic64_cmpxchg(&tlat_align_base, 0, now + period) ?: now + period;
		tc->abs_period = base + tc->rank * tlat_us_to_ns(align_us) - period;
	}
	WRITE_ONCE(tc->wake_task, current);
}

/**
 * tlat_measure_end - stop measuring on a CPU
 * @tc:		state of that CPU
 *
 * After this the callback cannot run any more, so wake_task can go.
 */
void tlat_measure_end(struct tlat_cpu *tc)
{
	hrtimer_cancel(&tc->timer);
	WRITE_ONCE(tc->wake_task, NULL);
}

/**
 * tlat_wait_next_period - arm the timer for the next activation and sleep
 * @tc:		state of the CPU, owned by current
 * @user:	current is a /dev/tlat user thread, not a kernel thread
 * @lat:	on success, the thread latency in ns
 *
 * Sleeps until the callback has run, or until the kernel thread is asked to
 * stop or the user thread gets a signal.
 *
 * Return: true when the timer fired and @lat holds the latency.
 */
bool tlat_wait_next_period(struct tlat_cpu *tc, bool user, u64 *lat)
{
	u64 period = tlat_period_ns();
	u64 next, now;

	now = ktime_get_ns();
	next = tc->abs_period + period;
	/* Skip the expiries that have passed, as timerlat does. */
	if (now > next)
		next += DIV64_U64_ROUND_UP(now - next, period) * period;
	tc->abs_period = next;
	WRITE_ONCE(tc->fired, false);

	set_current_state(TASK_INTERRUPTIBLE);
	hrtimer_start(&tc->timer, ns_to_ktime(next),
		      HRTIMER_MODE_ABS_PINNED_HARD);
	while (!READ_ONCE(tc->fired)) {
		if (user ? signal_pending(current) : kthread_should_stop())
			break;
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);

	/* Woken early; the timer may still fire until it is cancelled. */
	if (!READ_ONCE(tc->fired))
		hrtimer_cancel(&tc->timer);
	if (!READ_ONCE(tc->fired))
		return false;

	*lat = ktime_get_ns() - next;
	return true;
}

/**
 * tlat_kthread_fn - body of the per-CPU kernel thread "tlat/N"
 * @data:	struct tlat_cpu of the CPU the thread is bound to
 *
 * Return: 0, to kthread_stop().
 */
int tlat_kthread_fn(void *data)
{
	struct tlat_cpu *tc = data;
	u64 lat;

	tlat_measure_begin(tc);
	while (!kthread_should_stop()) {
		if (tlat_wait_next_period(tc, false, &lat))
			tlat_record(tc, TLAT_CTX_THREAD, lat);
	}
	tlat_measure_end(tc);
	return 0;
}
