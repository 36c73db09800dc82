// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_compare.c - libFuzzer harness: tlat compare's inputs, a tlat/1.1
 * document or cyclictest --json, of any content (cmp_side_read(), on
 * memfds: the real code path from a file name, no file touched). A NUL
 * byte splits the input into two documents; the first byte's low bit
 * pools both as one side ("A,B") against the second alone, else each is a
 * side. Two sides read are checked, compared and rendered as text and JSON,
 * as tlat compare does.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compare/compare.h"
#include "core/err.h"

/* a memfd holding @len bytes, named by @path; the fd stays open */
static int memfd_path(int *fd, const char *name, const uint8_t *data, size_t len,
		      char *path, size_t plen)
{
	if (*fd < 0)
		*fd = memfd_create(name, MFD_CLOEXEC);
	if (*fd < 0 || ftruncate(*fd, 0) || lseek(*fd, 0, SEEK_SET) ||
	    write(*fd, data, len) != (ssize_t)len)
		return -1;
	snprintf(path, plen, "/proc/self/fd/%d", *fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd_a = -1, fd_b = -1;
	struct cmp_settings set = {
		.percentile = 99.0, .threshold_us = 30.0, .threshold_pct = 20.0,
		.confidence = 0.95, .alpha = 0.05, .force = true,
	};
	struct cmp_side base = { 0 }, new = { 0 };
	struct cmp_result r = { 0 };
	char a[64], b[64], pooled[160], err[TLAT_ERR_LEN];
	const uint8_t *nul;
	size_t la;
	FILE *out;

	if (!size)
		return 0;
	nul = memchr(data, '\0', size);
	la = nul ? (size_t)(nul - data) : size;
	if (memfd_path(&fd_a, "a.json", data, la, a, sizeof(a)) ||
	    memfd_path(&fd_b, "b.json", nul ? nul + 1 : data, nul ? size - la - 1 : size,
		       b, sizeof(b)))
		return 0;
	snprintf(pooled, sizeof(pooled), "%s,%s", a, b);
	if (cmp_side_read(&base, (data[0] & 1) ? pooled : a, err) ||
	    cmp_side_read(&new, b, err) || cmp_check(&base, &new, &set, err) ||
	    cmp_run(&r, &base, &new, &set))
		goto out;
	out = fopen("/dev/null", "w");
	if (out) {
		cmp_render_text(out, &r);
		fclose(out);
	}
	cmp_render_json("/dev/null", &r, err);
out:
	cmp_result_free(&r);
	cmp_side_free(&base);
	cmp_side_free(&new);
	return 0;
}
