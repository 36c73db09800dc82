/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source.h - the interface every sample source implements: the kernel's
 * timerlat tracer, tlat.ko, or stock tracepoints. A source configures tlat's
 * tracefs instance and measures; its decoder (trace/decoder.h) turns that
 * instance's records into struct tlat_sample for a sink, and alone also
 * reads a recording of them (tlat report); its kernel collector, where it
 * has one, counts them in the kernel instead. Nothing downstream knows
 * which source ran.
 */
#ifndef TLAT_SOURCES_SOURCE_H
#define TLAT_SOURCES_SOURCE_H

#include <event-parse.h>

#include "core/notes.h"
#include "core/params.h"
#include "core/sink.h"
#include "trace/decoder.h"
#include "trace/session.h"

struct aa_adapter_ops;

/*
 * A source's kernel collector: its samples counted in the kernel (BPF,
 * tlat.ko's aggregates), not decoded from trace events. The run asks it
 * each pass, after a hit and at the end; whether it serves a run is
 * sources/collect.h's rule and the source's, decided at open().
 */
struct tlat_kernel_collector_ops {
	/* 0 if it can run on this kernel; else -errno and why in err (tlat info) */
	int (*probe)(char *err);
	/*
	 * How it serves the auto-analysis, for tlat info; NULL: it does not
	 * (--collector kernel with the analysis is refused)
	 */
	const char *with_aa;
	/*
	 * Hand the sink the samples it took, which reach no trace buffer; add
	 * them to processed, and those dropped on the way to lost. Returns 0,
	 * 1 where this run's samples come from records (the trace collector)
	 * instead, or -errno with @err set when the kernel's samples cannot
	 * be read: the run cannot go on without them.
	 */
	int (*drain)(struct tlat_source *src, struct tlat_sink *sink, u64 *processed, u64 *lost,
		     char *err);
	/*
	 * Whether the instance's events are read only once a threshold stopped
	 * it (the analysis's events in overwrite mode, nothing decodes them
	 * meanwhile); NULL: never
	 */
	bool (*events_deferred)(const struct tlat_source *src);
	/*
	 * With events_deferred(): the buffer holds the samples' own events
	 * too, which the decoder decodes at a hit for the analysis (the
	 * statistics have them from the kernel collector already)
	 */
	bool deferred_records;
	/*
	 * After a hit that the run goes on from (--on-threshold continue): it
	 * counts again, stopped at the hit. NULL: nothing to do. Returns 0 or
	 * -errno with @err set.
	 */
	int (*resume)(struct tlat_source *src, char *err);
};

/* a source's life cycle; how its samples reach tlat is its decoder's and its kernel collector's */
struct tlat_source_ops {
	const char *name;
	/* its records into samples, live (the trace collector) and in recordings */
	const struct tlat_decoder_ops *decoder;
	/* its kernel collector; NULL: it has none */
	const struct tlat_kernel_collector_ops *kernel;
	/* where the auto-analysis finds the interference around its samples */
	const struct aa_adapter_ops *interference;
	/*
	 * 0 if the source can run on this kernel; else -errno and why in err:
	 * -EBUSY if another measurement holds it, which auto does not go around
	 */
	int (*probe)(struct tlat_session *session, char *err);
	/* configure the instance and get ready; nothing is measured yet */
	int (*open)(struct tlat_source **src, const struct tlat_params *params,
		    struct tlat_session *session, struct tep_handle *tep, char *err);
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
