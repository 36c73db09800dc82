/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpuset.h - a CPU set sized for this machine (CPU_ALLOC), not CPU_SETSIZE.
 */
#ifndef TLAT_CORE_CPUSET_H
#define TLAT_CORE_CPUSET_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

struct tlat_cpuset {
	cpu_set_t *set;
	size_t size;		/* bytes, for the CPU_*_S macros */
	int nr_cpus;		/* CPUs it can hold: get_nprocs_conf() */
};

/**
 * cpuset_init - an empty set
 * @cpus: the set, the caller's memory
 * @nr_cpus: the CPUs it can hold
 *
 * Returns 0 or -ENOMEM; free it with cpuset_free().
 */
int cpuset_init(struct tlat_cpuset *cpus, int nr_cpus);

/**
 * cpuset_free - free a set's bits
 * @cpus: from cpuset_init(), or zeroed; a second call does nothing
 */
void cpuset_free(struct tlat_cpuset *cpus);

/**
 * cpuset_fill - put every CPU the set can hold in it
 * @cpus: the set
 */
void cpuset_fill(struct tlat_cpuset *cpus);

/**
 * cpuset_count - how many CPUs a set has
 * @cpus: the set
 *
 * Returns the count.
 */
int cpuset_count(const struct tlat_cpuset *cpus);

/**
 * cpuset_has - whether a CPU is in a set
 * @cpus: the set
 * @cpu: the CPU; out of range it is not
 *
 * Returns true if it is.
 */
bool cpuset_has(const struct tlat_cpuset *cpus, int cpu);

/**
 * cpuset_to_list - a set in the kernel's list format, "0-3,6"
 * @cpus: the set
 * @buf: where the list is written, NUL-terminated
 * @len: @buf's size
 *
 * Returns 0, or -ENOSPC if @buf is too short.
 */
int cpuset_to_list(const struct tlat_cpuset *cpus, char *buf, size_t len);

#endif
