// SPDX-License-Identifier: GPL-2.0
/*
 * tlat - timer latency tracer: a timerlat-like tracer as a loadable module.
 *
 * It measures the IRQ and thread wake-up latency of a periodic hrtimer on
 * every selected CPU, like the kernel's timerlat tracer, counts the samples
 * in per-CPU aggregates (/dev/tlat_agg) and, unless trace_samples is N,
 * writes them as trace events (events/tlat/), so that it works on kernels
 * built without CONFIG_TIMERLAT_TRACER and next to the tracer where it exists.
 *
 * This file holds the configuration (module parameters, also writable at run
 * time in /sys/module/tlat/parameters/), the life cycle of the per-CPU kernel
 * threads, CPU hotplug, and module init and exit. The measurement itself is
 * in tlat_timer.c, the user-thread device in tlat_ufd.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/sched/task.h>
#include <uapi/linux/sched/types.h>

#include "tlat_internal.h"

struct tlat_config tlat_cfg = {
	.period_us = TLAT_PERIOD_DEFAULT_US,
	.prio = TLAT_PRIO_DEFAULT,
	.align_us = TLAT_ALIGN_OFF,
	.enabled = true,
	.kthreads = true,
	.trace_samples = true,
};

/* See "Locking" in tlat_internal.h. */
DEFINE_MUTEX(tlat_lock);
enum tlat_state tlat_state = TLAT_LOADING;

static DEFINE_PER_CPU(struct tlat_cpu, tlat_pcpu);
static enum cpuhp_state tlat_hp_state;
static bool tlat_cpus_given;	/* "cpus" was set before init, tlat_lock */

struct tlat_cpu *tlat_cpu_state(unsigned int cpu)
{
	return per_cpu_ptr(&tlat_pcpu, cpu);
}

/**
 * tlat_cpu_rank - position of a CPU among the measured CPUs
 * @cpu:	a CPU of tlat_cfg.cpus
 *
 * Return: how many measured CPUs have a lower number; the offset of its
 * first expiry with align_us.
 */
unsigned int tlat_cpu_rank(unsigned int cpu)
{
	unsigned int c, rank = 0;

	lockdep_assert_held(&tlat_lock);
	for_each_cpu(c, &tlat_cfg.cpus) {
		if (c >= cpu)
			break;
		rank++;
	}
	return rank;
}

/* Take the locks a change of the thread set needs, in the documented order. */
static void tlat_config_lock(void)
{
	cpus_read_lock();
	mutex_lock(&tlat_lock);
}

static void tlat_config_unlock(void)
{
	mutex_unlock(&tlat_lock);
	cpus_read_unlock();
}

static bool tlat_wants_kthread(unsigned int cpu)
{
	lockdep_assert_held(&tlat_lock);
	return tlat_state == TLAT_LIVE && tlat_cfg.enabled &&
	       tlat_cfg.kthreads && cpumask_test_cpu(cpu, &tlat_cfg.cpus);
}

static int tlat_start_kthread(unsigned int cpu)
{
	struct tlat_cpu *tc = tlat_cpu_state(cpu);
	/* sched_setscheduler*() are not exported to modules; this is. */
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = SCHED_FIFO,
		.sched_priority = tlat_cfg.prio,
	};
	struct task_struct *p;
	int ret;

	lockdep_assert_held(&tlat_lock);
	if (tc->kthread || tc->ufd_task)
		return 0;
	ret = tlat_agg_prepare(cpu);
	if (ret)
		return ret;

	/* Bound to @cpu, with PF_NO_SETAFFINITY. */
	p = kthread_create_on_cpu(tlat_kthread_fn, tc, cpu, "tlat/%u");
	if (IS_ERR(p))
		return PTR_ERR(p);
	ret = sched_setattr_nocheck(p, &attr);
	if (ret) {
		kthread_stop(p);	/* never ran: tlat_kthread_fn is skipped */
		return ret;
	}
	get_task_struct(p);
	tc->rank = tlat_cpu_rank(cpu);
	tc->kthread = p;
	wake_up_process(p);
	return 0;
}

static void tlat_stop_kthread(unsigned int cpu)
{
	struct tlat_cpu *tc = tlat_cpu_state(cpu);
	struct task_struct *p = tc->kthread;

	lockdep_assert_held(&tlat_lock);
	if (!p)
		return;
	/* The thread cancels its timer and clears wake_task on its way out. */
	kthread_stop(p);
	put_task_struct(p);
	tc->kthread = NULL;
}

/*
 * Restart the kernel threads so that they match the configuration: one per
 * online CPU in tlat_cfg.cpus that no /dev/tlat user holds, if enabled.
 * Called under tlat_config_lock(), which keeps the online mask stable
 * (lockdep_assert_cpus_held() is not exported to modules).
 */
static int tlat_sync_kthreads(void)
{
	unsigned int cpu;
	int ret = 0;
	int err;

	lockdep_assert_held(&tlat_lock);

	for_each_possible_cpu(cpu)
		tlat_stop_kthread(cpu);
	for_each_online_cpu(cpu) {
		if (!tlat_wants_kthread(cpu))
			continue;
		err = tlat_start_kthread(cpu);
		if (err) {
			pr_warn("cpu%u: cannot start the measuring thread: %d\n",
				cpu, err);
			ret = ret ?: err;
		}
	}
	return ret;
}

/**
 * tlat_ufd_release_cpu - give a CPU back after its /dev/tlat user closed
 * @tc:		state of that CPU; the user has already ended its measurement
 *
 * The CPU then gets its kernel thread if the configuration asks for one.
 */
void tlat_ufd_release_cpu(struct tlat_cpu *tc)
{
	int ret = 0;

	tlat_config_lock();
	tc->ufd_task = NULL;
	if (cpu_online(tc->cpu) && tlat_wants_kthread(tc->cpu))
		ret = tlat_start_kthread(tc->cpu);
	tlat_config_unlock();
	if (ret)
		pr_warn("cpu%u: cannot start the measuring thread: %d\n",
			tc->cpu, ret);
}

/*
 * CPU hotplug. These run in the hotplug thread of @cpu while it is still
 * online; cpuhp_setup_state() also runs tlat_cpu_online() for every CPU that
 * is online at load time.
 */
static int tlat_cpu_online(unsigned int cpu)
{
	int ret = 0;

	mutex_lock(&tlat_lock);
	if (tlat_wants_kthread(cpu))
		ret = tlat_start_kthread(cpu);
	mutex_unlock(&tlat_lock);
	/* Do not fail the CPU's bring-up because of the tracer. */
	if (ret)
		pr_warn("cpu%u: cannot start the measuring thread: %d\n",
			cpu, ret);
	return 0;
}

static int tlat_cpu_offline(unsigned int cpu)
{
	mutex_lock(&tlat_lock);
	tlat_stop_kthread(cpu);
	mutex_unlock(&tlat_lock);
	return 0;
}

/*
 * Module parameters. Those that decide which threads run (enabled, kthreads,
 * cpus, prio) restart the kernel threads when written at run time; the others
 * are read by the measuring code at every period.
 */
static int tlat_param_set_restart(const char *val,
				  const struct kernel_param *kp,
				  int (*set)(const char *val,
					     const struct kernel_param *kp))
{
	int ret;

	tlat_config_lock();
	if (tlat_state == TLAT_DYING)
		ret = -ENODEV;
	else
		ret = set(val, kp);
	if (!ret && tlat_state == TLAT_LIVE)
		ret = tlat_sync_kthreads();
	tlat_config_unlock();
	return ret;
}

static int tlat_set_bool_restart(const char *val, const struct kernel_param *kp)
{
	return tlat_param_set_restart(val, kp, param_set_bool);
}

static const struct kernel_param_ops tlat_bool_restart_ops = {
	.set = tlat_set_bool_restart,
	.get = param_get_bool,
};

static int tlat_set_prio_value(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, MAX_RT_PRIO - 1);
}

static int tlat_set_prio(const char *val, const struct kernel_param *kp)
{
	return tlat_param_set_restart(val, kp, tlat_set_prio_value);
}

static const struct kernel_param_ops tlat_prio_ops = {
	.set = tlat_set_prio,
	.get = param_get_uint,
};

static int tlat_set_cpus_value(const char *val, const struct kernel_param *kp)
{
	cpumask_var_t mask;
	int ret;

	if (!alloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	ret = cpulist_parse(val, mask);
	if (!ret && !cpumask_and(mask, mask, cpu_possible_mask))
		ret = -EINVAL;
	if (!ret) {
		cpumask_copy(&tlat_cfg.cpus, mask);
		tlat_cpus_given = true;
	}
	free_cpumask_var(mask);
	return ret;
}

static int tlat_set_cpus(const char *val, const struct kernel_param *kp)
{
	return tlat_param_set_restart(val, kp, tlat_set_cpus_value);
}

static int tlat_get_cpus(char *buf, const struct kernel_param *kp)
{
	int len;

	mutex_lock(&tlat_lock);
	len = scnprintf(buf, PAGE_SIZE, "%*pbl\n",
			cpumask_pr_args(&tlat_cfg.cpus));
	mutex_unlock(&tlat_lock);
	return len;
}

static const struct kernel_param_ops tlat_cpus_ops = {
	.set = tlat_set_cpus,
	.get = tlat_get_cpus,
};

static int tlat_set_period(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, TLAT_PERIOD_MIN_US,
				     TLAT_PERIOD_MAX_US);
}

static const struct kernel_param_ops tlat_period_ops = {
	.set = tlat_set_period,
	.get = param_get_uint,
};

/* A new alignment starts from a new common time, taken by the next thread. */
static int tlat_set_align(const char *val, const struct kernel_param *kp)
{
	int v, ret;

	ret = kstrtoint(val, 0, &v);
	if (ret)
		return ret;
	if (v < TLAT_ALIGN_OFF || v > TLAT_ALIGN_MAX_US)
		return -EINVAL;
	WRITE_ONCE(tlat_cfg.align_us, v);
	tlat_align_reset();
	return 0;
}

static const struct kernel_param_ops tlat_align_ops = {
	.set = tlat_set_align,
	.get = param_get_int,
};

module_param_cb(enabled, &tlat_bool_restart_ops, &tlat_cfg.enabled, 0644);
MODULE_PARM_DESC(enabled, "measure (Y) or stop all measuring threads (N)");
module_param_cb(kthreads, &tlat_bool_restart_ops, &tlat_cfg.kthreads, 0644);
MODULE_PARM_DESC(kthreads,
		 "per-CPU kernel threads (Y) or user threads through /dev/tlat (N)");
module_param_cb(cpus, &tlat_cpus_ops, NULL, 0644);
MODULE_PARM_DESC(cpus, "CPU list to measure on (default: all)");
module_param_cb(prio, &tlat_prio_ops, &tlat_cfg.prio, 0644);
MODULE_PARM_DESC(prio, "SCHED_FIFO priority of the kernel threads (1-99)");
module_param_cb(period_us, &tlat_period_ops, &tlat_cfg.period_us, 0644);
MODULE_PARM_DESC(period_us, "timer period in us (100-1000000)");
module_param_cb(align_us, &tlat_align_ops, &tlat_cfg.align_us, 0644);
MODULE_PARM_DESC(align_us,
		 "-1 (default), or the offset in us between the first expiries of consecutive CPUs");
module_param_named(print_stack_us, tlat_cfg.print_stack_us, uint, 0644);
MODULE_PARM_DESC(print_stack_us,
		 "emit tlat_stack when a latency reaches this many us (0: off)");
module_param_named(stop_irq_us, tlat_cfg.stop_irq_us, uint, 0644);
MODULE_PARM_DESC(stop_irq_us,
		 "emit tlat_threshold at IRQ latency >= us (0: off)");
module_param_named(stop_thread_us, tlat_cfg.stop_thread_us, uint, 0644);
MODULE_PARM_DESC(stop_thread_us,
		 "emit tlat_threshold at thread/user-ret latency >= us (0: off)");
module_param_named(trace_samples, tlat_cfg.trace_samples, bool, 0644);
MODULE_PARM_DESC(trace_samples,
		 "emit tlat_sample and tlat_stack (Y), or only count in /dev/tlat_agg (N)");

static int __init tlat_init(void)
{
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu) {
		struct tlat_cpu *tc = tlat_cpu_state(cpu);

		tc->cpu = cpu;
		tlat_timer_init(tc);
	}

	ret = tlat_agg_register();
	if (ret)
		return ret;
	ret = tlat_ufd_register();
	if (ret)
		goto out_unregister_agg;

	tlat_config_lock();
	if (!tlat_cpus_given)
		cpumask_copy(&tlat_cfg.cpus, cpu_possible_mask);
	tlat_state = TLAT_LIVE;
	tlat_config_unlock();

	/* Starts the threads now, and on every CPU that comes online later. */
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "tlat:online",
				tlat_cpu_online, tlat_cpu_offline);
	if (ret < 0)
		goto out_unregister_ufd;
	tlat_hp_state = ret;

	pr_info("loaded: period %u us, prio %u, cpus %*pbl, %s\n",
		tlat_cfg.period_us, tlat_cfg.prio,
		cpumask_pr_args(&tlat_cfg.cpus),
		tlat_cfg.kthreads ? "kernel threads" : "user threads");
	return 0;

out_unregister_ufd:
	/* cpuhp_setup_state() has stopped the threads it started. */
	tlat_config_lock();
	tlat_state = TLAT_DYING;
	tlat_config_unlock();
	tlat_ufd_unregister();
out_unregister_agg:
	tlat_agg_unregister();
	return ret;
}

static void __exit tlat_exit(void)
{
	unsigned int cpu;

	/* /dev/tlat cannot be open here: each open file holds the module. */
	tlat_config_lock();
	tlat_state = TLAT_DYING;
	for_each_possible_cpu(cpu)
		tlat_stop_kthread(cpu);
	tlat_config_unlock();

	/* Nothing left to stop, and TLAT_DYING keeps new threads out. */
	cpuhp_remove_state_nocalls(tlat_hp_state);
	tlat_ufd_unregister();
	tlat_agg_unregister();

	/* Every owner cancelled its timer; a live one here is a bug. */
	for_each_possible_cpu(cpu)
		WARN_ON_ONCE(hrtimer_cancel(&tlat_cpu_state(cpu)->timer));
	pr_info("unloaded\n");
}

module_init(tlat_init);
module_exit(tlat_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The tlat developers");
MODULE_DESCRIPTION("Timer latency tracer (timerlat-like) with trace events");
MODULE_VERSION("0.1.0");
