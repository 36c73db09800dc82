/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysinfo.h - what a result needs to say about the machine it came from:
 * uname, the kernel command line, the CPU model, the number of CPUs and
 * whether the kernel is PREEMPT_RT. For the JSON documents; CI compares
 * results across kernels and boards by these.
 */
#ifndef TLAT_UTIL_SYSINFO_H
#define TLAT_UTIL_SYSINFO_H

#include <stdbool.h>
#include <sys/utsname.h>

#define SYSINFO_CMDLINE_LEN	4096	/* the largest COMMAND_LINE_SIZE of any arch */
#define SYSINFO_MODEL_LEN	256

struct tlat_sysinfo {
	struct utsname uts;
	char cmdline[SYSINFO_CMDLINE_LEN];	/* "" if unreadable */
	char cpu_model[SYSINFO_MODEL_LEN];	/* "" where /proc/cpuinfo has no model name */
	int nr_cpus;				/* configured */
	int nr_online;
	bool realtime;				/* /sys/kernel/realtime reads 1 */
};

/**
 * sysinfo_read - describe this machine, for the JSON document
 * @sys: filled in; what cannot be read is left empty
 *
 * Returns 0, or -errno if uname() fails.
 */
int sysinfo_read(struct tlat_sysinfo *sys);
/**
 * sysinfo_cpu_node - the NUMA node of a CPU, as sysfs links it
 * @cpu: the CPU
 *
 * Returns the node, 0 on machines without NUMA.
 */
int sysinfo_cpu_node(int cpu);

#endif
