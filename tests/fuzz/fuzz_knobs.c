// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_knobs.c - libFuzzer harness: a settings file of any content (a
 * module parameter, an osnoise/ file) read as knobs_get() reads it
 * (knobs_read_fd(), on a memfd: no real file touched), into a buffer of the
 * size the input's first byte picks; then the value as a CPU list
 * (parse_cpu_list(), the format of osnoise/cpus and tlat.ko's cpus), which
 * must survive cpuset_to_list() and parse back to the same set.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/cpuset.h"
#include "util/knobs.h"
#include "util/parse.h"

#define NR_CPUS	8192

static void cpu_list(const char *value)
{
	struct tlat_cpuset a = { 0 }, b = { 0 };
	char *list;

	list = malloc(1 << 16);
	if (!list || cpuset_init(&a, NR_CPUS) || cpuset_init(&b, NR_CPUS))
		goto out;
	if (parse_cpu_list(value, &a))
		goto out;
	if (cpuset_to_list(&a, list, 1 << 16))
		goto out;
	if (parse_cpu_list(list, &b) || !CPU_EQUAL_S(a.size, a.set, b.set))
		abort();	/* the list tlat writes does not read back */
out:
	cpuset_free(&a);
	cpuset_free(&b);
	free(list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char *buf;
	int len;

	if (size < 1)
		return 0;
	if (fd < 0)
		fd = memfd_create("fuzz_knobs", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) ||
	    write(fd, data + 1, size - 1) != (ssize_t)(size - 1) || lseek(fd, 0, SEEK_SET))
		return 0;
	/* 1 to 256 bytes, or knobs.c's own 4096 */
	len = data[0] == 0xff ? 4096 : data[0] + 1;
	buf = malloc(len);
	if (!buf)
		return 0;
	if (!knobs_read_fd(fd, buf, len)) {
		if (strlen(buf) >= (size_t)len)
			abort();
		cpu_list(buf);
	}
	free(buf);
	return 0;
}
