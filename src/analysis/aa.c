// SPDX-License-Identifier: GPL-2.0
/*
 * aa.c - the auto-analysis engine (see aa.h): what it keeps of the events.
 * rtla's timerlat_aa.c runs a state machine over the events in buffer
 * order and trusts the last cycle in the buffer to be the one that stopped
 * tracing. That holds only when the kernel stops the buffer at the
 * offending sample. Here samples may arrive after the events they explain
 * (the tracepoint source completes an activation only at its user return),
 * and tracing may go on after the hit. So each CPU keeps a bounded history
 * in arrival order and freezes the first activation that crossed a
 * threshold; aa_explain.c explains it by time.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aa_state.h"
#include "core/window.h"

struct aa_engine *aa_alloc(const struct aa_config *config)
{
	struct aa_engine *aa = calloc(1, sizeof(*aa));
	size_t history;

	if (!aa)
		return NULL;
	aa->cfg = *config;
	if (!aa->cfg.history)
		aa->cfg.history = AA_DEFAULT_HISTORY;
	history = aa->cfg.history;
	/* a CPU's state and history come in one block, at its first event */
	if (history > (SIZE_MAX - sizeof(struct aa_cpu)) / sizeof(struct aa_event) ||
	    percpu_init(&aa->cpus, config->nr_cpus,
			sizeof(struct aa_cpu) + history * sizeof(struct aa_event))) {
		free(aa);
		return NULL;
	}
	return aa;
}

void aa_free(struct aa_engine *aa)
{
	if (!aa)
		return;
	percpu_free(&aa->cpus);
	free(aa);
}

int aa_nr_cpus(const struct aa_engine *aa)
{
	return aa->cfg.nr_cpus;
}

/* a CPU's state for a writer: NULL out of range, or out of memory */
static struct aa_cpu *aa_cpu(struct aa_engine *aa, int cpu)
{
	return percpu_get(&aa->cpus, cpu);
}

/* a time seen on this CPU: it closes a gap left by lost events */
static void aa_seen(struct aa_cpu *c, u64 ts_ns)
{
	if (c->gap_open && ts_ns >= c->last_ns) {
		c->gaps[(c->gap_next + AA_MAX_GAPS - 1) % AA_MAX_GAPS].to_ns = ts_ns;
		c->gap_open = false;
	}
	if (ts_ns > c->last_ns)
		c->last_ns = ts_ns;
}

static void aa_push(struct aa_engine *aa, struct aa_cpu *c, const struct aa_event *ev)
{
	if (c->count == aa->cfg.history) {
		u64 ts_ns = aa_event_ns(&c->ring[c->head]);

		/* the oldest event makes room: see aa_result()'s complete */
		c->dropped = true;
		if (ts_ns > c->dropped_until_ns)
			c->dropped_until_ns = ts_ns;
	}
	c->ring[c->head] = *ev;
	c->head = (c->head + 1) % aa->cfg.history;
	if (c->count < aa->cfg.history)
		c->count++;
}

/* the CPU's state, which has now seen this time; NULL for a CPU the run does not know */
static struct aa_cpu *aa_cpu_seen(struct aa_engine *aa, int cpu, u64 ts_ns)
{
	struct aa_cpu *c = aa_cpu(aa, cpu);

	if (c)
		aa_seen(c, ts_ns);
	return c;
}

/* an event that came before the hit was frozen, or while no hit is */
static void aa_keep(struct aa_engine *aa, struct aa_cpu *c, const struct aa_event *ev,
		    u64 ts_ns)
{
	if (c->hit && ts_ns > c->freeze_ns)
		return;
	aa_push(aa, c, ev);
}

void aa_add_interval(struct aa_engine *aa, const struct aa_interval *iv)
{
	struct aa_cpu *c = aa_cpu_seen(aa, iv->cpu, iv->end_ns);
	struct aa_event ev = { .kind = AA_EV_INTERVAL, .iv = *iv };

	if (c)
		aa_keep(aa, c, &ev, iv->start_ns);
}

void aa_add_switch(struct aa_engine *aa, const struct aa_switch *sw)
{
	struct aa_cpu *c = aa_cpu_seen(aa, sw->cpu, sw->ts_ns);
	struct aa_event ev = { .kind = AA_EV_SWITCH, .sw = *sw };

	if (!c)
		return;
	c->have_task = true;
	c->switched_out_pid = sw->prev_pid;
	c->task.pid = sw->next_pid;
	memcpy(c->task.comm, sw->next_comm, sizeof(c->task.comm));
	/* the work item was the previous task's */
	c->task.work = 0;
	c->task.work_func = 0;
	aa_keep(aa, c, &ev, sw->ts_ns);
}

void aa_add_work(struct aa_engine *aa, int cpu, u64 ts_ns, u64 work, u64 work_func)
{
	struct aa_cpu *c = aa_cpu_seen(aa, cpu, ts_ns);

	if (!c)
		return;
	c->task.work = work;
	c->task.work_func = work_func;
}

void aa_add_stack(struct aa_engine *aa, const struct tlat_stack *stack)
{
	struct aa_cpu *c = aa_cpu(aa, stack->cpu);
	int nr = stack->nr;
	struct aa_stack *st;

	/* after a hit, the stacks of later activations would push its own out */
	if (!c || c->stack_found)
		return;
	if (nr > TLAT_STACK_MAX_FRAMES)
		nr = TLAT_STACK_MAX_FRAMES;
	st = &c->stacks[c->stack_next];
	c->stack_next = (c->stack_next + 1) % AA_MAX_STACKS;
	if (st->nr || st->ts) {
		c->stack_dropped = true;
		c->stack_dropped_ns = st->ts;
		c->stack_dropped_seq = st->seq;
	}
	st->ts = stack->ts_ns;
	st->seq = stack->seq;
	st->nr = nr;
	memcpy(st->ips, stack->ips, nr * sizeof(*st->ips));
	if (c->hit && aa_stack_of_hit(c, st->ts, st->seq))
		c->stack_found = true;
}

/*
 * Where the earliest window still to be explained can begin: the hit's, or
 * else the current activation's, as later ones begin later; before any
 * sample, anywhere.
 */
static u64 aa_keep_gaps_from(const struct aa_cpu *c)
{
	u64 expected;

	if (!c->hit && !c->cur.have_irq)
		return 0;
	expected = aa_expected_ns(c->hit ? &c->hit_act : &c->cur);
	return expected > AA_SLACK_NS ? expected - AA_SLACK_NS : 0;
}

/*
 * A gap from from_ns up to the next time seen. When the ring is full, the
 * oldest gap goes if it ended before any window still to be explained;
 * otherwise the next oldest takes it in, spanning both: a window between
 * the two then reads as incomplete, never one with a loss as complete.
 */
static void aa_gap_open(struct aa_cpu *c, u64 from_ns)
{
	struct aa_gap *old = &c->gaps[c->gap_next];
	struct aa_gap *next = &c->gaps[(c->gap_next + 1) % AA_MAX_GAPS];

	if ((old->from_ns || old->to_ns) && old->to_ns >= aa_keep_gaps_from(c)) {
		if (old->from_ns < next->from_ns)
			next->from_ns = old->from_ns;
		if (old->to_ns > next->to_ns)
			next->to_ns = old->to_ns;
	}
	*old = (struct aa_gap){ .from_ns = from_ns, .to_ns = UINT64_MAX };
	c->gap_next = (c->gap_next + 1) % AA_MAX_GAPS;
	c->gap_open = true;
}

void aa_lost(struct aa_engine *aa, int cpu)
{
	struct aa_cpu *c = aa_cpu(aa, cpu);

	if (!c || c->gap_open)
		return;
	aa_gap_open(c, c->last_ns);
}

void aa_overwritten(struct aa_engine *aa, int cpu, u64 ts_ns)
{
	struct aa_cpu *c = aa_cpu(aa, cpu);

	if (!c)
		return;
	c->dropped = true;
	if (ts_ns > c->dropped_until_ns)
		c->dropped_until_ns = ts_ns;
}

void aa_rearm(struct aa_engine *aa, int cpu)
{
	/* a CPU that saw nothing has no hit: it gets no state either */
	struct aa_cpu *c = percpu_peek(&aa->cpus, cpu);

	if (!c || !c->hit)
		return;
	c->hit = false;
	c->stack_found = false;
	/* events after the freeze were dropped: a gap up to the next one seen */
	if (!c->gap_open)
		aa_gap_open(c, c->freeze_ns);
}

static void aa_freeze(struct aa_cpu *c, bool irq_stop, u64 at_ns)
{
	c->hit = true;
	c->hit_irq = irq_stop;
	c->hit_act = c->cur;
	c->freeze_ns = at_ns;
	c->next_expected_ns = 0;
	/* a stack saved at the timer IRQ came first: later ones must not push it out */
	for (int i = 0; i < AA_MAX_STACKS; i++)
		if (c->stacks[i].nr && aa_stack_of_hit(c, c->stacks[i].ts, c->stacks[i].seq))
			c->stack_found = true;
}

void aa_set_window(struct aa_engine *aa, u64 from_ns, u64 until_ns)
{
	aa->window_from_ns = from_ns;
	aa->window_until_ns = until_ns;
}

/* the pipeline's rule (core/window.h): a sample alone, or in its activation begun at @began_ns */
static bool aa_in_run(const struct aa_engine *aa, u64 ts_ns, u64 began_ns, bool same_activation)
{
	return window_counts(aa->window_from_ns, aa->window_until_ns, ts_ns, began_ns,
			     same_activation);
}

/*
 * The CPU's measuring thread restarted (tlat.ko's, after a hotplug): its
 * activations count from 1 again. A stack kept from before, of a number the
 * new count has not reached yet, would be taken for the stack of the new
 * activation of that number; it goes. The stack of the activation that
 * showed the restart came just before it, and stays.
 */
static void aa_restarted(struct aa_cpu *c, u32 seq)
{
	for (int i = 0; i < AA_MAX_STACKS; i++)
		if (c->stacks[i].seq && (int32_t)(c->stacks[i].seq - seq) > 0)
			c->stacks[i] = (struct aa_stack){ 0 };
	if (c->stack_dropped && c->stack_dropped_seq &&
	    (int32_t)(c->stack_dropped_seq - seq) > 0)
		c->stack_dropped = false;
}

void aa_add_sample(struct aa_engine *aa, const struct tlat_sample *s)
{
	struct aa_cpu *c = aa_cpu(aa, s->cpu);
	struct aa_activation *a;
	bool counts;

	if (!c)
		return;
	counts = aa_in_run(aa, s->ts_ns, s->ts_ns, false);
	a = &c->cur;
	if (s->ctx == TLAT_CTX_IRQ) {
		if (a->have_irq && a->seq && s->seq && (int32_t)(s->seq - a->seq) <= 0)
			aa_restarted(c, s->seq);
		*a = (struct aa_activation){
			.have_irq = true, .seq = s->seq, .irq_ts = s->ts_ns,
			.irq_latency = s->latency_ns, .irq_pid = s->pid,
		};
		aa_seen(c, s->ts_ns);
		if (c->hit && !c->next_expected_ns && s->seq != c->hit_act.seq)
			c->next_expected_ns = aa_expected_ns(a);
		if (!counts)
			return;
		/* here, not at the thread sample: after an IRQ stop there is none */
		aa_note_idle_exit(aa, s->cpu, c, a);
		if (!c->hit && aa->cfg.irq_threshold_ns && s->latency_ns >= aa->cfg.irq_threshold_ns)
			aa_freeze(c, true, s->ts_ns);
		return;
	}
	if (!a->have_irq || a->seq != s->seq) {
		/*
		 * Its IRQ sample was lost or predates the run: the timerlat
		 * tracer's first activation when tracing came on after its
		 * timer's expiry. A thread over -T in the run is a hit all the
		 * same (tlat counts it, the kernel may stop on it): explained
		 * from the expiry its latency gives and the events, partly.
		 */
		if (!counts || c->hit || !aa->cfg.thread_threshold_ns ||
		    s->latency_ns < aa->cfg.thread_threshold_ns)
			return;
		*a = (struct aa_activation){
			.irq_missing = true, .seq = s->seq,
			.irq_ts = s->ts_ns > s->latency_ns ? s->ts_ns - s->latency_ns : 0,
			.irq_pid = c->have_task ? c->switched_out_pid : 0,
		};
	}
	/* an activation whose IRQ came before -d ran out counts whole, as in the pipeline */
	if (!counts)
		counts = aa_in_run(aa, s->ts_ns, a->irq_ts, true);
	aa_seen(c, s->ts_ns);
	a->have_thread = true;
	a->thread_ts = s->ts_ns;
	a->thread_latency = s->latency_ns;
	a->thread_pid = s->pid;
	if (c->hit && c->hit_irq && c->hit_act.seq == s->seq && !c->hit_act.have_thread)
		c->hit_act = *a;	/* for the record; the IRQ stop stays the story */
	if (counts && !c->hit && aa->cfg.thread_threshold_ns &&
	    s->latency_ns >= aa->cfg.thread_threshold_ns)
		aa_freeze(c, false, s->ts_ns);
}

bool aa_current_task(const struct aa_engine *aa, int cpu, struct aa_task *task)
{
	const struct aa_cpu *c = aa_cpu_peek(aa, cpu);

	if (!c || !c->have_task)
		return false;
	*task = c->task;
	return true;
}
