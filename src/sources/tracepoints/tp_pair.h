/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tp_pair.h - pairs the stock-tracepoint events of one activation of a
 * measuring thread into its three latencies, all against the expiry the
 * thread programmed:
 *   hrtimer_start (by the thread)      -> the timer and its expiry
 *     (not by an interrupt on its time, such as the tick re-arming itself)
 *   hrtimer_expire_entry (same timer)  -> IRQ latency = now - expiry
 *   sched_switch to the thread, or its
 *   return from clock_nanosleep        -> thread latency = ts - expiry
 *   the thread's marker after wakeup   -> user-return latency = clock - expiry
 * An activation with a missing event is dropped and counted, never completed
 * with another activation's events.
 */
#ifndef TLAT_SOURCES_TRACEPOINTS_TP_PAIR_H
#define TLAT_SOURCES_TRACEPOINTS_TP_PAIR_H

#include <stdbool.h>

#include "core/sample.h"

struct tp_pairing;

typedef void (*tp_emit_fn)(void *ctx, const struct tlat_sample *sample);

/**
 * tp_pairing_alloc - a pairing with no activation in flight
 * @nr_cpus: the CPUs whose threads it pairs
 * @emit: called with each completed activation's IRQ, thread and user samples
 * @emit_ctx: @emit's first argument
 *
 * Returns it, to free with tp_pairing_free(), or NULL out of memory.
 */
struct tp_pairing *tp_pairing_alloc(int nr_cpus, tp_emit_fn emit, void *emit_ctx);

/**
 * tp_pairing_free - free a pairing
 * @pairing: from tp_pairing_alloc(), or NULL
 */
void tp_pairing_free(struct tp_pairing *pairing);

/**
 * tp_pairing_set_thread - the measuring thread of a CPU
 * @pairing: the pairing
 * @cpu: the CPU; out of range, nothing is set
 * @tid: its thread's id
 */
void tp_pairing_set_thread(struct tp_pairing *pairing, int cpu, int tid);

/**
 * tp_pairing_learn_thread - the thread that wrote a marker for a CPU
 * @pairing: the pairing
 * @cpu: the CPU the marker measures
 * @tid: the writer
 *
 * Taken as the CPU's thread only if none is set yet: a recording's threads
 * are known by their markers.
 */
void tp_pairing_learn_thread(struct tp_pairing *pairing, int cpu, int tid);

/**
 * tp_timer_start - hrtimer_start: a thread arms its next wakeup
 * @pairing: the pairing
 * @event_cpu: the event's CPU, looked at first
 * @tid: the task the event was written for
 * @in_interrupt: written in hardirq or softirq context: not the thread's
 *	arming, but an interrupt on its time (the tick re-arming itself)
 * @timer: the timer's address
 * @expires_ns: its expiry, against which all three latencies count
 * @softexpires_ns: what the thread asked for, which its marker repeats
 *
 * An activation of that thread still in flight lost an event: it is
 * dropped and counted.
 */
void tp_timer_start(struct tp_pairing *pairing, int event_cpu, int tid, bool in_interrupt,
		    u64 timer, u64 expires_ns, u64 softexpires_ns);

/**
 * tp_timer_expire - hrtimer_expire_entry: the IRQ latency
 * @pairing: the pairing
 * @event_cpu: the event's CPU, looked at first (the kernel may move a timer)
 * @timer: the timer's address, matched with an armed activation's
 * @now_ns: the hrtimer's now, from which the expiry is subtracted
 * @ts_ns: the record's time
 * @interrupted_pid: the task the timer IRQ interrupted
 *
 * A timer no activation armed, or a second expiry, is ignored.
 */
void tp_timer_expire(struct tp_pairing *pairing, int event_cpu, u64 timer, u64 now_ns,
		     u64 ts_ns, int interrupted_pid);

/**
 * tp_thread_runs - the first sign after the expiry that a thread runs
 * @pairing: the pairing
 * @event_cpu: the event's CPU, looked at first
 * @tid: the thread switched in, or returning from its sleep
 * @ts_ns: when: thread latency = @ts_ns - expiry
 *
 * Signs before the expiry (the thread preempted between arming and
 * sleeping) and after the first are ignored.
 */
void tp_thread_runs(struct tp_pairing *pairing, int event_cpu, int tid, u64 ts_ns);

/**
 * tp_user_return - the thread's marker after its wakeup: the activation ends
 * @pairing: the pairing
 * @cpu: the CPU the thread measures
 * @requested_ns: the wakeup it asked for, matched with its hrtimer_start's
 * @now_ns: its clock when it wrote the marker: user latency = @now_ns - expiry
 * @ts_ns: the record's time
 *
 * A complete activation is emitted, IRQ, thread and user sample; one that
 * misses an event, or another wakeup's, is dropped and counted.
 */
void tp_user_return(struct tp_pairing *pairing, int cpu, u64 requested_ns, u64 now_ns,
		    u64 ts_ns);

/**
 * tp_events_lost - the kernel lost events on a CPU
 * @pairing: the pairing
 * @event_cpu: the CPU whose buffer lost them
 *
 * The activation in flight on that CPU may miss one: it is dropped.
 */
void tp_events_lost(struct tp_pairing *pairing, int event_cpu);

/**
 * tp_dropped - how many activations were dropped for missing events
 * @pairing: the pairing
 *
 * Returns the count so far.
 */
u64 tp_dropped(const struct tp_pairing *pairing);

#endif
