/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - parsers for the value syntaxes rtla accepts: CPU lists, durations
 * with a unit suffix, scheduling attributes and bounded integers. All return
 * 0 or -EINVAL and never print.
 */
#ifndef TLAT_UTIL_PARSE_H
#define TLAT_UTIL_PARSE_H

#include "core/cpuset.h"
#include "core/sample.h"

/**
 * parse_cpu_list - a CPU list, such as "0-3,5,7-8"
 * @str: the list; every CPU must exist, and an empty list is an error
 * @cpus: an initialised set, which receives the CPUs
 *
 * Returns 0 or -EINVAL.
 */
int parse_cpu_list(const char *str, struct tlat_cpuset *cpus);

/**
 * parse_u64_range - a decimal number within bounds
 * @str: the number, nothing after it
 * @min: the smallest accepted
 * @max: the largest accepted
 * @val: set to it
 *
 * Returns 0 or -EINVAL (@val untouched).
 */
int parse_u64_range(const char *str, u64 min, u64 max, u64 *val);

/**
 * parse_int_range - a signed decimal number within bounds
 * @str: the number, nothing after it
 * @min: the smallest accepted
 * @max: the largest accepted
 * @val: set to it
 *
 * Returns 0 or -EINVAL (@val untouched).
 */
int parse_int_range(const char *str, long min, long max, int *val);

/**
 * parse_duration_s - rtla's -d: seconds, or with one of the suffixes s, m, h, d
 * @str: the duration, not 0; the suffix in either case
 * @seconds: set to it in seconds
 *
 * Returns 0 or -EINVAL.
 */
int parse_duration_s(const char *str, u64 *seconds);

/**
 * parse_ns_duration - a time with a mandatory unit: ns, us, ms or s
 * @str: the time, as in rtla's -P d:runtime:period
 * @ns: set to it in nanoseconds
 *
 * Returns 0 or -EINVAL (no unit, an unknown one, or an overflow).
 */
int parse_ns_duration(const char *str, u64 *ns);

#endif
