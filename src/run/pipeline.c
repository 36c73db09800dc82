// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline.c - the sample fan-out (see pipeline.h). Kernel sources stop
 * their instance themselves at a threshold; the check here also covers the
 * sources that cannot, the time before the kernel's stops are armed, and
 * samples of a kernel stop already in flight. Nothing after the offending
 * sample counts.
 */
#include <errno.h>
#include <stdlib.h>

#include "run/pipeline.h"

static bool in_window(const struct pipeline *pl, u64 ts_ns)
{
	return ts_ns >= pl->from_ns && (!pl->until_ns || ts_ns <= pl->until_ns);
}

static void pipeline_count(struct pipeline *pl, const struct tlat_sample *sample, bool counts)
{
	for (int i = 0; i < pl->nr_consumers; i++)
		if (counts || pl->consumers[i].ops->whole_run)
			pl->consumers[i].ops->sample(pl->consumers[i].priv, sample);
}

static void pipeline_sample(struct tlat_sink *sink, const struct tlat_sample *sample)
{
	struct pipeline *pl = (struct pipeline *)sink;
	bool counts;

	if (pl->stopped)
		return;
	counts = in_window(pl, sample->ts_ns);
	pipeline_count(pl, sample, counts);
	/*
	 * The kernel checks a sample after writing it: one written as the
	 * warm-up ended can be checked against the stops armed just after.
	 * Its CPU's next sample shows the check is past.
	 */
	if (pl->early_seen && pl->early.cpu == sample->cpu)
		pl->early_seen = false;
	if (!counts && sample->ts_ns < pl->from_ns && params_over_threshold(pl->params, sample)) {
		pl->early = *sample;
		pl->early_seen = true;
	}
	/*
	 * Not tracefs_trace_off() here: turning tracing off calls the tracer's
	 * stop, and the kernel's timerlat then SIGKILLs user threads still
	 * reading timerlat_fd, tlat with them. The run stops the source, which
	 * knows the safe order.
	 */
	if (counts && params_over_threshold(pl->params, sample)) {
		pl->stopped = true;
		pl->hit_seen = true;
		pl->hit = *sample;
	}
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

void pipeline_init(struct pipeline *pl, const struct tlat_params *params)
{
	*pl = (struct pipeline){
		.sink = { .sample = pipeline_sample, .stack = pipeline_stack,
			  .aggregate = pipeline_aggregate },
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
}
