/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel_source.h - what the two sources whose measuring happens in the
 * kernel share: the kernel's timerlat tracer and tlat.ko. Both own a global
 * resource for the run (a lock), configure it through knobs restored at the
 * end, decode the same sample payload, and let either kernel threads or
 * tlat's threads reading a timerlat_fd-like file measure. Each source's
 * struct tlat_source begins with a struct kernel_source; the functions here
 * that take a struct tlat_source serve directly as its ops, and a struct
 * kernel_source_kind says what differs.
 */
#ifndef TLAT_SOURCES_KERNEL_SOURCE_H
#define TLAT_SOURCES_KERNEL_SOURCE_H

#include <stddef.h>

#include "sources/sample_event.h"
#include "sources/source.h"
#include "sources/workload.h"

struct knobs;

/* a source's events: the sample, the stack, and the stack's count and address fields */
struct kernel_source_events {
	const char *system, *sample, *stack, *stack_count, *stack_ips;
};

/* what one kernel source is; a constant of its file */
struct kernel_source;

struct kernel_source_kind {
	/* of the source's struct tlat_source, which begins with a struct kernel_source */
	size_t size;
	/* the run lock's name, and what the user is told is in use */
	const char *resource;
	const char *owner;
	struct kernel_source_events events;
	/* the tracer that writes its samples; NULL: its events do */
	const char *tracer;
	/* the knobs of the kernel's own stop thresholds, -i and -T */
	const char *stop_irq_knob;
	const char *stop_thread_knob;
	/* whether -k/-u left to tlat means user threads; NULL: it always does */
	bool (*user_by_default)(void);
	/*
	 * What this kernel's source refuses of the options, once the threads'
	 * kind is known; NULL: nothing. 0, or -errno with err set.
	 */
	int (*check)(const struct kernel_source *ks, const struct tlat_params *params, char *err);
	/* starts measuring where tlat runs no threads of its own; NULL: trace on does */
	int (*start)(struct tlat_source *src, char *err);
	/* before tracing goes off; NULL: nothing */
	void (*stop)(struct tlat_source *src);
	/* after tlat's threads are gone, before the knobs are restored; NULL: nothing */
	void (*release)(struct tlat_source *src);
};

/* the part of a kernel source's struct tlat_source that this file handles */
struct kernel_source {
	const struct kernel_source_kind *kind;
	const struct tlat_params *params;
	struct tlat_session *session;	/* NULL in a decoder */
	struct knobs *knobs;
	struct workload *wl;		/* tlat's threads, if they measure */
	struct timerlat_records records;
	struct fd_workload user_fd;	/* what user threads read */
	bool user_threads;
	int lock_fd;			/* held while tlat owns the resource */
};

/**
 * kernel_source_decoder - set a kernel source up to decode a recording
 * @out: where the source goes, even on failure (NULL if out of memory)
 * @kind: which source
 * @params: the run's parameters, kept for the source's life
 * @tep: the recording's events
 * @err: why it failed, one line
 *
 * Returns: 0, -ENOMEM, or -ENOENT if the recording has no usable sample event.
 */
int kernel_source_decoder(struct tlat_source **out, const struct kernel_source_kind *kind,
			  const struct tlat_params *params, struct tep_handle *tep, char *err);

/**
 * kernel_source_open - the first step of a kernel source's open()
 * @out: where the source goes, even on failure (NULL if out of memory)
 * @kind: which source
 * @params: the run's parameters, kept for the source's life
 * @session: the run's tracefs instance
 * @err: why it failed, one line
 *
 * Takes the kind's run lock and chooses between kernel and user threads.
 * Nothing is configured yet.
 *
 * Returns: 0, -ENOMEM, -EBUSY if another tlat holds the lock, or -errno.
 */
int kernel_source_open(struct tlat_source **out, const struct kernel_source_kind *kind,
		       const struct tlat_params *params, struct tlat_session *session, char *err);

/**
 * kernel_source_setup - find the events in @tep and the knobs in @knobs_dir
 * @ks: the source, opened
 * @tep: the events the instance will record
 * @knobs_dir: the directory of the knobs the source sets (restored at close)
 * @err: why it failed, one line
 *
 * Returns: 0, -ENOMEM, or -ENOENT if the sample event has no usable format.
 */
int kernel_source_setup(struct kernel_source *ks, struct tep_handle *tep, const char *knobs_dir,
			char *err);

/**
 * kernel_source_set_stops - set the kernel's stop thresholds to -i and -T, or to none
 * @ks: the source, set up
 * @armed: false while a warm-up must not stop the run
 *
 * Returns: 0 or -errno.
 */
int kernel_source_set_stops(struct kernel_source *ks, bool armed);

/**
 * kernel_source_workload - create tlat's threads that read @ks->user_fd
 * @ks: the source, with user threads and user_fd set
 * @err: why it failed, one line
 *
 * None with -U, where the user's own tasks read it.
 *
 * Returns: 0 or -errno.
 */
int kernel_source_workload(struct kernel_source *ks, char *err);

/**
 * kernel_source_start - the source's start(): trace on, then the measuring threads
 * @src: the source, opened
 * @err: why it failed, one line
 *
 * Returns: 0, -EIO if tracing cannot be turned on, or the kind's start() error.
 */
int kernel_source_start(struct tlat_source *src, char *err);

/**
 * kernel_source_arm_thresholds - the source's arm_thresholds(), once a warm-up is over
 * @src: the source, opened
 * @from_ns: left as it is: the window begins where the warm-up ends
 *
 * Returns: 0 or -errno.
 */
int kernel_source_arm_thresholds(struct tlat_source *src, u64 *from_ns);

/**
 * kernel_source_record - the source's record(): samples and stacks to @sink
 * @src: the source
 * @event: the record's event
 * @record: the record
 * @sink: where samples and stacks go
 */
void kernel_source_record(struct tlat_source *src, struct tep_event *event,
			  struct tep_record *record, struct tlat_sink *sink);

/**
 * kernel_source_trace_instance - the source's trace_instance(): its tracer,
 * or its sample and (with -s) stack events
 * @src: the source, opened
 * @inst: the trace action's instance
 * @err: the error line, on failure
 *
 * Returns 0, or -errno with @err set.
 */
int kernel_source_trace_instance(struct tlat_source *src, struct tracefs_instance *inst,
				 char *err);

/**
 * kernel_source_stop - the source's stop(): the measuring threads, then trace off
 * @src: the source, opened
 */
void kernel_source_stop(struct tlat_source *src);

/**
 * kernel_source_user_data - the source's user_data()
 * @src: the source
 *
 * Returns: whether user threads measure, and so the user-return context.
 */
bool kernel_source_user_data(const struct tlat_source *src);

/**
 * kernel_source_close - the source's close(): undo what open() did, and free it
 * @src: the source, or NULL
 */
void kernel_source_close(struct tlat_source *src);

/*
 * The part of a kernel source's struct tlat_source_ops that every kind
 * shares; a kind adds its name, probe, open, decoder and report.
 */
#define KERNEL_SOURCE_OPS						\
	.start = kernel_source_start,					\
	.arm_thresholds = kernel_source_arm_thresholds,			\
	.trace_instance = kernel_source_trace_instance,			\
	.stop = kernel_source_stop,					\
	.user_data = kernel_source_user_data,				\
	.close = kernel_source_close

/* their decoders' shared members: each sample stands alone in its record */
#define KERNEL_DECODER_OPS						\
	.per_cpu_order = true,						\
	.record = kernel_source_record,					\
	.close = kernel_source_close

#endif
