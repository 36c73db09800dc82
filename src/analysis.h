/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - the auto-analysis of one run: the engine (aa.c), the adapter
 * the source names to feed it from tlat's instance, and the report printed
 * after a threshold stopped the run.
 */
#ifndef TLAT_ANALYSIS_H
#define TLAT_ANALYSIS_H

#include <stdio.h>

#include "aa.h"
#include "collector.h"
#include "params.h"

struct analysis;

/* NULL in *an, and 0, when the run needs no analysis (--no-aa, no threshold) */
int analysis_alloc(struct analysis **an, const struct tlat_params *params,
		   const struct tlat_source_ops *ops);
/* the event systems its adapter decodes, for collector_init() */
const char *const *analysis_systems(const struct analysis *an);
/*
 * Enable the adapter's events in the instance and watch the collector's
 * records; a collector without an instance reads a recording: watch only.
 */
int analysis_attach(struct analysis *an, struct tlat_collector *c, char *err);
/* every sample the source decodes, before tracing stopped, in the window or not */
void analysis_sample(struct analysis *an, const struct tlat_sample *sample);
/* the run's measured window: only its samples can be the hit (see aa_set_window()) */
void analysis_window(struct analysis *an, u64 from_ns, u64 until_ns);
void analysis_stack(struct analysis *an, int cpu, u64 ts_ns, const u64 *ips, int nr);
/*
 * The report for every CPU that crossed a threshold, and what follows it;
 * symbols: the collector's tep has the kernel's (ksyms_load()), for the stacks
 * and the kworkers' work.
 */
void analysis_report(struct analysis *an, FILE *out, bool symbols);
/*
 * The same as data, for the JSON document: the explanation of each measured
 * CPU that crossed a threshold, task names filled in. *results is
 * allocated (free() it) and *nr may be 0.
 */
int analysis_results(struct analysis *an, struct aa_result **results, int *nr);
/* --dump-tasks as data: *tasks is allocated (free() it) and *nr may be 0 */
int analysis_tasks(struct analysis *an, struct aa_cpu_task **tasks, int *nr);
bool analysis_max_idle_exit(const struct analysis *an, u64 *latency_ns, int *cpu);
/* a return address's function name, from a tep that has the kernel's symbols */
const char *analysis_symbol(void *tep, u64 addr);
/* after a report, when the run measures on: the next hit gets its own analysis */
void analysis_rearm(struct analysis *an);
void analysis_free(struct analysis *an);

#endif
