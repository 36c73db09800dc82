// SPDX-License-Identifier: GPL-2.0
/*
 * tp_thread.c - the tracepoint source's measuring threads: each sleeps on
 * its CPU's period grid and, once awake, ends its activation. With the trace
 * collector it writes its wakeup time to the buffer as a marker, which
 * tracepoints.c pairs with the kernel's events; with the kernel collector
 * (--collector kernel) it completes the activation from the slot the BPF
 * programs wrote (tp_bpf.h) and counts its three samples in its own
 * aggregate (tp_agg.h), which the drain hands on whole, or where the run
 * needs them one by one queues them for the drain.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "core/cpuset.h"
#include "core/threshold.h"
#include "core/window.h"
#include "sources/collect.h"
#include "sources/tracepoints/sample_ring.h"
#include "sources/tracepoints/tp_agg.h"
#include "sources/tracepoints/tp_bpf.h"
#include "sources/tracepoints/tracepoints_local.h"
#include "stats/aggregate.h"
#include "util/clock.h"

/*
 * The kernel collector's queue of each thread holds 2^order samples: two
 * seconds' worth, eight drains, at its period (three samples a period)
 */
#define TP_RING_MIN_ORDER	10
#define TP_RING_SECONDS		2

struct tp_queue {
	struct sample_ring ring;
	u64 dropped;		/* the thread's: activations the programs missed part of */
	u64 lost_drained;	/* ring.lost already counted as lost */
};

/* what each measuring thread keeps */
struct tp_thread {
	u64 next_ns;			/* its next expiry; 0 before the first */
	u64 align_offset_ns;		/* -A: after align_base_ns, by its CPU's rank */
	pid_t tid;
	u32 seq;			/* kernel collector: its activations completed */
};

static int tp_thread_init(void *ctx, int cpu, void **thread_data)
{
	struct tlat_source *src = ctx;
	struct tp_thread *t = calloc(1, sizeof(*t));
	u64 rank = 0;

	if (!t)
		return -ENOMEM;
	for (int c = 0; c < cpu; c++)
		rank += cpuset_has(&src->params->cpus, c);
	t->align_offset_ns = rank * src->params->align_us * 1000;
	t->tid = gettid();
	*thread_data = t;
	return 0;
}

/*
 * Without -A each thread's grid starts one period after it first runs. With
 * it, all grids hang from one time, the k-th measured CPU's k * align_us
 * later, as the kernel's TIMERLAT_ALIGN does (it ranks threads by arrival,
 * tlat by CPU); a thread that comes late skips whole periods, keeping its phase.
 */
static u64 tp_first_expiry(const struct tlat_source *src, const struct tp_thread *t)
{
	u64 period_ns = src->params->period_us * 1000;
	u64 now_ns = mono_now_ns();
	u64 next_ns;

	if (!src->params->aligned)
		return now_ns + period_ns;
	next_ns = src->align_base_ns + t->align_offset_ns;
	if (next_ns <= now_ns)
		next_ns += ((now_ns - next_ns) / period_ns + 1) * period_ns;
	return next_ns;
}

/*
 * The analysis's events are read only after a hit (tracepoints.c): the
 * buffer overwrites its oldest, so it stops now, not when the run's next
 * pass sees the samples (up to a poll later). The run's own check of the
 * samples decides what is a hit; this one only keeps the events.
 */
static void tp_stop_at_hit(struct tlat_source *src, const struct tlat_sample *s)
{
	ssize_t ret;

	for (int ctx = 0; src->stop_fd >= 0 && ctx < TLAT_NR_CTX; ctx++) {
		if (s[ctx].ts_ns >= src->stop_from_ns &&
		    threshold_crossed(&src->params->stop, &s[ctx])) {
			/* if it fails, the run stops it when it sees the hit */
			ret = write(src->stop_fd, "0", 1);
			(void)ret;
			return;
		}
	}
}

/*
 * The pipeline's window rule (core/window.h), for samples that never reach
 * it: the thread has the whole activation, begun at its IRQ sample.
 */
static void tp_aggregate(struct tlat_source *src, int cpu, const struct tlat_sample *s)
{
	u64 began_ns = s[TLAT_CTX_IRQ].ts_ns;
	u64 latency_ns[TLAT_NR_CTX];
	bool counts[TLAT_NR_CTX];

	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		latency_ns[ctx] = s[ctx].latency_ns;
		counts[ctx] = window_counts(src->stop_from_ns, src->window_end_ns, s[ctx].ts_ns,
					    began_ns, true);
	}
	tp_agg_add(src->aggs[cpu], latency_ns, counts);
}

/*
 * The kernel collector's end of an activation: the programs wrote the IRQ
 * and thread latencies to the slot, the thread adds its own, and counts or
 * queues all three, or drops them all if a part is missing or belongs to
 * another sleep.
 */
static void tp_complete_from_slot(struct tlat_source *src, int cpu, struct tp_thread *t,
				  u64 now_ns)
{
	struct tp_bpf_slot *slot = tp_bpf_slot(src->bpf, cpu);
	struct tp_queue *q = &src->queues[cpu];
	u32 seen = __atomic_load_n(&slot->seen, __ATOMIC_ACQUIRE);
	struct tlat_sample s[TLAT_NR_CTX];

	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
		s[ctx] = (struct tlat_sample){ .seq = t->seq, .cpu = cpu, .pid = t->tid, .ctx = ctx };
	s[TLAT_CTX_IRQ].ts_ns = slot->irq_ts_ns;
	s[TLAT_CTX_IRQ].latency_ns = slot->irq_ns;
	s[TLAT_CTX_IRQ].pid = (int)slot->irq_pid;
	s[TLAT_CTX_THREAD].ts_ns = slot->thread_ts_ns;
	s[TLAT_CTX_THREAD].latency_ns = slot->thread_ns;
	s[TLAT_CTX_USER].ts_ns = now_ns;
	s[TLAT_CTX_USER].latency_ns = now_ns > slot->expires_ns ? now_ns - slot->expires_ns : 0;

	/*
	 * Its timer expired before it slept (it was preempted on the way): it
	 * never left the CPU, so no switch-in, and it runs again as it returns.
	 * The trace collector takes the syscall's exit then; a BPF program
	 * there would run on every syscall of the machine.
	 */
	if (seen == TP_BPF_SEEN_IRQ) {
		s[TLAT_CTX_THREAD].ts_ns = now_ns;
		s[TLAT_CTX_THREAD].latency_ns = s[TLAT_CTX_USER].latency_ns;
		seen |= TP_BPF_SEEN_THREAD;
	}
	if (seen == (TP_BPF_SEEN_IRQ | TP_BPF_SEEN_THREAD) && slot->softexpires_ns == t->next_ns) {
		if (src->aggs)
			tp_aggregate(src, cpu, s);
		else
			for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
				sample_ring_push(&q->ring, &s[ctx]);
		t->seq++;
		tp_stop_at_hit(src, s);
	} else {
		__atomic_store_n(&q->dropped, q->dropped + 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&slot->seen, 0, __ATOMIC_RELEASE);
}

/*
 * Sleep with an absolute CLOCK_MONOTONIC expiry, so that the kernel arms
 * exactly the time we chose and the tracepoints can be compared with it; then
 * put our own wakeup time in the buffer. Missed periods are skipped, as the
 * kernel's timerlat threads do, not made up in a burst.
 */
static int tp_activate(void *ctx, int cpu, void *thread_data)
{
	struct tlat_source *src = ctx;
	u64 period_ns = src->params->period_us * 1000;
	struct tp_thread *t = thread_data;
	struct tp_marker m = { .id = TP_MARKER_ID, .cpu = cpu };
	struct timespec ts;
	u64 now_ns;

	/*
	 * First, a marker with no times: it names this thread (the event's
	 * pid) before its first timer, for a decoder of a recording.
	 */
	if (!t->next_ns) {
		if (tp_writes_markers(src))
			tracefs_binary_write(src->session->inst, &m, sizeof(m));
		t->next_ns = tp_first_expiry(src, t);
	}
	ts.tv_sec = t->next_ns / 1000000000ull;
	ts.tv_nsec = t->next_ns % 1000000000ull;
	if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		return -EINTR;
	m.now_ns = mono_now_ns();
	if (src->bpf)
		tp_complete_from_slot(src, cpu, t, m.now_ns);
	if (tp_writes_markers(src)) {
		m.requested_ns = t->next_ns;
		tracefs_binary_write(src->session->inst, &m, sizeof(m));
	}

	now_ns = mono_now_ns();
	do
		t->next_ns += period_ns;
	while (t->next_ns <= now_ns);
	return 0;
}

static void tp_thread_exit(void *ctx, int cpu, void *thread_data)
{
	(void)ctx;
	(void)cpu;
	free(thread_data);
}

const struct workload_ops tp_workload_ops = {
	.thread_init = tp_thread_init,
	.activate = tp_activate,
	.thread_exit = tp_thread_exit,
};

/* an aggregate for each CPU's thread, and the drain's copy */
static int tp_aggs_alloc(struct tlat_source *src)
{
	int nr_cpus = src->params->cpus.nr_cpus;

	src->aggs = calloc(nr_cpus, sizeof(*src->aggs));
	src->agg_snap = malloc(sizeof(*src->agg_snap));
	if (!src->aggs || !src->agg_snap)
		return -ENOMEM;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		if (!workload_tid(src->wl, cpu))
			continue;
		src->aggs[cpu] = tp_agg_alloc();
		if (!src->aggs[cpu])
			return -ENOMEM;
	}
	return 0;
}

int tp_queues_alloc(struct tlat_source *src)
{
	int nr_cpus = src->params->cpus.nr_cpus;
	u64 per_s = 3 * 1000000ull / src->params->period_us * TP_RING_SECONDS;
	unsigned int order = TP_RING_MIN_ORDER;

	/* the dropped activations are counted there either way */
	src->queues = calloc(nr_cpus, sizeof(*src->queues));
	if (!src->queues)
		return -ENOMEM;
	src->queue_why = src->beside ? "--collector both" : collect_needs_samples(src->params);
	if (!src->queue_why)
		return tp_aggs_alloc(src);
	while ((1ull << order) < per_s)
		order++;
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (workload_tid(src->wl, cpu) && sample_ring_init(&src->queues[cpu].ring, order))
			return -ENOMEM;
	return 0;
}

void tp_queues_free(struct tlat_source *src)
{
	for (int cpu = 0; src->aggs && cpu < src->params->cpus.nr_cpus; cpu++)
		tp_agg_free(src->aggs[cpu]);
	free(src->aggs);
	src->aggs = NULL;
	free(src->agg_snap);
	src->agg_snap = NULL;
	for (int cpu = 0; src->queues && cpu < src->params->cpus.nr_cpus; cpu++)
		sample_ring_free(&src->queues[cpu].ring);
	free(src->queues);
	src->queues = NULL;
}

/*
 * Each CPU's aggregate whole, as the module source's kernel collector hands
 * over tlat.ko's: the cost of a pass is per CPU, whatever the rate
 */
static void tp_drain_aggs(struct tlat_source *src, struct tlat_sink *sink, u64 *processed)
{
	struct tp_agg_snapshot *snap = src->agg_snap;
	u64 total = 0;

	for (int cpu = 0; cpu < src->params->cpus.nr_cpus; cpu++) {
		if (!src->aggs[cpu])
			continue;
		tp_agg_read(src->aggs[cpu], snap);
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			const struct tp_agg_ctx *c = &snap->ctx[ctx];

			/* buckets only where there is something, as the sink expects */
			sink->aggregate(sink, cpu, ctx, &c->stat,
					c->stat.count ? c->buckets : NULL);
			total += c->stat.count;
		}
	}
	*processed += total - src->agg_drained;
	src->agg_drained = total;
}

int tp_drain(struct tlat_source *src, struct tlat_sink *sink, u64 *processed, u64 *lost,
	     char *err)
{
	struct tlat_sample s;

	(void)err;
	if (!src->bpf)
		return 1;
	if (src->aggs) {
		tp_drain_aggs(src, sink, processed);
		return 0;
	}
	for (int cpu = 0; cpu < src->params->cpus.nr_cpus; cpu++) {
		struct tp_queue *q = &src->queues[cpu];
		u64 ring_lost;

		if (!q->ring.buf)
			continue;
		while (sample_ring_pop(&q->ring, &s)) {
			/* up to -d's end, as the run's window: its stop may come late */
			if (src->beside) {
				if (src->window_end_ns && s.ts_ns >= src->window_end_ns)
					continue;
				agg_add_stat(src->beside_agg, s.cpu, s.ctx, s.latency_ns);
				agg_add_loglinear(src->beside_agg, s.cpu, s.ctx, s.latency_ns);
				continue;
			}
			sink->sample(sink, &s);
			(*processed)++;
		}
		ring_lost = __atomic_load_n(&q->ring.lost, __ATOMIC_RELAXED);
		*(src->beside ? &src->beside_lost : lost) += ring_lost - q->lost_drained;
		q->lost_drained = ring_lost;
	}
	/* --collector both: the run's samples are the trace's */
	return src->beside ? 1 : 0;
}

u64 tp_queues_dropped(const struct tlat_source *src)
{
	u64 dropped = 0;

	for (int cpu = 0; cpu < src->params->cpus.nr_cpus; cpu++)
		dropped += src->queues[cpu].dropped;
	return dropped;
}
