/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spawn.h - running another program (modprobe, gnuplot) to its end: tlat
 * needs its exit status and, for gnuplot, the line that says what went
 * wrong, with a wait that tlat's own signal handlers do not cut short.
 */
#ifndef TLAT_UTIL_SPAWN_H
#define TLAT_UTIL_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

/* as an fd of struct spawn_io: the child's end is /dev/null */
#define SPAWN_DEVNULL	(-1)
/* spawn_wait() returns SPAWN_KILLED + the signal's number when one killed the child */
#define SPAWN_KILLED	256

/* the child's standard input, output and error, and its signal mask */
struct spawn_io {
	/* what the child gets as its fd 0, 1 and 2: an fd of tlat's, or SPAWN_DEVNULL */
	int in;
	int out;
	int err;
	/*
	 * If set, the child's standard error goes to a pipe instead of err,
	 * and its first line, cut at err_line_len - 1 bytes, comes here.
	 */
	char *err_line;
	size_t err_line_len;
	/*
	 * The child keeps the signals tlat blocks blocked, instead of an
	 * empty mask: for a program that tlat's stop signals must not cut short.
	 */
	bool keep_sigmask;
};

/**
 * spawn_wait - run a program, looked up in PATH, and wait for its end
 * @argv: the program's name, then its arguments, NULL-terminated
 * @io: its standard input, output and error, and whether it keeps tlat's signal mask
 *
 * An interrupted wait is resumed: the child has always ended on return.
 * What the child writes to a captured standard error is read to its end,
 * so that a long message cannot block it.
 *
 * Returns: the child's exit status (0 to 255), SPAWN_KILLED + the number of
 * the signal that killed it, or -errno if it could not run (-ENOENT: no such
 * program in PATH).
 */
int spawn_wait(char *const argv[], const struct spawn_io *io);

#endif
