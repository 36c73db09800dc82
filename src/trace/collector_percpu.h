/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collector_percpu.h - a collector's pass read per CPU, with no merge in
 * time order across CPUs: reader threads decode their CPUs' records into
 * per-CPU batches, which the calling thread hands on. The collector
 * (collector.c) decides whether a run's read can be per CPU, and with how
 * many readers.
 */
#ifndef TLAT_TRACE_COLLECTOR_PERCPU_H
#define TLAT_TRACE_COLLECTOR_PERCPU_H

#include "core/cpuset.h"
#include "trace/buffer_percpu.h"
#include "trace/decoder.h"

struct collector_percpu;

/* what the per-CPU read needs, fixed when it is set up */
struct collector_percpu_cfg {
	int nr_cpus;			/* the CPUs whose buffers are read */
	int nr_readers;			/* threads, the first the caller's */
	const struct tlat_cpuset *measured;	/* dealt to the readers first; NULL: all */
	const struct tlat_decoder_ops *dec;
	struct tlat_source *src;
	const struct percpu_stream_ops *streams;	/* the records of each CPU */
	void *streams_ctx;
};

/**
 * collector_percpu_new - set up a per-CPU read
 * @p: set to it, to free with collector_percpu_free()
 * @cfg: what it reads and decodes (copied)
 *
 * Returns 0 or -ENOMEM.
 */
int collector_percpu_new(struct collector_percpu **p, const struct collector_percpu_cfg *cfg);
/**
 * collector_percpu_drain - one pass, read per CPU
 * @p: the read
 * @until_ns: as collector_drain()'s
 * @sink: takes the samples CPU by CPU (its first_stop() and cpu_order())
 * @counts: the records processed and the events missed are added to it
 *
 * Each CPU's samples go on up to the time every CPU was read to; where one
 * crosses a threshold, only those before it on any CPU, as the merged read
 * would. Returns 0 or 1, as collector_drain(), or -ENOMEM: a sample could
 * not be kept.
 */
int collector_percpu_drain(struct collector_percpu *p, u64 until_ns, struct tlat_sink *sink,
			   struct record_counts *counts);
/**
 * collector_percpu_free - free the read
 * @p: from collector_percpu_new(), or NULL
 */
void collector_percpu_free(struct collector_percpu *p);

#endif
