/* SPDX-License-Identifier: GPL-2.0 */
/*
 * buffer_read.h - the live reading of tlat's instance: each CPU's
 * trace_pipe_raw, page by page through libtracefs's tracefs_cpu, decoded
 * with libtraceevent's kbuffer, and handed on in time order across CPUs.
 *
 * Unlike tracefs_iterate_raw_events(), which reads until every buffer is
 * empty, a pass may end at a deadline: where the writers outpace the
 * reader (16 CPUs of timer, switch and marker events under TCG), a pass
 * until empty never returns, and with it neither -d nor a stop signal. What
 * a pass read and did not hand on stays here for the next one, so a pass
 * cut short loses nothing.
 */
#ifndef TLAT_TRACE_BUFFER_READ_H
#define TLAT_TRACE_BUFFER_READ_H

#include <stdbool.h>

#include <event-parse.h>
#include <tracefs.h>

#include "core/sample.h"

struct buffer_reader;

typedef int (*buffer_record_fn)(struct tep_event *event, struct tep_record *record, int cpu,
				void *ctx);
/* each page as read, before its records are handed on: the recorder keeps it */
typedef void (*buffer_page_fn)(void *ctx, int cpu, const void *page, int size);

/**
 * buffer_reader_open - read an instance's per-CPU buffers
 * @out: set to the reader, to free with buffer_reader_free()
 * @inst: the instance
 * @tep: its event formats
 * @nr_cpus: the CPUs whose buffers are read (a possible but absent CPU has none)
 * @page_fn: called with each page read, or NULL
 * @page_ctx: @page_fn's first argument
 * @err: the error line, on failure
 *
 * Only once the source has set its tracer: a reader of trace_pipe_raw
 * keeps the kernel from changing it.
 *
 * Returns 0, or -errno with @err set.
 */
int buffer_reader_open(struct buffer_reader **out, struct tracefs_instance *inst,
		       struct tep_handle *tep, int nr_cpus, buffer_page_fn page_fn,
		       void *page_ctx, char *err);
/**
 * buffer_reader_page_size - the size of the pages read
 * @r: the reader
 *
 * Returns the sub-buffer size of the instance's ring buffer.
 */
int buffer_reader_page_size(const struct buffer_reader *r);
/**
 * buffer_reader_drain - one pass: hand on records in time order
 * @r: the reader
 * @until_ns: CLOCK_MONOTONIC time at which the pass ends, buffers empty
 *	or not; 0: only when they are (tracing off: the writers have stopped)
 * @fn: called with each record, as tracefs_iterate_raw_events() does
 * @ctx: @fn's last argument
 *
 * Returns 0 when the buffers were emptied, 1 when @until_ns ended the pass
 * with records left, or -errno from reading.
 */
int buffer_reader_drain(struct buffer_reader *r, u64 until_ns, buffer_record_fn fn, void *ctx);
/**
 * buffer_reader_close - stop reading: the tracer may be changed again
 * @r: the reader, or NULL; a drain still hands on what was read before
 */
void buffer_reader_close(struct buffer_reader *r);
/**
 * buffer_reader_free - close and free
 * @r: from buffer_reader_open(), or NULL
 */
void buffer_reader_free(struct buffer_reader *r);

#endif
