// SPDX-License-Identifier: GPL-2.0
/*
 * test_sandbox.c - work in a bounded child (sandbox.c): its exit status and
 * error line come back; a crash, the CPU limit, the deadline and the memory
 * limit each end in one line, never in the parent's death.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/err.h"
#include "core/sanitize.h"
#include "util/sandbox.h"

static const struct sandbox_limits lim = { .as_bytes = 256UL << 20, .seconds = 1 };

static int child_exit(void *arg, char *err)
{
	tlat_err(err, "the child's line");
	return *(int *)arg;
}

static void test_sandbox_exit_status(void **state)
{
	char err[TLAT_ERR_LEN] = "";

	(void)state;
	for (int code = 0; code < 3; code++) {
		assert_int_equal(sandbox_run(child_exit, &code, &lim, "x.dat", err), code);
		assert_string_equal(err, "the child's line");
	}
}

static int child_crash(void *arg, char *err)
{
	(void)arg;
	(void)err;
	raise(SIGSEGV);
	return 0;
}

static void test_sandbox_crash(void **state)
{
	char err[TLAT_ERR_LEN] = "";

	(void)state;
#ifdef TLAT_ASAN
	/* AddressSanitizer reports the crash and exits instead */
	skip();
#endif
	assert_int_equal(sandbox_run(child_crash, NULL, &lim, "x.dat", err), SANDBOX_FAILED);
	assert_string_equal(err, "x.dat is damaged: reading it ended in Segmentation fault");
}

static int child_spin(void *arg, char *err)
{
	volatile unsigned long n = 0;

	(void)err;
	if (arg)
		for (;;)
			n++;
	for (;;)
		pause();
	return 0;
}

static void test_sandbox_cpu_limit(void **state)
{
	char err[TLAT_ERR_LEN] = "";
	int spin = 1;

	(void)state;
	assert_int_equal(sandbox_run(child_spin, &spin, &lim, "x.dat", err), SANDBOX_FAILED);
	/* the CPU limit or the deadline, whichever the busy machine makes first */
	assert_non_null(strstr(err, "x.dat is damaged: reading it took more than 1 s"));
}

static void test_sandbox_deadline(void **state)
{
	char err[TLAT_ERR_LEN] = "";

	(void)state;
	assert_int_equal(sandbox_run(child_spin, NULL, &lim, "x.dat", err), SANDBOX_FAILED);
	assert_string_equal(err, "x.dat is damaged: reading it took more than 1 s");
}

static int child_alloc(void *arg, char *err)
{
	/* what a size read from a damaged file asks for */
	void *p = malloc(1UL << 30);

	(void)arg;
	if (!p) {
		tlat_err(err, "out of memory");
		return 1;
	}
	memset(p, 1, 1UL << 30);
	free(p);
	return 0;
}

static void test_sandbox_memory_limit(void **state)
{
	char err[TLAT_ERR_LEN] = "";

	(void)state;
#ifdef TLAT_ASAN
	/* no RLIMIT_AS under AddressSanitizer */
	skip();
#endif
	assert_int_equal(sandbox_run(child_alloc, NULL, &lim, "x.dat", err), 1);
	assert_string_equal(err, "out of memory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sandbox_exit_status),
		cmocka_unit_test(test_sandbox_crash),
		cmocka_unit_test(test_sandbox_cpu_limit),
		cmocka_unit_test(test_sandbox_deadline),
		cmocka_unit_test(test_sandbox_memory_limit),
	};

	return cmocka_run_group_tests_name("sandbox", tests, NULL, NULL);
}
