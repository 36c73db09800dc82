// SPDX-License-Identifier: GPL-2.0
/*
 * tlat - /dev/tlat, the user-thread workload, like the kernel's
 * osnoise/per_cpu/cpuN/timerlat_fd (which 6.1 does not have).
 *
 * A task pinned to one CPU opens /dev/tlat and becomes the measuring thread
 * of that CPU; one opener per CPU, and only where no kernel thread measures
 * (load the module with kthreads=N, or write N to the parameter). Each read()
 * arms the timer for the next period and sleeps until the timer has fired,
 * then writes the thread sample and returns 0. The next read() first writes
 * the user-return sample: the time the task took to come back, measured
 * from the same expiry.
 *
 * read() returns 0 without a sample when a signal interrupts the wait, and
 * -EINVAL when the task is not on its CPU any more (its affinity changed or
 * the CPU went offline); -ENODEV once measurement is disabled.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "tlat_internal.h"

/* State of one open /dev/tlat, private to the opener. */
struct tlat_ufd {
	struct tlat_cpu *tc;		/* the CPU it measures */
	struct task_struct *task;	/* the opener, the only allowed reader */
	bool started;			/* first read() done */
	bool uret;			/* last read() wrote a thread sample */
};

static int tlat_ufd_open(struct inode *inode, struct file *file)
{
	struct tlat_ufd *uf;
	struct tlat_cpu *tc;
	unsigned int cpu;
	bool pinned;
	int ret = 0;

	cpu = get_cpu();
	pinned = current->nr_cpus_allowed == 1 &&
		 cpumask_test_cpu(cpu, current->cpus_ptr);
	put_cpu();
	if (!pinned)
		return -EPERM;

	uf = kzalloc(sizeof(*uf), GFP_KERNEL);
	if (!uf)
		return -ENOMEM;

	tc = tlat_cpu_state(cpu);
	mutex_lock(&tlat_lock);
	if (tlat_state != TLAT_LIVE || !tlat_cfg.enabled)
		ret = -ENODEV;
	else if (!cpumask_test_cpu(cpu, &tlat_cfg.cpus))
		ret = -EINVAL;
	else if (tc->kthread || tc->ufd_task)
		ret = -EBUSY;
	else
		ret = tlat_agg_prepare(cpu);
	if (!ret)
		tc->ufd_task = get_task_struct(current);
	if (!ret)
		tc->rank = tlat_cpu_rank(cpu);
	mutex_unlock(&tlat_lock);
	if (ret) {
		kfree(uf);
		return ret;
	}

	uf->tc = tc;
	uf->task = current;
	file->private_data = uf;
	return 0;
}

static ssize_t tlat_ufd_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct tlat_ufd *uf = file->private_data;
	struct tlat_cpu *tc = uf->tc;
	ssize_t ret = 0;
	u64 lat;

	if (current != uf->task)
		return -EPERM;
	if (!READ_ONCE(tlat_cfg.enabled))
		return -ENODEV;

	/* Check the CPU and record without being moved in between. */
	preempt_disable();
	if (smp_processor_id() != tc->cpu) {
		ret = -EINVAL;
	} else if (!uf->started) {
		tlat_measure_begin(tc);
		uf->started = true;
	} else if (uf->uret) {
		lat = ktime_get_ns() - tc->abs_period;
		tlat_record(tc, TLAT_CTX_USER_RET, lat);
	}
	uf->uret = false;
	preempt_enable();
	if (ret)
		return ret;

	if (!tlat_wait_next_period(tc, true, &lat))
		return 0;	/* a signal, as timerlat_fd: no sample */

	preempt_disable();
	if (smp_processor_id() != tc->cpu) {
		ret = -EINVAL;
	} else {
		tlat_record(tc, TLAT_CTX_THREAD, lat);
		uf->uret = true;
	}
	preempt_enable();
	return ret;
}

static int tlat_ufd_release(struct inode *inode, struct file *file)
{
	struct tlat_ufd *uf = file->private_data;

	tlat_measure_end(uf->tc);
	tlat_ufd_release_cpu(uf->tc);
	put_task_struct(uf->task);
	kfree(uf);
	return 0;
}

static const struct file_operations tlat_ufd_fops = {
	.owner = THIS_MODULE,
	.open = tlat_ufd_open,
	.read = tlat_ufd_read,
	.release = tlat_ufd_release,
	.llseek = noop_llseek,
};

static struct miscdevice tlat_ufd_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tlat",
	.fops = &tlat_ufd_fops,
	.mode = 0600,
};

int tlat_ufd_register(void)
{
	return misc_register(&tlat_ufd_dev);
}

void tlat_ufd_unregister(void)
{
	misc_deregister(&tlat_ufd_dev);
}
