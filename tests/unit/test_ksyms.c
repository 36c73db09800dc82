// SPDX-License-Identifier: GPL-2.0
/*
 * test_ksyms.c - kallsyms read from a file of any content (ksyms.c): the
 * symbols of a good one found, a damaged one refused, never a crash.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ksyms.h"
#include "unit_helpers.h"

static int load(struct tep_handle *tep, const char *text, size_t len)
{
	FILE *f = fmemopen((void *)text, len, "r");
	int ret;

	assert_non_null(f);
	ret = ksyms_load_file(tep, f);
	fclose(f);
	return ret;
}

static void test_symbols(void **state)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 t do_idle\n"
		"ffffffffc0000000 t tlat_timer_fn\t[tlat]\n"
		/* libtraceevent gives the last symbol no extent */
		"ffffffffc0000100 t tlat_last\t[tlat]\n";
	struct tep_handle *tep = tep_alloc();

	(void)state;
	assert_int_equal(load(tep, text, sizeof(text) - 1), 0);
	assert_string_equal(tep_find_function(tep, 0xffffffff81000104ull), "do_idle");
	assert_string_equal(tep_find_function(tep, 0xffffffffc0000008ull), "tlat_timer_fn");
	tep_free(tep);
}

static void test_damaged(void **state)
{
	static const char nul[] = "ffffffff81000000 T _stext\n\0ffffffff81000100 t x\n";
	static const char odd[] = "ffffffff81000000 T\nzz\n\n ffff T y\nffffffff81000000";
	struct tep_handle *tep = tep_alloc();
	char *line = malloc(1 << 20);

	(void)state;
	/* a NUL would hide what follows it */
	assert_int_equal(load(tep, nul, sizeof(nul) - 1), -EINVAL);
	tep_free(tep);
	tep = tep_alloc();
	/* lines with fields missing: whatever the library makes of them, no crash */
	load(tep, odd, sizeof(odd) - 1);
	(void)tep_find_function(tep, 0xffffffff81000000ull);
	tep_free(tep);
	/* one line of a MiB, and an empty file */
	tep = tep_alloc();
	memset(line, 'f', (1 << 20) - 1);
	line[(1 << 20) - 1] = '\n';
	load(tep, line, 1 << 20);
	(void)tep_find_function(tep, 0xffffffff81000000ull);
	tep_free(tep);
	tep = tep_alloc();
	assert_int_equal(load(tep, "", 0), 0);
	tep_free(tep);
	free(line);
}

UNIT_MAIN("ksyms",
	cmocka_unit_test(test_symbols),
	cmocka_unit_test(test_damaged),
)
