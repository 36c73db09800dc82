/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decoder.h - how a source's trace records become samples: the part of a
 * source (sources/source.h) that the collector and a recording's reader
 * call, live and in tlat report alike. A record's readers beside the
 * source (the auto-analysis, the trace kept for -t) are its observers.
 */
#ifndef TLAT_TRACE_DECODER_H
#define TLAT_TRACE_DECODER_H

#include <stdbool.h>
#include <event-parse.h>

#include "core/params.h"
#include "core/sink.h"

/* a source's state: its own type, opaque to what calls its decoder */
struct tlat_source;

struct tlat_decoder_ops {
	/* event systems the source decodes, NULL-terminated, for tep loading */
	const char *const *systems;
	/* the trace clock its records must have been taken with; NULL: any */
	const char *clock;
	/*
	 * Whether record() and lost() need no order across CPUs: each sample
	 * and stack has its record's time and CPU, and records of different
	 * CPUs may be decoded at once, from several threads (the kernel
	 * sources). False: the trace is read merged in time order.
	 */
	bool per_cpu_order;
	/*
	 * Set up from a recording's tep alone (tlat report), with no instance
	 * and nothing measuring: only record(), lost() and close() follow.
	 * 0, or -errno with err set.
	 */
	int (*open)(struct tlat_source **src, const struct tlat_params *params,
		    struct tep_handle *tep, char *err);
	/* one record, in per-CPU buffer order: its samples and stacks go to sink */
	void (*record)(struct tlat_source *src, struct tep_event *event,
		       struct tep_record *record, struct tlat_sink *sink);
	/*
	 * The kernel dropped events on this CPU before the next record; NULL
	 * where samples stand alone and there is nothing to resynchronise.
	 */
	void (*lost)(struct tlat_source *src, int cpu);
	/* free what open() set up (the source's own close) */
	void (*close)(struct tlat_source *src);
};

/* a record's readers after the source */
struct tlat_record_observer {
	void (*record)(void *priv, struct tep_event *event, struct tep_record *record);
	void (*lost)(void *priv, int cpu);	/* NULL if it keeps no state */
	/*
	 * A buffer read only after a stop (collector_decode_stopped()) lost
	 * a CPU's events before ts_ns to its overwrite mode; NULL: taken as
	 * lost()
	 */
	void (*overwritten)(void *priv, int cpu, u64 ts_ns);
	void *priv;
};

/* what a pass over records counted */
struct record_counts {
	u64 processed;
	u64 missed;		/* events the kernel dropped */
	bool missed_unknown;	/* and it could not tell how many */
};

/**
 * decoder_missed - count the events the kernel dropped before a record
 * @dec: the decoder, whose source learns of them
 * @src: its source
 * @record: the record, with missed_events set
 * @cpu: its CPU
 * @counts: where they are counted
 */
static inline void decoder_missed(const struct tlat_decoder_ops *dec, struct tlat_source *src,
				  const struct tep_record *record, int cpu,
				  struct record_counts *counts)
{
	if (record->missed_events < 0)
		counts->missed_unknown = true;
	else
		counts->missed += record->missed_events;
	if (dec->lost)
		dec->lost(src, cpu);
}

#endif
