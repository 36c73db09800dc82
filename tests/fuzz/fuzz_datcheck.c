// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_datcheck.c - libFuzzer harness: the walk of a trace.dat's headers
 * (dat_check(), src/tracedat/dat_check.c) on any bytes after trace-cmd's
 * magic, in a memfd: it must end, with 0 or one line, whatever the sizes
 * and offsets say, and the layout it finds of a file it passes must lie
 * within the file (dat_read.c reads and copies by it). Seeded with the golden recordings' first 64 KiB.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracedat/dat_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char magic[] = "\027\010\104tracing";
	struct dat_layout l;
	char what[256];
	u64 end = 10 + size;
	int fd = memfd_create("fuzz-dat", MFD_CLOEXEC);
	int ret;

	if (fd < 0)
		return 0;
	if (write(fd, magic, 10) == 10 && write(fd, data, size) == (ssize_t)size) {
		what[0] = '\0';
		ret = dat_check(fd, &l, what, sizeof(what));
		if (ret && ret != -EBADMSG)
			__builtin_trap();
		if (ret && (!what[0] || strchr(what, '\n')))
			__builtin_trap();
		if (!ret && l.nr_kallsyms && !l.kallsyms_packed &&
		    (l.kallsyms_at > end - 4 || l.kallsyms_size > end - l.kallsyms_at - 4))
			__builtin_trap();
		for (int i = 0; !ret && i < l.nr_data; i++)
			if (l.data[i].at > end || l.data[i].size > end - l.data[i].at)
				__builtin_trap();
	}
	close(fd);
	return 0;
}
