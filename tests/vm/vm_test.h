/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm_test.h - what the in-VM helpers of /dev/tlat share (ufd_test.c,
 * dev_storm.c): TAP-like checks without numbers (the calling script numbers
 * them), pinning, the time, and open()'s outcome. Define CHECK_PREFIX
 * before including it to prefix every check's text.
 */
#ifndef VM_TEST_H
#define VM_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#ifndef CHECK_PREFIX
#define CHECK_PREFIX ""
#endif

static int failed;	/* a check failed: the exit status */

static inline void check(int cond, const char *what)
{
	printf("%s - " CHECK_PREFIX "%s\n", cond ? "ok" : "not ok", what);
	if (!cond)
		failed = 1;
}

static inline int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* open(PATH): 0 if it opens (and is closed again), else its errno */
static inline int open_errno_of(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

static inline int open_errno(void)
{
	return open_errno_of("/dev/tlat");
}

static inline unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline double now_s(void)
{
	return now_ns() / 1e9;
}

#endif
