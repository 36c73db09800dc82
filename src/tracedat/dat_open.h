/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_open.h - a trace.dat opened with libtracecmd, its kallsyms left
 * unparsed where the file's layout allows: tlat report parses them only
 * when it prints a name (dat_reader_symbols()).
 */
#ifndef TLAT_TRACEDAT_DAT_OPEN_H
#define TLAT_TRACEDAT_DAT_OPEN_H

#include "tracedat/dat_check.h"
#include "tracedat/tracecmd_private.h"

/**
 * dat_open - open a trace.dat whose layout dat_check() walked
 * @fd: the file, read-only; the caller keeps it, and it must not be
 *	used by another thread while this runs
 * @path: the same file's name, for what opens it again
 * @l: its layout, as dat_check() found it
 * @kallsyms: set to where the kallsyms' text is, left unparsed; size 0
 *	when libtracecmd parsed them (or the file has none)
 *
 * libtracecmd's messages about a damaged file go nowhere: the caller says
 * the one line.
 *
 * Returns the handle, or NULL if libtracecmd cannot read the file.
 */
struct tracecmd_input *dat_open(int fd, const char *path, const struct dat_layout *l,
				struct dat_range *kallsyms);

#endif
