/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_read.h - a trace.dat, read with libtracecmd, for tlat report: one
 * that tlat record wrote, or one of trace-cmd record of the timerlat tracer
 * or of tlat.ko's events. The source that recorded it is the one whose
 * decoder finds samples in it; what only tlat record knew about its run
 * (the measured window, the thresholds, its description) it put in the
 * recording itself (dat_meta.h).
 */
#ifndef TLAT_TRACEDAT_DAT_READ_H
#define TLAT_TRACEDAT_DAT_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "trace/decoder.h"
#include "tracedat/dat_meta.h"
#include "tracedat/dat_write.h"

struct dat_reader;

/**
 * dat_reader_open - open a trace.dat for reading
 * @rec: set to the reader, to close with dat_reader_close()
 * @path: the file, kept by the reader: it must outlive it
 * @err: the error line, on failure
 *
 * Returns 0, or -errno with one line in @err if @path cannot be read or is
 * not a trace.dat.
 */
int dat_reader_open(struct dat_reader **rec, const char *path, char *err);

/**
 * dat_reader_tep - the recording's event formats, and symbols once dat_reader_symbols() ran
 * @rec: the reader
 *
 * Returns its tep, owned by the reader.
 */
struct tep_handle *dat_reader_tep(const struct dat_reader *rec);

/**
 * dat_reader_symbols - the recording's kallsyms into its tep, before a name is looked up
 * @rec: the reader
 *
 * The reader may have opened the file without them (they cost a report of
 * a short recording a quarter of its time): this parses them, once, as
 * libtracecmd would have. Call it before the first tep_find_function():
 * libtraceevent builds its map of the functions at the first look-up, and
 * symbols added after it are not in it.
 *
 * Returns 0 (also if the recording has none), or -errno if they cannot be
 * read: the tep then has no names.
 */
int dat_reader_symbols(struct dat_reader *rec);

/**
 * dat_reader_cpus - how many CPUs the recording has buffers of
 * @rec: the reader
 *
 * Returns the count.
 */
int dat_reader_cpus(const struct dat_reader *rec);

/**
 * dat_reader_page_size - the size of the recording's ring-buffer pages
 * @rec: the reader
 *
 * Returns it in bytes, as the recording says.
 */
int dat_reader_page_size(const struct dat_reader *rec);

/**
 * dat_reader_uname - uname as trace-cmd keeps it
 * @rec: the reader
 *
 * Returns "sysname nodename release machine", owned by the reader, or NULL
 * if the recording does not keep it.
 */
const char *dat_reader_uname(const struct dat_reader *rec);
/**
 * dat_reader_clock - the trace clock the recording was taken with
 * @rec: the reader
 *
 * Returns its name; trace-cmd's default, "local", if the recording does not say.
 */
const char *dat_reader_clock(const struct dat_reader *rec);
/**
 * dat_reader_replay - every record, in time order, from the first
 * @rec: the reader; each call is a new pass
 * @fn: called with each record; a non-zero return ends the pass there
 * @ctx: @fn's last argument
 *
 * Returns 0, or -EBADMSG if the recording's data is damaged (the pass ends
 * there), or -errno: dat_reader_error() says which.
 */
int dat_reader_replay(struct dat_reader *rec, dat_record_fn fn, void *ctx);
/**
 * dat_reader_error - the line for a pass that failed
 * @rec: the reader
 * @ret: dat_reader_replay()'s return
 * @err: set to the line: what is damaged and where, if that is why
 */
void dat_reader_error(const struct dat_reader *rec, int ret, char *err);
/**
 * dat_reader_last_ts - the time of the last record the last pass handed to its callback
 * @rec: the reader
 *
 * Returns it, or 0 if none.
 */
u64 dat_reader_last_ts(const struct dat_reader *rec);

/**
 * dat_reader_close - close the recording and free the reader
 * @rec: from dat_reader_open(), or NULL
 */
void dat_reader_close(struct dat_reader *rec);

/*
 * What a first pass over a recording finds. Where tlat record's line names
 * the source, the pass reads no further than its lines, and the real pass
 * counts the samples and finds the last time instead.
 */
/* a source's decoder, as a recording's scan tries it */
struct dat_decoder {
	const char *name;			/* the source's, as tlat record's line says */
	const struct tlat_decoder_ops *ops;
};

struct dat_reader_info {
	/* the decoder of the source whose samples it holds, of the scan's list */
	const struct dat_decoder *decoder;
	u64 samples;				/* how many its decoder found */
	bool user_data;				/* some of user-return latency */
	bool has_meta;
	struct dat_meta meta;
	u64 first_ts;				/* of any record; without the line only */
	u64 last_ts;
	/* tlat record's description of its run, whole; json NULL if it has none */
	struct dat_run run;
};

/**
 * dat_reader_info_free - free what dat_reader_scan() filled in
 * @info: the scan's findings; the struct itself is the caller's
 */
void dat_reader_info_free(struct dat_reader_info *info);

/**
 * dat_reader_scan - find which source recorded a recording, and what it says of its run
 * @rec: the reader; the real pass may follow on it
 * @params: the options, as they will be for the real pass
 * @decoders: the sources' decoders, in order of preference; @info points
 *	into it, which must outlive @info
 * @nr_decoders: how many
 * @info: filled in; free with dat_reader_info_free()
 * @err: the error line, on failure
 *
 * Reads tlat record's lines, which name the source; without them, decodes
 * the whole recording with every decoder: the first that finds samples
 * recorded it.
 *
 * Returns 0, -ENOENT with @err set if no source finds samples, or -errno.
 */
int dat_reader_scan(struct dat_reader *rec, const struct tlat_params *params,
		    const struct dat_decoder *decoders, size_t nr_decoders,
		    struct dat_reader_info *info, char *err);

#endif
