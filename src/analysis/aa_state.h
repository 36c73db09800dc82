/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aa_state.h - what the auto-analysis engine keeps per CPU (aa.c writes it
 * as the events come) and the explanation of a hit reads (aa_explain.c).
 * Private to those two: aa.h is the engine's interface.
 */
#ifndef TLAT_AA_STATE_H
#define TLAT_AA_STATE_H

#include "analysis/aa.h"
#include "util/percpu.h"

#define AA_DEFAULT_HISTORY	8192
/*
 * The newest stacks: the hit's is the one of its activation (see
 * aa_stack_of_hit()), and once it is in, none displaces it (see
 * aa_add_stack() and aa_freeze()). One pushed out before the hit was known
 * that may have been it makes the result incomplete.
 */
#define AA_MAX_STACKS		16
/* ring-buffer and kernel-measured times can disagree by this much */
#define AA_SLACK_NS		1000

enum aa_kind { AA_EV_INTERVAL, AA_EV_SWITCH };

struct aa_event {
	enum aa_kind kind;
	union {
		struct aa_interval iv;
		struct aa_switch sw;
	};
};

/*
 * Room for this many gaps; a gap that makes room for a new one is merged
 * into the next if a window still to be explained may reach it (see
 * aa_gap_open()), so no loss is forgotten where it counts.
 */
#define AA_MAX_GAPS	8

struct aa_gap {
	u64 from_ns;
	u64 to_ns;
};

/* one activation, as its samples describe it */
struct aa_activation {
	bool have_irq;
	/* a thread hit whose IRQ sample never came: irq_ts is the expected expiry */
	bool irq_missing;
	bool have_thread;
	u32 seq;
	u64 irq_ts;
	u64 irq_latency;
	int irq_pid;		/* the task the timer IRQ interrupted */
	u64 thread_ts;
	u64 thread_latency;
	int thread_pid;		/* the measuring thread */
};

struct aa_stack {
	u64 ts;
	u32 seq;		/* 0: the source does not say */
	int nr;
	u64 ips[TLAT_STACK_MAX_FRAMES];
};

/* allocated at the CPU's first event of any kind, its history with it */
struct aa_cpu {
	size_t head;		/* next slot of ring[] to write */
	size_t count;		/* 0: no event was kept, the analysis has none */
	/*
	 * The history keeps the newest events: the time of the newest one it
	 * dropped says whether a window still lies wholly in it.
	 */
	bool dropped;
	u64 dropped_until_ns;
	struct aa_activation cur;
	/* the task the latest switch took off the CPU (with have_task), the next thread's blocker */
	int switched_out_pid;
	bool hit;
	bool hit_irq;
	struct aa_activation hit_act;
	u64 freeze_ns;		/* after a hit: later events are not kept */
	/*
	 * The expected expiry of the activation after the hit, 0 until its
	 * IRQ sample: every source saves the hit's stack before that (missed
	 * periods are skipped, so that expiry comes after the hit's thread
	 * returned), and the next activation's stack after it.
	 */
	u64 next_expected_ns;
	bool stack_found;
	struct aa_stack stacks[AA_MAX_STACKS];
	int stack_next;
	bool stack_dropped;
	/* the newest stack pushed out: when it was saved, and its activation */
	u64 stack_dropped_ns;
	u32 stack_dropped_seq;
	/*
	 * Where events were lost, in time: samples may arrive long after the
	 * events they explain, so a loss is placed between the newest time
	 * seen before it and the first time seen after it.
	 */
	struct aa_gap gaps[AA_MAX_GAPS];
	int gap_next;
	bool gap_open;
	u64 last_ns;
	bool have_task;
	struct aa_task task;
	struct aa_event ring[];	/* the history, aa_engine.cfg.history events */
};

struct aa_engine {
	struct aa_config cfg;
	struct percpu cpus;		/* struct aa_cpu */
	u64 window_from_ns;
	u64 window_until_ns;		/* 0: no end */
	bool have_idle_exit;
	u64 max_idle_exit_ns;
	int max_idle_exit_cpu;
};

/* a CPU's state for a reader: NULL if the CPU never saw an event */
static inline const struct aa_cpu *aa_cpu_peek(const struct aa_engine *aa, int cpu)
{
	return percpu_peek(&aa->cpus, cpu);
}

/* the i-th newest event (0 = newest) */
static inline const struct aa_event *aa_nth_newest(const struct aa_engine *aa,
						   const struct aa_cpu *c, size_t i)
{
	size_t size = aa->cfg.history;

	return &c->ring[(c->head + size - 1 - i) % size];
}

/* when an event was written: events arrive when they end */
static inline u64 aa_event_ns(const struct aa_event *ev)
{
	return ev->kind == AA_EV_SWITCH ? ev->sw.ts_ns : ev->iv.end_ns;
}

static inline u64 aa_expected_ns(const struct aa_activation *a)
{
	return a->irq_ts > a->irq_latency ? a->irq_ts - a->irq_latency : 0;
}

/*
 * Whether a stack saved at ts_ns, of activation seq (0: unknown), can be the
 * hit activation's. tlat.ko names the activation: it takes the time, saves
 * the stack (5 ms on a cold first activation under TCG), then writes stack
 * and IRQ sample, so the expiry derived from the sample's time is late by
 * that work, and its stack can seem older than the expiry. The others say
 * it by time, which suffices: the timerlat tracer writes its stack after
 * the IRQ sample, and the tracepoint source's stacktrace trigger runs after
 * hrtimer_expire_entry, its IRQ sample's event, is written; both are later
 * than the derived expiry and earlier than the next activation's.
 */
static inline bool aa_stack_of_hit(const struct aa_cpu *c, u64 ts_ns, u32 seq)
{
	if (seq)
		return seq == c->hit_act.seq;
	return ts_ns >= aa_expected_ns(&c->hit_act) &&
	       (!c->next_expected_ns || ts_ns < c->next_expected_ns);
}

/* whether a stack saved at ts_ns, of activation seq (0: unknown), came before the hit's */
static inline bool aa_stack_before_hit(const struct aa_cpu *c, u64 ts_ns, u32 seq)
{
	if (seq)
		return (int32_t)(seq - c->hit_act.seq) < 0;	/* seq wraps */
	return ts_ns < aa_expected_ns(&c->hit_act);
}

/**
 * aa_note_idle_exit - count an in-run IRQ sample towards the idle exit
 * @aa: the engine, whose maximum it updates
 * @cpu: the sample's CPU, whose state is @c
 * @c: the CPU's state, with the events before the sample
 * @a: the activation the sample began
 *
 * An activation that woke the CPU from idle and was not delayed by an
 * earlier IRQ; the highest IRQ latency of those is aa_max_idle_exit()'s.
 */
void aa_note_idle_exit(struct aa_engine *aa, int cpu, const struct aa_cpu *c,
		       const struct aa_activation *a);

#endif
