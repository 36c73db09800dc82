// SPDX-License-Identifier: GPL-2.0
/*
 * json_output.c - where --json's document goes (see render_json.h). The
 * file is opened before the run so that a bad path fails before anything
 * is measured or changed, but it is not truncated until the document is
 * written: a run that fails leaves an existing file as it was, and removes
 * one it created.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "render_json.h"

struct json_output {
	const struct tlat_params *params;
	int fd;			/* -1: stdout */
	bool created;		/* the file did not exist before this run */
	bool written;
};

bool json_output_stdout(const struct tlat_params *params)
{
	return params->json_path && !strcmp(params->json_path, "-");
}

/*
 * Root may open even a file that no one may write, such as /proc/version,
 * and would fail only at the end of the run: refuse it now.
 */
static int json_output_open_existing(const char *path)
{
	struct stat st;
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd >= 0 && (fstat(fd, &st) || !(st.st_mode & 0222))) {
		close(fd);
		errno = EACCES;
		return -1;
	}
	return fd;
}

int json_output_open(struct json_output **out, const struct tlat_params *params, char *err)
{
	const char *path = params->json_path;
	struct json_output *o;
	int ret;

	*out = NULL;
	if (!path)
		return 0;
	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	o->params = params;
	o->fd = -1;
	if (!json_output_stdout(params)) {
		o->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		o->created = o->fd >= 0;
		if (o->fd < 0 && errno == EEXIST)
			o->fd = json_output_open_existing(path);
		if (o->fd < 0) {
			ret = -errno;
			snprintf(err, TLAT_ERR_LEN, "cannot write the JSON document to %s: %s",
				 path, strerror(errno));
			free(o);
			return ret;
		}
	}
	*out = o;
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= n;
	}
	return 0;
}

static int json_output_put(struct json_output *o, const char *text)
{
	struct stat st;
	int ret;

	if (o->fd < 0) {
		if (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF || fflush(stdout))
			return -EIO;
		return 0;
	}
	/* only now: until the document exists, the old file stays whole */
	if (!fstat(o->fd, &st) && S_ISREG(st.st_mode) && ftruncate(o->fd, 0))
		return -errno;
	ret = write_all(o->fd, text, strlen(text));
	return ret ?: write_all(o->fd, "\n", 1);
}

int json_output_write(struct json_output *o, const struct tlat_report *r, char *err)
{
	struct json_object *doc;
	const char *text;
	int ret = -ENOMEM;

	if (!o)
		return 0;
	doc = o->params->json_format == TLAT_JSON_RT_TESTS ? render_json_rttests(r)
							    : render_json_tlat(r);
	text = doc ? json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_SPACED |
						    JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
	if (text)
		ret = json_output_put(o, text);
	json_object_put(doc);
	if (ret) {
		snprintf(err, TLAT_ERR_LEN, "cannot write the JSON document to %s: %s",
			 o->fd < 0 ? "stdout" : o->params->json_path, strerror(-ret));
		return ret;
	}
	o->written = true;
	return 0;
}

void json_output_close(struct json_output *o)
{
	if (!o)
		return;
	if (o->fd >= 0) {
		close(o->fd);
		if (o->created && !o->written)
			unlink(o->params->json_path);
	}
	free(o);
}
