/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_check.h - a trace.dat's headers checked before libtracecmd reads them:
 * it trusts the sizes and offsets in them, allocating and reading what they
 * say. Versions 6 and 7 (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)): every
 * size and offset of the headers, the options, the sections they point to
 * and the CPUs' data must fit in the file, and in its section. Compressed
 * sections are checked as far as their compression header.
 */
#ifndef TLAT_TRACE_DAT_CHECK_H
#define TLAT_TRACE_DAT_CHECK_H

#include <stddef.h>

#include "core/sample.h"

/**
 * dat_check - walk a trace.dat's headers
 * @fd: the file, open for reading; its offset is not used
 * @what: set to one line saying what is damaged ("option 12 (id 3)'s size
 *	runs past the end of the file"), if something is
 * @len: @what's size
 *
 * The file must start with trace-cmd's magic: the caller checks it first.
 *
 * Returns 0, -EBADMSG with @what set if the headers are damaged, or -errno.
 */
int dat_check(int fd, char *what, size_t len);

#endif
