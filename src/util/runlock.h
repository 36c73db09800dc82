/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runlock.h - one tlat at a time on a global resource (the kernel's timerlat
 * tracer, tlat.ko): an flock held for the whole run, released by the kernel
 * even when tlat is killed.
 */
#ifndef TLAT_UTIL_RUNLOCK_H
#define TLAT_UTIL_RUNLOCK_H

#include <stddef.h>

/**
 * runlock_path - where tlat keeps a file of its own
 * @name: the file's name
 * @path: set to its path: in /run, or /tmp without a writable /run
 * @len: @path's size
 */
void runlock_path(const char *name, char *path, size_t len);
/**
 * runlock_acquire - take the lock of a resource that one tlat uses at a time
 * @resource: its name, such as "timerlat"
 *
 * Returns an fd holding the lock, -EBUSY if another tlat holds it, or -errno.
 */
int runlock_acquire(const char *resource);

/**
 * runlock_release - let go of a lock
 * @fd: from runlock_acquire(); a negative one is ignored
 */
void runlock_release(int fd);

#endif
