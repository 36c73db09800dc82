/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runlock.h - one tlat at a time on a global resource (the kernel's timerlat
 * tracer, tlat.ko): an flock held for the whole run, released by the kernel
 * even when tlat is killed.
 */
#ifndef TLAT_RUNLOCK_H
#define TLAT_RUNLOCK_H

#include <stddef.h>

/* where tlat keeps the file called name: /run, or /tmp without a writable /run */
void runlock_path(const char *name, char *path, size_t len);
/* returns an fd holding the lock, -EBUSY if another tlat holds it, or -errno */
int runlock_acquire(const char *resource);
void runlock_release(int fd);

#endif
