// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline.c - the sample fan-out (see pipeline.h). Kernel sources stop
 * their instance themselves at a threshold; the check here also covers the
 * sources that cannot, the time before the kernel's stops are armed, and
 * samples of a kernel stop already in flight. Nothing after the offending
 * sample counts.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "core/threshold.h"
#include "core/window.h"
#include "run/pipeline.h"

static bool in_window(const struct pipeline *pl, u64 ts_ns)
{
	return ts_ns >= pl->from_ns && (!pl->until_ns || ts_ns <= pl->until_ns);
}

/*
 * A CPU's latest activation, the array grown as CPUs appear; NULL for a CPU
 * the run cannot hold (a damaged recording's) or without memory.
 */
static struct pipeline_activation *activation_of(struct pipeline *pl, int cpu)
{
	struct pipeline_activation *a;

	if (cpu < 0 || cpu >= pl->params->cpus.nr_cpus)
		return NULL;
	if (cpu >= pl->nr_activations) {
		a = reallocarray(pl->activations, cpu + 1, sizeof(*a));
		if (!a)
			return NULL;
		for (int i = pl->nr_activations; i <= cpu; i++)
			a[i] = (struct pipeline_activation){ .last_ctx = TLAT_NR_CTX };
		pl->activations = a;
		pl->nr_activations = cpu + 1;
	}
	return &pl->activations[cpu];
}

/*
 * Whether @sample counts: in the window, or past its end in an activation
 * that began before it, so that an activation whose IRQ came before -d ran
 * out counts its thread and user return too. The rest of an activation
 * comes after its first sample on that CPU in context order (IRQ, thread,
 * user); a sample that does not follow its CPU's last one so begins another.
 * The window's start stays per sample: the kernel's stops, armed as the
 * warm-up ends, check a thread sample whose IRQ came before, and so does
 * rtla's count. Without memory for the CPU, each sample is judged alone.
 */
static bool activation_step(const struct pipeline *pl, struct pipeline_activation *a,
			    const struct tlat_sample *sample)
{
	bool same;

	if (!a)
		return in_window(pl, sample->ts_ns);
	same = a->last_ctx != TLAT_NR_CTX && a->seq == sample->seq && sample->ctx > a->last_ctx;
	if (!same)
		*a = (struct pipeline_activation){ .seq = sample->seq, .began_ns = sample->ts_ns };
	a->last_ctx = sample->ctx;
	return window_counts(pl->from_ns, pl->until_ns, sample->ts_ns, a->began_ns, same);
}

static bool activation_in_window(struct pipeline *pl, const struct tlat_sample *sample)
{
	return activation_step(pl, activation_of(pl, sample->cpu), sample);
}

/* whether @a comes after @b in time order across CPUs */
static bool sample_after(const struct tlat_sample *a, const struct tlat_sample *b)
{
	return a->ts_ns > b->ts_ns || (a->ts_ns == b->ts_ns && a->cpu > b->cpu);
}

/*
 * The last warm-up sample over a threshold whose CPU wrote nothing after
 * it: in time order, each such sample replaces the one before and its
 * CPU's next sample clears it. Delivered CPU by CPU, the pass's latest
 * candidate is kept, and whether its CPU (or that of the one before the
 * pass) went on, so that the pass ends as in time order.
 */
static void early_track(struct pipeline *pl, const struct tlat_sample *sample, bool candidate)
{
	if (!pl->cpu_order) {
		if (pl->early_seen && pl->early.cpu == sample->cpu)
			pl->early_seen = false;
		if (candidate) {
			pl->early = *sample;
			pl->early_seen = true;
		}
		return;
	}
	if (pl->early_seen && pl->early.cpu == sample->cpu)
		pl->early_followed = true;
	if (pl->cand_seen && pl->cand.cpu == sample->cpu && sample_after(sample, &pl->cand))
		pl->cand_followed = true;
	if (candidate && (!pl->cand_seen || sample_after(sample, &pl->cand))) {
		pl->cand = *sample;
		pl->cand_seen = true;
		pl->cand_followed = false;
	}
}

static void pipeline_count(struct pipeline *pl, const struct tlat_sample *sample, bool counts)
{
	for (int i = 0; i < pl->nr_consumers; i++)
		if (counts || pl->consumers[i].ops->whole_run)
			pl->consumers[i].ops->sample(pl->consumers[i].priv, sample);
}

/* the one rule: a sample that counts and crosses a threshold stops the run there */
static void pipeline_check(struct pipeline *pl, const struct tlat_sample *sample)
{
	if (!threshold_crossed(&pl->params->stop, sample))
		return;
	pl->stopped = true;
	pl->hit_seen = true;
	pl->hit = *sample;
}

static void pipeline_sample(struct tlat_sink *sink, const struct tlat_sample *sample)
{
	struct pipeline *pl = (struct pipeline *)sink;
	bool counts;

	if (pl->stopped)
		return;
	counts = activation_in_window(pl, sample);
	pipeline_count(pl, sample, counts);
	/*
	 * The kernel checks a sample after writing it: one written as the
	 * warm-up ended can be checked against the stops armed just after.
	 * Its CPU's next sample shows the check is past.
	 */
	early_track(pl, sample, !counts && sample->ts_ns < pl->from_ns &&
			  threshold_crossed(&pl->params->stop, sample));
	/*
	 * Not tracefs_trace_off() here: turning tracing off calls the tracer's
	 * stop, and the kernel's timerlat then SIGKILLs user threads still
	 * reading timerlat_fd, tlat with them. The run stops the source, which
	 * knows the safe order.
	 */
	if (counts)
		pipeline_check(pl, sample);
}

/*
 * A kernel collector's aggregates hold the sample it stopped at: the same
 * check as above, on its own, in the window (a stop past -d's end is not a
 * hit, as a sample there would not count).
 */
static void pipeline_stopped_at(struct tlat_sink *sink, const struct tlat_sample *sample)
{
	struct pipeline *pl = (struct pipeline *)sink;

	if (!pl->stopped && in_window(pl, sample->ts_ns))
		pipeline_check(pl, sample);
}

/* counted in the kernel since the window began: nothing to sort out here */
static void pipeline_aggregate(struct tlat_sink *sink, int cpu, enum tlat_ctx ctx,
			       const struct tlat_stat *stat, const u64 *loglinear)
{
	struct pipeline *pl = (struct pipeline *)sink;

	for (int i = 0; i < pl->nr_consumers; i++)
		if (pl->consumers[i].ops->aggregate)
			pl->consumers[i].ops->aggregate(pl->consumers[i].priv, cpu, ctx, stat,
							loglinear);
}

static void pipeline_stack(struct tlat_sink *sink, const struct tlat_stack *stack)
{
	struct pipeline *pl = (struct pipeline *)sink;

	for (int i = 0; i < pl->nr_consumers; i++)
		if (pl->consumers[i].ops->stack)
			pl->consumers[i].ops->stack(pl->consumers[i].priv, stack);
}

/* replays the window's rule on a copy of the CPU's activation: nothing changes */
static size_t pipeline_first_stop(struct tlat_sink *sink, const struct tlat_sample *samples,
				  size_t n)
{
	struct pipeline *pl = (struct pipeline *)sink;
	struct pipeline_activation copy, *a = NULL;
	int cpu;

	if (pl->stopped || !n)
		return n;
	cpu = samples[0].cpu;
	if (cpu >= 0 && cpu < pl->params->cpus.nr_cpus) {
		copy = cpu < pl->nr_activations ? pl->activations[cpu] :
		       (struct pipeline_activation){ .last_ctx = TLAT_NR_CTX };
		a = &copy;
	}
	for (size_t i = 0; i < n; i++)
		if (activation_step(pl, a, &samples[i]) &&
		    threshold_crossed(&pl->params->stop, &samples[i]))
			return i;
	return n;
}

static void whole_run_sample(struct tlat_sink *sink, const struct tlat_sample *sample)
{
	struct pipeline *pl = (struct pipeline *)((char *)sink - offsetof(struct pipeline,
									  whole_run));

	for (int i = 0; i < pl->nr_consumers; i++)
		if (pl->consumers[i].ops->whole_run)
			pl->consumers[i].ops->sample(pl->consumers[i].priv, sample);
}

static void whole_run_stack(struct tlat_sink *sink, const struct tlat_stack *stack)
{
	struct pipeline *pl = (struct pipeline *)((char *)sink - offsetof(struct pipeline,
									  whole_run));

	for (int i = 0; i < pl->nr_consumers; i++)
		if (pl->consumers[i].ops->whole_run && pl->consumers[i].ops->stack)
			pl->consumers[i].ops->stack(pl->consumers[i].priv, stack);
}

static void pipeline_cpu_order(struct tlat_sink *sink, bool begin)
{
	struct pipeline *pl = (struct pipeline *)sink;

	pl->cpu_order = begin;
	if (begin) {
		pl->cand_seen = false;
		pl->early_followed = false;
		return;
	}
	if (pl->cand_seen) {
		pl->early = pl->cand;
		pl->early_seen = !pl->cand_followed;
	} else if (pl->early_followed) {
		pl->early_seen = false;
	}
}

void pipeline_init(struct pipeline *pl, const struct tlat_params *params)
{
	*pl = (struct pipeline){
		.sink = { .sample = pipeline_sample, .stack = pipeline_stack,
			  .aggregate = pipeline_aggregate, .stopped_at = pipeline_stopped_at,
			  .first_stop = pipeline_first_stop,
			  .cpu_order = pipeline_cpu_order },
		.whole_run = { .sample = whole_run_sample, .stack = whole_run_stack },
		.params = params,
	};
}

int pipeline_add(struct pipeline *pl, const struct tlat_consumer_ops *ops, void *priv)
{
	struct pipeline_consumer *c = reallocarray(pl->consumers, pl->nr_consumers + 1,
						   sizeof(*c));

	if (!c) {
		if (ops->free)
			ops->free(priv);
		return -ENOMEM;
	}
	c[pl->nr_consumers++] = (struct pipeline_consumer){ ops, priv };
	pl->consumers = c;
	return 0;
}

void pipeline_window(struct pipeline *pl, u64 from_ns, u64 until_ns)
{
	pl->from_ns = from_ns;
	pl->until_ns = until_ns;
}

void pipeline_stop(struct pipeline *pl)
{
	if (pl->stopped)
		return;
	/* the kernel stopped on the warm-up's last sample: the stop's sample counts */
	if (pl->early_seen) {
		pipeline_count(pl, &pl->early, true);
		pl->hit = pl->early;
		pl->hit_seen = true;
		pl->early_seen = false;
	}
	pl->stopped = true;
}

void pipeline_resume(struct pipeline *pl)
{
	pl->stopped = false;
}

void pipeline_free(struct pipeline *pl)
{
	for (int i = 0; i < pl->nr_consumers; i++)
		if (pl->consumers[i].ops->free)
			pl->consumers[i].ops->free(pl->consumers[i].priv);
	free(pl->consumers);
	pl->consumers = NULL;
	pl->nr_consumers = 0;
	free(pl->activations);
	pl->activations = NULL;
	pl->nr_activations = 0;
}
