/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_walk.h - dw_*(), a cursor over an untrusted file, for dat_check.c: every
 * read is bounded by the end of what is walked (the file, or one of its
 * sections), and a read that would pass it is one line naming what.
 */
#ifndef TLAT_TRACEDAT_DAT_WALK_H
#define TLAT_TRACEDAT_DAT_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/sample.h"

struct dat_layout;

#define DAT_WALK_MAX_STRING	4096	/* a system's name, a clock's, ... */

struct dat_walk {
	int fd;
	u64 file_size;
	u64 pos;
	u64 end;		/* of what is walked: the file, or a section */
	bool swap;		/* the file's byte order is not this machine's */
	/* what the file's header says, for the walk of its parts */
	int cpus;		/* version 6: the CPU count of the headers */
	u64 long_size, page_size;
	struct dat_layout *layout;	/* where the parts are; NULL: not asked */
	char *what;		/* the line, if something is damaged */
	size_t len;
};

/**
 * dw_damaged - say what is damaged
 * @w: the walk, whose line is set
 * @fmt: printf's format, without a newline
 *
 * Returns -EBADMSG.
 */
int dw_damaged(struct dat_walk *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * dw_take - @n bytes at the cursor, which moves past them
 * @w: the walk
 * @buf: where they are read to; NULL: skipped
 * @n: how many
 * @name: whose bytes they are, for the line
 *
 * Returns 0, or -EBADMSG if they run past the end of what is walked.
 */
int dw_take(struct dat_walk *w, void *buf, u64 n, const char *name);

/**
 * dw_num - a number at the cursor, in the file's byte order
 * @w: the walk
 * @bytes: its size: 1, 2, 4 or 8
 * @v: set to it
 * @name: whose it is, for the line
 *
 * Returns 0 or -EBADMSG.
 */
int dw_num(struct dat_walk *w, int bytes, u64 *v, const char *name);

/**
 * dw_sized - a size of @bytes bytes, then as much data, skipped
 * @w: the walk
 * @bytes: the size's size
 * @name: whose data it is: the line says "NAME's size runs past ..."
 *
 * Returns 0 or -EBADMSG.
 */
int dw_sized(struct dat_walk *w, int bytes, const char *name);

/**
 * dw_string - a NUL-terminated string at the cursor
 * @w: the walk
 * @buf: where it is copied, cut to @len bytes and terminated; NULL: skipped
 * @len: @buf's size
 * @name: whose it is, for the line
 *
 * Returns 0, or -EBADMSG if it has no end within DAT_WALK_MAX_STRING bytes
 * or within what is walked.
 */
int dw_string(struct dat_walk *w, char *buf, size_t len, const char *name);

/**
 * dw_expect - fixed bytes at the cursor
 * @w: the walk
 * @str: the bytes
 * @n: how many, at most 16
 * @name: what they are, for the line
 *
 * Returns 0, or -EBADMSG if they are not there.
 */
int dw_expect(struct dat_walk *w, const char *str, size_t n, const char *name);

#endif
