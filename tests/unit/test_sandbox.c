// SPDX-License-Identifier: GPL-2.0
/*
 * test_sandbox.c - work in a bounded child (sandbox.c): its exit status and
 * error line come back; a crash, the CPU limit, the deadline and the memory
 * limit each end in one line, never in the parent's death.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/sanitize.h"
#include "unit_helpers.h"
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

/* spins with an arg, else sleeps */
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

/* a child, and what running it in the sandbox gives: its status and error line */
struct sandbox_case {
	int (*child)(void *arg, char *err);
	void *arg;
	int ret;
	const char *err;
	bool err_within;		/* the line holds err, not only err */
	bool not_under_asan;		/* the sanitizer, not the sandbox, would end it */
};

static const int spin = 1;

/* AddressSanitizer reports the crash and exits instead */
static const struct sandbox_case crash = {
	child_crash, NULL, SANDBOX_FAILED,
	"x.dat is damaged: reading it ended in Segmentation fault", .not_under_asan = true,
};

/* the CPU limit or the deadline, whichever the busy machine makes first */
static const struct sandbox_case cpu_limit = {
	child_spin, (void *)&spin, SANDBOX_FAILED,
	"x.dat is damaged: reading it took more than 1 s", .err_within = true,
};

static const struct sandbox_case deadline = {
	child_spin, NULL, SANDBOX_FAILED, "x.dat is damaged: reading it took more than 1 s",
	.err_within = false,
};

/* no RLIMIT_AS under AddressSanitizer */
static const struct sandbox_case memory_limit = {
	child_alloc, NULL, 1, "out of memory", .not_under_asan = true,
};

static void test_sandbox_case(void **state)
{
	const struct sandbox_case *c = *state;
	char err[TLAT_ERR_LEN] = "";

#ifdef TLAT_ASAN
	if (c->not_under_asan)
		skip();
#endif
	assert_int_equal(sandbox_run(c->child, c->arg, &lim, "x.dat", err), c->ret);
	if (c->err_within)
		assert_non_null(strstr(err, c->err));
	else
		assert_string_equal(err, c->err);
}

#define CASE(name)	UNIT_CASE("test_sandbox_" #name, test_sandbox_case, NULL, NULL, &name)

UNIT_MAIN("sandbox",
	cmocka_unit_test(test_sandbox_exit_status),
	CASE(crash),
	CASE(cpu_limit),
	CASE(deadline),
	CASE(memory_limit),
)
