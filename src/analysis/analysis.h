/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - the auto-analysis of one run: the engine (aa.c), the adapter
 * the source names to feed it from tlat's instance, and the report printed
 * after a threshold stopped the run.
 */
#ifndef TLAT_ANALYSIS_ANALYSIS_H
#define TLAT_ANALYSIS_ANALYSIS_H

#include <stdio.h>

#include "analysis/aa.h"
#include "core/params.h"
#include "stats/consumer.h"
#include "trace/collector.h"

struct aa_adapter_ops;
struct analysis;

/**
 * analysis_alloc - the analysis a run asks for
 * @an: set to it, or to NULL when the run needs none (--no-aa, no threshold,
 *	a source with no interference adapter)
 * @params: the run's options: thresholds, -s, --dump-tasks
 * @interference: the adapter of the source's interference events; NULL: none
 *
 * Returns 0 (with @an NULL if there is nothing to analyse) or -ENOMEM.
 */
int analysis_alloc(struct analysis **an, const struct tlat_params *params,
		   const struct aa_adapter_ops *interference);
/**
 * analysis_systems - the event systems its adapter decodes
 * @an: the analysis
 *
 * Returns a NULL-terminated list, for collector_init().
 */
const char *const *analysis_systems(const struct analysis *an);
/**
 * analysis_attach - enable the adapter's events and watch the collector's records
 * @an: the analysis
 * @c: the collector; without an instance it reads a recording: watch only
 * @err: the error line, on failure
 *
 * Returns 0 or -errno (@err set): an event missing where it is needed live,
 * an event that cannot be enabled, out of memory.
 */
int analysis_attach(struct analysis *an, struct tlat_collector *c, char *err);
/* the analysis's face to the pipeline: priv is the struct analysis, which it does not free */
extern const struct tlat_consumer_ops analysis_consumer_ops;
/**
 * analysis_window - the run's measured window: only its samples can be the hit
 * @an: the analysis
 * @from_ns: the window's start, in trace time
 * @until_ns: its end, 0 for none
 *
 * See aa_set_window().
 */
void analysis_window(struct analysis *an, u64 from_ns, u64 until_ns);
/**
 * analysis_results - the analysis as data, for the JSON document
 * @an: the analysis
 * @results: set to the explanation of each measured CPU that crossed a
 *	threshold, task names filled in; allocated: free() it
 * @nr: set to their number, which may be 0
 *
 * Returns 0 or -ENOMEM.
 */
int analysis_results(struct analysis *an, struct aa_result **results, int *nr);
/**
 * analysis_tasks - --dump-tasks as data: what each CPU ran when tracing stopped
 * @an: the analysis
 * @tasks: set to the tasks; allocated: free() it
 * @nr: set to their number, which may be 0
 *
 * Returns 0 or -ENOMEM.
 */
int analysis_tasks(struct analysis *an, struct aa_cpu_task **tasks, int *nr);

/**
 * analysis_max_idle_exit - the highest IRQ latency of an activation that
 * woke its CPU from idle (see aa_max_idle_exit())
 * @an: the analysis
 * @latency_ns: set to that latency
 * @cpu: set to its CPU
 *
 * Returns false if no activation of the window woke a CPU from idle.
 */
bool analysis_max_idle_exit(const struct analysis *an, u64 *latency_ns, int *cpu);
/**
 * analysis_symbol - a return address's function name
 * @tep: a struct tep_handle that has the kernel's symbols
 * @addr: the address
 *
 * Returns the name, owned by @tep, or NULL if no symbol covers @addr.
 */
const char *analysis_symbol(void *tep, u64 addr);
/**
 * analysis_rearm - after a report, when the run measures on (continue)
 * @an: the analysis
 *
 * The next hit gets its own analysis: every CPU is rearmed (aa_rearm()).
 */
void analysis_rearm(struct analysis *an);

/**
 * analysis_free - free the analysis, its engine and its adapter
 * @an: from analysis_alloc(), or NULL
 */
void analysis_free(struct analysis *an);

#endif
