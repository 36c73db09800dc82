// SPDX-License-Identifier: GPL-2.0
/*
 * idle.c - --deepest-idle-state through libcpupower (see idle.h). What was
 * changed is a list of (CPU, state) pairs, so that the restore writes back
 * exactly those and nothing another tool set meanwhile.
 */
#include <cpuidle.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/cpuset.h"
#include "core/err.h"
#include "util/idle.h"

const struct idle_backend idle_cpupower = {
	.state_count = cpuidle_state_count,
	.is_disabled = cpuidle_is_state_disabled,
	.disable = cpuidle_state_disable,
};

struct idle_change {
	unsigned int cpu;
	unsigned int state;
};

struct idle_limit {
	const struct idle_backend *be;
	const struct tlat_notes *notes;	/* -D's lines */
	struct idle_change *changes;
	int nr;
	int max;
};

/* libcpupower's error codes, for one line of error */
static const char *idle_error(int ret)
{
	switch (ret) {
	case -1:
		return "no such state";
	case -2:
		return "the kernel cannot disable idle states";
	case -3:
		return "cannot write its disable file";
	}
	return "unknown error";
}

static int idle_record(struct idle_limit *lim, unsigned int cpu, unsigned int state)
{
	if (lim->nr == lim->max) {
		int max = lim->max ? lim->max * 2 : 16;
		struct idle_change *c = realloc(lim->changes, max * sizeof(*c));

		if (!c)
			return -ENOMEM;
		lim->changes = c;
		lim->max = max;
	}
	lim->changes[lim->nr++] = (struct idle_change){ cpu, state };
	return 0;
}

static int idle_limit_cpu(struct idle_limit *lim, int deepest, unsigned int cpu, char *err)
{
	/* -1 disables them all; INT_MAX + 1 still fits the unsigned state numbers */
	unsigned int first = (unsigned int)(deepest + 1L);
	unsigned int nr = lim->be->state_count(cpu);
	int ret;

	if (!nr)
		tlat_note(lim->notes, TLAT_NOTE_DEBUG,
			  "tlat: CPU %u has no cpuidle states: --deepest-idle-state changes nothing there",
			  cpu);
	for (unsigned int state = first; state < nr; state++) {
		ret = lim->be->is_disabled(cpu, state);
		if (ret < 0) {
			tlat_err(err, "cannot read idle state %u of CPU %u: %s",
				 state, cpu, idle_error(ret));
			return -EIO;
		}
		if (ret)
			continue;	/* someone else's choice: not ours to undo */
		ret = lim->be->disable(cpu, state, 1);
		if (ret < 0) {
			tlat_err(err, "cannot disable idle state %u of CPU %u: %s",
				 state, cpu, idle_error(ret));
			return -EIO;
		}
		if (idle_record(lim, cpu, state)) {
			lim->be->disable(cpu, state, 0);
			tlat_err(err, "out of memory");
			return -ENOMEM;
		}
		tlat_note(lim->notes, TLAT_NOTE_DEBUG, "tlat: CPU %u: idle state %u disabled",
			  cpu, state);
	}
	return 0;
}

int idle_limit_apply(struct idle_limit **out, const struct idle_backend *be,
		     const struct tlat_cpuset *cpus, int deepest, const struct tlat_notes *debug,
		     char *err)
{
	struct idle_limit *lim;
	int ret = 0;

	*out = NULL;
	if (deepest < IDLE_NONE)
		return 0;
	lim = calloc(1, sizeof(*lim));
	if (!lim) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	lim->be = be;
	lim->notes = debug;
	for (int cpu = 0; cpu < cpus->nr_cpus && !ret; cpu++)
		if (cpuset_has(cpus, cpu))
			ret = idle_limit_cpu(lim, deepest, cpu, err);
	if (ret || !lim->nr) {
		idle_limit_restore(lim);
		return ret;
	}
	*out = lim;
	return 0;
}

int idle_limit_count(const struct idle_limit *lim)
{
	return lim ? lim->nr : 0;
}

void idle_limit_restore(struct idle_limit *lim)
{
	if (!lim)
		return;
	while (lim->nr--)
		lim->be->disable(lim->changes[lim->nr].cpu, lim->changes[lim->nr].state, 0);
	free(lim->changes);
	free(lim);
}
