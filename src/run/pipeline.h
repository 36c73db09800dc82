/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pipeline.h - where a source's samples go: the sink it calls, which hands
 * each sample to the consumers, keeps the ones outside the measured window
 * (warm-up, past -d) from those that count, and stops counting at the first
 * sample that crosses a threshold (-i, -T) until the run goes on (a
 * continue action) or ends. The same for a live run and a recording.
 *
 * An activation whose IRQ came before -d ran out counts whole, its thread
 * and user return too: otherwise a CPU's IRQ count could exceed its thread's.
 */
#ifndef TLAT_RUN_PIPELINE_H
#define TLAT_RUN_PIPELINE_H

#include <stdbool.h>

#include "core/params.h"
#include "sources/source.h"
#include "stats/consumer.h"

struct pipeline_consumer {
	const struct tlat_consumer_ops *ops;
	void *priv;
};

/* a CPU's latest activation: when it began, to count it whole past -d */
struct pipeline_activation {
	u64 began_ns;			/* its first sample's time */
	u32 seq;
	enum tlat_ctx last_ctx;		/* its latest sample's; none yet: TLAT_NR_CTX */
};

struct pipeline {
	struct tlat_sink sink;		/* first: the source calls back through it */
	/*
	 * Samples decoded only at a hit, beside a kernel collector's
	 * aggregates (collector_decode_stopped()): to the whole-run consumers
	 * (the analysis) alone, nothing counted, nothing checked
	 */
	struct tlat_sink whole_run;
	const struct tlat_params *params;
	struct pipeline_consumer *consumers;
	int nr_consumers;
	u64 from_ns;			/* samples before it are warm-up */
	u64 until_ns;			/* and after it past -d (0: no end) */
	struct pipeline_activation *activations;	/* by CPU, grown as CPUs appear */
	int nr_activations;
	bool stopped;			/* a threshold was crossed: nothing counts */
	bool hit_seen;			/* hit is the sample that crossed it */
	struct tlat_sample hit;
	bool early_seen;		/* early is the last warm-up sample over a */
	struct tlat_sample early;	/* threshold, its CPU's kernel check maybe still due */
	/* a pass delivered CPU by CPU (sink.cpu_order): early found as in time order */
	bool cpu_order;
	bool cand_seen;			/* cand: the pass's latest early candidate */
	bool cand_followed;		/* by a later sample of its CPU */
	bool early_followed;		/* early (before the pass) by one of its CPU */
	struct tlat_sample cand;
};

/**
 * pipeline_init - a pipeline with no consumer yet, every sample in its window
 * @pl: the pipeline, the caller's memory
 * @params: the run's options, kept by reference
 */
void pipeline_init(struct pipeline *pl, const struct tlat_params *params);

/**
 * pipeline_add - hand samples to one more consumer, after those added before
 * @priv: the consumer's; its ops->free(), if any, runs at pipeline_free()
 *
 * Returns 0, or -ENOMEM (then @priv is freed as pipeline_free() would).
 */
int pipeline_add(struct pipeline *pl, const struct tlat_consumer_ops *ops, void *priv);

/**
 * pipeline_window - the measured window
 * @pl: the pipeline
 * @from_ns: its start: samples before it are warm-up
 * @until_ns: its end, past -d; 0 for none
 *
 * Samples outside the window reach only whole-run consumers (the analysis).
 */
void pipeline_window(struct pipeline *pl, u64 from_ns, u64 until_ns);

/**
 * pipeline_stop - a threshold stop seen elsewhere (the kernel's)
 * @pl: the pipeline, in which nothing counts from now on
 *
 * A warm-up sample over a threshold whose CPU wrote nothing after it is
 * what the kernel, armed as the warm-up ended, stopped on: it counts, as the
 * hit.
 */
void pipeline_stop(struct pipeline *pl);

/**
 * pipeline_resume - count again after a hit, when the run measures on
 * @pl: the pipeline (a continue action ended the hit's actions)
 */
void pipeline_resume(struct pipeline *pl);

/**
 * pipeline_free - free the consumers, each that owns its priv with it
 * @pl: the pipeline; the struct itself is the caller's
 */
void pipeline_free(struct pipeline *pl);

#endif
