/* SPDX-License-Identifier: GPL-2.0 */
/*
 * params.h - everything the user asked for on the command line, as parsed by
 * cli.c. Values keep their unit in their name; the run never changes them.
 */
#ifndef TLAT_CORE_PARAMS_H
#define TLAT_CORE_PARAMS_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/actions.h"
#include "core/cpuset.h"
#include "core/sample.h"

/* rtla's and the kernel's default for the measuring threads: SCHED_FIFO 95 */
#define TLAT_DEFAULT_PRIO	95

enum tlat_mode {
	TLAT_MODE_TOP,
	TLAT_MODE_HIST,
};

enum tlat_command {
	TLAT_CMD_MEASURE,	/* top, hist */
	TLAT_CMD_RECORD,	/* the same, keeping the instance's records in a trace.dat */
	TLAT_CMD_REPORT,	/* a trace.dat's samples, offline */
};

/* what tlat record writes and tlat report reads without -o or a file, as trace-cmd */
#define TLAT_DEFAULT_RECORDING	"trace.dat"

/* who measures: rtla's -k and -u */
enum tlat_threads {
	TLAT_THREADS_AUTO,	/* user threads where the source has them */
	TLAT_THREADS_KERNEL,
	TLAT_THREADS_USER,
};

/* --stack-format: what to do with a return address that has no symbol */
enum tlat_stack_format {
	TLAT_STACK_TRUNCATE,	/* stop there (rtla's default) */
	TLAT_STACK_SKIP,
	TLAT_STACK_FULL,	/* print it as a raw address */
};

/* --json-format: tlat's own document, or rt-tests' (cyclictest --json) shape */
enum tlat_json_format {
	TLAT_JSON_TLAT,
	TLAT_JSON_RT_TESTS,
};

/* --collector: where a run's samples are counted */
enum tlat_collect {
	TLAT_COLLECT_AUTO,	/* the source's choice: tlat.ko's aggregates, else trace */
	TLAT_COLLECT_KERNEL,	/* in the kernel (BPF, tlat.ko): no trace event per sample */
	TLAT_COLLECT_TRACE,	/* from trace events, decoded by tlat */
	TLAT_COLLECT_BOTH,	/* trace, and the kernel's beside it for -D to compare */
};

struct tlat_sched {
	bool set;
	int policy;		/* SCHED_OTHER, SCHED_RR, SCHED_FIFO, SCHED_DEADLINE */
	int prio;		/* nice for SCHED_OTHER, rt priority otherwise */
	u64 runtime_ns;		/* SCHED_DEADLINE only */
	u64 period_ns;
};

/* -e sys[:event], with the --filter and --trigger given after it */
struct tlat_event_req {
	char *system;		/* owned: "sys", cut off at the ':' */
	const char *event;	/* inside system's allocation; NULL: the whole system */
	const char *filter;	/* NULL: none */
	const char *trigger;	/* NULL: none */
};

/* -e's events, in command-line order */
struct tlat_events {
	struct tlat_event_req *list;
	int nr;
};

/* the thresholds: -i and -T stop the run, -s saves the stack (0: off) */
struct tlat_thresholds {
	u64 irq_us;		/* an IRQ latency reaching it stops the run */
	u64 thread_us;		/* a thread or user-return latency, likewise */
	u64 stack_us;		/* -s: save the IRQ stack above it */
};

/* --deepest-idle-state: cpuidle is left alone, or states deeper than N go (util/idle.h's) */
#define TLAT_IDLE_UNTOUCHED	-2
#define TLAT_IDLE_NONE		-1	/* every state disabled */

struct tlat_hist_params {
	unsigned int bucket_size;	/* in the display unit (us, or ns with -n) */
	unsigned int entries;
	bool no_irq;
	bool no_thread;
	bool no_header;
	bool no_summary;
	bool no_index;
	bool with_zeros;
	const char *plot_file;		/* --plot: a .png or .svg to draw (NULL: none) */
};

/* what the outputs read: what they render and where it goes */
struct tlat_output_params {
	enum tlat_mode mode;
	bool quiet;
	bool nano;
	bool aa_only;			/* --aa-only: the analysis, no statistics */
	bool aa_extras;			/* --aa-extras: tlat's lines after rtla's */
	enum tlat_stack_format stack_format;
	const char *json_path;		/* --json: NULL, a file, or "-" for stdout */
	enum tlat_json_format json_format;
	bool json_format_set;
	struct tlat_hist_params hist;
};

struct tlat_params {
	enum tlat_command command;	/* set before cli_parse(); cli_params_init(): measure */
	const char *recording;		/* record: the trace.dat to write; report: to read */
	u64 period_us;
	u64 duration_s;			/* 0: until interrupted */
	unsigned int warmup_s;
	struct tlat_cpuset cpus;	/* measured CPUs */
	bool cpus_set;			/* -c named them: an offline one is an error */
	struct tlat_cpuset housekeeping;/* where tlat itself runs; empty = auto */
	bool housekeeping_set;
	struct tlat_sched sched;
	enum tlat_threads threads;
	bool user_load;			/* -U: the user runs the per-CPU load, not tlat */
	bool cgroup_set;		/* -C: move the measuring threads to a cgroup */
	const char *cgroup;		/* its name, or NULL for tlat's own cgroup */
	struct tlat_thresholds stop;
	bool thresholds_set;		/* any of -i, -T, -s, -a, --aa-only was given */
	bool no_aa;			/* --no-aa; also set when no threshold is */
	bool dump_tasks;
	/* --on-threshold, then -t's trace (as rtla: last); and --on-end */
	struct tlat_actions on_threshold;
	struct tlat_actions on_end;
	/* --report-hits: exit 2 when a continue run's threshold was hit */
	bool report_hits;
	bool debug;
	int dma_latency_us;		/* -1: leave /dev/cpu_dma_latency alone */
	unsigned long buffer_kb;	/* 0: tlat's default */
	int deepest_idle_state;		/* TLAT_IDLE_UNTOUCHED, TLAT_IDLE_NONE, or a state */
	bool aligned;			/* -A: thread k first wakes at a common time + k * align_us */
	u64 align_us;
	struct tlat_events events;	/* -e */
	const char *source;		/* "auto" or a source name */
	enum tlat_collect collect;
	int readers;			/* --readers: 0 auto, -1 merged, else threads */
	const char *sample_log;		/* NULL, or a file to log every sample to */
	int argc;			/* the whole command line, for the JSON documents */
	char *const *argv;
	struct tlat_output_params out;
};

#endif
