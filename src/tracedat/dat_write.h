/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_write.h - tlat record: the raw per-CPU pages of tlat's instance are
 * kept in per-CPU files and written at the end as a trace.dat with
 * libtracecmd, the way trace-cmd record writes one. The same pages, decoded
 * with libtraceevent's kbuffer, are what the collector hands on, so the
 * live run sees exactly the records the file holds.
 */
#ifndef TLAT_TRACEDAT_DAT_WRITE_H
#define TLAT_TRACEDAT_DAT_WRITE_H

#include <event-parse.h>
#include <tracefs.h>

#include "core/sample.h"

struct dat_writer;

typedef int (*dat_record_fn)(struct tep_event *event, struct tep_record *record, int cpu,
				  void *ctx);

/**
 * dat_writer_open - record an instance's buffers into a trace.dat
 * @rec: set to the writer, to free with dat_writer_free()
 * @inst: the instance
 * @tep: its event formats
 * @systems: the event systems whose formats the file holds (NULL-ended), to
 *	which those of the events enabled in @inst at the end are added;
 *	ftrace's are always there
 * @nr_cpus: the CPUs whose buffers are recorded
 * @path: the trace.dat to write
 * @err: the error line, on failure
 *
 * Only once the source has set its tracer: a reader of trace_pipe_raw
 * keeps the kernel from changing it.
 *
 * Returns 0, or -errno with @err set.
 */
int dat_writer_open(struct dat_writer **rec, struct tracefs_instance *inst, struct tep_handle *tep,
		    const char *const *systems, int nr_cpus, const char *path, char *err);
/**
 * dat_writer_drain - one pass over what the buffers hold, kept for the file
 * @rec: the writer
 * @until_ns: when the pass ends at the latest, as buffer_reader_drain()'s
 * @fn: called with each record, in time order, as tracefs_iterate_raw_events() does
 * @ctx: @fn's last argument
 *
 * Returns 0 (the buffers emptied), 1 (records left at @until_ns), or the
 * writer's first error (-errno).
 */
int dat_writer_drain(struct dat_writer *rec, u64 until_ns, dat_record_fn fn, void *ctx);
/**
 * dat_writer_write - after the last drain, write the trace.dat
 * @rec: the writer
 * @tracing_dir: where the event formats are
 * @err: the error line, on failure
 *
 * The formats of the recording's systems, kallsyms, printk formats, cmdlines, the instance's clock
 * and per-CPU statistics, uname, and the pages.
 *
 * Returns 0, or -errno with @err set.
 */
int dat_writer_write(struct dat_writer *rec, const char *tracing_dir, char *err);
/**
 * dat_writer_free - close the buffers, remove the per-CPU files, free
 * @rec: from dat_writer_open(), or NULL
 */
void dat_writer_free(struct dat_writer *rec);

#endif
