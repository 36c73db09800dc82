/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collector.h - drains tlat's instance: reads the per-CPU raw buffers
 * (through a stream, tlat record's writer, where one is given), decodes
 * them with libtraceevent, hands each record to the source's decoder (and
 * to observers: the auto-analysis adapter, the trace store) and counts
 * processed and missed events. tlat report feeds it a recording's records
 * instead.
 */
#ifndef TLAT_TRACE_COLLECTOR_H
#define TLAT_TRACE_COLLECTOR_H

#include "trace/buffer_read.h"
#include "trace/decoder.h"
#include "trace/session.h"

struct percpu_stream_ops;
struct collector_percpu;

/*
 * Where a live collector's records come from instead of its own reader of
 * the buffers: tlat record's writer, which keeps each page for the file
 * before its records are handed on.
 */
struct record_stream {
	/* one pass, as buffer_reader_drain(): 0 emptied, 1 records left, -errno */
	int (*drain)(void *priv, u64 until_ns, buffer_record_fn fn, void *ctx);
	void *priv;
};

struct tlat_collector {
	struct tep_handle *tep;
	const char **systems;		/* a live run's event systems, NULL-ended */
	struct tracefs_instance *inst;
	const struct tlat_decoder_ops *dec;
	struct tlat_source *src;
	struct tlat_sink *sink;
	/*
	 * The sink of the samples collector_decode_stopped() decodes, where a
	 * kernel collector's buffer holds the samples' own events (the
	 * statistics have them already); NULL: the records go to the
	 * observers alone
	 */
	struct tlat_sink *stopped_sink;
	struct tlat_record_observer *observers;
	int nr_observers;
	int nr_cpus;			/* the CPUs whose buffers are read */
	struct buffer_reader *reader;	/* the buffers' reader, but with a stream */
	struct record_stream stream;	/* .drain NULL: none */
	bool tep_borrowed;		/* a recording's: freed with the recording */
	struct record_counts counts;
	u64 decoded;			/* records collector_decode_stopped() handed on */
	int readers;			/* --readers: 0 auto, -1 merged, else threads */
	const struct tlat_cpuset *measured;	/* -c's CPUs, the readers' share; NULL: all */
	struct collector_percpu *percpu;	/* the per-CPU read, once chosen */
	int percpu_readers;			/* and its reader threads */
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
 * @dec: the source's decoder, whose event systems are decoded
 * @extra_systems: more event systems to decode for observers, or NULL
 * @all_systems: decode every event (tlat record); a recording holds the
 *	formats of the systems above and of the events enabled in the instance
 * @err: the error line, on failure
 *
 * Returns 0, or -ENOMEM or -EIO with @err set; free it with collector_free().
 */
int collector_init(struct tlat_collector *c, struct tlat_session *session, int nr_cpus,
		   const struct tlat_decoder_ops *dec, const char *const *extra_systems,
		   bool all_systems, char *err);
/**
 * collector_init_offline - a collector of a recording (tlat report): no instance
 * @c: the collector, the caller's memory
 * @tep: the recording's, which it borrows
 * @dec: the decoder of the source whose records these are
 */
void collector_init_offline(struct tlat_collector *c, struct tep_handle *tep,
			    const struct tlat_decoder_ops *dec);
/**
 * collector_read_through - take the records from a stream from now on
 * @c: a live collector
 * @stream: the stream (copied), such as tlat record's writer, which reads
 *	the buffers itself; its owner frees it after collector_free()
 */
void collector_read_through(struct tlat_collector *c, const struct record_stream *stream);
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
 * collector_drain - read what the buffers hold now, record by record
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
 *	samples and whose instance tracing is off
 * @err: the error line, on failure
 *
 * The source's samples came from its kernel collector: the records go to
 * the observers (the analysis), and their samples, where the buffer holds
 * the samples' own events too, to stopped_sink, not to the statistics.
 * Events the overwrite mode dropped are no loss of the run's: observers
 * learn where each CPU's begin.
 *
 * Returns 0, or -errno from reading with @err set.
 */
int collector_decode_stopped(struct tlat_collector *c, char *err);

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
 * collector_choose_read - read per CPU or merged
 * @c: a live collector, attached, its observers and stream known
 *
 * Per CPU where nothing needs the records in time order across CPUs: no
 * observer, no stream, a source whose decoder is per CPU and a sink that
 * takes samples CPU by CPU. The first collector_drain() chooses, if its
 * caller did not.
 *
 * Returns 0, or -ENOMEM.
 */
int collector_choose_read(struct tlat_collector *c);

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
 * collector_free - free the formats (unless borrowed), observers and reader
 * @c: the collector; the struct itself is the caller's
 */
void collector_free(struct tlat_collector *c);

#endif
