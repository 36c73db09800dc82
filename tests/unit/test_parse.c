// SPDX-License-Identifier: GPL-2.0
/*
 * test_parse.c - the value parsers of parse.c: CPU lists, bounded integers,
 * s/m/h/d durations, ns/us/ms/s durations and -P scheduling attributes.
 * Every rejection must also leave the output untouched (or, for CPU lists,
 * report -EINVAL), so callers can keep their defaults. Also the measured
 * CPUs against the online ones (cpu_online.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/parse_sched.h"
#include "core/err.h"
#include "unit_helpers.h"
#include "util/cpu_online.h"
#include "util/parse.h"

#define SENTINEL	424242ULL
#define SCHED_DL	6	/* SCHED_DEADLINE, as parse.c uses it */

static int setup_cpus4(void **state)
{
	static struct tlat_cpuset cpus;

	if (cpuset_init(&cpus, 4))
		return -1;
	*state = &cpus;
	return 0;
}

static int teardown_cpus(void **state)
{
	cpuset_free(*state);
	return 0;
}

static const char *show(const char *str)
{
	return str ? str : "(null)";
}

/* parse str, expect success and exactly the CPUs in mask */
static void cpu_list_ok(struct tlat_cpuset *cpus, const char *str, u64 mask)
{
	int ret = parse_cpu_list(str, cpus);

	if (ret || unit_cpu_mask(cpus) != mask)
		fail_msg("cpu list '%s': ret %d, mask %#llx; expected 0, %#llx", str, ret,
			 (unsigned long long)unit_cpu_mask(cpus), (unsigned long long)mask);
}

static void cpu_list_bad(struct tlat_cpuset *cpus, const char *str)
{
	int ret = parse_cpu_list(str, cpus);

	if (ret != -EINVAL)
		fail_msg("cpu list '%s': ret %d, expected -EINVAL", show(str), ret);
}

static void test_cpu_list_valid(void **state)
{
	struct tlat_cpuset *cpus = *state;

	cpu_list_ok(cpus, "0", 0x1);
	cpu_list_ok(cpus, "3", 0x8);		/* the last CPU */
	cpu_list_ok(cpus, "0-1", 0x3);
	cpu_list_ok(cpus, "0,1", 0x3);
	cpu_list_ok(cpus, "0-3", 0xf);
	cpu_list_ok(cpus, "2-2", 0x4);		/* a one-CPU range */
	cpu_list_ok(cpus, "3,0", 0x9);		/* order does not matter */
	cpu_list_ok(cpus, "0-2,1", 0x7);	/* overlaps are fine */
	cpu_list_ok(cpus, "0,2-3", 0xd);
}

/* a second parse replaces the set, it does not add to it */
static void test_cpu_list_replaces(void **state)
{
	struct tlat_cpuset *cpus = *state;

	cpu_list_ok(cpus, "0-3", 0xf);
	cpu_list_ok(cpus, "1", 0x2);
}

static void test_cpu_list_invalid(void **state)
{
	struct tlat_cpuset *cpus = *state;

	cpu_list_bad(cpus, NULL);
	cpu_list_bad(cpus, "");
	cpu_list_bad(cpus, "1-0");	/* reversed range */
	cpu_list_bad(cpus, "a");
	cpu_list_bad(cpus, "0-");
	cpu_list_bad(cpus, "-1");
	cpu_list_bad(cpus, "0,,1");
	cpu_list_bad(cpus, "0,");
	cpu_list_bad(cpus, ",0");
	cpu_list_bad(cpus, "0-1-2");
	cpu_list_bad(cpus, "4");	/* CPU == nr_cpus */
	cpu_list_bad(cpus, "0-4");	/* range end == nr_cpus */
	cpu_list_bad(cpus, "0,4");
	cpu_list_bad(cpus, "99999999999999999999999");	/* overflows unsigned long */
	cpu_list_bad(cpus, "0x");	/* trailing garbage */
	cpu_list_bad(cpus, "1a");
	cpu_list_bad(cpus, "0 ");
	cpu_list_bad(cpus, " 0");
	cpu_list_bad(cpus, "0-1,3x");
	cpu_list_bad(cpus, "0;1");
}

/* sets bigger than one machine word: the sized CPU_*_S macros must be used */
static void test_cpu_list_many_cpus(void **state)
{
	struct tlat_cpuset cpus;

	(void)state;
	assert_int_equal(cpuset_init(&cpus, 130), 0);
	assert_int_equal(parse_cpu_list("0,64,129", &cpus), 0);
	assert_int_equal(cpuset_count(&cpus), 3);
	assert_true(cpuset_has(&cpus, 0));
	assert_true(cpuset_has(&cpus, 64));
	assert_true(cpuset_has(&cpus, 129));
	assert_false(cpuset_has(&cpus, 63));
	assert_int_equal(parse_cpu_list("60-70", &cpus), 0);
	assert_int_equal(cpuset_count(&cpus), 11);
	assert_int_equal(parse_cpu_list("130", &cpus), -EINVAL);
	assert_int_equal(parse_cpu_list("128-130", &cpus), -EINVAL);
	cpuset_free(&cpus);
}

static void u64_range_ok(const char *str, u64 min, u64 max, u64 expect)
{
	u64 val = SENTINEL;
	int ret = parse_u64_range(str, min, max, &val);

	if (ret || val != expect)
		fail_msg("'%s' in [%llu, %llu]: ret %d, value %llu; expected 0, %llu", str,
			 (unsigned long long)min, (unsigned long long)max, ret,
			 (unsigned long long)val, (unsigned long long)expect);
}

static void u64_range_bad(const char *str, u64 min, u64 max)
{
	u64 val = SENTINEL;
	int ret = parse_u64_range(str, min, max, &val);

	if (ret != -EINVAL || val != SENTINEL)
		fail_msg("'%s' in [%llu, %llu]: ret %d, value %llu; expected -EINVAL, untouched",
			 show(str), (unsigned long long)min, (unsigned long long)max, ret,
			 (unsigned long long)val);
}

static void test_u64_range(void **state)
{
	(void)state;
	u64_range_ok("100", 100, 1000000, 100);			/* min */
	u64_range_ok("1000000", 100, 1000000, 1000000);		/* max */
	u64_range_ok("5000", 100, 1000000, 5000);
	u64_range_bad("99", 100, 1000000);			/* min - 1 */
	u64_range_bad("1000001", 100, 1000000);			/* max + 1 */
	u64_range_ok("0", 0, 10, 0);
	u64_range_ok("007", 0, 10, 7);				/* decimal, not octal */
	u64_range_ok("18446744073709551615", 0, UINT64_MAX, UINT64_MAX);
	u64_range_bad("18446744073709551616", 0, UINT64_MAX);	/* overflow */
	u64_range_bad("12x", 0, 100);
	u64_range_bad("", 0, 100);
	u64_range_bad(NULL, 0, 100);
	u64_range_bad("-1", 0, UINT64_MAX);	/* strtoull would wrap it */
	u64_range_bad("+1", 0, 100);
	u64_range_bad(" 1", 0, 100);
	u64_range_bad("1 ", 0, 100);
	u64_range_bad("0x10", 0, 100);
}

/* a parser of durations, as its messages name it and its unit */
struct duration_parser {
	const char *what;
	const char *unit;
	int (*parse)(const char *str, u64 *val);
};

static const struct duration_parser duration_s = { "duration", "s", parse_duration_s };
static const struct duration_parser ns_duration = { "ns duration", "ns", parse_ns_duration };

static void parsed_ok(const struct duration_parser *p, const char *str, u64 expect)
{
	u64 val = SENTINEL;
	int ret = p->parse(str, &val);

	if (ret || val != expect)
		fail_msg("%s '%s': ret %d, %llu %s; expected 0, %llu %s", p->what, str, ret,
			 (unsigned long long)val, p->unit, (unsigned long long)expect, p->unit);
}

static void parsed_bad(const struct duration_parser *p, const char *str)
{
	u64 val = SENTINEL;
	int ret = p->parse(str, &val);

	if (ret != -EINVAL || val != SENTINEL)
		fail_msg("%s '%s': ret %d, %llu %s; expected -EINVAL, untouched", p->what,
			 show(str), ret, (unsigned long long)val, p->unit);
}

#define duration_ok(str, s)	parsed_ok(&duration_s, str, s)
#define duration_bad(str)	parsed_bad(&duration_s, str)
#define ns_ok(str, ns)		parsed_ok(&ns_duration, str, ns)
#define ns_bad(str)		parsed_bad(&ns_duration, str)

static void test_duration_s(void **state)
{
	(void)state;
	duration_ok("1", 1);
	duration_ok("10", 10);
	duration_ok("10s", 10);
	duration_ok("2m", 120);
	duration_ok("3h", 3 * 3600);
	duration_ok("4d", 4 * 86400);
	/* rtla accepts upper case suffixes too */
	duration_ok("1S", 1);
	duration_ok("1M", 60);
	duration_ok("1H", 3600);
	duration_ok("1D", 86400);
	/* the biggest day count that fits in 64 bits of seconds, and one more */
	duration_ok("213503982334601d", 213503982334601ULL * 86400);
	duration_bad("213503982334602d");
	duration_bad("0");
	duration_bad("0s");
	duration_bad("0d");
	duration_bad("10x");
	duration_bad("5ms");
	duration_bad("1ss");
	duration_bad("1.5h");
	duration_bad("");
	duration_bad(NULL);
	duration_bad("s");
	duration_bad("-1");
	duration_bad(" 1");
	duration_bad("1 s");
}

static void test_ns_duration(void **state)
{
	(void)state;
	ns_ok("100ns", 100);
	ns_ok("100us", 100000);
	ns_ok("1ms", 1000000);
	ns_ok("2s", 2000000000);
	ns_ok("0ns", 0);
	ns_bad("100");		/* the unit is mandatory */
	ns_bad("100m");
	ns_bad("100h");
	ns_bad("100nsx");
	ns_bad("100 us");
	ns_bad("us");
	ns_bad("");
	ns_bad(NULL);
	ns_bad("-1ms");
	ns_bad("18446744073709551615s");	/* overflows when scaled */
}

static void sched_bad(const char *str)
{
	struct tlat_sched sched = { .set = false, .policy = -1, .prio = 1234 };
	int ret = parse_sched(str, &sched);

	/* the caller's value is untouched on error */
	if (ret != -EINVAL || sched.set || sched.policy != -1 || sched.prio != 1234)
		fail_msg("sched '%s': ret %d, set %d policy %d prio %d; expected -EINVAL",
			 show(str), ret, sched.set, sched.policy, sched.prio);
}

static void sched_ok(const char *str, int policy, int prio)
{
	struct tlat_sched sched = { 0 };
	int ret = parse_sched(str, &sched);

	if (ret || !sched.set || sched.policy != policy || sched.prio != prio)
		fail_msg("sched '%s': ret %d, set %d policy %d prio %d; expected 0, 1 %d %d", str,
			 ret, sched.set, sched.policy, sched.prio, policy, prio);
}

/* -P values, and the policy and priority each gives; BAD: refused */
struct sched_case {
	const char *str;
	int policy;
	int prio;
};

#define BAD	-1, 0

static void expect_scheds(const struct sched_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (c[i].policy < 0)
			sched_bad(c[i].str);
		else
			sched_ok(c[i].str, c[i].policy, c[i].prio);
	}
}

static void test_sched_other(void **state)
{
	static const struct sched_case cases[] = {
		{ "o:-20", SCHED_OTHER, -20 }, { "o:0", SCHED_OTHER, 0 },
		{ "o:19", SCHED_OTHER, 19 },
		{ "o:-21", BAD }, { "o:20", BAD }, { "o:", BAD }, { "o:1x", BAD },
	};

	(void)state;
	expect_scheds(cases, UNIT_ARRAY_SIZE(cases));
}

static void test_sched_rt(void **state)
{
	static const struct sched_case cases[] = {
		{ "r:1", SCHED_RR, 1 }, { "r:99", SCHED_RR, 99 }, { "f:1", SCHED_FIFO, 1 },
		{ "f:95", SCHED_FIFO, 95 }, { "f:99", SCHED_FIFO, 99 },
		{ "r:0", BAD }, { "r:100", BAD }, { "f:0", BAD }, { "f:100", BAD }, { "f:-1", BAD },
		{ "f:95x", BAD }, { "f:", BAD },
	};

	(void)state;
	expect_scheds(cases, UNIT_ARRAY_SIZE(cases));
}

static void test_sched_deadline(void **state)
{
	struct tlat_sched sched = { 0 };

	(void)state;
	assert_int_equal(parse_sched("d:100us:1ms", &sched), 0);
	assert_true(sched.set);
	assert_int_equal(sched.policy, SCHED_DL);
	assert_int_equal(sched.runtime_ns, 100000);
	assert_int_equal(sched.period_ns, 1000000);

	/* runtime == period is the upper bound */
	assert_int_equal(parse_sched("d:1ms:1ms", &sched), 0);
	assert_int_equal(sched.runtime_ns, 1000000);
	assert_int_equal(sched.period_ns, 1000000);
	assert_int_equal(parse_sched("d:500ns:1s", &sched), 0);
	assert_int_equal(sched.runtime_ns, 500);
	assert_int_equal(sched.period_ns, 1000000000);

	sched_bad("d:2ms:1ms");		/* runtime > period */
	sched_bad("d:1000001ns:1ms");
	sched_bad("d:0us:1ms");		/* no runtime */
	sched_bad("d:100us");		/* no period */
	sched_bad("d:100us:");
	sched_bad("d::1ms");
	sched_bad("d:100:1ms");		/* units are mandatory */
	sched_bad("d:100us:1000");
	sched_bad("d:100us:1ms:2ms");
}

static void test_sched_syntax(void **state)
{
	(void)state;
	sched_bad("x:1");
	sched_bad("f95");
	sched_bad("f");
	sched_bad("");
	sched_bad(NULL);
	sched_bad(":95");
	sched_bad("ff:95");
}

/* rtla's parse_prio() takes the policy letter in either case: "F:95" is "f:95" */
static void test_sched_upper_case(void **state)
{
	struct tlat_sched sched = { 0 };

	(void)state;
	sched_ok("O:-5", SCHED_OTHER, -5);
	sched_ok("R:10", SCHED_RR, 10);
	sched_ok("F:95", SCHED_FIFO, 95);
	assert_int_equal(parse_sched("D:100us:1ms", &sched), 0);
	assert_int_equal(sched.policy, SCHED_DL);
	assert_int_equal(sched.runtime_ns, 100000);
	assert_int_equal(sched.period_ns, 1000000);
}

/* cpuset_to_list() is the inverse of parse_cpu_list(), ranges collapsed */
static void test_cpu_list_round_trip(void **state)
{
	static const char *const lists[] = { "0", "3", "0-3", "0,2", "0-1,3", "1-2" };
	struct tlat_cpuset *cpus = *state;
	char buf[64];

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		assert_int_equal(parse_cpu_list(lists[i], cpus), 0);
		assert_int_equal(cpuset_to_list(cpus, buf, sizeof(buf)), 0);
		assert_string_equal(buf, lists[i]);
	}
	assert_int_equal(parse_cpu_list("0-3", cpus), 0);
	assert_int_equal(cpuset_to_list(cpus, buf, 3), -ENOSPC);
}

/* the default set skips offline CPUs; a named offline CPU is an error */
static void test_cpu_online_restrict(void **state)
{
	struct tlat_cpuset cpus, online;
	char err[TLAT_ERR_LEN] = "";

	(void)state;
	assert_int_equal(cpuset_init(&cpus, 4), 0);
	assert_int_equal(cpuset_init(&online, 4), 0);
	assert_int_equal(parse_cpu_list("0,2-3", &online), 0);

	cpuset_fill(&cpus);
	assert_int_equal(cpu_online_restrict(&cpus, &online, false, err), 0);
	assert_int_equal(unit_cpu_mask(&cpus), 0xd);
	assert_string_equal(err, "");

	assert_int_equal(parse_cpu_list("0,2", &cpus), 0);
	assert_int_equal(cpu_online_restrict(&cpus, &online, true, err), 0);
	assert_int_equal(unit_cpu_mask(&cpus), 0x5);

	assert_int_equal(parse_cpu_list("0-2", &cpus), 0);
	assert_int_equal(cpu_online_restrict(&cpus, &online, true, err), -ENODEV);
	assert_string_equal(err, "CPU 1 is offline");
	assert_int_equal(unit_cpu_mask(&cpus), 0x7);

	/* a default set with nothing online left */
	assert_int_equal(parse_cpu_list("1", &cpus), 0);
	assert_int_equal(cpu_online_restrict(&cpus, &online, false, err), -ENODEV);
	assert_string_equal(err, "no CPU to measure is online");
	cpuset_free(&cpus);
	cpuset_free(&online);
}

/* this machine's own list parses, and holds CPU 0's neighbours or CPU 0 */
static void test_cpu_online_read(void **state)
{
	struct tlat_cpuset online;

	(void)state;
	assert_int_equal(cpuset_init(&online, 4096), 0);
	assert_int_equal(cpu_online_read(&online), 0);
	assert_true(cpuset_count(&online) >= 1);
	cpuset_free(&online);
}

UNIT_MAIN("parse",
	cmocka_unit_test_setup_teardown(test_cpu_list_round_trip, setup_cpus4, teardown_cpus),
	cmocka_unit_test_setup_teardown(test_cpu_list_valid, setup_cpus4, teardown_cpus),
	cmocka_unit_test_setup_teardown(test_cpu_list_replaces, setup_cpus4,
					teardown_cpus),
	cmocka_unit_test_setup_teardown(test_cpu_list_invalid, setup_cpus4, teardown_cpus),
	cmocka_unit_test(test_cpu_list_many_cpus),
	cmocka_unit_test(test_cpu_online_restrict),
	cmocka_unit_test(test_cpu_online_read),
	cmocka_unit_test(test_u64_range),
	cmocka_unit_test(test_duration_s),
	cmocka_unit_test(test_ns_duration),
	cmocka_unit_test(test_sched_other),
	cmocka_unit_test(test_sched_rt),
	cmocka_unit_test(test_sched_deadline),
	cmocka_unit_test(test_sched_syntax),
	cmocka_unit_test(test_sched_upper_case),
)
