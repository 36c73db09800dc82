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
#ifndef TLAT_TP_PAIR_H
#define TLAT_TP_PAIR_H

#include <stdbool.h>

#include "sample.h"

struct tp_pairing;

typedef void (*tp_emit_fn)(void *ctx, const struct tlat_sample *sample);

struct tp_pairing *tp_pairing_alloc(int nr_cpus, tp_emit_fn emit, void *emit_ctx);
void tp_pairing_free(struct tp_pairing *pairing);
void tp_pairing_set_thread(struct tp_pairing *pairing, int cpu, int tid);
/* the thread that wrote a marker for this CPU, if none is set yet (recordings) */
void tp_pairing_learn_thread(struct tp_pairing *pairing, int cpu, int tid);

void tp_timer_start(struct tp_pairing *pairing, int event_cpu, int tid, bool in_interrupt,
		    u64 timer, u64 expires_ns, u64 softexpires_ns);
void tp_timer_expire(struct tp_pairing *pairing, int event_cpu, u64 timer, u64 now_ns,
		     u64 ts_ns, int interrupted_pid);
void tp_thread_runs(struct tp_pairing *pairing, int event_cpu, int tid, u64 ts_ns);
void tp_user_return(struct tp_pairing *pairing, int cpu, u64 requested_ns, u64 now_ns,
		    u64 ts_ns);
void tp_events_lost(struct tp_pairing *pairing, int event_cpu);

u64 tp_dropped(const struct tp_pairing *pairing);

#endif
