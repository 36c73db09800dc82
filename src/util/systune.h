/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systune.h - the system tuning rtla offers around a measurement: where tlat
 * itself runs (-H) and /dev/cpu_dma_latency (--dma-latency). Both end with
 * the process, so they restore themselves even on SIGKILL.
 */
#ifndef TLAT_UTIL_SYSTUNE_H
#define TLAT_UTIL_SYSTUNE_H

#include "core/cpuset.h"

/**
 * systune_housekeeping - move tlat to its house-keeping CPUs
 * @measured: the measured CPUs
 * @housekeeping: -H's CPUs; NULL: tlat moves off the measured CPUs if any
 *	other is left, as rtla's auto house-keeping does
 * @err: the error line, on failure
 *
 * Returns 0, or -errno with @err set if -H's CPUs cannot be used.
 */
int systune_housekeeping(const struct tlat_cpuset *measured,
			 const struct tlat_cpuset *housekeeping, char *err);
/**
 * systune_dma_latency - hold /dev/cpu_dma_latency at --dma-latency
 * @latency_us: the latency to hold; < 0: leave it alone
 * @err: the error line, on failure
 *
 * The kernel holds the latency while the fd is open: close it to let go.
 *
 * Returns the fd to keep open for the whole run, -1 if @latency_us < 0,
 * or -errno with @err set.
 */
int systune_dma_latency(int latency_us, char *err);

#endif
