// SPDX-License-Identifier: GPL-2.0
/*
 * json_output.c - the --json outputs: tlat's document or cyclictest's
 * shape, and where it goes. The file is opened before the run so that a bad
 * path fails before anything is measured or changed, but it is not truncated
 * until the document is written: a run that fails leaves an existing file
 * as it was, and removes one it created.
 */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "output/json_doc.h"
#include "output/output.h"

struct json_output {
	const struct tlat_output_params *params;
	int fd;			/* -1: stdout */
	bool created;		/* the file did not exist before this run */
	bool written;
};

static bool json_output_stdout(const struct tlat_output_params *params)
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

static int json_output_open(void **out, const struct tlat_output_params *params, char *err)
{
	const char *path = params->json_path;
	struct json_output *o;
	int ret;

	*out = NULL;
	o = calloc(1, sizeof(*o));
	if (!o) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	o->params = params;
	o->fd = -1;
	if (!json_output_stdout(params)) {
		o->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		o->created = o->fd >= 0;
		if (o->fd < 0 && errno == EEXIST)
			o->fd = json_output_open_existing(path);
		if (o->fd < 0) {
			ret = -errno;
			tlat_err(err, "cannot write the JSON document to %s: %s",
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

static int json_output_write(struct json_output *o, struct json_object *doc, char *err)
{
	const char *text;
	int ret = -ENOMEM;

	text = doc ? json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_SPACED |
						    JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
	if (text)
		ret = json_output_put(o, text);
	json_object_put(doc);
	if (ret) {
		tlat_err(err, "cannot write the JSON document to %s: %s",
			 o->fd < 0 ? "stdout" : o->params->json_path, strerror(-ret));
		return ret;
	}
	o->written = true;
	return 0;
}

/* the document --json-format asks for */
static struct json_object *(*const json_documents[])(const struct tlat_report *r) = {
	[TLAT_JSON_TLAT] = json_tlat_document,
	[TLAT_JSON_RT_TESTS] = json_rttests_document,
};

static int json_output_document(void *priv, const struct tlat_report *r, char *err)
{
	struct json_output *o = priv;

	return json_output_write(o, json_documents[o->params->json_format](r), err);
}

static void json_output_close(void *priv)
{
	struct json_output *o = priv;

	if (o->fd >= 0) {
		close(o->fd);
		if (o->created && !o->written)
			unlink(o->params->json_path);
	}
	free(o);
}

static bool json_chosen(const struct tlat_output_params *p)
{
	return p->json_path;
}

const struct tlat_output_ops json_output_ops = {
	.chosen = json_chosen,
	.open = json_output_open,
	.document = json_output_document,
	.close = json_output_close,
};
