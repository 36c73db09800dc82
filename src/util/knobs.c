// SPDX-License-Identifier: GPL-2.0
/*
 * knobs.c - save, set and restore files of a settings directory, such as
 * /sys/module/tlat/parameters or the tracefs directory's osnoise/.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/knobs.h"

#define KNOB_MAX	16
#define KNOB_LEN	4096

struct knob {
	char *name;
	char *saved;
};

struct knobs {
	char *dir;
	struct knob knob[KNOB_MAX];
	int nr;
};

struct knobs *knobs_alloc(const char *dir)
{
	struct knobs *knobs = calloc(1, sizeof(*knobs));

	if (!knobs)
		return NULL;
	knobs->dir = strdup(dir);
	if (!knobs->dir) {
		free(knobs);
		return NULL;
	}
	return knobs;
}

static int knob_path(const struct knobs *knobs, const char *name, char *path, size_t len)
{
	return snprintf(path, len, "%s/%s", knobs->dir, name) < (int)len ? 0 : -ENAMETOOLONG;
}

bool knobs_exists(const struct knobs *knobs, const char *name)
{
	char path[512];

	return !knob_path(knobs, name, path, sizeof(path)) && !access(path, F_OK);
}

int knobs_read_fd(int fd, char *buf, int len)
{
	char extra[16];
	int n, m;

	if (len < 1)
		return -EINVAL;
	n = read(fd, buf, len - 1);
	if (n < 0)
		return -errno;
	/* a value cut short would be written back cut short; newlines may follow */
	while (n == len - 1 && (m = read(fd, extra, sizeof(extra))) > 0)
		for (int i = 0; i < m; i++)
			if (extra[i] != '\n')
				return -EOVERFLOW;
	/* and one with a NUL in it, as far as the NUL */
	if (memchr(buf, '\0', n))
		return -EINVAL;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return 0;
}

int knobs_get(struct knobs *knobs, const char *name, char *buf, int len)
{
	char path[512];
	int fd, ret;

	if (knob_path(knobs, name, path, sizeof(path)))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = knobs_read_fd(fd, buf, len);
	close(fd);
	return ret;
}

static int knob_write(const struct knobs *knobs, const char *name, const char *value)
{
	char path[512];
	int fd, ret = 0;

	if (knob_path(knobs, name, path, sizeof(path)))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int knobs_set(struct knobs *knobs, const char *name, const char *value)
{
	char buf[KNOB_LEN];
	int i, ret;

	for (i = 0; i < knobs->nr; i++)
		if (!strcmp(knobs->knob[i].name, name))
			break;
	if (i == knobs->nr) {
		if (knobs->nr == KNOB_MAX)
			return -ENOSPC;
		ret = knobs_get(knobs, name, buf, sizeof(buf));
		if (ret)
			return ret;
		knobs->knob[i].name = strdup(name);
		knobs->knob[i].saved = strdup(buf);
		if (!knobs->knob[i].name || !knobs->knob[i].saved) {
			free(knobs->knob[i].name);
			free(knobs->knob[i].saved);
			return -ENOMEM;
		}
		knobs->nr++;
	}
	return knob_write(knobs, name, value);
}

int knobs_set_u64(struct knobs *knobs, const char *name, unsigned long long value)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", value);
	return knobs_set(knobs, name, buf);
}

int knobs_restore(struct knobs *knobs)
{
	int ret = 0, err;

	if (!knobs)
		return 0;
	for (int i = knobs->nr - 1; i >= 0; i--) {
		err = knob_write(knobs, knobs->knob[i].name, knobs->knob[i].saved);
		if (err && !ret)
			ret = err;
		free(knobs->knob[i].name);
		free(knobs->knob[i].saved);
	}
	knobs->nr = 0;
	return ret;
}

void knobs_free(struct knobs *knobs)
{
	if (!knobs)
		return;
	knobs_restore(knobs);
	free(knobs->dir);
	free(knobs);
}
