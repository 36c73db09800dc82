/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source.h - the interface every sample source implements: the kernel's
 * timerlat tracer, tlat.ko, or stock tracepoints. A source configures tlat's
 * tracefs instance, decodes that instance's records into struct tlat_sample
 * and hands them to a sink; its decoder alone also reads a recording of
 * them (tlat report). Nothing downstream knows which source ran.
 */
#ifndef TLAT_SOURCES_SOURCE_H
#define TLAT_SOURCES_SOURCE_H

#include <event-parse.h>

#include "core/notes.h"
#include "core/params.h"
#include "stats/aggregate.h"
#include "trace/session.h"

struct tlat_sink {
	void (*sample)(struct tlat_sink *sink, const struct tlat_sample *sample);
	/* the stack saved at a timer IRQ (-s) */
	void (*stack)(struct tlat_sink *sink, const struct tlat_stack *stack);
	/*
	 * A CPU's context as a kernel collector counted it, whole since the
	 * measured window began: it replaces what the sink had of it. The
	 * log-linear buckets (stats/loglinear.h), NULL while it has no sample.
	 */
	void (*aggregate)(struct tlat_sink *sink, int cpu, enum tlat_ctx ctx,
			  const struct tlat_stat *stat, const u64 *loglinear);
	/*
	 * A kernel collector stopped counting at this sample, which the
	 * aggregates it handed on hold (tlat.ko's at a stop_*_us): the run
	 * checks it as a sample that came alone, and stops there.
	 */
	void (*stopped_at)(struct tlat_sink *sink, const struct tlat_sample *sample);
	/*
	 * Per-CPU delivery (trace/collector_percpu.c); NULL: the sink needs
	 * the samples in time order across CPUs. first_stop(): of one CPU's
	 * next samples, in order, the index of the first that would stop the
	 * run (counts and crosses a threshold), or n. cpu_order(): a pass's
	 * samples come CPU by CPU between begin (true) and end (false), none
	 * later than the first that stops the run, which comes last.
	 */
	size_t (*first_stop)(struct tlat_sink *sink, const struct tlat_sample *samples, size_t n);
	void (*cpu_order)(struct tlat_sink *sink, bool begin);
};

struct aa_adapter_ops;

struct tlat_source;

struct tlat_source_ops {
	const char *name;
	/* event systems the source decodes, NULL-terminated, for tep loading */
	const char *const *systems;
	/* where the auto-analysis finds the interference around its samples */
	const struct aa_adapter_ops *interference;
	/* the trace clock its records must have been taken with; NULL: any */
	const char *clock;
	/*
	 * 0 if the source can run on this kernel; else -errno and why in err:
	 * -EBUSY if another measurement holds it, which auto does not go around
	 */
	int (*probe)(struct tlat_session *session, char *err);
	/* the same for its kernel collector (tlat info); NULL: it has none */
	int (*kernel_probe)(char *err);
	/*
	 * How its kernel collector serves the auto-analysis, for tlat info;
	 * NULL: it does not (--collector kernel with the analysis is refused)
	 */
	const char *kernel_with_aa;
	/* configure the instance and get ready; nothing is measured yet */
	int (*open)(struct tlat_source **src, const struct tlat_params *params,
		    struct tlat_session *session, struct tep_handle *tep, char *err);
	/*
	 * Decode a recording instead (tlat report): set up from the recording's
	 * tep alone, with no instance and nothing measuring. Only record(),
	 * lost() and close() follow.
	 */
	int (*decoder)(struct tlat_source **src, const struct tlat_params *params,
		       struct tep_handle *tep, char *err);
	/*
	 * Configure a second instance to record what the source's kernel side
	 * writes, for the trace action to save as the kernel's own text;
	 * NULL where the source has no such text (tlat's copy of the records
	 * stands in). 0, or -errno with err set.
	 */
	int (*trace_instance)(struct tlat_source *src, struct tracefs_instance *inst, char *err);
	/* start measuring, as close to simultaneously on all CPUs as it can */
	int (*start)(struct tlat_source *src, char *err);
	/*
	 * Arm the kernel-side stop thresholds, once a --warm-up is over; NULL
	 * where only tlat's own check of each sample stops the run. @from_ns
	 * stays, or is set where the source's measurement now begins: tlat.ko's
	 * aggregates drop the warm-up at their reset, a moment after its end.
	 */
	int (*arm_thresholds)(struct tlat_source *src, u64 *from_ns);
	/*
	 * Whether record() and lost() need no order across CPUs: each sample
	 * and stack has its record's time and CPU, and records of different
	 * CPUs may be decoded at once, from several threads (the kernel
	 * sources). False: the trace is read merged in time order.
	 */
	bool per_cpu_order;
	/* one record of the instance, in per-CPU buffer order */
	void (*record)(struct tlat_source *src, struct tep_event *event,
		       struct tep_record *record, struct tlat_sink *sink);
	/*
	 * The kernel dropped events on this CPU before the next record; NULL
	 * where samples stand alone and there is nothing to resynchronise.
	 */
	void (*lost)(struct tlat_source *src, int cpu);
	/*
	 * Hand the sink the samples a kernel-side collector took, which reach
	 * no trace buffer; add them to processed, and those dropped on the way
	 * to lost. Returns 0, 1 where the samples come from records (the
	 * trace collector) instead, or -errno with @err set when the kernel's
	 * samples cannot be read: the run cannot go on without them. NULL:
	 * they always come from records.
	 */
	int (*drain)(struct tlat_source *src, struct tlat_sink *sink, u64 *processed, u64 *lost,
		     char *err);
	/*
	 * Whether the instance's events are read only once a threshold stopped
	 * it (a kernel collector with the auto-analysis: the buffer overwrites
	 * its oldest events meanwhile, nothing decodes them); NULL: never
	 */
	bool (*events_deferred)(const struct tlat_source *src);
	/*
	 * With events_deferred(): the buffer holds the samples' own events
	 * too, which record() decodes at a hit for the analysis (the
	 * statistics have them from the kernel collector already)
	 */
	bool deferred_records;
	/*
	 * After a hit that the run goes on from (--on-threshold continue): the
	 * kernel collector, stopped at it, counts again. NULL: nothing to do.
	 * Returns 0 or -errno with @err set.
	 */
	int (*resume)(struct tlat_source *src, char *err);
	/* stop measuring; records already in the buffer can still be read */
	void (*stop)(struct tlat_source *src);
	/* debug summary of what the source had to discard */
	void (*report)(struct tlat_source *src, const struct tlat_notes *notes);
	/* whether it measures the user-return context */
	bool (*user_data)(const struct tlat_source *src);
	void (*close)(struct tlat_source *src);
};

extern const struct tlat_source_ops timerlat_source_ops;
extern const struct tlat_source_ops module_source_ops;
extern const struct tlat_source_ops tracepoints_source_ops;

/**
 * source_select - the source called name, or with "auto" the first that can
 * run here, in order of preference
 * @notes: with -D, which one and why not those before it (NULL: untold)
 *
 * Returns its ops, or NULL with one line in err.
 */
const struct tlat_source_ops *source_select(const char *name, struct tlat_session *session,
					    const struct tlat_notes *notes, char *err);
/**
 * source_pick - source_select() among the sources of a list, in its order
 * @list: the sources
 * @n: how many
 * @name: a source's name, or "auto": the first whose probe succeeds; a
 *	source busy with another measurement (its probe returns -EBUSY) ends
 *	auto's search with an error instead of falling back to the next
 *
 * Returns the source's ops, or NULL with one line in err.
 */
const struct tlat_source_ops *source_pick(const struct tlat_source_ops *const *list, size_t n,
					  const char *name, struct tlat_session *session,
					  const struct tlat_notes *notes, char *err);
/**
 * source_nth - the sources in auto's order of preference
 * @i: the place, from 0
 *
 * Returns the source's ops, or NULL past the last.
 */
const struct tlat_source_ops *source_nth(size_t i);

#endif
