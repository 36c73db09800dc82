/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_local.h - one run's state, shared by the files of run/: a live
 * measurement (measure.c) and the replay of a recording (replay.c) set it
 * up; both end alike (conclude.c). Private to run/.
 */
#ifndef TLAT_RUN_RUN_LOCAL_H
#define TLAT_RUN_RUN_LOCAL_H

#include <time.h>

#include "analysis/analysis.h"
#include "core/err.h"
#include "core/notes.h"
#include "output/output.h"
#include "run/pipeline.h"
#include "run/run.h"
#include "trace/collector.h"
#include "trace/extra_events.h"
#include "trace/text_save.h"
#include "tracedat/dat_read.h"
#include "util/sysinfo.h"

struct run {
	const struct tlat_params *params;
	const struct tlat_notes *cmd_notes;	/* the command's: -D lines and warnings */
	struct tlat_notes notes;		/* the run's: rtla's lines go to the outputs */
	struct outputs *outputs;
	struct tlat_aggregate *agg;
	struct pipeline pipeline;
	struct analysis *analysis;		/* NULL: no auto-analysis */
	struct text_save *trace;		/* NULL: no trace action, or trace_inst */
	/* the trace action's instance, the kernel's own text; NULL: none */
	struct tracefs_instance *trace_inst;
	struct tlat_collector *collector;
	const struct tlat_source_ops *ops;
	bool user_data;			/* the source measures the user-return context */
	time_t start_time;		/* wall clock at the start; (time_t)-1: unknown */
	unsigned int hits;		/* thresholds a continue action measured past */
	bool hit_handled;		/* and the current hit's --on-threshold actions ran */
	bool symbols_tried;
	bool symbols;			/* the tep knows the kernel's functions */
	/* tlat report: the recording, whose kallsyms are the symbols (NULL: /proc's) */
	struct dat_reader *recording;
	/* tlat report: what the recording says of its run (NULL: a live run) */
	const struct tlat_report_origin *origin;
	/* the final report, built once by run_conclude(), and what it points to */
	struct tlat_report report;
	struct tlat_report_aa report_aa;
	struct aa_result *aa_results;
	struct aa_cpu_task *aa_tasks;
	struct tlat_sysinfo sys;
};

/*
 * The outputs: a path that cannot be written, or a missing program, fails
 * here, before anything is measured. run_free() undoes it, and what
 * follows, also after a failure.
 */
int run_init(struct run *run, const struct tlat_params *params, const struct tlat_notes *notes,
	     char *err);
/* the aggregate and the consumers that fill it, for params->cpus */
int run_consumers_init(struct run *run, char *err);
/* the auto-analysis of the source's events, if the run has a threshold */
int run_analysis_init(struct run *run, const struct tlat_source_ops *ops, char *err);
void run_free(struct run *run);

/* top's refresh: the report so far, measured up to now_ns */
void run_frame(struct run *run, u64 now_ns);
/*
 * A threshold stopped the pipeline: its --on-threshold actions, once. 1
 * when a continue among them measures on (the hit is reported as it
 * happens, the analysis re-armed, the pipeline resumed), 0 when the run
 * ends, -errno with err set. resume: turns tracing back on, or NULL.
 */
int run_threshold(struct run *run, int (*resume)(void *ctx, char *err), void *ctx, char *err);

/*
 * The end, live or from a recording: the final report (its measured time
 * up to end_ns), the statistics, the --on-end actions, the stop and its
 * analysis, the -e hist files, the documents. The plot waits for
 * run_restored(), once the system is as it was.
 */
enum tlat_exit run_conclude(struct run *run, u64 end_ns, struct extra_events *events, char *err);
enum tlat_exit run_restored(struct run *run, enum tlat_exit status, char *err);

/*
 * -t and trace actions: a kernel source's samples also go to the trace
 * instance (its tracer or events, the -e events), else the collector keeps
 * the newest records; after the source's open()
 */
int run_trace_init(struct run *run, struct tlat_collector *c, struct tlat_session *session,
		   struct tlat_source *src, char *err);
/* the trace instance on with tlat's (start, a continue), off at a stop */
void run_trace_switch(struct run *run, bool on);
/* remove the trace instance: before the source restores its knobs */
void run_trace_close(struct run *run);
/* the actions' save_trace: the instance's text or the store into path, with rtla's line */
int run_trace_save(void *run, const char *path, char *err);
/* the kernel's function names in the collector's tep, loaded once, when first needed */
bool run_symbols(struct run *run);

#endif
