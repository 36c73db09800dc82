// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - the value syntaxes of rtla's command line (CPU lists, s/m/h/d
 * durations, ns/us/ms/s times, bounded numbers), strict: trailing garbage
 * is an error.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/array.h"
#include "util/parse.h"

static int parse_uint(const char **p, unsigned long *val)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	*val = strtoul(*p, &end, 10);
	if (errno)
		return -EINVAL;
	*p = end;
	return 0;
}

/* "0-3,5,7-8": every CPU must exist; an empty list is an error */
int parse_cpu_list(const char *str, struct tlat_cpuset *cpus)
{
	const char *p = str;
	unsigned long first, last;

	CPU_ZERO_S(cpus->size, cpus->set);
	if (!str || !*str)
		return -EINVAL;

	for (;;) {
		if (parse_uint(&p, &first))
			return -EINVAL;
		last = first;
		if (*p == '-') {
			p++;
			if (parse_uint(&p, &last) || last < first)
				return -EINVAL;
		}
		if (last >= (unsigned long)cpus->nr_cpus)
			return -EINVAL;
		for (unsigned long cpu = first; cpu <= last; cpu++)
			CPU_SET_S(cpu, cpus->size, cpus->set);
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -EINVAL;
	}
}


struct unit {
	const char *suffix;
	u64 mult;
};

/*
 * Digits, then one of units' suffixes as cmp() compares them, or none if
 * bare_mult is not 0: the number times its unit, if that fits.
 */
static int parse_scaled(const char *str, const struct unit *units, size_t nr, u64 bare_mult,
			int (*cmp)(const char *, const char *), u64 *out)
{
	unsigned long long v;
	u64 mult = 0;
	char *end;

	if (!str || !isdigit((unsigned char)*str))
		return -EINVAL;
	errno = 0;
	v = strtoull(str, &end, 10);
	if (errno)
		return -EINVAL;
	if (!*end)
		mult = bare_mult;
	for (size_t i = 0; *end && i < nr && !mult; i++)
		if (!cmp(end, units[i].suffix))
			mult = units[i].mult;
	if (!mult || v > UINT64_MAX / mult)
		return -EINVAL;
	*out = v * mult;
	return 0;
}

int parse_u64_range(const char *str, u64 min, u64 max, u64 *val)
{
	u64 v;

	if (parse_scaled(str, NULL, 0, 1, strcmp, &v) || v < min || v > max)
		return -EINVAL;
	*val = v;
	return 0;
}

/* rtla's -d: a number of seconds, or with one of the suffixes s, m, h, d */
int parse_duration_s(const char *str, u64 *seconds)
{
	static const struct unit units[] = {
		{ "s", 1 }, { "m", 60 }, { "h", 3600 }, { "d", 86400 },
	};
	u64 v;

	if (parse_scaled(str, units, ARRAY_SIZE(units), 1, strcasecmp, &v) || !v)
		return -EINVAL;
	*seconds = v;
	return 0;
}

/* a time with a mandatory unit: ns, us, ms or s (rtla's -P d:runtime:period) */
int parse_ns_duration(const char *str, u64 *ns)
{
	static const struct unit units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};

	return parse_scaled(str, units, ARRAY_SIZE(units), 0, strcmp, ns);
}

int parse_int_range(const char *str, long min, long max, int *val)
{
	long v;
	char *end;

	if (!str || !*str)
		return -EINVAL;
	errno = 0;
	v = strtol(str, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*val = (int)v;
	return 0;
}
