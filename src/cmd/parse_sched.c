// SPDX-License-Identifier: GPL-2.0
/*
 * parse_sched.c - rtla's -P (see parse_sched.h), on util/parse.c's number
 * and time syntaxes.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "cmd/parse_sched.h"
#include "util/parse.h"

/* o:nice, r:prio, f:prio or d:runtime:period, as rtla's -P */
int parse_sched(const char *str, struct tlat_sched *sched)
{
	struct tlat_sched s = { .set = true };
	char buf[64], *period, policy;

	if (!str || strlen(str) < 3 || str[1] != ':' || strlen(str) >= sizeof(buf))
		return -EINVAL;

	policy = (char)tolower((unsigned char)str[0]);	/* rtla takes "F:95" too */
	switch (policy) {
	case 'o':
		s.policy = SCHED_OTHER;
		if (parse_int_range(str + 2, -20, 19, &s.prio))
			return -EINVAL;
		break;
	case 'r':
	case 'f':
		s.policy = policy == 'r' ? SCHED_RR : SCHED_FIFO;
		if (parse_int_range(str + 2, 1, 99, &s.prio))
			return -EINVAL;
		break;
	case 'd':
		s.policy = 6;	/* SCHED_DEADLINE, not in every libc's sched.h */
		strcpy(buf, str + 2);
		period = strchr(buf, ':');
		if (!period)
			return -EINVAL;
		*period++ = '\0';
		if (parse_ns_duration(buf, &s.runtime_ns) ||
		    parse_ns_duration(period, &s.period_ns))
			return -EINVAL;
		if (!s.runtime_ns || s.runtime_ns > s.period_ns)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	*sched = s;
	return 0;
}
