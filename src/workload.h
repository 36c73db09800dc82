/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - tlat's own measuring threads, for sources whose measuring
 * happens in user space: one per measured CPU, pinned, at the -P priority,
 * each looping over the source's activate() until the run stops.
 */
#ifndef TLAT_WORKLOAD_H
#define TLAT_WORKLOAD_H

#include <sys/types.h>

#include "params.h"

struct workload;

/* what the source does on each measuring thread */
struct workload_ops {
	/* once, pinned and at its priority: 0, or -errno to fail the run */
	int (*thread_init)(void *ctx, int cpu, void **thread_data);
	/*
	 * One activation: wait for the next period and report it. -EINTR
	 * means workload_stop() interrupted the wait; any other error ends
	 * this thread.
	 */
	int (*activate)(void *ctx, int cpu, void *thread_data);
	void (*thread_exit)(void *ctx, int cpu, void *thread_data);
};

/*
 * fd_workload_ops: each activation is a read() of a timerlat_fd-like file,
 * "<prefix><cpu><suffix>" if per_cpu, else "<prefix>"; ctx is the struct.
 */
struct fd_workload {
	const char *prefix;
	const char *suffix;
	bool per_cpu;
};

extern const struct workload_ops fd_workload_ops;

/* threads are created and set up, then wait for workload_start() */
int workload_create(struct workload **wl, const struct tlat_params *params,
		    const struct workload_ops *ops, void *ctx, char *err);
pid_t workload_tid(const struct workload *wl, int cpu);
void workload_start(struct workload *wl);
void workload_stop(struct workload *wl);
void workload_free(struct workload *wl);

#endif
