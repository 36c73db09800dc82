/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - tlat's own measuring threads, for sources whose measuring
 * happens in user space: one per measured CPU, pinned, at the -P priority,
 * each looping over the source's activate() until the run stops.
 */
#ifndef TLAT_SOURCES_WORKLOAD_H
#define TLAT_SOURCES_WORKLOAD_H

#include <sys/types.h>

#include "core/params.h"

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
	const char *comm;	/* the threads' name before the CPU, as workload_create()'s */
};

extern const struct workload_ops fd_workload_ops;

/**
 * workload_create - a measuring thread per CPU of the run, waiting to start
 * @wl: set to the workload on success, to stop and free with workload_stop()
 *	and workload_free()
 * @cpus: the CPUs measured, a thread on each
 * @sched: the threads' scheduling attributes (-P)
 * @ops: what each thread does: set up, activate in a loop, exit
 * @ctx: @ops' context
 * @comm: each thread is named @comm followed by its CPU ("tlat/", or rtla's
 *	"timerlatu/" for the threads that read timerlat_fd as rtla's do)
 * @err: the error line, on failure
 *
 * The threads are created and set up, then wait for workload_start().
 *
 * Returns 0, -ENOMEM, or -errno with @err set for a thread that could not
 * start or set itself up. On failure nothing is left: the threads created
 * are stopped and the workload freed.
 */
int workload_create(struct workload **wl, const struct tlat_cpuset *cpus,
		    const struct tlat_sched *sched, const struct workload_ops *ops, void *ctx,
		    const char *comm, char *err);

/**
 * workload_tid - the thread id of a CPU's measuring thread
 * @wl: the workload
 * @cpu: the CPU
 *
 * Returns the tid, or 0 if the CPU has no thread.
 */
pid_t workload_tid(const struct workload *wl, int cpu);

/**
 * workload_start - let every thread start activating, as together as it can
 * @wl: the workload
 */
void workload_start(struct workload *wl);

/**
 * workload_stop - interrupt every thread's wait and join them
 * @wl: the workload; a second call does nothing
 */
void workload_stop(struct workload *wl);

/**
 * workload_free - free a stopped workload
 * @wl: from workload_create(), stopped with workload_stop(), or NULL
 */
void workload_free(struct workload *wl);

#endif
