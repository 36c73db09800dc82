/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systune.h - the system tuning rtla offers around a measurement: where tlat
 * itself runs (-H) and /dev/cpu_dma_latency (--dma-latency). Both end with
 * the process, so they restore themselves even on SIGKILL.
 */
#ifndef TLAT_UTIL_SYSTUNE_H
#define TLAT_UTIL_SYSTUNE_H

#include "core/params.h"

/**
 * systune_housekeeping - move tlat to its house-keeping CPUs
 * @params: -H's CPUs; without -H but with -c, tlat moves off the measured
 *	CPUs if any other is left, as rtla's auto house-keeping does
 * @err: the error line, on failure
 *
 * Returns 0, or -errno with @err set if -H's CPUs cannot be used.
 */
int systune_housekeeping(const struct tlat_params *params, char *err);
/**
 * systune_dma_latency - hold /dev/cpu_dma_latency at --dma-latency
 * @params: the run's options
 * @err: the error line, on failure
 *
 * The kernel holds the latency while the fd is open: close it to let go.
 *
 * Returns the fd to keep open for the whole run, -1 if the option is not
 * set, or -errno with @err set.
 */
int systune_dma_latency(const struct tlat_params *params, char *err);

#endif
