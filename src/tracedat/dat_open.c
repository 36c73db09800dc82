// SPDX-License-Identifier: GPL-2.0
/*
 * dat_open.c - a trace.dat opened with libtracecmd without its parsing the
 * recording's kallsyms (see dat_open.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "core/sanitize.h"
#include "tracedat/dat_open.h"
#include "tracedat/tracecmd_private.h"

/* trace-cmd's plugins print events; tlat reads fields */
#define DAT_OPEN_FLAGS	(TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS)

static int range_cmp(const void *a, const void *b)
{
	const struct dat_range *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* @fd's bytes from @from to @to, to the same place in @view */
static int dat_copy(int fd, int view, u64 from, u64 to)
{
	char buf[1 << 16];

	while (from < to) {
		size_t want = to - from < sizeof(buf) ? to - from : sizeof(buf);
		ssize_t n = pread(fd, buf, want, (off_t)from);

		if (n <= 0)
			return n ? -errno : -EIO;
		if (pwrite(view, buf, n, (off_t)from) != n)
			return -EIO;
		from += n;
	}
	return 0;
}

/*
 * A copy of a version 7 file, in memory, for libtracecmd to read the
 * headers of (dat_open_v7()): the file's size, and all its bytes but the CPUs' data
 * (libtracecmd reads none of it before tracecmd_init_data()) and the
 * kallsyms section's content, holes that read as zeros: its 4-byte size
 * reads 0, which libtracecmd's read_proc_kallsyms() takes for an empty
 * section. Version 7 finds each section by its offset, so the sections
 * after it read as in the file. What is copied is the headers, the formats
 * and the options: some hundred KB.
 */
static int dat_view(int fd, u64 file_size, const struct dat_layout *l)
{
	struct dat_range skip[DAT_LAYOUT_RANGES + 1];
	int nr = l->nr_data, view, ret = 0;
	u64 pos = 0;

	memcpy(skip, l->data, nr * sizeof(*skip));
	skip[nr++] = (struct dat_range){ .at = l->kallsyms_at, .size = 4 + l->kallsyms_size };
	qsort(skip, nr, sizeof(*skip), range_cmp);
	view = memfd_create("tlat-dat-headers", MFD_CLOEXEC);
	if (view < 0)
		return -errno;
	if (ftruncate(view, (off_t)file_size))
		ret = -errno;
	for (int i = 0; !ret && i <= nr; i++) {
		u64 end = i < nr ? skip[i].at : file_size;

		if (end > pos)
			ret = dat_copy(fd, view, pos, end);
		if (i < nr && skip[i].at + skip[i].size > pos)
			pos = skip[i].at + skip[i].size;
	}
	if (ret) {
		close(view);
		return ret;
	}
	return view;
}

/*
 * Version 7: libtracecmd reads the headers from dat_view()'s copy, then the
 * handle's descriptor is made the file's own (dup2()), whose CPU data
 * tracecmd_init_data() reads as in tracecmd_open_fd().
 */
static struct tracecmd_input *dat_open_v7(int fd, const struct dat_layout *l)
{
	struct tracecmd_input *handle;
	struct stat st;
	int view;

	if (fstat(fd, &st))
		return NULL;
	view = dat_view(fd, (u64)st.st_size, l);
	if (view < 0)
		return NULL;
	handle = tracecmd_alloc_fd(view, DAT_OPEN_FLAGS);
	if (!handle) {
		close(view);
		return NULL;
	}
	/* the handle owns view from here: tracecmd_close() closes it */
	if (tracecmd_read_headers(handle, 0) < 0 || dup2(fd, view) < 0 ||
	    tracecmd_init_data(handle) < 0) {
		tracecmd_close(handle);
		return NULL;
	}
	return handle;
}

/*
 * Version 6: the sections follow each other, each read where the last
 * ended. libtracecmd reads the headers up to the event formats; its
 * descriptor must then be at kallsyms' 4-byte size, where the walk found
 * it. For the one step that reads kallsyms, the descriptor is /dev/zero's
 * (dup2()): the size reads 0, an empty section. The file's is put back,
 * moved past the text, and the rest is read as in tracecmd_open_fd().
 */
static struct tracecmd_input *dat_open_v6(const char *path, const struct dat_layout *l)
{
	u64 past = l->kallsyms_at + 4 + l->kallsyms_size;
	int fd = open(path, O_RDONLY | O_CLOEXEC), zero, saved, ret;
	struct tracecmd_input *handle = fd >= 0 ? tracecmd_alloc_fd(fd, DAT_OPEN_FLAGS) : NULL;

	if (!handle) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	/* the handle owns fd from here */
	if (tracecmd_read_headers(handle, TRACECMD_FILE_ALL_EVENTS) < 0 ||
	    tracecmd_get_file_state(handle) != TRACECMD_FILE_ALL_EVENTS ||
	    lseek(fd, 0, SEEK_CUR) != (off_t)l->kallsyms_at)
		goto fail;
	zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	saved = zero >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : -1;
	ret = saved >= 0 && dup2(zero, fd) >= 0 ?
	      tracecmd_read_headers(handle, TRACECMD_FILE_KALLSYMS) : -1;
	/* the file back in any case: the handle closes it */
	if (saved >= 0 && dup2(saved, fd) < 0)
		ret = -1;
	if (saved >= 0)
		close(saved);
	if (zero >= 0)
		close(zero);
	if (ret < 0 || tracecmd_get_file_state(handle) != TRACECMD_FILE_KALLSYMS ||
	    lseek(fd, (off_t)past, SEEK_SET) != (off_t)past ||
	    tracecmd_read_headers(handle, 0) < 0 || tracecmd_init_data(handle) < 0)
		goto fail;
	return handle;
fail:
	tracecmd_close(handle);
	return NULL;
}

/*
 * libtracecmd parses the recording's kallsyms as it opens it: 5 MB of
 * text, sscanf()'d a line at a time (tep_parse_kallsyms()), a quarter of
 * the CPU time of a report of a 10 s recording, for names that only a
 * stack or --dump-tasks prints. tlat opens the file in libtracecmd's
 * steps (tracecmd_alloc_fd(), tracecmd_read_headers(),
 * tracecmd_init_data(): tracecmd_open_fd()'s) and has libtracecmd read
 * an empty kallsyms instead, with the file's layout as dat_check() walked
 * it: version 7 (what tlat record and trace-cmd record 3.x write) from a
 * copy of its headers, version 6 with /dev/zero for that one step. The
 * names are parsed by dat_reader_symbols() when asked for, with the same
 * call on the same bytes. The report reads the file in a one-thread
 * child (tlat_replay()), and nothing else uses these descriptors.
 *
 * NULL: open it as usual, libtracecmd's way: a file with no kallsyms, or
 * compressed ones, or more than one section of them; a latency trace; a
 * file that this way cannot open.
 */
static struct tracecmd_input *dat_open_lazy(int fd, const char *path,
					    const struct dat_layout *l,
					    struct dat_range *kallsyms)
{
	struct tracecmd_input *handle;

	if (l->nr_kallsyms != 1 || l->kallsyms_packed || !l->kallsyms_size)
		return NULL;
	handle = l->version == 7 ? dat_open_v7(fd, l) : dat_open_v6(path, l);
	if (handle && tracecmd_get_file_state(handle) != TRACECMD_FILE_CPU_FLYRECORD) {
		tracecmd_close(handle);
		return NULL;
	}
	if (handle)
		*kallsyms = (struct dat_range){ .at = l->kallsyms_at + 4, .size = l->kallsyms_size };
	return handle;
}

/*
 * libtracecmd perror()s what it meets in a damaged file ("mmap: Unknown
 * error -22") whatever its log level: its standard error is /dev/null
 * while it reads the headers, and tlat says the one line. Not under
 * AddressSanitizer, whose reports must be seen.
 */
struct tracecmd_input *dat_open(int fd, const char *path, const struct dat_layout *l,
				struct dat_range *kallsyms)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int saved = null >= 0 ? fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3) : -1;
	struct tracecmd_input *handle;

	fflush(stderr);
#ifndef TLAT_ASAN
	if (saved >= 0)
		dup2(null, STDERR_FILENO);
#endif
	*kallsyms = (struct dat_range){ 0 };
	handle = dat_open_lazy(fd, path, l, kallsyms);
	if (!handle)
		handle = tracecmd_open(path, DAT_OPEN_FLAGS);
	if (saved >= 0) {
		dup2(saved, STDERR_FILENO);
		close(saved);
	}
	if (null >= 0)
		close(null);
	return handle;
}
