/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - everything a run has to show, built once when it ends (and for
 * each refresh of top's screen): the aggregate, the run's facts, the
 * auto-analysis as data, and what the documents add (the system, the
 * times). Every output reads a report and nothing else: it never sees where
 * the samples came from, or whether they were counted in user space or in
 * the kernel.
 */
#ifndef TLAT_OUTPUT_REPORT_H
#define TLAT_OUTPUT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "analysis/aa.h"
#include "core/params.h"
#include "stats/aggregate.h"
#include "util/sysinfo.h"

struct json_object;

#define TLAT_MISSED_UNKNOWN	UINT64_MAX

/* the auto-analysis of a threshold hit, as data */
struct tlat_report_aa {
	const struct aa_result *results;	/* one per CPU that crossed a threshold */
	int nr_results;
	bool idle_exit;				/* idle_exit_ns and _cpu are known */
	u64 idle_exit_ns;
	int idle_exit_cpu;
	/* --dump-tasks: what each CPU ran at the stop; NULL without it */
	const struct aa_cpu_task *tasks;
	int nr_tasks;
	/* a return address's function name or NULL; NULL when no symbols are loaded */
	const char *(*symbol)(void *ctx, u64 addr);
	void *symbol_ctx;
};

/*
 * tlat report: what the recording says of the run it holds, for the JSON
 * documents; a live run has none
 */
struct tlat_report_origin {
	/* tlat record's description: argv, options, system, start_time; NULL: none */
	struct json_object *run;
	char *uname;		/* the recording's "sysname nodename release machine"; NULL: none */
	int nr_cpus;		/* the recording's CPUs */
};

struct tlat_report {
	const struct tlat_params *params;
	const struct tlat_aggregate *agg;
	const char *source;		/* the source's name */
	bool user_data;			/* the source measures the user-return context */
	bool pretty;			/* colours: stdout is a terminal and not -q */
	u64 elapsed_s;
	u64 processed_events;
	u64 missed_events;		/* TLAT_MISSED_UNKNOWN if the kernel could not tell */
	bool threshold_hit;
	const struct tlat_sample *hit;	/* the sample that crossed it; NULL if not seen */
	u64 hits;			/* --on-threshold continue: the hits measured past */
	bool interrupted;		/* a signal ended the run */
	const struct tlat_report_aa *aa;	/* NULL: no auto-analysis */
	/* the measured system: sys for a live run, origin for a recording */
	const struct tlat_sysinfo *sys;
	const struct tlat_report_origin *origin;
	time_t start_time;		/* (time_t)-1: unknown (a recording that does not say) */
	time_t end_time;
	/* known once the run's last actions ran: documents only */
	int exit_status;
};

/* what the outputs show, the same in each */

/**
 * report_cpu_shown - whether the outputs show a CPU
 * @report: the report
 * @cpu: the CPU
 *
 * Returns false for a CPU not measured or that produced nothing: rtla hides
 * those.
 */
bool report_cpu_shown(const struct tlat_report *report, int cpu);
/**
 * report_ctx_shown - whether the outputs show a context
 * @report: the report
 * @ctx: the context
 *
 * Returns false for what hist's --no-irq and --no-thread leave out, and for
 * the user-return context where it was not measured.
 */
bool report_ctx_shown(const struct tlat_report *report, enum tlat_ctx ctx);
/**
 * report_stat_shown - a context's numbers over the CPUs shown
 * @report: the report
 * @ctx: the context
 *
 * Returns them: the text's ALL rows.
 */
struct tlat_stat report_stat_shown(const struct tlat_report *report, enum tlat_ctx ctx);
/**
 * report_divisor - from nanoseconds to the display unit
 * @report: the report
 *
 * Returns 1000 (us), or 1 with -n (ns).
 */
u64 report_divisor(const struct tlat_report *report);
/**
 * report_duration - rtla's duration stamp, "  0 00:00:10"
 * @buf: set to it, NUL-terminated
 * @len: @buf's size
 * @elapsed_s: the duration in seconds
 */
void report_duration(char *buf, size_t len, u64 elapsed_s);

#endif
