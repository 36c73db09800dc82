// SPDX-License-Identifier: GPL-2.0
/*
 * cpu_online.c - the measured CPUs against the online ones. An offline CPU
 * would otherwise fail deep in a source's setup, as "Invalid argument" from
 * sched_setaffinity() or a tracefs write, after the system has changed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "util/cpu_online.h"
#include "util/parse.h"

#define CPU_ONLINE_PATH	"/sys/devices/system/cpu/online"

int cpu_online_read(struct tlat_cpuset *online)
{
	char buf[4096];
	size_t len;
	FILE *f;

	f = fopen(CPU_ONLINE_PATH, "re");
	if (!f)
		return -errno;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return parse_cpu_list(buf, online);
}

int cpu_online_restrict(struct tlat_cpuset *cpus, const struct tlat_cpuset *online, bool named,
			char *err)
{
	for (int cpu = 0; cpu < cpus->nr_cpus; cpu++) {
		if (!cpuset_has(cpus, cpu) || cpuset_has(online, cpu))
			continue;
		if (named) {
			tlat_err(err, "CPU %d is offline", cpu);
			return -ENODEV;
		}
		CPU_CLR_S(cpu, cpus->size, cpus->set);
	}
	if (!cpuset_count(cpus)) {
		tlat_err(err, "no CPU to measure is online");
		return -ENODEV;
	}
	return 0;
}

int cpu_online_apply(struct tlat_cpuset *cpus, bool named, char *err)
{
	struct tlat_cpuset online;
	int ret;

	if (cpuset_init(&online, cpus->nr_cpus)) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	ret = cpu_online_read(&online);
	if (!ret)
		ret = cpu_online_restrict(cpus, &online, named, err);
	else
		ret = 0;
	cpuset_free(&online);
	return ret;
}
