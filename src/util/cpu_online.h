/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu_online.h - the measured CPUs against the online ones: rtla measures
 * online CPUs only. The default set skips offline CPUs; a CPU the user named
 * that is offline is an error, found before anything on the system changes.
 */
#ifndef TLAT_UTIL_CPU_ONLINE_H
#define TLAT_UTIL_CPU_ONLINE_H

#include <stdbool.h>

#include "core/cpuset.h"

/**
 * cpu_online_read - the online CPUs, from /sys/devices/system/cpu/online
 * @online: an initialised set, which receives them
 *
 * Returns 0, or -errno if the file cannot be read or parsed.
 */
int cpu_online_read(struct tlat_cpuset *online);

/**
 * cpu_online_restrict - measure online CPUs only
 * @cpus: the measured CPUs; offline ones are dropped unless @named
 * @online: the online CPUs
 * @named: the user named @cpus (-c): an offline one is an error
 * @err: the line if it fails, TLAT_ERR_LEN bytes
 *
 * Returns 0, or -ENODEV if a named CPU is offline or no CPU is left.
 */
int cpu_online_restrict(struct tlat_cpuset *cpus, const struct tlat_cpuset *online, bool named,
			char *err);

/**
 * cpu_online_apply - cpu_online_read(), then cpu_online_restrict()
 * @cpus: the measured CPUs
 * @named: the user named @cpus
 * @err: the line if it fails, TLAT_ERR_LEN bytes
 *
 * Where the online CPUs cannot be read, @cpus is left as it is: the kernel
 * has the last word. Returns 0, or -errno.
 */
int cpu_online_apply(struct tlat_cpuset *cpus, bool named, char *err);

#endif
