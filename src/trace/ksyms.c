// SPDX-License-Identifier: GPL-2.0
/*
 * ksyms.c - /proc/kallsyms into a tep (see ksyms.h). libtraceevent parses
 * the text; this only reads the file, which has no size to read it by.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "trace/ksyms.h"

#define KALLSYMS	"/proc/kallsyms"

int ksyms_load(struct tep_handle *tep)
{
	FILE *f = fopen(KALLSYMS, "r");
	char *buf = NULL;
	size_t len = 0;
	char chunk[4096];
	size_t n;
	FILE *mem;
	int ret = 0;

	if (!f)
		return -errno;
	mem = open_memstream(&buf, &len);
	if (!mem) {
		fclose(f);
		return -ENOMEM;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, mem);
	fclose(f);
	if (fclose(mem))
		ret = -ENOMEM;
	if (!ret && tep_parse_kallsyms(tep, buf))
		ret = -EINVAL;
	free(buf);
	return ret;
}
