/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sandbox.h - running a piece of tlat in a child process with bounds: an
 * address-space and a CPU-time limit, and a wall-clock deadline. For work
 * on input from outside done by libraries tlat cannot make safe (libtracecmd
 * and libtraceevent parsing a damaged trace.dat): whatever they do, the
 * parent ends with one line saying how the child ended.
 */
#ifndef TLAT_UTIL_SANDBOX_H
#define TLAT_UTIL_SANDBOX_H

#include <stddef.h>

struct sandbox_limits {
	size_t as_bytes;	/* RLIMIT_AS; 0: none (nor under AddressSanitizer) */
	unsigned int seconds;	/* RLIMIT_CPU, and the wall-clock deadline */
};

/* what sandbox_run() returns when the child did not exit by itself */
#define SANDBOX_FAILED	(-1)

/**
 * sandbox_run - run @fn in a child process within @lim, and wait for it
 * @fn: the work; its return is the child's exit status (0-255); it may set
 *	its error line, which comes back to the parent
 * @arg: @fn's first argument
 * @lim: the bounds
 * @what: what the child reads, for the line of a child that did not exit
 *	("FILE is damaged: reading it ...")
 * @err: the child's error line, or the line saying how it ended
 *
 * The child's standard output and error are the parent's; stdout is flushed
 * before the fork and at the child's end.
 *
 * Returns @fn's return, or SANDBOX_FAILED with @err set if the child was
 * killed (a signal, the CPU limit, the deadline) or could not be started.
 */
int sandbox_run(int (*fn)(void *arg, char *err), void *arg, const struct sandbox_limits *lim,
		const char *what, char *err);

#endif
