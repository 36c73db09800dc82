// SPDX-License-Identifier: GPL-2.0
/*
 * publish.c - a file written aside and renamed into place, in one place:
 * the temporary name, the mode, the sync before the rename and the cleanup
 * on every failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/publish.h"

/* hidden, and of a fixed length: a long file name still has room for it */
#define PUBLISH_TMP_NAME	".tlat.XXXXXX"

int publish_open(struct publish *p, const char *path, mode_t mode)
{
	char *copy = strdup(path);
	int len, ret;

	if (!copy)
		return -ENOMEM;
	*p = (struct publish){ .path = path, .fd = -1 };
	len = snprintf(p->tmp, sizeof(p->tmp), "%s/" PUBLISH_TMP_NAME, dirname(copy));
	free(copy);
	if (len >= (int)sizeof(p->tmp))
		return -ENAMETOOLONG;
	p->fd = mkostemp(p->tmp, O_CLOEXEC);
	if (p->fd < 0)
		return -errno;
	/* mkstemp's 0600 would keep a root run's file from the user who reads it */
	if (fchmod(p->fd, mode)) {
		ret = -errno;
		publish_abort(p);
		return ret;
	}
	return 0;
}

FILE *publish_stream(struct publish *p)
{
	p->stream = fdopen(p->fd, "w");
	return p->stream;
}

/* stdio does not always leave errno set on a failed write */
static int stream_error(void)
{
	return errno ? -errno : -EIO;
}

/* whatever else failed, the file is closed */
static int publish_close(struct publish *p)
{
	int ret = 0;

	errno = 0;
	if (p->stream && fflush(p->stream) == EOF)
		ret = stream_error();
	if (!ret && fsync(p->fd))
		ret = -errno;
	errno = 0;
	if (p->stream ? fclose(p->stream) == EOF : close(p->fd) != 0)
		ret = ret ?: stream_error();
	p->stream = NULL;
	p->fd = -1;
	return ret;
}

int publish_commit(struct publish *p)
{
	int ret = publish_close(p);

	if (!ret && rename(p->tmp, p->path))
		ret = -errno;
	if (ret)
		unlink(p->tmp);
	return ret;
}

void publish_abort(struct publish *p)
{
	if (p->stream)
		fclose(p->stream);
	else if (p->fd >= 0)
		close(p->fd);
	p->stream = NULL;
	p->fd = -1;
	unlink(p->tmp);
}
