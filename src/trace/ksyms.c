// SPDX-License-Identifier: GPL-2.0
/*
 * ksyms.c - /proc/kallsyms into a tep (see ksyms.h). libtraceevent parses
 * the text; this reads the file, which has no size to read it by, up to a
 * bound, and hands the library only text it can take.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ksyms.h"

#define KALLSYMS	"/proc/kallsyms"

int ksyms_load_file(struct tep_handle *tep, FILE *f)
{
	char *buf = NULL;
	size_t len = 0;
	char chunk[4096];
	size_t n, total = 0;
	FILE *mem;
	int ret = 0;

	mem = open_memstream(&buf, &len);
	if (!mem)
		return -ENOMEM;
	while (!ret && (n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		total += n;
		/* a NUL would end the text early: the symbols after it are lost */
		if (total > KSYMS_MAX_BYTES)
			ret = -EFBIG;
		else if (memchr(chunk, '\0', n))
			ret = -EINVAL;
		else if (fwrite(chunk, 1, n, mem) != n)
			ret = -ENOMEM;
	}
	if (!ret && ferror(f))
		ret = -EIO;
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	if (!ret && tep_parse_kallsyms(tep, buf ? buf : ""))
		ret = -EINVAL;
	free(buf);
	return ret;
}

int ksyms_load(struct tep_handle *tep)
{
	FILE *f = fopen(KALLSYMS, "re");
	int ret;

	if (!f)
		return -errno;
	ret = ksyms_load_file(tep, f);
	fclose(f);
	return ret;
}
