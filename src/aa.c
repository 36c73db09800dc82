// SPDX-License-Identifier: GPL-2.0
/*
 * aa.c - the auto-analysis engine (see aa.h). rtla's timerlat_aa.c runs a
 * state machine over the events in buffer order and trusts the last cycle
 * in the buffer to be the one that stopped tracing. That holds only when
 * the kernel stops the buffer at the offending sample. Here samples may
 * arrive after the events they explain (the tracepoint source completes an
 * activation only at its user return), and tracing may go on after the hit.
 * So each CPU keeps a bounded history in arrival order, freezes the first
 * activation that crossed a threshold, and explains it by time.
 */
#include <stdlib.h>
#include <string.h>

#include "aa.h"

#define AA_DEFAULT_HISTORY	8192
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

#define AA_MAX_GAPS	8

struct aa_gap {
	u64 from_ns;
	u64 to_ns;
};

/* one activation, as its samples describe it */
struct aa_activation {
	bool have_irq;
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
	int nr;
	u64 ips[AA_MAX_FRAMES];
};

struct aa_cpu {
	struct aa_event *ring;
	size_t head;		/* next slot to write */
	size_t count;
	struct aa_activation cur;
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
	struct aa_stack stack;
	struct aa_stack stacks[AA_MAX_STACKS];
	int stack_next;
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
};

struct aa_engine {
	struct aa_config cfg;
	struct aa_cpu *cpus;
	u64 window_from_ns;
	u64 window_until_ns;		/* 0: no end */
	bool have_idle_exit;
	u64 max_idle_exit_ns;
	int max_idle_exit_cpu;
};

struct aa_engine *aa_alloc(const struct aa_config *config)
{
	struct aa_engine *aa = calloc(1, sizeof(*aa));

	if (!aa)
		return NULL;
	aa->cfg = *config;
	if (!aa->cfg.history)
		aa->cfg.history = AA_DEFAULT_HISTORY;
	aa->cpus = calloc(config->nr_cpus, sizeof(*aa->cpus));
	if (!aa->cpus) {
		free(aa);
		return NULL;
	}
	/* the rings are allocated at the first event: only measured CPUs have one */
	return aa;
}

void aa_free(struct aa_engine *aa)
{
	if (!aa)
		return;
	for (int cpu = 0; cpu < aa->cfg.nr_cpus; cpu++)
		free(aa->cpus[cpu].ring);
	free(aa->cpus);
	free(aa);
}

static struct aa_cpu *aa_cpu(const struct aa_engine *aa, int cpu)
{
	return cpu >= 0 && cpu < aa->cfg.nr_cpus ? &aa->cpus[cpu] : NULL;
}

/* the i-th newest event (0 = newest) */
static const struct aa_event *aa_nth_newest(const struct aa_engine *aa, const struct aa_cpu *c,
					    size_t i)
{
	size_t size = aa->cfg.history;

	return &c->ring[(c->head + size - 1 - i) % size];
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
	if (!c->ring) {
		c->ring = calloc(aa->cfg.history, sizeof(*c->ring));
		if (!c->ring)
			return;	/* no history: the analysis says what it lacks */
	}
	c->ring[c->head] = *ev;
	c->head = (c->head + 1) % aa->cfg.history;
	if (c->count < aa->cfg.history)
		c->count++;
}

void aa_add_interval(struct aa_engine *aa, const struct aa_interval *iv)
{
	struct aa_cpu *c = aa_cpu(aa, iv->cpu);
	struct aa_event ev = { .kind = AA_EV_INTERVAL, .iv = *iv };

	if (!c)
		return;
	aa_seen(c, iv->end_ns);
	if (c->hit && iv->start_ns > c->freeze_ns)
		return;
	aa_push(aa, c, &ev);
}

void aa_add_switch(struct aa_engine *aa, const struct aa_switch *sw)
{
	struct aa_cpu *c = aa_cpu(aa, sw->cpu);
	struct aa_event ev = { .kind = AA_EV_SWITCH, .sw = *sw };

	if (!c)
		return;
	aa_seen(c, sw->ts_ns);
	c->have_task = true;
	c->task.pid = sw->next_pid;
	memcpy(c->task.comm, sw->next_comm, sizeof(c->task.comm));
	/* the work item was the previous task's */
	c->task.work = 0;
	c->task.work_func = 0;
	if (c->hit && sw->ts_ns > c->freeze_ns)
		return;
	aa_push(aa, c, &ev);
}

void aa_add_work(struct aa_engine *aa, int cpu, u64 ts_ns, u64 work, u64 work_func)
{
	struct aa_cpu *c = aa_cpu(aa, cpu);

	if (!c)
		return;
	aa_seen(c, ts_ns);
	c->task.work = work;
	c->task.work_func = work_func;
}

static u64 aa_expected_ns(const struct aa_activation *a)
{
	return a->irq_ts > a->irq_latency ? a->irq_ts - a->irq_latency : 0;
}

/* whether a stack saved at ts_ns can be the hit activation's */
static bool aa_stack_of_hit(const struct aa_cpu *c, u64 ts_ns)
{
	return ts_ns >= aa_expected_ns(&c->hit_act) &&
	       (!c->next_expected_ns || ts_ns < c->next_expected_ns);
}

void aa_add_stack(struct aa_engine *aa, int cpu, u64 ts_ns, const u64 *ips, int nr)
{
	struct aa_cpu *c = aa_cpu(aa, cpu);
	struct aa_stack *st;

	/* after a hit, the stacks of later activations would push its own out */
	if (!c || c->stack_found)
		return;
	if (nr > AA_MAX_FRAMES)
		nr = AA_MAX_FRAMES;
	st = &c->stacks[c->stack_next];
	c->stack_next = (c->stack_next + 1) % AA_MAX_STACKS;
	st->ts = ts_ns;
	st->nr = nr;
	memcpy(st->ips, ips, nr * sizeof(*ips));
	if (c->hit && aa_stack_of_hit(c, ts_ns))
		c->stack_found = true;
}

void aa_lost(struct aa_engine *aa, int cpu)
{
	struct aa_cpu *c = aa_cpu(aa, cpu);

	if (!c || c->gap_open)
		return;
	c->gaps[c->gap_next] = (struct aa_gap){ .from_ns = c->last_ns, .to_ns = UINT64_MAX };
	c->gap_next = (c->gap_next + 1) % AA_MAX_GAPS;
	c->gap_open = true;
}

void aa_rearm(struct aa_engine *aa, int cpu)
{
	struct aa_cpu *c = aa_cpu(aa, cpu);

	if (!c || !c->hit)
		return;
	c->hit = false;
	c->stack_found = false;
	/* events after the freeze were dropped: a gap up to the next one seen */
	if (!c->gap_open) {
		c->gaps[c->gap_next] = (struct aa_gap){ .from_ns = c->freeze_ns,
							.to_ns = UINT64_MAX };
		c->gap_next = (c->gap_next + 1) % AA_MAX_GAPS;
		c->gap_open = true;
	}
}

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
		u64 end = ev->kind == AA_EV_SWITCH ? ev->sw.ts_ns : iv->end_ns;

		if (end + AA_SLACK_NS < expected)
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

static void aa_note_idle_exit(struct aa_engine *aa, int cpu, const struct aa_activation *a)
{
	const struct aa_cpu *c = &aa->cpus[cpu];
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

static void aa_freeze(struct aa_cpu *c, bool irq_stop, u64 at_ns)
{
	c->hit = true;
	c->hit_irq = irq_stop;
	c->hit_act = c->cur;
	c->freeze_ns = at_ns;
	c->next_expected_ns = 0;
}

void aa_set_window(struct aa_engine *aa, u64 from_ns, u64 until_ns)
{
	aa->window_from_ns = from_ns;
	aa->window_until_ns = until_ns;
}

static bool aa_in_run(const struct aa_engine *aa, u64 ts_ns)
{
	return ts_ns >= aa->window_from_ns && (!aa->window_until_ns || ts_ns <= aa->window_until_ns);
}

void aa_add_sample(struct aa_engine *aa, const struct tlat_sample *s)
{
	struct aa_cpu *c = aa_cpu(aa, s->cpu);
	struct aa_activation *a;
	bool counts;

	if (!c)
		return;
	counts = aa_in_run(aa, s->ts_ns);
	a = &c->cur;
	if (s->ctx == TLAT_CTX_IRQ) {
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
		aa_note_idle_exit(aa, s->cpu, a);
		if (!c->hit && aa->cfg.irq_threshold_ns && s->latency_ns >= aa->cfg.irq_threshold_ns)
			aa_freeze(c, true, s->ts_ns);
		return;
	}
	if (!a->have_irq || a->seq != s->seq)
		return;		/* its IRQ sample was lost or predates the run */
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

static void aa_part_add(struct aa_part *p, long long id, const char *name, u64 ns)
{
	p->sum_ns += ns;
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
		const struct aa_event *ev = aa_nth_newest(aa, c, i);
		u64 t = ev->kind == AA_EV_SWITCH ? ev->sw.ts_ns : ev->iv.end_ns;

		if (t < from)
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
		const struct aa_switch *sw = &aa_nth_newest(aa, c, i)->sw;

		if (aa_nth_newest(aa, c, i)->kind != AA_EV_SWITCH || sw->ts_ns < w0)
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

static void aa_pick_stack(const struct aa_cpu *c, struct aa_result *res)
{
	const struct aa_stack *best = NULL;

	for (int i = 0; i < AA_MAX_STACKS; i++) {
		const struct aa_stack *st = &c->stacks[i];

		if (!st->nr || !aa_stack_of_hit(c, st->ts))
			continue;
		if (!best || st->ts < best->ts)
			best = st;
	}
	if (!best)
		return;
	res->nr_frames = best->nr;
	memcpy(res->frames, best->ips, best->nr * sizeof(*best->ips));
}

static bool aa_gap_in(const struct aa_cpu *c, u64 from, u64 to)
{
	for (int i = 0; i < AA_MAX_GAPS; i++) {
		const struct aa_gap *g = &c->gaps[i];

		if ((g->from_ns || g->to_ns) && g->from_ns <= to && g->to_ns >= from)
			return true;
	}
	return false;
}

bool aa_result(const struct aa_engine *aa, int cpu, struct aa_result *res)
{
	const struct aa_cpu *c = aa_cpu(aa, cpu);
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
	res->complete = c->ring && !aa_gap_in(c, aa_expected_ns(a) - AA_SLACK_NS,
					     c->hit_irq ? a->irq_ts : a->thread_ts);
	res->irq_latency_ns = a->irq_latency;
	res->thread_latency_ns = a->thread_latency;
	res->total_ns = res->irq_stop ? a->irq_latency : a->thread_latency;
	res->blocking_pid = a->irq_pid;
	if (!c->ring)
		return true;

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
	if (aa->cfg.stack_threshold_ns && res->total_ns >= aa->cfg.stack_threshold_ns)
		aa_pick_stack(c, res);
	return true;
}

bool aa_max_idle_exit(const struct aa_engine *aa, u64 *latency_ns, int *cpu)
{
	*latency_ns = aa->max_idle_exit_ns;
	*cpu = aa->max_idle_exit_cpu;
	return aa->have_idle_exit;
}

bool aa_current_task(const struct aa_engine *aa, int cpu, struct aa_task *task)
{
	const struct aa_cpu *c = aa_cpu(aa, cpu);

	if (!c || !c->have_task)
		return false;
	*task = c->task;
	return true;
}
