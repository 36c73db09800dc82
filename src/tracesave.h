/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracesave.h - the store behind -t[=file]: tlat consumes its instance's
 * buffer as it reads it, so the kernel's "trace" file is empty when a
 * threshold stops the run. The collector hands every record here too; the
 * newest ones are kept within a byte budget and written as that file would
 * have shown them.
 */
#ifndef TLAT_TRACESAVE_H
#define TLAT_TRACESAVE_H

#include <stddef.h>

#include <event-parse.h>

struct tracesave;

/*
 * Keep at most max_bytes (oldest dropped first). Each record costs a 16-byte
 * header plus its data rounded up to 8 bytes. NULL (errno set) on failure.
 */
struct tracesave *tracesave_alloc(size_t max_bytes);
/* copy one record (ts, cpu, size, data); records must arrive in time order */
int tracesave_add(struct tracesave *ts, const struct tep_record *record);
/*
 * Write every kept record, oldest first, as the kernel's "trace" file would
 * show it, to path; the first line is "# tracer: <tracer>". 0 or -errno.
 */
int tracesave_write(struct tracesave *ts, struct tep_handle *tep, const char *tracer,
		    const char *path);
/* how many records were dropped to stay within the budget */
unsigned long long tracesave_dropped(const struct tracesave *ts);
void tracesave_free(struct tracesave *ts);

#endif
