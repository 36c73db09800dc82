/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_pages.h - a trace.dat's records in the order libtracecmd's
 * tracecmd_iterate_events() gives them (by time; the lowest CPU first on a
 * tie), read off the pages libtracecmd loads with its own kbuffers: no
 * allocation and no copy per record, and each record's event found by its
 * id in a table. This is what lets tlat report keep up with many CPUs.
 */
#ifndef TLAT_TRACEDAT_DAT_PAGES_H
#define TLAT_TRACEDAT_DAT_PAGES_H

#include <trace-cmd.h>

#include "core/sample.h"
#include "tracedat/dat_write.h"

struct dat_pages;

/**
 * dat_pages_alloc - a reader of an opened recording's CPU data
 * @pages: set to the reader, to free with dat_pages_free()
 * @handle: the recording, opened with libtracecmd; it must outlive the reader
 *
 * Returns 0 or -ENOMEM.
 */
int dat_pages_alloc(struct dat_pages **pages, struct tracecmd_input *handle);

/**
 * dat_pages_replay - one pass over every record with a known event, from the start
 * @pages: the reader; each pass starts again at every CPU's first record
 * @fn: called with each record; a non-zero return ends the pass early
 * @ctx: @fn's last argument
 *
 * The record handed to @fn is valid until @fn returns; its data, as long as
 * libtracecmd keeps the page (as with tracecmd_iterate_events()).
 *
 * A page whose header or records do not fit in it, or a CPU's records out
 * of time order, end the pass there: dat_pages_damage() says where.
 *
 * Returns 0, or -EBADMSG if the pass met damaged data.
 */
int dat_pages_replay(struct dat_pages *pages, dat_record_fn fn, void *ctx);

/**
 * dat_pages_check_file - check the header of every page in the file, before
 * libtracecmd loads them: it walks a page as far as its header says, past
 * the page. Pages of compressed data, or of another byte order, are not
 * checked.
 * @pages: the reader
 * @path: the recording's file
 * @buf: set to one line ("CPU 1's data, page 17: ...") if a page is damaged
 * @len: @buf's size
 *
 * Returns 1 if a page's header is damaged, 0 if not (or if it cannot tell).
 */
int dat_pages_check_file(struct dat_pages *pages, const char *path, char *buf, size_t len);
/**
 * dat_pages_damage - what the last pass found damaged
 * @pages: the reader
 * @buf: set to one line ("CPU 3's data, page 17: ..."), if it found any
 * @len: @buf's size
 *
 * Returns 1 if the last pass met damaged data, 0 if not.
 */
int dat_pages_damage(const struct dat_pages *pages, char *buf, size_t len);
/**
 * dat_pages_last_ts - the time of the last record the last pass handed over
 * @pages: the reader
 *
 * Returns it, or 0 if that pass handed none.
 */
u64 dat_pages_last_ts(const struct dat_pages *pages);

/**
 * dat_pages_free - free the reader (not the recording)
 * @pages: from dat_pages_alloc(), or NULL
 */
void dat_pages_free(struct dat_pages *pages);

#endif
