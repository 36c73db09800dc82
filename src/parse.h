/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - parsers for the value syntaxes rtla accepts: CPU lists, durations
 * with a unit suffix, scheduling attributes and bounded integers. All return
 * 0 or -EINVAL and never print.
 */
#ifndef TLAT_PARSE_H
#define TLAT_PARSE_H

#include "cpuset.h"

int parse_cpu_list(const char *str, struct tlat_cpuset *cpus);
int parse_u64_range(const char *str, u64 min, u64 max, u64 *val);
int parse_int_range(const char *str, long min, long max, int *val);
int parse_duration_s(const char *str, u64 *seconds);
int parse_ns_duration(const char *str, u64 *ns);
int parse_sched(const char *str, struct tlat_sched *sched);

#endif
