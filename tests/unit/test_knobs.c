// SPDX-License-Identifier: GPL-2.0
/*
 * test_knobs.c - save/set/restore of settings files (knobs.c), on a
 * temporary directory standing in for /sys/module/tlat/parameters.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit_helpers.h"
#include "util/knobs.h"

static void write_file(const char *dir, const char *name, const char *value)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unit_write_file(path, value);
}

static void expect_file(struct knobs *k, const char *name, const char *want)
{
	char buf[256];

	assert_int_equal(knobs_get(k, name, buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
}

static int setup(void **state)
{
	char *dir = unit_tmpdir("tlat-knobs");

	write_file(dir, "period_us", "1000\n");
	write_file(dir, "cpus", "0-3\n");
	*state = dir;
	return 0;
}

static int teardown(void **state)
{
	return unit_rmtree(*state);
}

static void test_set_then_restore(void **state)
{
	struct knobs *k = knobs_alloc(*state);

	assert_non_null(k);
	assert_int_equal(knobs_set(k, "period_us", "200"), 0);
	expect_file(k, "period_us", "200");
	/* a second write must not overwrite the saved original */
	assert_int_equal(knobs_set(k, "period_us", "300"), 0);
	assert_int_equal(knobs_set(k, "cpus", "1"), 0);
	expect_file(k, "cpus", "1");
	assert_int_equal(knobs_restore(k), 0);
	expect_file(k, "period_us", "1000");
	expect_file(k, "cpus", "0-3");
	knobs_free(k);
}

static void test_free_restores(void **state)
{
	struct knobs *k = knobs_alloc(*state);

	assert_int_equal(knobs_set(k, "cpus", "2"), 0);
	knobs_free(k);
	k = knobs_alloc(*state);
	expect_file(k, "cpus", "0-3");
	knobs_free(k);
}

static void test_missing_knob(void **state)
{
	struct knobs *k = knobs_alloc(*state);

	assert_false(knobs_exists(k, "nosuch"));
	assert_true(knobs_exists(k, "cpus"));
	assert_int_not_equal(knobs_set(k, "nosuch", "1"), 0);
	/* nothing was saved, so nothing is written back */
	assert_int_equal(knobs_restore(k), 0);
	assert_int_equal(access("nosuch", F_OK), -1);
	knobs_free(k);
}

/* a value that would not be written back as it was is not saved, nor changed */
static void test_unexpected_values(void **state)
{
	struct knobs *k = knobs_alloc(*state);
	char big[5000], path[512], buf[8];
	FILE *f;
	int fd;

	memset(big, '7', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	write_file(*state, "period_us", big);
	assert_int_equal(knobs_set(k, "period_us", "200"), -EOVERFLOW);
	snprintf(path, sizeof(path), "%s/cpus", (char *)*state);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite("0-1\0junk\n", 1, 10, f);
	fclose(f);
	assert_int_equal(knobs_set(k, "cpus", "1"), -EINVAL);
	assert_int_equal(knobs_restore(k), 0);
	knobs_free(k);
	/* neither was written */
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, sizeof(buf), f), 8);
	assert_memory_equal(buf, "0-1\0junk", 8);
	fclose(f);
	/* exactly as long as the buffer holds is whole; one more is not */
	fd = open(path, O_RDWR | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "1234567\n", 8), 8);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(knobs_read_fd(fd, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1234567");
	assert_int_equal(write(fd, "8", 1), 1);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(knobs_read_fd(fd, buf, sizeof(buf)), -EOVERFLOW);
	assert_int_equal(knobs_read_fd(fd, buf, 0), -EINVAL);
	close(fd);
}

#define KNOBS_TEST(fn)	cmocka_unit_test_setup_teardown(fn, setup, teardown)

UNIT_MAIN("knobs",
	KNOBS_TEST(test_set_then_restore),
	KNOBS_TEST(test_free_restores),
	KNOBS_TEST(test_missing_knob),
	KNOBS_TEST(test_unexpected_values),
)
