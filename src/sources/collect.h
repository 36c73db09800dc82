/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect.h - which collector a run's samples take: counted in the kernel
 * (BPF) with no trace event per sample, or decoded from trace events. The
 * events stay for what reads them: the analysis, a saved or recorded trace,
 * -e, -s; the analysis alone only around a hit. The CLI and the sources ask
 * here, so that the rule is one.
 */
#ifndef TLAT_SOURCES_COLLECT_H
#define TLAT_SOURCES_COLLECT_H

#include "core/params.h"

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
