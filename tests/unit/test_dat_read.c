// SPDX-License-Identifier: GPL-2.0
/*
 * test_dat_read.c - a recording opened without its kallsyms: the layout
 * dat_check() finds of a golden recording, and dat_reader_open() leaving
 * the names to dat_reader_symbols(), which then gives the tep every name
 * libtracecmd's own open gives it; in the file as tlat record wrote it
 * (version 7), converted to version 6, and compressed, which libtracecmd
 * opens its own way. (What tlat report prints of the names, byte for byte:
 * tests/golden/.) And a page past the first whose header says it holds
 * more than a page, found as the file opens (dat_pages_check_file()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/err.h"
#include "tracedat/dat_check.h"
#include "tracedat/dat_read.h"
#include "tracedat/tracecmd_private.h"
#include "unit_helpers.h"

/* a recording of tlat record, version 7, stopped with a stack in its analysis */
#define GOLDEN		"tests/golden/recordings/timerlat-6.12.dat.xz"

/*
 * Under AddressSanitizer: stacks unwound whole, not by frame pointers,
 * which libtracecmd has none of: its leak on version 6 files
 * (tests/sanitize/lsan.supp) is matched by its function only then
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}

struct file {
	char path[40];
	char orig[40];		/* the golden recording, when path is a conversion of it */
	int version;
	bool packed;		/* its sections compressed */
};

static int make_file(struct file *f, const char *convert)
{
	char cmd[512];
	int fd;

	snprintf(f->path, sizeof(f->path), "/tmp/tlat-dat-read.XXXXXX");
	fd = mkstemp(f->path);
	if (fd < 0)
		return -1;
	close(fd);
	if (!convert) {
		snprintf(cmd, sizeof(cmd), "xz -dc %s > %s", GOLDEN, f->path);
	} else {
		memcpy(f->orig, f->path, sizeof(f->orig));
		strcat(f->path, ".conv");
		/*
		 * trace-cmd mounts tracefs where it finds none (libtracefs), and
		 * leaves it: in a mount namespace of its own, the machine's stay
		 */
		snprintf(cmd, sizeof(cmd), "xz -dc %s > %s && unshare -m --propagation private "
			 "trace-cmd convert -i %s -o %s %s > /dev/null 2>&1", GOLDEN, f->orig,
			 f->orig, f->path, convert);
	}
	if (system(cmd)) {
		/* trace-cmd is one of tlat's test dependencies (make deps) */
		fprintf(stderr, "cannot make the test's file: %s\n", cmd);
		return -1;
	}
	return 0;
}

/* the recordings the tests read: its version, and the conversion that makes it */
struct variant {
	int version;
	bool packed;
	const char *convert;
};

/* as tlat record wrote it, converted to version 6, and compressed */
static const struct variant v7 = { 7, false, NULL };
static const struct variant v6 = { 6, false, "--file-version 6" };
static const struct variant packed = { 7, true, "--compression any" };

static int setup(void **state)
{
	const struct variant *v = *state;
	struct file *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	*state = f;
	f->version = v->version;
	f->packed = v->packed;
	return make_file(f, v->convert);
}

static int teardown(void **state)
{
	struct file *f = *state;

	unlink(f->path);
	if (f->orig[0])
		unlink(f->orig);
	free(f);
	return 0;
}

static void test_layout(void **state)
{
	struct file *f = *state;
	struct dat_layout l;
	char what[256];
	unsigned int size;
	struct stat st;
	int fd = open(f->path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(dat_check(fd, &l, what, sizeof(what)), 0);
	assert_int_equal(l.version, f->version);
	assert_int_equal(l.nr_kallsyms, 1);
	assert_false(l.kallsyms_packed);
	/* a kernel's /proc/kallsyms: megabytes */
	assert_true(l.kallsyms_size > (1 << 20));
	/* the section's 4-byte size says what the walk found */
	assert_int_equal(pread(fd, &size, 4, (off_t)l.kallsyms_at), 4);
	assert_int_equal(size, l.kallsyms_size);
	assert_true(l.kallsyms_at + 4 + l.kallsyms_size <= (u64)st.st_size);
	/* each CPU's data follows the last's: one range */
	assert_int_equal(l.nr_data, 1);
	assert_true(l.data[0].size > 0);
	assert_true(l.data[0].at + l.data[0].size <= (u64)st.st_size);
	assert_true(l.data[0].at >= l.kallsyms_at + 4 + l.kallsyms_size ||
		    l.data[0].at + l.data[0].size <= l.kallsyms_at);
	close(fd);
}

/* every address of the recording's first kallsyms lines, and one past it, named alike in both */
static void same_names(const struct file *f, struct tep_handle *a, struct tep_handle *b)
{
	static char text[1 << 16];
	struct dat_layout l;
	char what[256];
	int fd = open(f->path, O_RDONLY), n = 0;
	ssize_t len;

	assert_true(fd >= 0);
	assert_int_equal(dat_check(fd, &l, what, sizeof(what)), 0);
	/* a compressed file's kallsyms are the golden recording's */
	if (f->packed) {
		close(fd);
		fd = open(f->orig, O_RDONLY);
		assert_true(fd >= 0);
		assert_int_equal(dat_check(fd, &l, what, sizeof(what)), 0);
	}
	len = pread(fd, text, sizeof(text) - 1, (off_t)(l.kallsyms_at + 4));
	assert_true(len > 0);
	text[len] = '\0';
	for (char *line = text, *end; (end = strchr(line, '\n')); line = end + 1) {
		unsigned long long addr;

		if (sscanf(line, "%llx", &addr) != 1)
			continue;
		for (unsigned long long at = addr; at <= addr + 1; at++) {
			const char *x = tep_find_function(a, at), *y = tep_find_function(b, at);

			assert_true((!x && !y) || (x && y && !strcmp(x, y)));
			assert_true(tep_find_function_address(a, at) ==
				    tep_find_function_address(b, at));
			n += x != NULL;
		}
	}
	/* most are names */
	assert_true(n > 1000);
	close(fd);
}

/* compressed: the walk does not look into the section, and says so */
static void test_packed_layout(void **state)
{
	struct file *f = *state;
	struct dat_layout l;
	char what[256];
	int fd = open(f->path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(dat_check(fd, &l, what, sizeof(what)), 0);
	assert_int_equal(l.version, 7);
	assert_int_equal(l.nr_kallsyms, 1);
	assert_true(l.kallsyms_packed);
	close(fd);
}

static void test_symbols_when_asked(void **state)
{
	struct file *f = *state;
	struct tracecmd_input *handle;
	struct dat_reader *rec;
	char err[TLAT_ERR_LEN];
	int count;

	/* libtracecmd's own open parses them */
	handle = tracecmd_open(f->path, TRACECMD_FL_LOAD_NO_PLUGINS |
			       TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	assert_non_null(handle);
	count = tep_get_function_count(tracecmd_get_tep(handle));
	assert_true(count > 10000);

	assert_int_equal(dat_reader_open(&rec, f->path, err), 0);
	/*
	 * not yet: no look-up may come first (libtraceevent maps them at the
	 * first); compressed, libtracecmd's open parsed them
	 */
	assert_int_equal(tep_get_function_count(dat_reader_tep(rec)), f->packed ? count : 0);
	assert_int_equal(dat_reader_symbols(rec), 0);
	assert_int_equal(tep_get_function_count(dat_reader_tep(rec)), count);
	/* once */
	assert_int_equal(dat_reader_symbols(rec), 0);
	assert_int_equal(tep_get_function_count(dat_reader_tep(rec)), count);
	same_names(f, tracecmd_get_tep(handle), dat_reader_tep(rec));
	dat_reader_close(rec);
	tracecmd_close(handle);
}

/* a page past the first says it holds more than a page: the open says which, before any read */
static void test_damaged_page(void **state)
{
	struct file *f = *state;
	u64 commit = 1 << 20;
	struct dat_reader *rec;
	char err[TLAT_ERR_LEN];
	struct dat_layout l;
	char what[256];
	int fd = open(f->path, O_RDWR);

	assert_true(fd >= 0);
	assert_int_equal(dat_check(fd, &l, what, sizeof(what)), 0);
	/* CPU 0's third page (4 KiB pages), its header's size after the time */
	assert_true(l.data[0].size > 3 * 4096);
	assert_int_equal(pwrite(fd, &commit, 8, (off_t)(l.data[0].at + 2 * 4096 + 8)), 8);
	close(fd);
	assert_int_equal(dat_reader_open(&rec, f->path, err), -EBADMSG);
	assert_non_null(strstr(err, "is damaged: CPU 0's data, page 3: "
			       "a page's header says it holds more than a page"));
}

/* the test fn on a file of the variant */
#define ON(variant, fn)	UNIT_CASE(#fn, fn, setup, teardown, &variant)

UNIT_MAIN("dat_read",
	ON(v7, test_layout),
	ON(v7, test_symbols_when_asked),
	ON(v6, test_layout),
	ON(v6, test_symbols_when_asked),
	ON(packed, test_packed_layout),
	ON(packed, test_symbols_when_asked),
	ON(v7, test_damaged_page),
)
