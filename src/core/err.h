/* SPDX-License-Identifier: GPL-2.0 */
/*
 * err.h - how errors travel: a function that can fail returns 0 or -errno
 * and writes one line, for the user, into the caller's buffer of
 * TLAT_ERR_LEN bytes; the caller that knows what the user asked for (the
 * command layer) prints it, once. Nothing below it prints an error.
 */
#ifndef TLAT_CORE_ERR_H
#define TLAT_CORE_ERR_H

#define TLAT_ERR_LEN	256

/**
 * tlat_err - write the one line that says why something failed
 * @err: the caller's buffer, TLAT_ERR_LEN bytes
 * @fmt: printf's format, without a newline
 *
 * The line is cut at TLAT_ERR_LEN - 1 bytes. It replaces whatever @err held.
 */
void tlat_err(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
