/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - tlat's own measuring threads for sources without kernel
 * threads: one per measured CPU, pinned, at the -P priority, sleeping on an
 * absolute period grid and reporting each wakeup through a callback.
 */
#ifndef TLAT_WORKLOAD_H
#define TLAT_WORKLOAD_H

#include <sys/types.h>

#include "params.h"

struct workload;

/* called on the measuring thread right after each wakeup; must not block */
typedef void (*workload_wakeup_fn)(void *ctx, int cpu, u64 requested_ns, u64 now_ns);

/* threads are created and set up, then wait for workload_start() */
int workload_create(struct workload **wl, const struct tlat_params *params,
		    workload_wakeup_fn wakeup, void *ctx, char *err);
pid_t workload_tid(const struct workload *wl, int cpu);
void workload_start(struct workload *wl);
void workload_stop(struct workload *wl);
void workload_free(struct workload *wl);

#endif
