/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systune.h - the system tuning rtla offers around a measurement: where tlat
 * itself runs (-H) and /dev/cpu_dma_latency (--dma-latency). Both end with
 * the process, so they restore themselves even on SIGKILL.
 */
#ifndef TLAT_SYSTUNE_H
#define TLAT_SYSTUNE_H

#include "params.h"

int systune_housekeeping(const struct tlat_params *params, char *err);
/* returns the fd to keep open for the whole run, -1 if unused, or -errno */
int systune_dma_latency(const struct tlat_params *params, char *err);

#endif
