/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_check.h - a trace.dat's headers checked before libtracecmd reads them:
 * it trusts the sizes and offsets in them, allocating and reading what they
 * say. Versions 6 and 7 (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)): every
 * size and offset of the headers, the options, the sections they point to
 * and the CPUs' data must fit in the file, and in its section. Compressed
 * sections are checked as far as their compression header.
 */
#ifndef TLAT_TRACEDAT_DAT_CHECK_H
#define TLAT_TRACEDAT_DAT_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/sample.h"

#define DAT_LAYOUT_RANGES	16

/*
 * Where a file's parts are, as the walk found them: what dat_read.c needs
 * to open a version 7 file without its kallsyms (dat_read.c's
 * dat_open_lazy()). Only the parts the walk could read: compressed
 * sections are not looked into.
 */
struct dat_layout {
	int version;			/* 6 or 7 */
	int nr_kallsyms;		/* kallsyms sections found (version 7), packed or not */
	bool kallsyms_packed;		/* one of them is compressed */
	u64 kallsyms_at;		/* the last one's 4-byte size, in the file */
	u64 kallsyms_size;		/* and the bytes of text after it */
	/* the CPUs' data, adjacent ones merged; the first DAT_LAYOUT_RANGES only */
	int nr_data;
	struct dat_range {
		u64 at, size;
	} data[DAT_LAYOUT_RANGES];
};

/**
 * dat_check - walk a trace.dat's headers
 * @fd: the file, open for reading; its offset is not used
 * @layout: set to where its parts are, if not NULL (valid on success only)
 * @what: set to one line saying what is damaged ("option 12 (id 3)'s size
 *	runs past the end of the file"), if something is
 * @len: @what's size
 *
 * The file must start with trace-cmd's magic: the caller checks it first.
 *
 * Returns 0, -EBADMSG with @what set if the headers are damaged, or -errno.
 */
int dat_check(int fd, struct dat_layout *layout, char *what, size_t len);

#endif
