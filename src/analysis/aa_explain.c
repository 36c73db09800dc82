// SPDX-License-Identifier: GPL-2.0
/*
 * aa_explain.c - the explanation of a frozen hit (see aa.h), by time, from
 * what aa.c kept of the CPU's events: the timer IRQ and an IRQ that delayed
 * it, the interference inside the window from the timer IRQ to the sample
 * that crossed, net of what nested in it, who ran from the switches, the
 * stack, and whether the activation woke the CPU from idle.
 */
#include <string.h>

#include "analysis/aa_state.h"

/*
 * The timer IRQ is the IRQ that was running when the IRQ sample was taken;
 * the IRQ before it, if it ran past the expected expiry, delayed it.
 */
static void aa_find_timer_irq(const struct aa_engine *aa, const struct aa_cpu *c,
			      const struct aa_activation *a, const struct aa_interval **timer,
			      const struct aa_interval **prev)
{
	u64 expected = aa_expected_ns(a);

	*timer = NULL;
	*prev = NULL;
	/* newest first; events arrive when they end, so ends only decrease */
	for (size_t i = 0; i < c->count; i++) {
		const struct aa_event *ev = aa_nth_newest(aa, c, i);
		const struct aa_interval *iv = &ev->iv;

		if (aa_event_ns(ev) + AA_SLACK_NS < expected)
			break;	/* neither the timer IRQ nor one that delayed it */
		if (ev->kind != AA_EV_INTERVAL || (iv->cls != AA_IRQ && iv->cls != AA_NMI) ||
		    iv->start_ns > a->irq_ts)
			continue;
		if (!*timer && iv->cls == AA_IRQ && iv->end_ns >= a->irq_ts)
			*timer = iv;
		else if (!*prev && iv->end_ns < a->irq_ts &&
			 (!*timer || iv->start_ns < (*timer)->start_ns))
			*prev = iv;
	}
}

static bool aa_prev_delayed(const struct aa_interval *prev, const struct aa_interval *timer,
			    u64 expected)
{
	return prev && prev->end_ns > expected && (!timer || prev->start_ns < timer->start_ns);
}

void aa_note_idle_exit(struct aa_engine *aa, int cpu, const struct aa_cpu *c,
		       const struct aa_activation *a)
{
	const struct aa_interval *timer, *prev;

	if (a->irq_pid != 0)
		return;
	aa_find_timer_irq(aa, c, a, &timer, &prev);
	if (aa_prev_delayed(prev, timer, aa_expected_ns(a)))
		return;		/* late because of that IRQ, not because of idle */
	if (!aa->have_idle_exit || a->irq_latency >= aa->max_idle_exit_ns) {
		aa->have_idle_exit = true;
		aa->max_idle_exit_ns = a->irq_latency;
		aa->max_idle_exit_cpu = cpu;
	}
}

bool aa_max_idle_exit(const struct aa_engine *aa, u64 *latency_ns, int *cpu)
{
	*latency_ns = aa->max_idle_exit_ns;
	*cpu = aa->max_idle_exit_cpu;
	return aa->have_idle_exit;
}

static void aa_part_add(struct aa_part *p, long long id, const char *name, u64 ns)
{
	p->sum_ns += ns;
	if (p->nr_occs < AA_MAX_OCCS) {
		p->occs[p->nr_occs].id = id;
		memcpy(p->occs[p->nr_occs].name, name, AA_NAME_LEN);
		p->occs[p->nr_occs].ns = ns;
		p->nr_occs++;
	} else {
		p->nr_other_occs++;
		p->other_occs_ns += ns;
	}
	for (int i = 0; i < p->nr_lines; i++) {
		if (p->lines[i].id == id && !strcmp(p->lines[i].name, name)) {
			p->lines[i].ns += ns;
			return;
		}
	}
	if (p->nr_lines == AA_MAX_LINES) {
		p->other_ns += ns;
		return;
	}
	p->lines[p->nr_lines].id = id;
	memcpy(p->lines[p->nr_lines].name, name, AA_NAME_LEN);
	p->lines[p->nr_lines].ns = ns;
	p->nr_lines++;
}

static void aa_comm_of(const struct aa_engine *aa, const struct aa_cpu *c, int pid, char *comm)
{
	comm[0] = '\0';
	for (size_t i = 0; i < c->count; i++) {
		const struct aa_event *ev = aa_nth_newest(aa, c, i);

		if (ev->kind == AA_EV_SWITCH && ev->sw.next_pid == pid) {
			memcpy(comm, ev->sw.next_comm, AA_NAME_LEN);
			return;
		}
		if (ev->kind == AA_EV_SWITCH && ev->sw.prev_pid == pid) {
			memcpy(comm, ev->sw.prev_comm, AA_NAME_LEN);
			return;
		}
		if (ev->kind == AA_EV_INTERVAL && ev->iv.cls == AA_THREAD && ev->iv.id == pid) {
			memcpy(comm, ev->iv.name, AA_NAME_LEN);
			return;
		}
	}
}

/* the oldest event of the window [from, ...): the scans below go forwards */
static size_t aa_window_first(const struct aa_engine *aa, const struct aa_cpu *c, u64 from)
{
	size_t i;

	for (i = 0; i < c->count; i++) {
		if (aa_event_ns(aa_nth_newest(aa, c, i)) < from)
			break;
	}
	return i;	/* aa_nth_newest(i - 1) is the oldest event at or after from */
}

/*
 * Where an interference counts in the window [w0, w1): one that was already
 * running when the window opened (a softirq the timer IRQ interrupted)
 * counts from w0 on, net of what nested in it since, as osnoise restarts
 * its measurement at the timer IRQ.
 */
static bool aa_in_window(const struct aa_engine *aa, const struct aa_cpu *c,
			 const struct aa_interval *iv, u64 w0, u64 w1, u64 *net)
{
	u64 nested = 0, wall;

	if (iv->cls == AA_THREAD)
		return false;
	if (iv->start_ns >= w0) {
		*net = iv->net_ns;
		return iv->start_ns < w1;
	}
	if (iv->end_ns <= w0)
		return false;
	for (size_t i = aa_window_first(aa, c, w0); i-- > 0;) {
		const struct aa_event *ev = aa_nth_newest(aa, c, i);

		if (ev->kind == AA_EV_INTERVAL && &ev->iv != iv && ev->iv.cls != AA_THREAD &&
		    ev->iv.start_ns >= w0 && ev->iv.end_ns <= iv->end_ns)
			nested += ev->iv.net_ns;
	}
	wall = iv->end_ns - w0;
	*net = wall > nested ? wall - nested : 0;
	if (*net > iv->net_ns)
		*net = iv->net_ns;
	return true;
}

/* IRQ, softirq, NMI and (as intervals) thread interference inside [w0, w1) */
static void aa_sum_intervals(const struct aa_engine *aa, const struct aa_cpu *c,
			     const struct aa_interval *timer, u64 w0, u64 w1,
			     int thread_pid, struct aa_result *res, bool irq_stop)
{
	bool blocking_found = false;
	u64 net;

	for (size_t i = aa_window_first(aa, c, w0); i-- > 0;) {
		const struct aa_event *ev = aa_nth_newest(aa, c, i);
		const struct aa_interval *iv = &ev->iv;

		if (ev->kind != AA_EV_INTERVAL || iv == timer)
			continue;
		if (iv->cls == AA_THREAD) {
			/* osnoise emits thread noise at the switch that ends it */
			if (irq_stop || iv->end_ns <= w0 || iv->end_ns > w1 || iv->id == thread_pid)
				continue;
			if (!blocking_found && iv->id == res->blocking_pid) {
				blocking_found = true;
				res->blocking_ns = iv->net_ns;
				memcpy(res->blocking_comm, iv->name, AA_NAME_LEN);
			} else {
				aa_part_add(&res->parts[AA_THREAD], iv->id, iv->name, iv->net_ns);
			}
			continue;
		}
		if (!aa_in_window(aa, c, iv, w0, w1, &net))
			continue;
		if (irq_stop && iv->cls != AA_NMI)
			continue;
		aa_part_add(&res->parts[iv->cls], iv->id, iv->name, net);
	}
}

/* the net time of [from, to) not taken by IRQs, softirqs or NMIs */
static u64 aa_net_thread_time(const struct aa_engine *aa, const struct aa_cpu *c, u64 from, u64 to)
{
	u64 busy = 0, net;

	for (size_t i = aa_window_first(aa, c, from); i-- > 0;) {
		const struct aa_event *ev = aa_nth_newest(aa, c, i);

		if (ev->kind == AA_EV_INTERVAL && aa_in_window(aa, c, &ev->iv, from, to, &net))
			busy += net;
	}
	return to - from > busy ? to - from - busy : 0;
}

/*
 * Who ran between the start of the timer IRQ and the thread, from the
 * switches: the interrupted task first (the blocking thread, as long as it
 * kept the CPU), then whoever the scheduler picked before the thread.
 */
static void aa_threads_from_switches(const struct aa_engine *aa, const struct aa_cpu *c,
				     u64 w0, u64 w1, int thread_pid, struct aa_result *res)
{
	int pid = res->blocking_pid;
	char comm[AA_NAME_LEN];
	bool first = true;
	u64 seg_start = w0;
	u64 ns;

	memcpy(comm, res->blocking_comm, AA_NAME_LEN);
	for (size_t i = aa_window_first(aa, c, w0); i-- > 0;) {
		const struct aa_event *ev = aa_nth_newest(aa, c, i);
		const struct aa_switch *sw = &ev->sw;

		if (ev->kind != AA_EV_SWITCH || sw->ts_ns < w0)
			continue;
		if (sw->ts_ns >= w1)
			break;
		/* the switch knows best who it switched away from */
		pid = sw->prev_pid;
		if (sw->prev_comm[0])
			memcpy(comm, sw->prev_comm, AA_NAME_LEN);
		ns = aa_net_thread_time(aa, c, seg_start, sw->ts_ns);
		if (first && pid == res->blocking_pid) {
			res->blocking_ns = ns;
			memcpy(res->blocking_comm, comm, AA_NAME_LEN);
		} else if (pid != thread_pid) {
			aa_part_add(&res->parts[AA_THREAD], pid, comm, ns);
		}
		first = false;
		pid = sw->next_pid;
		memcpy(comm, sw->next_comm, AA_NAME_LEN);
		seg_start = sw->ts_ns;
	}
	if (pid == thread_pid)
		return;
	/* the thread's own switch-in was not traced: who ran kept the CPU to the end */
	ns = aa_net_thread_time(aa, c, seg_start, w1);
	if (first && pid == res->blocking_pid)
		res->blocking_ns = ns;
	else
		aa_part_add(&res->parts[AA_THREAD], pid, comm, ns);
}

/*
 * The hit's stack: its activation's, or where the source does not say, the
 * first saved after its expiry. False if a stack that may have been it was
 * pushed out of the ring.
 */
static bool aa_pick_stack(const struct aa_cpu *c, struct aa_result *res)
{
	const struct aa_stack *best = NULL;
	bool whole = !c->stack_dropped ||
		     aa_stack_before_hit(c, c->stack_dropped_ns, c->stack_dropped_seq);

	for (int i = 0; i < AA_MAX_STACKS; i++) {
		const struct aa_stack *st = &c->stacks[i];

		if (!st->nr || !aa_stack_of_hit(c, st->ts, st->seq))
			continue;
		if (!best || st->ts < best->ts)
			best = st;
	}
	if (best) {
		res->nr_frames = best->nr;
		memcpy(res->frames, best->ips, best->nr * sizeof(*best->ips));
	}
	return whole;
}

/*
 * Whether events of [from, to] may be missing: the kernel lost some there,
 * or the history no longer reaches back to from.
 */
static bool aa_lost_in(const struct aa_cpu *c, u64 from, u64 to)
{
	if (c->dropped && c->dropped_until_ns >= from)
		return true;
	for (int i = 0; i < AA_MAX_GAPS; i++) {
		const struct aa_gap *g = &c->gaps[i];

		if ((g->from_ns || g->to_ns) && g->from_ns <= to && g->to_ns >= from)
			return true;
	}
	return false;
}

bool aa_result(const struct aa_engine *aa, int cpu, struct aa_result *res)
{
	const struct aa_cpu *c = aa_cpu_peek(aa, cpu);
	const struct aa_activation *a;
	const struct aa_interval *timer, *prev;
	u64 expected, w0, w1, explained;

	if (!c || !c->hit)
		return false;
	a = &c->hit_act;
	memset(res, 0, sizeof(*res));
	res->cpu = cpu;
	res->seq = a->seq;
	res->irq_stop = c->hit_irq;
	res->complete = c->count && !a->irq_missing &&
			!aa_lost_in(c, aa_expected_ns(a) - AA_SLACK_NS,
				    c->hit_irq ? a->irq_ts : a->thread_ts);
	res->irq_latency_ns = a->irq_latency;
	res->thread_latency_ns = a->thread_latency;
	res->total_ns = res->irq_stop ? a->irq_latency : a->thread_latency;
	res->blocking_pid = a->irq_pid;
	/*
	 * The stack is the source's, saved at the timer IRQ, not a kept event:
	 * a hit before any event was kept on its CPU (its first activation)
	 * has it too
	 */
	if (aa->cfg.stack_threshold_ns && res->total_ns >= aa->cfg.stack_threshold_ns &&
	    !aa_pick_stack(c, res))
		res->complete = false;
	if (!c->count)
		return true;	/* no event was kept: only what the samples said */

	expected = aa_expected_ns(a);
	aa_find_timer_irq(aa, c, a, &timer, &prev);
	if (timer) {
		res->timer_irq_seen = true;
		res->timer_irq_ns = timer->net_ns;
		/* clamped: the trace clock and the timer's clock can disagree */
		res->irq_delay_ns = timer->start_ns > expected ? timer->start_ns - expected : 0;
	}
	if (aa_prev_delayed(prev, timer, expected))
		res->prev_irq_ns = prev->net_ns;
	else if (a->irq_pid == 0)
		res->exit_from_idle = true;
	aa_comm_of(aa, c, a->irq_pid, res->blocking_comm);

	w0 = timer ? timer->start_ns : expected;
	w1 = res->irq_stop ? a->irq_ts : a->thread_ts;
	aa_sum_intervals(aa, c, timer, w0, w1, a->thread_pid, res, res->irq_stop);
	if (!res->irq_stop && aa->cfg.threads_from_switches)
		aa_threads_from_switches(aa, c, w0, w1, a->thread_pid, res);

	if (!res->irq_stop) {
		explained = res->irq_delay_ns + res->timer_irq_ns + res->blocking_ns;
		for (int cls = 0; cls < AA_NR_CLASS; cls++)
			explained += res->parts[cls].sum_ns;
		res->unexplained_ns = (long long)res->total_ns - (long long)explained;
	}
	return true;
}
