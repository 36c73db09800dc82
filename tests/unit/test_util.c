// SPDX-License-Identifier: GPL-2.0
/*
 * test_util.c - the helpers that talk to the rest of the system: running a
 * program and waiting for it (spawn.c), with sh standing in for modprobe and
 * gnuplot; and writing a file aside, then renaming it into place (publish.c).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "unit_helpers.h"
#include "util/publish.h"
#include "util/spawn.h"

static const struct spawn_io quiet = {
	.in = SPAWN_DEVNULL,
	.out = SPAWN_DEVNULL,
	.err = SPAWN_DEVNULL,
};

static int sh(const char *script, const struct spawn_io *io)
{
	return spawn_wait((char *[]){ "sh", "-c", (char *)script, NULL }, io);
}

static void test_spawn_exit_status(void **state)
{
	(void)state;
	assert_int_equal(sh("exit 0", &quiet), 0);
	assert_int_equal(sh("exit 3", &quiet), 3);
	assert_int_equal(sh("exit 255", &quiet), 255);
}

static void test_spawn_killed(void **state)
{
	(void)state;
	assert_int_equal(sh("kill -TERM $$", &quiet), SPAWN_KILLED + SIGTERM);
}

static void test_spawn_missing_program(void **state)
{
	char *argv[] = { "tlat-test-no-such-program", NULL };
	char line[64] = "untouched";
	struct spawn_io io = quiet;

	(void)state;
	assert_int_equal(spawn_wait(argv, &io), -ENOENT);
	io.err_line = line;
	io.err_line_len = sizeof(line);
	assert_int_equal(spawn_wait(argv, &io), -ENOENT);
	assert_string_equal(line, "");
}

static void test_spawn_stdin_stdout(void **state)
{
	FILE *in = tmpfile(), *out = tmpfile();
	struct spawn_io io = quiet;
	char buf[64] = "";

	(void)state;
	assert_non_null(in);
	assert_non_null(out);
	fputs("from tlat\n", in);
	fflush(in);
	rewind(in);
	io.in = fileno(in);
	io.out = fileno(out);
	assert_int_equal(sh("tr a-z A-Z", &io), 0);
	rewind(out);
	assert_non_null(fgets(buf, sizeof(buf), out));
	assert_string_equal(buf, "FROM TLAT\n");
	fclose(in);
	fclose(out);
}

static void test_spawn_devnull(void **state)
{
	(void)state;
	/* reads end at once, writes go nowhere */
	assert_int_equal(sh("read x && exit 1; echo out; echo err >&2; exit 0", &quiet), 0);
}

static void test_spawn_first_error_line(void **state)
{
	struct spawn_io io = quiet;
	char line[16];

	(void)state;
	io.err_line = line;
	io.err_line_len = sizeof(line);
	assert_int_equal(sh("echo first >&2; echo second >&2; exit 2", &io), 2);
	assert_string_equal(line, "first");
	/* cut at the buffer's size */
	assert_int_equal(sh("echo 0123456789abcdefghij >&2; exit 1", &io), 1);
	assert_string_equal(line, "0123456789abcde");
	/* more than a pipe holds: read to the end, or the child would block */
	assert_int_equal(sh("yes tlat | head -c 300000 >&2; exit 4", &io), 4);
	assert_string_equal(line, "tlat");
	assert_int_equal(sh("exit 0", &io), 0);
	assert_string_equal(line, "");
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* SIGALRM every 20 ms, without SA_RESTART: waits and reads see EINTR */
static void interrupts(bool on)
{
	struct itimerval every = { { 0, on ? 20000 : 0 }, { 0, on ? 20000 : 0 } };
	struct sigaction sa = { .sa_handler = on ? on_alarm : SIG_DFL };

	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
	assert_int_equal(setitimer(ITIMER_REAL, &every, NULL), 0);
}

static void test_spawn_wait_interrupted(void **state)
{
	struct spawn_io io = quiet;
	char line[16];

	(void)state;
	interrupts(true);
	assert_int_equal(sh("sleep 0.2; exit 5", &io), 5);
	io.err_line = line;
	io.err_line_len = sizeof(line);
	assert_int_equal(sh("sleep 0.2; echo late >&2; exit 6", &io), 6);
	assert_string_equal(line, "late");
	interrupts(false);
}

/* a signal the child sends itself kills it, unless it kept tlat's mask */
static void test_spawn_signal_mask(void **state)
{
	struct spawn_io io = quiet;
	sigset_t usr1, old;

	(void)state;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	assert_int_equal(sigprocmask(SIG_BLOCK, &usr1, &old), 0);
	assert_int_equal(sh("kill -USR1 $$; exit 0", &io), SPAWN_KILLED + SIGUSR1);
	io.keep_sigmask = true;
	assert_int_equal(sh("kill -USR1 $$; exit 0", &io), 0);
	assert_int_equal(sigprocmask(SIG_SETMASK, &old, NULL), 0);
}

struct dir {
	char *path;
	char file[96];		/* the file published, "old" at first */
};

/* the file's whole text, or "" if there is none */
static const char *read_file(const char *path)
{
	static char buf[64];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static int dir_setup(void **state)
{
	struct dir *dir = calloc(1, sizeof(*dir));

	if (!dir)
		return -1;
	dir->path = unit_tmpdir("tlat-publish");
	snprintf(dir->file, sizeof(dir->file), "%s/file", dir->path);
	unit_write_file(dir->file, "old");
	*state = dir;
	return 0;
}

static int dir_teardown(void **state)
{
	struct dir *dir = *state;
	int ret = unit_rmtree(dir->path);

	free(dir);
	return ret;
}

static void test_publish_commit(void **state)
{
	struct dir *dir = *state;
	struct publish p;
	struct stat st;
	mode_t mask = umask(077);

	assert_int_equal(publish_open(&p, dir->file, 0644), 0);
	assert_int_equal(write(p.fd, "new", 3), 3);
	/* until the commit, the old file stands and the new one is beside it */
	assert_string_equal(read_file(dir->file), "old");
	assert_int_equal(unit_count_entries(dir->path), 2);
	assert_int_equal(publish_commit(&p), 0);
	umask(mask);
	assert_string_equal(read_file(dir->file), "new");
	assert_int_equal(unit_count_entries(dir->path), 1);
	/* whatever the umask */
	assert_int_equal(stat(dir->file, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
}

static void test_publish_stream(void **state)
{
	struct dir *dir = *state;
	struct publish p;
	FILE *f;

	assert_int_equal(publish_open(&p, dir->file, 0600), 0);
	f = publish_stream(&p);
	assert_non_null(f);
	/* still in stdio's buffer: the commit flushes it */
	fputs("streamed", f);
	assert_int_equal(publish_commit(&p), 0);
	assert_string_equal(read_file(dir->file), "streamed");
	assert_int_equal(unit_count_entries(dir->path), 1);
}

static void test_publish_abort(void **state)
{
	struct dir *dir = *state;
	struct publish p;

	assert_int_equal(publish_open(&p, dir->file, 0644), 0);
	assert_int_equal(write(p.fd, "new", 3), 3);
	publish_abort(&p);
	assert_string_equal(read_file(dir->file), "old");
	assert_int_equal(unit_count_entries(dir->path), 1);

	/* with a stream, unflushed */
	assert_int_equal(publish_open(&p, dir->file, 0644), 0);
	assert_non_null(publish_stream(&p));
	fputs("new", p.stream);
	publish_abort(&p);
	assert_string_equal(read_file(dir->file), "old");
	assert_int_equal(unit_count_entries(dir->path), 1);
}

static void test_publish_failures(void **state)
{
	struct dir *dir = *state;
	char path[128];
	struct publish p;

	snprintf(path, sizeof(path), "%s/missing/file", dir->path);
	assert_int_equal(publish_open(&p, path, 0644), -ENOENT);
	assert_int_equal(unit_count_entries(dir->path), 1);

	/* the rename fails: the file written goes */
	snprintf(path, sizeof(path), "%s/adir", dir->path);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(publish_open(&p, path, 0644), 0);
	assert_int_equal(publish_commit(&p), -EISDIR);
	assert_int_equal(unit_count_entries(dir->path), 2);
	assert_string_equal(read_file(dir->file), "old");
}

/* a name as long as a directory entry can be: the temporary one still fits */
static void test_publish_long_name(void **state)
{
	struct dir *dir = *state;
	char path[64 + NAME_MAX + 2];
	struct publish p;

	snprintf(path, sizeof(path), "%s/%0*d", dir->path, NAME_MAX, 0);
	assert_int_equal(publish_open(&p, path, 0644), 0);
	assert_int_equal(publish_commit(&p), 0);
	assert_int_equal(access(path, F_OK), 0);
}

UNIT_MAIN("util",
	cmocka_unit_test(test_spawn_exit_status),
	cmocka_unit_test(test_spawn_killed),
	cmocka_unit_test(test_spawn_missing_program),
	cmocka_unit_test(test_spawn_stdin_stdout),
	cmocka_unit_test(test_spawn_devnull),
	cmocka_unit_test(test_spawn_first_error_line),
	cmocka_unit_test(test_spawn_wait_interrupted),
	cmocka_unit_test(test_spawn_signal_mask),
	cmocka_unit_test_setup_teardown(test_publish_commit, dir_setup, dir_teardown),
	cmocka_unit_test_setup_teardown(test_publish_stream, dir_setup, dir_teardown),
	cmocka_unit_test_setup_teardown(test_publish_abort, dir_setup, dir_teardown),
	cmocka_unit_test_setup_teardown(test_publish_failures, dir_setup, dir_teardown),
	cmocka_unit_test_setup_teardown(test_publish_long_name, dir_setup, dir_teardown),
)
