/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_save.h - the store behind -t[=file]: tlat consumes its instance's
 * buffer as it reads it, so the kernel's "trace" file is empty when a
 * threshold stops the run. The collector hands every record here too; the
 * newest ones are kept within a byte budget and written as that file would
 * have shown them.
 */
#ifndef TLAT_TRACE_TEXT_SAVE_H
#define TLAT_TRACE_TEXT_SAVE_H

#include <stddef.h>

#include <event-parse.h>

struct text_save;

/**
 * text_save_alloc - keep the newest records for -t's text trace
 * @max_bytes: at most this much is kept, the oldest dropped first; each
 *	record costs a 16-byte header plus its data rounded up to 8 bytes
 *
 * Returns it, to free with text_save_free(), or NULL (errno set).
 */
struct text_save *text_save_alloc(size_t max_bytes);
/**
 * text_save_add - copy one record (ts, cpu, size, data)
 * @ts: the saved records
 * @record: the record; records must arrive in time order
 *
 * A record larger than the whole budget is dropped and counted.
 *
 * Returns 0, or -EINVAL for a record with a negative size.
 */
int text_save_add(struct text_save *ts, const struct tep_record *record);
/**
 * text_save_write - write every kept record as the kernel's "trace" file shows it
 * @ts: the saved records, oldest first
 * @tep: the formats that print them
 * @tracer: for the first line, "# tracer: <tracer>"
 * @path: the file
 *
 * Returns 0 or -errno.
 */
int text_save_write(struct text_save *ts, struct tep_handle *tep, const char *tracer,
		    const char *path);
/**
 * text_save_dropped - how many records were dropped to stay within the budget
 * @ts: the saved records
 *
 * Returns the count.
 */
unsigned long long text_save_dropped(const struct text_save *ts);

/**
 * text_save_free - free the saved records
 * @ts: from text_save_alloc(), or NULL
 */
void text_save_free(struct text_save *ts);

#endif
