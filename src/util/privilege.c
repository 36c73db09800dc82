// SPDX-License-Identifier: GPL-2.0
/*
 * privilege.c - see privilege.h. Root of a user namespace other than the
 * initial one owns nothing of the kernel's: it may find tracefs (mounted by
 * the real root, or reachable through debugfs) and even write some of it,
 * yet it can neither mount tracefs nor give threads a real-time policy.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <tracefs.h>
#include <unistd.h>

#include "core/err.h"
#include "util/privilege.h"

/* the initial user namespace maps every uid to itself: "0 0 4294967295" */
static bool in_initial_user_ns(void)
{
	unsigned long inside, outside, count;
	bool initial = true;
	FILE *f = fopen("/proc/self/uid_map", "re");

	if (!f)
		return true;	/* no user namespaces in this kernel */
	if (fscanf(f, "%lu %lu %lu", &inside, &outside, &count) == 3)
		initial = !inside && !outside && count == 4294967295ul;
	fclose(f);
	return initial;
}

int privilege_check(const char *prog, char *err)
{
	const char *dir = NULL;

	if (geteuid()) {
		tlat_err(err, "%s needs root permission", prog);
		return -EPERM;
	}
	if (in_initial_user_ns())
		return 0;
	/* looks, never mounts */
	if (tracefs_tracing_dir_is_mounted(false, &dir) == 1 && dir)
		tlat_err(err,
			 "%s needs root of the initial user namespace: tracefs (%s) cannot be used from this one",
			 prog, dir);
	else
		tlat_err(err,
			 "%s needs root of the initial user namespace: tracefs cannot be mounted or used from this one",
			 prog);
	return -EPERM;
}
