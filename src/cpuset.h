/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpuset.h - a CPU set sized for this machine (CPU_ALLOC), not CPU_SETSIZE.
 */
#ifndef TLAT_CPUSET_H
#define TLAT_CPUSET_H

#include "params.h"

int cpuset_init(struct tlat_cpuset *cpus, int nr_cpus);
void cpuset_free(struct tlat_cpuset *cpus);
void cpuset_fill(struct tlat_cpuset *cpus);
int cpuset_count(const struct tlat_cpuset *cpus);
bool cpuset_has(const struct tlat_cpuset *cpus, int cpu);
int cpuset_to_list(const struct tlat_cpuset *cpus, char *buf, size_t len);

#endif
