// SPDX-License-Identifier: GPL-2.0
/*
 * fd_workload.c - measuring threads whose every activation is one read() of
 * a timerlat_fd-like file: the kernel arms the timer, puts the thread to
 * sleep and records the samples, user-return included. Used with the
 * kernel's osnoise/per_cpu/cpuN/timerlat_fd and with tlat.ko's /dev/tlat.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "sources/workload.h"

static int fd_thread_init(void *ctx, int cpu, void **thread_data)
{
	const struct fd_workload *fw = ctx;
	char path[512];
	int fd;

	if (snprintf(path, sizeof(path), fw->per_cpu ? "%s%d%s" : "%s", fw->prefix, cpu,
		     fw->suffix) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*thread_data = (void *)(long)fd;
	return 0;
}

static int fd_activate(void *ctx, int cpu, void *thread_data)
{
	char buf[1024];

	(void)ctx;
	(void)cpu;
	if (read((int)(long)thread_data, buf, sizeof(buf)) < 0)
		return -errno;
	return 0;
}

static void fd_thread_exit(void *ctx, int cpu, void *thread_data)
{
	(void)ctx;
	(void)cpu;
	close((int)(long)thread_data);
}

const struct workload_ops fd_workload_ops = {
	.thread_init = fd_thread_init,
	.activate = fd_activate,
	.thread_exit = fd_thread_exit,
};
