/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recorder.h - tlat record: the raw per-CPU pages of tlat's instance are
 * kept in per-CPU files and written at the end as a trace.dat with
 * libtracecmd, the way trace-cmd record writes one. The same pages, decoded
 * with libtraceevent's kbuffer, are what the collector hands on, so the
 * live run sees exactly the records the file holds.
 */
#ifndef TLAT_RECORDER_H
#define TLAT_RECORDER_H

#include <event-parse.h>
#include <tracefs.h>

struct recorder;

typedef int (*recorder_record_fn)(struct tep_event *event, struct tep_record *record, int cpu,
				  void *ctx);

/*
 * Record nr_cpus CPUs of inst into path. Only once the source has set its
 * tracer: a reader of trace_pipe_raw keeps the kernel from changing it.
 */
int recorder_open(struct recorder **rec, struct tracefs_instance *inst, struct tep_handle *tep,
		  int nr_cpus, const char *path, char *err);
/* one pass over what the buffers hold, in time order, as tracefs_iterate_raw_events() */
int recorder_drain(struct recorder *rec, recorder_record_fn fn, void *ctx);
/*
 * After the last drain: write the trace.dat (event formats, kallsyms,
 * printk formats, cmdlines, the instance's clock and per-CPU statistics,
 * uname, the pages). tracing_dir: where the formats are.
 */
int recorder_write(struct recorder *rec, const char *tracing_dir, char *err);
/* closes the buffers, removes the per-CPU files; NULL is fine */
void recorder_free(struct recorder *rec);

#endif
