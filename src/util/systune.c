// SPDX-License-Identifier: GPL-2.0
/*
 * systune.c - house-keeping CPUs for tlat itself, and the cpu_dma_latency
 * PM QoS request, which the kernel drops when the fd closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "core/cpuset.h"
#include "core/err.h"
#include "util/systune.h"

/*
 * With -H, tlat runs there. Without it but with -c, tlat moves off the
 * measured CPUs if any other CPU is left, as rtla's auto house-keeping does.
 */
int systune_housekeeping(const struct tlat_cpuset *measured,
			 const struct tlat_cpuset *housekeeping, char *err)
{
	struct tlat_cpuset hk;

	if (housekeeping) {
		if (sched_setaffinity(0, housekeeping->size, housekeeping->set)) {
			tlat_err(err, "cannot move tlat to the house-keeping CPUs: %s",
				 strerror(errno));
			return -errno;
		}
		return 0;
	}
	if (cpuset_count(measured) == measured->nr_cpus)
		return 0;
	if (cpuset_init(&hk, measured->nr_cpus))
		return -ENOMEM;
	for (int cpu = 0; cpu < measured->nr_cpus; cpu++)
		if (!cpuset_has(measured, cpu))
			CPU_SET_S(cpu, hk.size, hk.set);
	/* best effort: if all of them are offline, tlat stays where it is */
	sched_setaffinity(0, hk.size, hk.set);
	cpuset_free(&hk);
	return 0;
}

int systune_dma_latency(int latency_us, char *err)
{
	int32_t latency = latency_us;
	int fd;

	if (latency_us < 0)
		return -1;
	fd = open("/dev/cpu_dma_latency", O_RDWR);
	if (fd < 0 || write(fd, &latency, sizeof(latency)) != sizeof(latency)) {
		int ret = -errno;

		tlat_err(err, "cannot set /dev/cpu_dma_latency: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	return fd;
}
