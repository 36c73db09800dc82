// SPDX-License-Identifier: GPL-2.0
/*
 * test_source_select.c - which source measures (source_pick()), with
 * sources whose probes say what the test wants: auto takes the first that
 * works, skips one the kernel lacks, and refuses, naming the holder, one
 * busy with another measurement, rather than measure the same CPUs beside
 * it; --source still forces a source.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/err.h"
#include "sources/source.h"

static int probe_busy(struct tlat_session *session, char *err)
{
	(void)session;
	tlat_err(err, "the timerlat tracer is in use by instance tlat_134 (another tlat or rtla?)");
	return -EBUSY;
}

static int probe_missing(struct tlat_session *session, char *err)
{
	(void)session;
	tlat_err(err, "tlat.ko is neither loaded nor loadable");
	return -ENOENT;
}

static int probe_ok(struct tlat_session *session, char *err)
{
	(void)session;
	(void)err;
	return 0;
}

static const struct tlat_source_ops busy = { .name = "timerlat", .probe = probe_busy };
static const struct tlat_source_ops missing = { .name = "module", .probe = probe_missing };
static const struct tlat_source_ops works = { .name = "tracepoints", .probe = probe_ok };

static void test_auto_first_that_works(void **state)
{
	const struct tlat_source_ops *list[] = { &missing, &works };
	char err[TLAT_ERR_LEN] = "";

	(void)state;
	assert_ptr_equal(source_pick(list, 2, "auto", NULL, NULL, err), &works);
}

static void test_auto_refuses_busy(void **state)
{
	const struct tlat_source_ops *list[] = { &busy, &missing, &works };
	char err[TLAT_ERR_LEN] = "";

	(void)state;
	assert_null(source_pick(list, 3, "auto", NULL, NULL, err));
	assert_string_equal(err, "the timerlat tracer is in use by instance tlat_134 "
			    "(another tlat or rtla?): not measuring beside it (--source forces one)");
	assert_null(strchr(err, '\n'));
}

static void test_forced_source_beside_busy(void **state)
{
	const struct tlat_source_ops *list[] = { &busy, &missing, &works };
	char err[TLAT_ERR_LEN] = "";

	(void)state;
	assert_ptr_equal(source_pick(list, 3, "tracepoints", NULL, NULL, err), &works);
	assert_null(source_pick(list, 3, "timerlat", NULL, NULL, err));
	assert_non_null(strstr(err, "source timerlat is not available: "
			       "the timerlat tracer is in use by instance tlat_134"));
}

static void test_auto_none(void **state)
{
	const struct tlat_source_ops *list[] = { &missing };
	char err[TLAT_ERR_LEN] = "";

	(void)state;
	assert_null(source_pick(list, 1, "auto", NULL, NULL, err));
	assert_string_equal(err, "no sample source works on this kernel");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto_first_that_works),
		cmocka_unit_test(test_auto_refuses_busy),
		cmocka_unit_test(test_forced_source_beside_busy),
		cmocka_unit_test(test_auto_none),
	};

	return cmocka_run_group_tests_name("source_select", tests, NULL, NULL);
}
