/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlat - timer latency tracer module: declarations shared by its parts.
 *
 * tlat_main.c   configuration (module parameters), thread life cycle,
 *               CPU hotplug, module init and exit
 * tlat_timer.c  the measurement: per-CPU hard-IRQ hrtimer, period grid,
 *               sample recording, the kernel-thread workload
 * tlat_ufd.c    /dev/tlat, the timerlat_fd-like user-thread workload
 * tlat_agg.c    per-CPU aggregates of the samples, and /dev/tlat_agg
 * tlat_trace.c  the trace events (tlat_trace.h)
 *
 * Locking
 * -------
 * The lock order is: module parameter lock -> cpu_hotplug_lock -> tlat_lock.
 *
 *  - Parameter writes through sysfs run with the module's parameter lock held
 *    (kernel_param_lock()); the setters then take cpus_read_lock() and then
 *    tlat_lock.
 *  - CPU hotplug callbacks run with cpu_hotplug_lock held for writing by the
 *    hotplug control task; they take tlat_lock only.
 *  - tlat_lock protects the configuration that decides which threads exist
 *    (tlat_cfg.enabled, .kthreads, .prio, .cpus), tlat_state and the
 *    ownership fields of struct tlat_cpu (kthread, ufd_task).
 *  - The other configuration fields are read locklessly with READ_ONCE() by
 *    the measuring code, every period, so their writes apply at once.
 *
 * Per-CPU measurement state
 * -------------------------
 * Exactly one task measures on a CPU at a time: its kernel thread, or the
 * user task that opened /dev/tlat there. Only that task arms the CPU's
 * hrtimer, and it cancels the timer before it gives the CPU up. The timer
 * callback wakes tlat_cpu.wake_task, so wake_task must stay valid until the
 * timer can no longer fire: it is set by the measuring task before its first
 * arming and cleared only after hrtimer_cancel(). This is the reason it is a
 * separate field from the ownership pointers, which tlat_lock holders clear.
 */
#ifndef _TLAT_INTERNAL_H
#define _TLAT_INTERNAL_H

#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/types.h>

/* Context of a sample, the "context" field of tlat:tlat_sample. */
enum tlat_ctx {
	TLAT_CTX_IRQ = 0,	/* hrtimer callback (hard IRQ) */
	TLAT_CTX_THREAD = 1,	/* measuring thread woken by the callback */
	TLAT_CTX_USER_RET = 2,	/* user thread back in read() after its work */
};

#define TLAT_PERIOD_MIN_US	100
#define TLAT_PERIOD_MAX_US	1000000
#define TLAT_PERIOD_DEFAULT_US	1000
#define TLAT_ALIGN_OFF		-1
#define TLAT_ALIGN_MAX_US	1000000000
#define TLAT_PRIO_DEFAULT	95
#define TLAT_STACK_DEPTH	64	/* entries saved in the hrtimer callback */

/* Life-cycle state of the module, protected by tlat_lock. */
enum tlat_state {
	TLAT_LOADING,	/* parameters are being parsed, nothing runs yet */
	TLAT_LIVE,	/* threads follow the configuration */
	TLAT_DYING,	/* module exit: no thread may start any more */
};

/*
 * Configuration, exposed as module parameters (see tlat_main.c). Times are
 * in microseconds as in the kernel's osnoise/ files; 0 disables a threshold.
 */
struct tlat_config {
	unsigned int period_us;		/* timer period; applies at the next arming */
	unsigned int print_stack_us;	/* emit the IRQ-time stack at >= this latency */
	unsigned int stop_irq_us;	/* tlat_threshold at IRQ latency >= this */
	unsigned int stop_thread_us;	/* same, thread and user-ret latency */
	unsigned int prio;		/* SCHED_FIFO priority of the kernel threads */
	/*
	 * TLAT_ALIGN_OFF: each thread's grid starts when the thread does;
	 * else the first expiry of the CPU of rank k is a common time plus
	 * k * align_us (see tlat_measure_begin()).
	 */
	int align_us;
	bool enabled;			/* measurement on */
	bool trace_samples;		/* emit tlat_sample and tlat_stack */
	bool kthreads;			/* kernel threads; N leaves CPUs to /dev/tlat */
	struct cpumask cpus;		/* CPUs to measure on */
};

/* Per-CPU measurement state. */
struct tlat_cpu {
	struct hrtimer timer;		/* HRTIMER_MODE_ABS_PINNED_HARD, CLOCK_MONOTONIC */
	unsigned int cpu;		/* the CPU this state belongs to */
	/* Set by the measuring task; see "Per-CPU measurement state" above. */
	struct task_struct *wake_task;
	/* Owners, tlat_lock: at most one of the two is set. */
	struct task_struct *kthread;	/* kernel thread (a reference is held) */
	struct task_struct *ufd_task;	/* opener of /dev/tlat (a reference is held) */
	/* Measured CPUs before this one, for align_us; set with an owner. */
	unsigned int rank;
	/* Written by the measuring task, read by the callback, and back. */
	u64 abs_period;			/* ns, expiry of the current activation */
	u32 seqnum;			/* activations since the thread started */
	bool fired;			/* callback ran for the current arming */
	/* Stack saved by the callback when print_stack_us is set. */
	bool stack_pending;		/* saved and not emitted yet */
	u64 stack_thresh_ns;		/* print_stack_us when it was saved */
	unsigned int nr_ips;
	unsigned long ips[TLAT_STACK_DEPTH];
};

extern struct tlat_config tlat_cfg;
extern struct mutex tlat_lock;
extern enum tlat_state tlat_state;

struct tlat_cpu *tlat_cpu_state(unsigned int cpu);
unsigned int tlat_cpu_rank(unsigned int cpu);
void tlat_ufd_release_cpu(struct tlat_cpu *tc);

/* tlat_timer.c */
void tlat_timer_init(struct tlat_cpu *tc);
void tlat_align_reset(void);
void tlat_measure_begin(struct tlat_cpu *tc);
void tlat_measure_end(struct tlat_cpu *tc);
bool tlat_wait_next_period(struct tlat_cpu *tc, bool user, u64 *lat);
void tlat_record(struct tlat_cpu *tc, enum tlat_ctx ctx, u64 lat);
int tlat_kthread_fn(void *data);

/* tlat_agg.c */
bool tlat_agg_add(unsigned int cpu, enum tlat_ctx ctx, u32 seqnum, u64 lat,
		  u64 stop_ns);
int tlat_agg_prepare(unsigned int cpu);
int tlat_agg_register(void);
void tlat_agg_unregister(void);

/* tlat_ufd.c */
int tlat_ufd_register(void);
void tlat_ufd_unregister(void);

#endif /* _TLAT_INTERNAL_H */
