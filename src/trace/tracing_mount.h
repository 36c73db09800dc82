/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracing_mount.h - tracefs, found where it is mounted, or mounted for the
 * run. A mount that tlat made is shared by the tlat runs that overlap it and
 * undone by the last of them; when the run that made it was killed, the next
 * run takes it over, so that it too goes in the end.
 */
#ifndef TLAT_TRACE_TRACING_MOUNT_H
#define TLAT_TRACE_TRACING_MOUNT_H

#include <stdbool.h>

struct tracing_mount {
	const char *dir;		/* the tracing directory; libtracefs's string */
	bool ours;			/* a tlat run mounted it: the last one unmounts it */
	bool debugfs;			/* ... and debugfs, the directory's parent */
	unsigned long long mnt_id;	/* tells tlat's mount from a later one there */
};

/**
 * tracing_mount_get - find tracefs, or mount it, and have libtracefs use it
 * @m: filled in: the directory, and whether tlat mounted it
 * @err: the error line, on failure
 *
 * Mounting falls back as libtracefs does: debugfs, where tracefs cannot be.
 *
 * Returns 0, or -errno with @err set.
 */
int tracing_mount_get(struct tracing_mount *m, char *err);
/**
 * tracing_mount_put - let go of tracefs
 * @m: from tracing_mount_get()
 * @last: no other tlat run uses tracefs: then a mount of tlat's goes
 */
void tracing_mount_put(struct tracing_mount *m, bool last);

#endif
