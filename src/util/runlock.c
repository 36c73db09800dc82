// SPDX-License-Identifier: GPL-2.0
/*
 * runlock.c - advisory run locks in /run (or /tmp where there is no /run,
 * as in a minimal initramfs).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>

#include "util/runlock.h"

void runlock_path(const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/tlat-%s", access("/run", W_OK) ? "/tmp" : "/run", name);
}

int runlock_acquire(const char *resource)
{
	char path[128], name[64];
	int fd;

	snprintf(name, sizeof(name), "%s.lock", resource);
	runlock_path(name, path, sizeof(path));
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int ret = errno == EWOULDBLOCK ? -EBUSY : -errno;

		close(fd);
		return ret;
	}
	return fd;
}

void runlock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
