/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idle.h - --deepest-idle-state: on the measured CPUs, the cpuidle states
 * deeper than N are disabled for the run, so that a timer does not also wait
 * for its CPU to leave a deep state. Only the states tlat disabled are
 * enabled again at the end: one that was off already stays off.
 */
#ifndef TLAT_IDLE_H
#define TLAT_IDLE_H

#include "params.h"

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

/*
 * Disable the states deeper than params->deepest_idle_state on each measured
 * CPU. *lim is NULL when there is nothing to undo (the option is not set, or
 * no state had to change); on error nothing is left changed.
 */
int idle_limit_apply(struct idle_limit **lim, const struct idle_backend *be,
		     const struct tlat_params *params, char *err);
/* how many states it disabled */
int idle_limit_count(const struct idle_limit *lim);
/* enable again what idle_limit_apply() disabled, newest first, and free; NULL is fine */
void idle_limit_restore(struct idle_limit *lim);

#endif
