/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracepoints_local.h - what the tracepoint source's ops (tracepoints.c)
 * and its measuring threads (tp_thread.c) share: the source's state, the
 * marker a thread writes after each wakeup, and the threads' side that the
 * ops create, drain and free. Private to the tracepoint source.
 */
#ifndef TLAT_SOURCES_TRACEPOINTS_TRACEPOINTS_LOCAL_H
#define TLAT_SOURCES_TRACEPOINTS_TRACEPOINTS_LOCAL_H

#include "sources/source.h"
#include "sources/tracepoints/tp_pair.h"
#include "sources/workload.h"
#include "trace/kstack.h"

#define TP_MARKER_ID		0x746c6174u	/* "tlat" */

/* what a measuring thread writes to trace_marker_raw after each wakeup */
struct tp_marker {
	u32 id;
	u32 cpu;
	u64 requested_ns;
	u64 now_ns;
};

enum tp_event { TP_START, TP_EXPIRE, TP_SWITCH, TP_SYSEXIT, TP_MARKER, TP_NR_EVENTS };

struct tp_event_desc {
	const char *system;
	const char *name;
	const char *fields[4];
	bool enable;		/* ftrace:raw_data is always on */
};

/* the events the source reads, their fields in tlat_source.field's order */
extern const struct tp_event_desc tp_events[TP_NR_EVENTS];

struct tp_bpf;
/* a CPU's thread's samples on their way to the drain (tp_thread.c) */
struct tp_queue;
struct tp_agg;
struct tp_agg_snapshot;

struct tlat_source {
	const struct tlat_params *params;
	struct tlat_session *session;
	struct workload *wl;
	struct tp_pairing *pairing;
	struct tlat_sink *sink;
	int event_id[TP_NR_EVENTS];
	struct tep_format_field *field[TP_NR_EVENTS][4];
	struct tep_format_field *common_pid;
	struct tep_format_field *common_flags;	/* NULL: no context flags */
	struct tep_handle *tep;
	struct kstack_event stack;
	bool stack_trigger;		/* TP_STACK_TRIGGER is set */
	u64 align_base_ns;		/* -A: the first CPU's first expiry, set at start */
	struct tp_bpf *bpf;		/* the kernel collector; NULL: the trace one */
	struct tp_queue *queues;	/* per CPU, with bpf */
	/*
	 * With bpf, where nothing needs the samples one by one: each CPU's
	 * thread counts them in its aggregate (tp_agg.h), which the drain
	 * hands on whole; NULL: they go through the queues, for queue_why
	 */
	struct tp_agg **aggs;
	struct tp_agg_snapshot *agg_snap;	/* the drain's copy of one */
	u64 agg_drained;		/* the samples they held at the last drain */
	const char *queue_why;		/* why the queues, for -D */
	/*
	 * --collector both: the kernel collector beside the trace one, its
	 * samples counted here for -D, not in the run's results
	 */
	bool beside;
	struct tlat_aggregate *beside_agg;
	u64 beside_lost;		/* its samples lost on the way */
	const char *trace_why;		/* why the trace collector, for -D */
	/* bpf with the analysis: its events are decoded only at a hit */
	bool deferred;
	int stop_fd;			/* deferred: the instance's tracing_on; else -1 */
	/*
	 * The measured window as the source starts it: the deferred stop
	 * and the aggregates count samples from stop_from_ns on, the latter
	 * until window_end_ns (-d; 0: none), as the run's pipeline does
	 */
	u64 stop_from_ns;
	u64 window_end_ns;
};

/*
 * The trace collector's markers (trace_marker_raw): written by the threads
 * unless only the kernel collector counts (--collector both writes them too)
 */
static inline bool tp_writes_markers(const struct tlat_source *src)
{
	return !src->bpf || src->beside;
}

/* each measuring thread's activations: sleep, then a marker or a completion */
extern const struct workload_ops tp_workload_ops;

/**
 * tp_queues_alloc - the way to the drain of each CPU's thread, for the kernel
 * collector: its aggregate, or where the run needs its samples one by one
 * (collect_needs_samples(), --collector both) a queue of them
 * @src: the source, with its workload created
 *
 * Returns 0 or -ENOMEM; what was allocated goes with tp_queues_free().
 */
int tp_queues_alloc(struct tlat_source *src);

/**
 * tp_queues_free - free the queues
 * @src: the source; its queues may be NULL
 */
void tp_queues_free(struct tlat_source *src);

/**
 * tp_drain - the source's drain(): the threads' queued samples to @sink,
 * or each CPU's aggregate whole
 * @src: the source
 * @sink: where the samples go
 * @processed: increased by the samples handed over, or newly aggregated
 * @lost: increased by the samples a full queue dropped
 *
 * @err: unused: the queues are in memory
 *
 * Returns 1 with the trace collector, whose samples come from records, else 0.
 */
int tp_drain(struct tlat_source *src, struct tlat_sink *sink, u64 *processed, u64 *lost,
	     char *err);

/**
 * tp_queues_dropped - the activations the threads dropped, kernel collector only
 * @src: the source, with its queues
 *
 * Returns how many activations the BPF programs missed a part of.
 */
u64 tp_queues_dropped(const struct tlat_source *src);

/**
 * tp_decode_init - the events' formats and the pairing, for a run or a recording
 * @src: the source, its params set
 * @tep: the formats
 * @err: the error line, on failure
 *
 * Returns 0, -ENOENT with @err set (an event or a field is not known), or
 * -ENOMEM.
 */
int tp_decode_init(struct tlat_source *src, struct tep_handle *tep, char *err);
/**
 * tp_close - free the source, stopping its threads, removing what it set
 * @src: the source, or NULL
 */
void tp_close(struct tlat_source *src);

/* its decoder, tp_decode.c's */
extern const struct tlat_decoder_ops tp_decoder_ops;

#endif
