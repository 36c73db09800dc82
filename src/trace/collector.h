/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collector.h - drains tlat's instance: reads the per-CPU raw buffers
 * (through the recorder with tlat record), decodes them with
 * libtraceevent, hands each record to the source (and to observers: the
 * auto-analysis adapter, the trace store) and counts processed and missed
 * events. tlat report feeds it a recording's records instead.
 */
#ifndef TLAT_TRACE_COLLECTOR_H
#define TLAT_TRACE_COLLECTOR_H

#include "sources/source.h"
#include "trace/buffer_read.h"
#include "trace/dat_write.h"

struct percpu_stream_ops;

/* sees every record after the source did */
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

struct tlat_collector {
	struct tep_handle *tep;
	const char **systems;		/* a live run's event systems, NULL-ended */
	struct tracefs_instance *inst;
	const struct tlat_source_ops *ops;
	struct tlat_source *src;
	struct tlat_sink *sink;
	/* the sink of the samples collector_decode_stopped() decodes; NULL: none */
	struct tlat_sink *stopped_sink;
	struct tlat_record_observer *observers;
	int nr_observers;
	int nr_cpus;			/* the CPUs whose buffers are read */
	struct buffer_reader *reader;	/* the buffers' reader, but with tlat record */
	struct dat_writer *recorder;	/* tlat record: the buffers are read through it */
	bool tep_borrowed;		/* a recording's: freed with the recording */
	u64 processed;
	u64 missed;
	bool missed_unknown;
	u64 decoded;			/* records collector_decode_stopped() handed on */
	int readers;			/* --readers: 0 auto, -1 merged, else threads */
	const struct tlat_cpuset *measured;	/* -c's CPUs, the readers' share; NULL: all */
	struct collector_percpu *percpu;	/* the per-CPU read, once chosen */
	/* its records: NULL, the reader's (a test sets its own) */
	const struct percpu_stream_ops *streams;
	void *streams_ctx;
	bool mode_chosen;		/* at the first pass that reads the buffers */
	const char *merged_why;		/* why the read is merged */
};

/**
 * collector_init - a collector of a live run's instance, with the formats it decodes
 * @c: the collector, the caller's memory
 * @session: the run's tracefs instance
 * @nr_cpus: the CPUs whose buffers are read
 * @ops: the source, whose event systems are decoded
 * @extra_systems: more event systems to decode for observers, or NULL
 * @all_systems: decode every event (tlat record); a recording holds the
 *	formats of the systems above and of the events enabled in the instance
 * @err: the error line, on failure
 *
 * Returns 0, or -ENOMEM or -EIO with @err set; free it with collector_free().
 */
int collector_init(struct tlat_collector *c, struct tlat_session *session, int nr_cpus,
		   const struct tlat_source_ops *ops, const char *const *extra_systems,
		   bool all_systems, char *err);
/**
 * collector_init_offline - a collector of a recording (tlat report): no instance
 * @c: the collector, the caller's memory
 * @tep: the recording's, which it borrows
 * @ops: the source whose records these are
 */
void collector_init_offline(struct tlat_collector *c, struct tep_handle *tep,
			    const struct tlat_source_ops *ops);
/**
 * collector_record_to - read the buffers through a recorder from now on (tlat record)
 * @c: a live collector
 * @path: the trace.dat the recorder writes
 * @err: the error line, on failure
 *
 * Returns 0, or -errno with @err set.
 */
int collector_record_to(struct tlat_collector *c, const char *path, char *err);
/**
 * collector_observe - one more observer of every record, after the source
 * @c: the collector
 * @observer: its callbacks (copied)
 *
 * Returns 0 or -ENOMEM.
 */
int collector_observe(struct tlat_collector *c, const struct tlat_record_observer *observer);
/**
 * collector_attach - the opened source that decodes the records, and its sink
 * @c: the collector
 * @src: the source
 * @sink: where its samples and stacks go
 */
void collector_attach(struct tlat_collector *c, struct tlat_source *src, struct tlat_sink *sink);

/**
 * collector_drain - read what the buffers hold now, record by record, or
 * what the source's kernel collector took (source.h's drain())
 * @c: a live collector, attached
 * @until_ns: CLOCK_MONOTONIC time at which the pass ends, the buffers
 *	emptied or not; 0: only once they are (after the source's stop)
 * @err: the error line, on failure
 *
 * Returns 0 (the buffers emptied), 1 (records left at @until_ns), or
 * -errno with @err set.
 */
int collector_drain(struct tlat_collector *c, u64 until_ns, char *err);

/**
 * collector_decode_stopped - hand the observers what the stopped buffers hold
 * @c: a live collector, attached, whose source's kernel collector took the
 *	samples and whose instance tracing is off (source.h's events_deferred())
 * @err: the error line, on failure
 *
 * The source's samples came from its kernel collector: the records go to
 * the observers (the analysis) alone, and where the source decodes its
 * samples from them too (source.h's deferred_records), those go to
 * stopped_sink, not to the statistics. Events the overwrite mode dropped
 * are no loss of the run's: observers learn where each CPU's begin.
 *
 * Returns 0, or -errno from reading with @err set.
 */
int collector_decode_stopped(struct tlat_collector *c, char *err);

/**
 * collector_missed - count the events the kernel dropped before a record
 * @c: the collector, whose source learns of them
 * @record: the record
 * @cpu: its CPU
 * @missed: the count to add them to
 * @unknown: set when the kernel could not tell how many
 */
static inline void collector_missed(const struct tlat_collector *c,
				    const struct tep_record *record, int cpu, u64 *missed,
				    bool *unknown)
{
	if (record->missed_events < 0)
		*unknown = true;
	else
		*missed += record->missed_events;
	if (c->ops->lost)
		c->ops->lost(c->src, cpu);
}

/**
 * collector_record - one record, from a drain or from a recording
 * @event: the record's event
 * @record: the record; missed events before it reach the source and observers
 * @cpu: its CPU
 * @c: the collector
 *
 * Returns 0 (keep going), as tracefs_iterate_raw_events() callbacks do.
 */
int collector_record(struct tep_event *event, struct tep_record *record, int cpu, void *c);

/**
 * collector_percpu_choose - read per CPU or merged, at the first pass
 * @c: a live collector, attached, its observers and recorder known
 *
 * Per CPU where nothing needs the records in time order across CPUs: no
 * observer, no recorder, a source whose decoder is per CPU and a sink that
 * takes samples CPU by CPU. Returns 0, or -ENOMEM.
 */
int collector_percpu_choose(struct tlat_collector *c);
/**
 * collector_percpu_drain - collector_drain()'s pass, read per CPU
 * @c: a collector reading per CPU (c->percpu)
 * @until_ns: as collector_drain()'s
 *
 * Returns 0 or 1, as collector_drain(), or -ENOMEM: a sample could not be kept.
 */
int collector_percpu_drain(struct tlat_collector *c, u64 until_ns);
/**
 * collector_read_mode - how the buffers are read, for -D
 * @c: the collector
 * @buf: where the line goes
 * @len: its size
 *
 * Returns @buf: "per-CPU, N readers" or "merged, because ...".
 */
const char *collector_read_mode(const struct tlat_collector *c, char *buf, size_t len);
/**
 * collector_percpu_free - free the per-CPU read
 * @c: the collector
 */
void collector_percpu_free(struct tlat_collector *c);

/**
 * collector_free - free the formats (unless borrowed), observers and recorder
 * @c: the collector; the struct itself is the caller's
 */
void collector_free(struct tlat_collector *c);

#endif
