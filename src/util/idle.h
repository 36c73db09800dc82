/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idle.h - --deepest-idle-state: on the measured CPUs, the cpuidle states
 * deeper than N are disabled for the run, so that a timer does not also wait
 * for its CPU to leave a deep state. Only the states tlat disabled are
 * enabled again at the end: one that was off already stays off.
 */
#ifndef TLAT_UTIL_IDLE_H
#define TLAT_UTIL_IDLE_H

#include "core/cpuset.h"
#include "core/notes.h"

/* the deepest state left enabled: none; lower values leave cpuidle alone */
#define IDLE_NONE	-1

/* libcpupower's calls, with its return conventions; unit tests fake them */
struct idle_backend {
	unsigned int (*state_count)(unsigned int cpu);
	/* 1 disabled, 0 enabled, < 0 error */
	int (*is_disabled)(unsigned int cpu, unsigned int state);
	/* 0, or < 0 on error */
	int (*disable)(unsigned int cpu, unsigned int state, unsigned int disable);
};

extern const struct idle_backend idle_cpupower;

struct idle_limit;

/**
 * idle_limit_apply - disable the idle states deeper than --deepest-idle-state
 * @lim: set to what to undo, or NULL when there is nothing (the option is
 *	not set, or no state had to change)
 * @be: libcpupower, or a unit test's fake
 * @cpus: the measured CPUs
 * @deepest: the deepest state left enabled; IDLE_NONE: none; below it,
 *	nothing changes (the option is not set)
 * @debug: where -D's lines of what it does go; NULL: nowhere
 * @err: the error line, on failure
 *
 * Returns 0, or -errno with @err set; on error nothing is left changed.
 */
int idle_limit_apply(struct idle_limit **lim, const struct idle_backend *be,
		     const struct tlat_cpuset *cpus, int deepest, const struct tlat_notes *debug,
		     char *err);
/**
 * idle_limit_count - how many states idle_limit_apply() disabled
 * @lim: what it returned, or NULL
 *
 * Returns the count of CPU x state pairs disabled.
 */
int idle_limit_count(const struct idle_limit *lim);
/**
 * idle_limit_restore - enable again what idle_limit_apply() disabled
 * @lim: what it returned, or NULL; freed
 *
 * Newest first.
 */
void idle_limit_restore(struct idle_limit *lim);

#endif
