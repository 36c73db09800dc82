/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_meta.h - what tlat record says of its run in the recording, as
 * trace_marker lines among the records, and what tlat report reads back:
 * the measured window and the thresholds ("tlat-record: ..."), and what the
 * run's JSON document would say of it ("tlat-run: K/N ...").
 */
#ifndef TLAT_TRACEDAT_DAT_META_H
#define TLAT_TRACEDAT_DAT_META_H

#include <stdbool.h>
#include <stddef.h>

#include "core/sample.h"

#define DAT_META_PREFIX	"tlat-record:"
/*
 * tlat record's description of its run for the JSON documents (argv,
 * options, system, start_time), compact JSON cut into trace_marker lines of
 * at most DAT_RUN_CHUNK bytes each: "tlat-run: K/N <text>"
 */
#define DAT_RUN_PREFIX	"tlat-run:"
#define DAT_RUN_CHUNK	768

/* what tlat record writes about its run; 0 where it has nothing to say */
struct dat_meta {
	char source[16];
	u64 start_ns;		/* samples before it are warm-up */
	u64 end_ns;		/* samples after it are past -d */
	u64 stop_irq_us;
	u64 stop_thread_us;
	u64 stack_us;
	bool user_data;		/* the user-return context was measured */
};

/**
 * dat_meta_format - the recording's "tlat:" marker line, without a newline
 * @buf: set to the line, NUL-terminated
 * @len: @buf's size
 * @meta: what the line says
 *
 * Returns the length snprintf() would write, as snprintf() does.
 */
int dat_meta_format(char *buf, size_t len, const struct dat_meta *meta);
/**
 * dat_meta_parse - read a "tlat:" marker line
 * @text: the marker's text
 * @len: its length, which need not be NUL-terminated
 * @meta: filled in
 *
 * Returns false if @text is not such a line.
 */
bool dat_meta_parse(const char *text, size_t len, struct dat_meta *meta);

/**
 * dat_run_write - the run's description as "tlat-run:" marker lines
 * @json: the description, a JSON document
 * @write: writes one line; 0 or -errno
 * @ctx: @write's first argument
 *
 * Returns 0, or @write's first error.
 */
int dat_run_write(const char *json, int (*write)(void *ctx, const char *line), void *ctx);

/* the description as read back: complete once every line came, in order */
struct dat_run {
	char *json;		/* NULL: none */
	int chunks;		/* lines seen so far */
	int total;		/* lines written */
};

/**
 * dat_run_line - one marker line, kept if it is a "tlat-run:" chunk
 * @run: the description so far
 * @text: the marker's text; other lines are ignored
 * @len: its length
 */
void dat_run_line(struct dat_run *run, const char *text, size_t len);
/**
 * dat_run_complete - whether every line of the description was seen, in order
 * @run: the description so far
 *
 * Returns true if it is whole.
 */
bool dat_run_complete(const struct dat_run *run);
/**
 * dat_run_free - free the description kept, back to none
 * @run: the description
 */
void dat_run_free(struct dat_run *run);

#endif
