// SPDX-License-Identifier: GPL-2.0
/*
 * dat_walk.c - a cursor over an untrusted file (see dat_walk.h): every
 * read bounded by the end of what is walked.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tracedat/dat_walk.h"

int dw_damaged(struct dat_walk *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->what, w->len, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

int dw_take(struct dat_walk *w, void *buf, u64 n, const char *name)
{
	if (n > w->end - w->pos)
		return dw_damaged(w, "%s runs past the end of %s", name,
					w->end == w->file_size ? "the file" : "its section");
	if (buf && pread(w->fd, buf, n, w->pos) != (ssize_t)n)
		return dw_damaged(w, "%s cannot be read", name);
	w->pos += n;
	return 0;
}

int dw_num(struct dat_walk *w, int bytes, u64 *v, const char *name)
{
	unsigned char b[8];
	int ret = dw_take(w, b, bytes, name);

	*v = 0;
	for (int i = 0; !ret && i < bytes; i++)
		*v |= (u64)b[w->swap ? bytes - 1 - i : i] << (8 * i);
	return ret;
}

int dw_sized(struct dat_walk *w, int bytes, const char *name)
{
	char what[128];
	u64 size;

	snprintf(what, sizeof(what), "%s's size", name);
	return dw_num(w, bytes, &size, what) ?: dw_take(w, NULL, size, what);
}

int dw_string(struct dat_walk *w, char *buf, size_t len, const char *name)
{
	char c = 1;

	for (size_t i = 0; c; i++) {
		if (i == DAT_WALK_MAX_STRING)
			return dw_damaged(w, "%s has no end", name);
		if (dw_take(w, &c, 1, name))
			return -EBADMSG;
		if (buf && i < len)
			buf[i] = c;
	}
	if (buf && len)
		buf[len - 1] = '\0';
	return 0;
}

int dw_expect(struct dat_walk *w, const char *str, size_t n, const char *name)
{
	char buf[16];

	if (n > sizeof(buf) || dw_take(w, buf, n, name))
		return -EBADMSG;
	return memcmp(buf, str, n) ? dw_damaged(w, "%s is not there", name) : 0;
}
