/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect.h - which collector a run's samples take: counted in the kernel
 * (BPF) with no trace event per sample, or decoded from trace events. The
 * events stay for what reads them: the analysis, a saved or recorded trace,
 * -e, -s; the analysis alone only around a hit. The CLI and the sources ask
 * here, so that the rule is one; the run's passes go through
 * collect_drain().
 */
#ifndef TLAT_SOURCES_COLLECT_H
#define TLAT_SOURCES_COLLECT_H

#include "core/params.h"
#include "sources/source.h"
#include "trace/collector.h"

/**
 * collect_drain - one pass of the collector the run takes
 * @ops: the source
 * @src: it, opened (NULL: not yet, only the buffers are read)
 * @c: its live collector, attached
 * @until_ns: as collector_drain()'s
 * @err: the error line, on failure
 *
 * The samples its kernel collector took, where one serves the run (its
 * drain() returns 0), else the records of the trace buffers.
 *
 * Returns 0 (all read), 1 (records left at @until_ns), or -errno with @err
 * set: a kernel collector whose samples cannot be read ends the run.
 */
int collect_drain(const struct tlat_source_ops *ops, struct tlat_source *src,
		  struct tlat_collector *c, u64 until_ns, char *err);

/**
 * collect_needs_trace - what in a run reads its samples' trace events
 * @params: the run's options
 *
 * Returns why the run needs the trace collector, as a phrase ("the
 * auto-analysis"), or NULL if the kernel collector serves it.
 */
const char *collect_needs_trace(const struct tlat_params *params);

/**
 * collect_needs_events - what in a run reads every event as it comes,
 * besides the auto-analysis
 * @params: the run's options
 *
 * The analysis alone can do with the events of the moments before a hit:
 * a kernel collector that keeps them in the instance's buffer in overwrite
 * mode, and decodes them only once a threshold stopped it, serves it.
 *
 * Returns why the run needs every event decoded, as a phrase, or NULL.
 */
const char *collect_needs_events(const struct tlat_params *params);

/**
 * collect_needs_samples - what in a run needs a kernel collector's samples
 * one by one, not only its aggregates
 * @params: the run's options
 *
 * The stop at -i/-T checks each sample as it comes; the sample log writes
 * each.
 *
 * Returns why, as a phrase ("the -i/-T stop"), or NULL if per-CPU
 * aggregates serve the run.
 */
const char *collect_needs_samples(const struct tlat_params *params);

/**
 * collect_name - a collector's name, as --collector spells it
 * @collect: the collector
 *
 * Returns the name.
 */
const char *collect_name(enum tlat_collect collect);

#endif
