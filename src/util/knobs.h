/* SPDX-License-Identifier: GPL-2.0 */
/*
 * knobs.h - global settings outside tlat's instance (osnoise/ files, module
 * parameters): each is read before its first write and written back when the
 * run ends, in reverse order.
 */
#ifndef TLAT_UTIL_KNOBS_H
#define TLAT_UTIL_KNOBS_H

#include <stdbool.h>

struct knobs;

/**
 * knobs_alloc - the knobs of a settings directory, none changed yet
 * @dir: the directory (copied), such as /sys/module/tlat/parameters
 *
 * Returns them, to free with knobs_free(), or NULL out of memory.
 */
struct knobs *knobs_alloc(const char *dir);

/**
 * knobs_set - save a knob's value the first time, then write a new one
 * @knobs: the directory's knobs
 * @name: the knob's file
 * @value: what to write
 *
 * Returns 0, -ENOSPC past the knobs it can save, or -errno.
 */
int knobs_set(struct knobs *knobs, const char *name, const char *value);

/**
 * knobs_set_u64 - knobs_set() for a number
 * @knobs: the directory's knobs
 * @name: the knob's file
 * @value: the number, written in decimal
 *
 * Returns as knobs_set().
 */
int knobs_set_u64(struct knobs *knobs, const char *name, unsigned long long value);

/**
 * knobs_get - read a knob's value
 * @knobs: the directory's knobs
 * @name: the knob's file
 * @buf: set to its value, trailing newlines cut, NUL-terminated
 * @len: @buf's size
 *
 * Returns as knobs_read_fd(), or -errno if the file cannot be opened.
 */
int knobs_get(struct knobs *knobs, const char *name, char *buf, int len);

/**
 * knobs_read_fd - a knob's value from an open file, as knobs_get() reads it
 * @fd: the file, read from its current offset
 * @buf: set to its value, trailing newlines cut, NUL-terminated
 * @len: @buf's size, at least 1
 *
 * A value that would not be restored as it was is refused: one longer than
 * @buf can hold, or one with a NUL byte in it.
 *
 * Returns 0, -EOVERFLOW if it is too long, -EINVAL for a NUL byte (or @len
 * below 1), or -errno of read(2).
 */
int knobs_read_fd(int fd, char *buf, int len);

/**
 * knobs_exists - whether the directory has a knob
 * @knobs: the directory's knobs
 * @name: the knob's file
 *
 * Returns true if the file exists.
 */
bool knobs_exists(const struct knobs *knobs, const char *name);

/**
 * knobs_restore - write back every saved value, newest first
 * @knobs: the directory's knobs, or NULL; none is saved afterwards
 *
 * Every knob is tried. Returns 0 or the first error.
 */
int knobs_restore(struct knobs *knobs);

/**
 * knobs_free - restore what is still changed, and free
 * @knobs: from knobs_alloc(), or NULL
 */
void knobs_free(struct knobs *knobs);

#endif
