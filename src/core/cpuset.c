// SPDX-License-Identifier: GPL-2.0
/*
 * cpuset.c - CPU sets sized for this machine, so that tlat has no
 * CPU_SETSIZE limit.
 */
#include <errno.h>
#include <stdio.h>

#include "core/cpuset.h"

int cpuset_init(struct tlat_cpuset *cpus, int nr_cpus)
{
	cpus->set = CPU_ALLOC(nr_cpus);
	if (!cpus->set)
		return -ENOMEM;
	cpus->size = CPU_ALLOC_SIZE(nr_cpus);
	cpus->nr_cpus = nr_cpus;
	CPU_ZERO_S(cpus->size, cpus->set);
	return 0;
}

void cpuset_free(struct tlat_cpuset *cpus)
{
	if (cpus->set)
		CPU_FREE(cpus->set);
	cpus->set = NULL;
}

void cpuset_fill(struct tlat_cpuset *cpus)
{
	for (int cpu = 0; cpu < cpus->nr_cpus; cpu++)
		CPU_SET_S(cpu, cpus->size, cpus->set);
}

int cpuset_count(const struct tlat_cpuset *cpus)
{
	return CPU_COUNT_S(cpus->size, cpus->set);
}

bool cpuset_has(const struct tlat_cpuset *cpus, int cpu)
{
	return cpu >= 0 && cpu < cpus->nr_cpus && CPU_ISSET_S(cpu, cpus->size, cpus->set);
}

/* "0-3,6": the inverse of parse_cpu_list(), for kernel interfaces */
int cpuset_to_list(const struct tlat_cpuset *cpus, char *buf, size_t len)
{
	size_t used = 0;
	int n;

	buf[0] = '\0';
	for (int cpu = 0; cpu < cpus->nr_cpus; cpu++) {
		int last = cpu;

		if (!cpuset_has(cpus, cpu))
			continue;
		while (cpuset_has(cpus, last + 1))
			last++;
		n = last > cpu ? snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", cpu, last)
			       : snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpu);
		if (n < 0 || (size_t)n >= len - used)
			return -ENOSPC;
		used += n;
		cpu = last;
	}
	return 0;
}
