/* SPDX-License-Identifier: GPL-2.0 */
/*
 * publish.h - writing a file that the user may already have, or may read
 * while tlat writes it (a saved trace, a plot): it is written under a
 * temporary name in its directory and renamed over the old one only once
 * complete, so that a reader sees either the old file or the whole new one,
 * and a failure leaves the old one as it was and nothing else behind.
 */
#ifndef TLAT_UTIL_PUBLISH_H
#define TLAT_UTIL_PUBLISH_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

struct publish {
	const char *path;	/* the caller's, until commit or abort */
	char tmp[PATH_MAX];	/* the file written, next to path */
	int fd;
	FILE *stream;		/* if publish_stream() made one: it owns fd */
};

/**
 * publish_open - create the temporary file that will become @path
 * @p: the file being written
 * @path: the name it will have
 * @mode: the mode it will have, whatever the umask
 *
 * The file is empty, open for writing as @p->fd (close-on-exec), in the
 * directory of @path so that the rename cannot cross file systems. On
 * success, publish_commit() or publish_abort() must follow.
 *
 * Returns: 0, or -errno (-ENOENT: no such directory; -ENAMETOOLONG).
 */
int publish_open(struct publish *p, const char *path, mode_t mode);

/**
 * publish_stream - the file as a stdio stream, for writing through it
 * @p: the file being written, opened
 *
 * The stream owns @p->fd from then on; publish_commit() flushes and closes it.
 *
 * Returns: the stream, or NULL (errno set).
 */
FILE *publish_stream(struct publish *p);

/**
 * publish_commit - make the written file @p->path, in place of any old one
 * @p: the file being written, opened
 *
 * Flushes the stream if there is one, syncs the file to disk, closes it and
 * renames it. On failure the temporary file is removed, as by publish_abort().
 *
 * Returns: 0 or -errno.
 */
int publish_commit(struct publish *p);

/**
 * publish_abort - close and remove the temporary file; @p->path is left as it was
 * @p: the file being written, opened
 */
void publish_abort(struct publish *p);

#endif
