// SPDX-License-Identifier: GPL-2.0
/*
 * tp_pair.c - the activation state machine of the tracepoint source.
 *
 * Per measured CPU, one activation is in flight at a time, because its
 * thread sleeps again only after it has written its marker. The timer may
 * expire on another CPU's buffer if the kernel moved it, so expiries are
 * matched by timer address, looking at the event's own CPU first.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "sources/tracepoints/tp_pair.h"

enum tp_seen {
	SEEN_IRQ	= 1 << TLAT_CTX_IRQ,
	SEEN_THREAD	= 1 << TLAT_CTX_THREAD,
};

struct tp_activation {
	int tid;		/* the measuring thread of this CPU, 0 if none */
	bool armed;		/* hrtimer_start seen, user return not yet */
	unsigned int seen;
	u64 timer;
	u64 expires_ns;
	u64 requested_ns;	/* what the thread asked for: expiry minus slack */
	u64 latency_ns[TLAT_NR_CTX];
	u64 ts_ns[TLAT_NR_CTX];
	int irq_pid;		/* the task the timer interrupted */
	u32 seq;
};

struct tp_pairing {
	int nr_cpus;
	struct tp_activation *act;
	tp_emit_fn emit;
	void *emit_ctx;
	u64 dropped;
};

struct tp_pairing *tp_pairing_alloc(int nr_cpus, tp_emit_fn emit, void *emit_ctx)
{
	struct tp_pairing *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->act = calloc(nr_cpus, sizeof(*p->act));
	if (!p->act) {
		free(p);
		return NULL;
	}
	p->nr_cpus = nr_cpus;
	p->emit = emit;
	p->emit_ctx = emit_ctx;
	return p;
}

void tp_pairing_free(struct tp_pairing *p)
{
	if (!p)
		return;
	free(p->act);
	free(p);
}

void tp_pairing_set_thread(struct tp_pairing *p, int cpu, int tid)
{
	if (cpu >= 0 && cpu < p->nr_cpus)
		p->act[cpu].tid = tid;
}

void tp_pairing_learn_thread(struct tp_pairing *p, int cpu, int tid)
{
	if (cpu >= 0 && cpu < p->nr_cpus && !p->act[cpu].tid)
		p->act[cpu].tid = tid;
}

static struct tp_activation *find_by_tid(struct tp_pairing *p, int event_cpu, int tid)
{
	if (tid <= 0)
		return NULL;
	if (event_cpu >= 0 && event_cpu < p->nr_cpus && p->act[event_cpu].tid == tid)
		return &p->act[event_cpu];
	for (int cpu = 0; cpu < p->nr_cpus; cpu++)
		if (p->act[cpu].tid == tid)
			return &p->act[cpu];
	return NULL;
}

static struct tp_activation *find_by_timer(struct tp_pairing *p, int event_cpu, u64 timer)
{
	struct tp_activation *a;

	if (event_cpu >= 0 && event_cpu < p->nr_cpus) {
		a = &p->act[event_cpu];
		if (a->armed && a->timer == timer)
			return a;
	}
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		a = &p->act[cpu];
		if (a->armed && a->timer == timer)
			return a;
	}
	return NULL;
}

static void drop(struct tp_pairing *p, struct tp_activation *a)
{
	if (a->armed)
		p->dropped++;
	a->armed = false;
	a->seen = 0;
}

/*
 * An hrtimer_start in interrupt context carries the pid of the task it
 * interrupted: the tick re-arming itself while the thread runs, between its
 * wakeup and its marker, is not the thread arming its next sleep (taken as
 * one, it dropped one activation in a few hundred on an idle host).
 */
void tp_timer_start(struct tp_pairing *p, int event_cpu, int tid, bool in_interrupt, u64 timer,
		    u64 expires_ns, u64 softexpires_ns)
{
	struct tp_activation *a = find_by_tid(p, event_cpu, tid);

	if (!a || in_interrupt)
		return;
	/* a previous activation that never completed lost an event */
	drop(p, a);
	a->armed = true;
	a->timer = timer;
	a->expires_ns = expires_ns;
	a->requested_ns = softexpires_ns;
}

void tp_timer_expire(struct tp_pairing *p, int event_cpu, u64 timer, u64 now_ns, u64 ts_ns,
		     int interrupted_pid)
{
	struct tp_activation *a = find_by_timer(p, event_cpu, timer);

	if (!a || (a->seen & SEEN_IRQ))
		return;
	a->latency_ns[TLAT_CTX_IRQ] = now_ns > a->expires_ns ? now_ns - a->expires_ns : 0;
	a->ts_ns[TLAT_CTX_IRQ] = ts_ns;
	a->irq_pid = interrupted_pid;
	a->seen |= SEEN_IRQ;
}

/*
 * The first sign after the expiry that the thread runs: its switch-in, or
 * else its return from the syscall. Switch-ins before the expiry (it was
 * preempted between arming the timer and sleeping) are not the wakeup.
 */
void tp_thread_runs(struct tp_pairing *p, int event_cpu, int tid, u64 ts_ns)
{
	struct tp_activation *a = find_by_tid(p, event_cpu, tid);

	if (!a || !a->armed || !(a->seen & SEEN_IRQ) || (a->seen & SEEN_THREAD))
		return;
	a->latency_ns[TLAT_CTX_THREAD] = ts_ns > a->expires_ns ? ts_ns - a->expires_ns : 0;
	a->ts_ns[TLAT_CTX_THREAD] = ts_ns;
	a->seen |= SEEN_THREAD;
}

void tp_user_return(struct tp_pairing *p, int cpu, u64 requested_ns, u64 now_ns, u64 ts_ns)
{
	struct tp_activation *a;
	struct tlat_sample s = { .cpu = cpu };

	if (cpu < 0 || cpu >= p->nr_cpus)
		return;
	a = &p->act[cpu];
	if (!a->armed)
		return;		/* its hrtimer_start predates tracing, or was lost */
	if (a->requested_ns != requested_ns || a->seen != (SEEN_IRQ | SEEN_THREAD)) {
		drop(p, a);
		return;
	}
	a->latency_ns[TLAT_CTX_USER] = now_ns > a->expires_ns ? now_ns - a->expires_ns : 0;
	a->ts_ns[TLAT_CTX_USER] = ts_ns;
	s.seq = a->seq++;
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		s.ctx = ctx;
		s.latency_ns = a->latency_ns[ctx];
		s.ts_ns = a->ts_ns[ctx];
		s.pid = ctx == TLAT_CTX_IRQ ? a->irq_pid : a->tid;
		p->emit(p->emit_ctx, &s);
	}
	a->armed = false;
	a->seen = 0;
}

/* whatever was in flight on that CPU may be missing an event */
void tp_events_lost(struct tp_pairing *p, int event_cpu)
{
	if (event_cpu >= 0 && event_cpu < p->nr_cpus)
		drop(p, &p->act[event_cpu]);
}

u64 tp_dropped(const struct tp_pairing *p)
{
	return p->dropped;
}
