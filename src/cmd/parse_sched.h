/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse_sched.h - rtla's -P, the measuring threads' scheduling attributes,
 * into the parsed options' struct tlat_sched.
 */
#ifndef TLAT_CMD_PARSE_SCHED_H
#define TLAT_CMD_PARSE_SCHED_H

#include "core/params.h"

/**
 * parse_sched - rtla's -P: o:nice, r:prio, f:prio or d:runtime:period
 * @str: the attributes; the policy letter in either case
 * @sched: set to them, marked set
 *
 * nice is -20 to 19, prio 1 to 99, and a deadline's runtime is not 0 and at
 * most its period.
 *
 * Returns 0 or -EINVAL (@sched untouched).
 */
int parse_sched(const char *str, struct tlat_sched *sched);

#endif
