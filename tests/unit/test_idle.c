// SPDX-License-Identifier: GPL-2.0
/*
 * test_idle.c - --deepest-idle-state against a fake libcpupower: which
 * states are disabled on which CPUs, that the restore enables exactly those
 * again (not one another tool had disabled), and that a failure half-way
 * leaves every state as it was, with one line of error. libcpupower reads
 * /sys itself, so the fake stands in for it rather than a fake sysfs root.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cmd/cli.h"
#include "core/cpuset.h"
#include "util/idle.h"
#include "util/parse.h"
#include "unit_helpers.h"

#define NR_CPUS		4
#define NR_STATES	3

/* the fake's machine: libcpupower's calls take no context, so it lives here */
static struct {
	unsigned int nr_states[NR_CPUS];
	int disabled[NR_CPUS][NR_STATES];
	int writes;
	int fail_after;		/* writes before disabling fails with -3; -1: never */
	int read_error;		/* is_disabled() returns this when non-zero */
} fake;

static unsigned int fake_count(unsigned int cpu)
{
	return cpu < NR_CPUS ? fake.nr_states[cpu] : 0;
}

static int fake_is_disabled(unsigned int cpu, unsigned int state)
{
	if (fake.read_error)
		return fake.read_error;
	if (cpu >= NR_CPUS || state >= fake.nr_states[cpu])
		return -1;
	return fake.disabled[cpu][state];
}

static int fake_disable(unsigned int cpu, unsigned int state, unsigned int disable)
{
	if (cpu >= NR_CPUS || state >= fake.nr_states[cpu])
		return -1;
	if (disable && fake.fail_after >= 0 && fake.writes >= fake.fail_after)
		return -3;
	fake.writes++;
	fake.disabled[cpu][state] = disable;
	return 0;
}

static const struct idle_backend fake_backend = {
	.state_count = fake_count,
	.is_disabled = fake_is_disabled,
	.disable = fake_disable,
};

struct idle_test {
	struct tlat_params p;
	char err[TLAT_ERR_LEN];
};

static int setup(void **state)
{
	static struct idle_test t;

	memset(&fake, 0, sizeof(fake));
	fake.fail_after = -1;
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		fake.nr_states[cpu] = NR_STATES;
	memset(t.err, 0, sizeof(t.err));
	if (cli_params_init(&t.p, TLAT_MODE_TOP, NR_CPUS))
		return -1;
	*state = &t;
	return 0;
}

static int teardown(void **state)
{
	struct idle_test *t = *state;

	cli_params_free(&t->p);
	return 0;
}

/* the disabled states as bits: CPU c's state s is bit c * NR_STATES + s */
static unsigned int disabled_mask(void)
{
	unsigned int mask = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		for (int s = 0; s < NR_STATES; s++)
			if (fake.disabled[cpu][s])
				mask |= 1u << (cpu * NR_STATES + s);
	return mask;
}

#define BIT(cpu, s)	(1u << ((cpu) * NR_STATES + (s)))

static void set_cpus(struct idle_test *t, const char *list)
{
	assert_int_equal(parse_cpu_list(list, &t->p.cpus), 0);
}

static void test_untouched(void **state)
{
	struct idle_test *t = *state;
	struct idle_limit *lim = (void *)1;

	assert_int_equal(idle_limit_apply(&lim, &fake_backend, &t->p.cpus, t->p.deepest_idle_state, NULL, t->err), 0);
	assert_null(lim);
	assert_int_equal(fake.writes, 0);
	idle_limit_restore(NULL);
}

/* states deeper than N go on the measured CPUs only, and come back */
static void test_deepest_zero(void **state)
{
	struct idle_test *t = *state;
	struct idle_limit *lim;

	set_cpus(t, "1,3");
	t->p.deepest_idle_state = 0;
	assert_int_equal(idle_limit_apply(&lim, &fake_backend, &t->p.cpus, t->p.deepest_idle_state, NULL, t->err), 0);
	assert_non_null(lim);
	assert_int_equal(idle_limit_count(lim), 4);
	assert_int_equal(disabled_mask(), BIT(1, 1) | BIT(1, 2) | BIT(3, 1) | BIT(3, 2));
	idle_limit_restore(lim);
	assert_int_equal(disabled_mask(), 0);
	assert_int_equal(fake.writes, 8);
}

static void test_none(void **state)
{
	struct idle_test *t = *state;
	struct idle_limit *lim;

	t->p.deepest_idle_state = TLAT_IDLE_NONE;
	assert_int_equal(idle_limit_apply(&lim, &fake_backend, &t->p.cpus, t->p.deepest_idle_state, NULL, t->err), 0);
	assert_int_equal(idle_limit_count(lim), NR_CPUS * NR_STATES);
	assert_int_equal(disabled_mask(), (1u << (NR_CPUS * NR_STATES)) - 1);
	idle_limit_restore(lim);
	assert_int_equal(disabled_mask(), 0);
}

/* the deepest state and beyond: nothing to change, nothing to undo */
static void test_nothing_deeper(void **state)
{
	struct idle_test *t = *state;
	struct idle_limit *lim;

	t->p.deepest_idle_state = NR_STATES - 1;
	assert_int_equal(idle_limit_apply(&lim, &fake_backend, &t->p.cpus, t->p.deepest_idle_state, NULL, t->err), 0);
	assert_null(lim);
	t->p.deepest_idle_state = INT_MAX;
	assert_int_equal(idle_limit_apply(&lim, &fake_backend, &t->p.cpus, t->p.deepest_idle_state, NULL, t->err), 0);
	assert_null(lim);
	assert_int_equal(fake.writes, 0);
}

/* a VM without a cpuidle driver: a no-op, not an error */
static void test_no_states(void **state)
{
	struct idle_test *t = *state;
	struct idle_limit *lim;

	memset(fake.nr_states, 0, sizeof(fake.nr_states));
	t->p.deepest_idle_state = TLAT_IDLE_NONE;
	assert_int_equal(idle_limit_apply(&lim, &fake_backend, &t->p.cpus, t->p.deepest_idle_state, NULL, t->err), 0);
	assert_null(lim);
	assert_string_equal(t->err, "");
}

/* what was disabled before tlat stays disabled after it */
static void test_keeps_others(void **state)
{
	struct idle_test *t = *state;
	struct idle_limit *lim;

	fake.disabled[0][2] = 1;
	fake.disabled[2][0] = 1;
	t->p.deepest_idle_state = 0;
	assert_int_equal(idle_limit_apply(&lim, &fake_backend, &t->p.cpus, t->p.deepest_idle_state, NULL, t->err), 0);
	assert_int_equal(idle_limit_count(lim), NR_CPUS * 2 - 1);
	idle_limit_restore(lim);
	assert_int_equal(disabled_mask(), BIT(0, 2) | BIT(2, 0));
}

/* CPUs may have different numbers of states */
static void test_uneven_states(void **state)
{
	struct idle_test *t = *state;
	struct idle_limit *lim;

	fake.nr_states[0] = 1;
	fake.nr_states[1] = 2;
	t->p.deepest_idle_state = 0;
	assert_int_equal(idle_limit_apply(&lim, &fake_backend, &t->p.cpus, t->p.deepest_idle_state, NULL, t->err), 0);
	assert_int_equal(disabled_mask(),
			 BIT(1, 1) | BIT(2, 1) | BIT(2, 2) | BIT(3, 1) | BIT(3, 2));
	idle_limit_restore(lim);
	assert_int_equal(disabled_mask(), 0);
}

static void expect_one_line(const char *err, const char *needle)
{
	assert_true(err[0]);
	assert_null(strchr(err, '\n'));
	if (!strstr(err, needle))
		fail_msg("error '%s' does not mention '%s'", err, needle);
}

/* a write failing half-way: what was done is undone, and one line says why */
static void test_write_fails(void **state)
{
	struct idle_test *t = *state;
	struct idle_limit *lim = (void *)1;

	fake.disabled[3][1] = 1;
	fake.fail_after = 3;
	t->p.deepest_idle_state = 0;
	assert_int_equal(idle_limit_apply(&lim, &fake_backend, &t->p.cpus, t->p.deepest_idle_state, NULL, t->err), -EIO);
	assert_null(lim);
	expect_one_line(t->err, "cannot disable idle state 2 of CPU 1");
	fake.fail_after = -1;
	assert_int_equal(disabled_mask(), BIT(3, 1));
}

static void test_read_fails(void **state)
{
	struct idle_test *t = *state;
	struct idle_limit *lim;

	fake.read_error = -2;
	t->p.deepest_idle_state = 1;
	assert_int_equal(idle_limit_apply(&lim, &fake_backend, &t->p.cpus, t->p.deepest_idle_state, NULL, t->err), -EIO);
	assert_null(lim);
	expect_one_line(t->err, "the kernel cannot disable idle states");
	assert_int_equal(fake.writes, 0);
}

#define T(fn)	cmocka_unit_test_setup_teardown(fn, setup, teardown)

UNIT_MAIN("idle",
	T(test_untouched),
	T(test_deepest_zero),
	T(test_none),
	T(test_nothing_deeper),
	T(test_no_states),
	T(test_keeps_others),
	T(test_uneven_states),
	T(test_write_fails),
	T(test_read_fails),
)
