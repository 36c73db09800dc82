// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - the measuring threads: created together, set up (pinned,
 * scheduling policy, the source's per-thread init) before anything is
 * traced, released together once tracing is armed, and stopped by a signal
 * that interrupts whatever wait the source's activate() is in.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/cpuset.h"
#include "core/err.h"
#include "sources/workload.h"

struct workload_thread {
	struct workload *wl;
	pthread_t thread;
	bool created;
	int cpu;
	pid_t tid;
	int err;		/* -errno from setting the thread up */
	const char *what;	/* which setup step failed */
	void *data;		/* the source's per-thread state */
};

struct workload {
	struct workload_thread *threads;	/* indexed by CPU */
	int nr_cpus;
	struct tlat_sched sched;
	const struct workload_ops *ops;
	void *ctx;
	const char *comm;		/* the threads' name, before the CPU */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int nr_ready;			/* threads set up: main may read tids */
	bool go;			/* main has armed tracing, or gave up */
	atomic_bool stop;
};

/* glibc has no wrapper for sched_setattr, the only way to SCHED_DEADLINE */
struct tlat_sched_attr {
	u32 size;
	u32 sched_policy;
	u64 sched_flags;
	int32_t sched_nice;
	u32 sched_priority;
	u64 sched_runtime;
	u64 sched_deadline;
	u64 sched_period;
};

static int apply_sched(const struct tlat_sched *s)
{
	struct tlat_sched_attr attr = { .size = sizeof(attr) };

	if (!s->set) {
		attr.sched_policy = SCHED_FIFO;
		attr.sched_priority = TLAT_DEFAULT_PRIO;
	} else if (s->policy == SCHED_OTHER) {
		attr.sched_policy = SCHED_OTHER;
		attr.sched_nice = s->prio;
	} else if (s->policy == SCHED_RR || s->policy == SCHED_FIFO) {
		attr.sched_policy = s->policy;
		attr.sched_priority = s->prio;
	} else {
		attr.sched_policy = s->policy;
		attr.sched_runtime = s->runtime_ns;
		attr.sched_deadline = s->period_ns;
		attr.sched_period = s->period_ns;
	}
	if (syscall(SYS_sched_setattr, 0, &attr, 0))
		return -errno;
	/* a non-RT thread's default 50 us timer slack would delay every expiry */
	if (attr.sched_policy == SCHED_OTHER)
		prctl(PR_SET_TIMERSLACK, 1UL);
	return 0;
}

static void *measure_thread(void *arg)
{
	struct workload_thread *t = arg;
	struct workload *wl = t->wl;
	char name[16];
	int ret;

	t->tid = gettid();
	snprintf(name, sizeof(name), "%s%d", wl->comm, t->cpu);
	pthread_setname_np(pthread_self(), name);
	t->err = apply_sched(&wl->sched);
	if (t->err) {
		t->what = "set the scheduling policy of";
	} else {
		t->err = wl->ops->thread_init(wl->ctx, t->cpu, &t->data);
		if (t->err)
			t->what = "set up";
	}
	pthread_mutex_lock(&wl->lock);
	wl->nr_ready++;
	pthread_cond_broadcast(&wl->cond);
	while (!wl->go)
		pthread_cond_wait(&wl->cond, &wl->lock);
	pthread_mutex_unlock(&wl->lock);
	if (t->err)
		return NULL;

	while (!atomic_load_explicit(&wl->stop, memory_order_relaxed)) {
		ret = wl->ops->activate(wl->ctx, t->cpu, t->data);
		if (ret && ret != -EINTR)
			break;
	}
	wl->ops->thread_exit(wl->ctx, t->cpu, t->data);
	return NULL;
}

static void wake_for_stop(int sig)
{
	(void)sig;	/* only here to interrupt the wait of activate() */
}

/* the thread of one CPU, pinned there; 0 or -errno with err set */
static int workload_thread_start(struct workload *wl, int cpu, char *err)
{
	struct workload_thread *t = &wl->threads[cpu];
	size_t size = CPU_ALLOC_SIZE(wl->nr_cpus);
	cpu_set_t *one = CPU_ALLOC(wl->nr_cpus);
	pthread_attr_t attr;
	int ret = one ? 0 : -ENOMEM;

	t->wl = wl;
	t->cpu = cpu;
	pthread_attr_init(&attr);
	if (!ret) {
		CPU_ZERO_S(size, one);
		CPU_SET_S(cpu, size, one);
		ret = -pthread_attr_setaffinity_np(&attr, size, one);
	}
	if (!ret)
		ret = -pthread_create(&t->thread, &attr, measure_thread, t);
	pthread_attr_destroy(&attr);
	CPU_FREE(one);
	if (ret) {
		tlat_err(err, "cannot start the measuring thread on CPU %d: %s",
			 cpu, strerror(-ret));
		return ret;
	}
	t->created = true;
	return 0;
}

/* once every thread set itself up: the first one's failure, with err set */
static int workload_wait_ready(struct workload *wl, int created, char *err)
{
	pthread_mutex_lock(&wl->lock);
	while (wl->nr_ready < created)
		pthread_cond_wait(&wl->cond, &wl->lock);
	pthread_mutex_unlock(&wl->lock);
	for (int cpu = 0; cpu < wl->nr_cpus; cpu++) {
		struct workload_thread *t = &wl->threads[cpu];

		if (t->created && t->err) {
			tlat_err(err, "cannot %s the measuring thread on CPU %d: %s",
				 t->what, cpu, strerror(-t->err));
			return t->err;
		}
	}
	return 0;
}

int workload_create(struct workload **out, const struct tlat_cpuset *cpus,
		    const struct tlat_sched *sched, const struct workload_ops *ops, void *ctx,
		    const char *comm, char *err)
{
	struct sigaction sa = { .sa_handler = wake_for_stop };
	struct workload *wl;
	int created = 0;
	int ret = 0;

	*out = NULL;
	wl = calloc(1, sizeof(*wl));
	if (!wl)
		return -ENOMEM;
	wl->nr_cpus = cpus->nr_cpus;
	wl->threads = calloc(wl->nr_cpus, sizeof(*wl->threads));
	if (!wl->threads) {
		free(wl);
		return -ENOMEM;
	}
	wl->sched = *sched;
	wl->ops = ops;
	wl->ctx = ctx;
	wl->comm = comm;
	pthread_mutex_init(&wl->lock, NULL);
	pthread_cond_init(&wl->cond, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	for (int cpu = 0; cpu < wl->nr_cpus && !ret; cpu++) {
		if (!cpuset_has(cpus, cpu))
			continue;
		ret = workload_thread_start(wl, cpu, err);
		created += !ret;
	}
	if (!ret)
		ret = workload_wait_ready(wl, created, err);
	if (ret) {
		workload_stop(wl);
		workload_free(wl);
		return ret;
	}
	*out = wl;
	return 0;
}

pid_t workload_tid(const struct workload *wl, int cpu)
{
	if (cpu < 0 || cpu >= wl->nr_cpus || !wl->threads[cpu].created)
		return 0;
	return wl->threads[cpu].tid;
}

static void open_gate(struct workload *wl)
{
	pthread_mutex_lock(&wl->lock);
	wl->go = true;
	pthread_cond_broadcast(&wl->cond);
	pthread_mutex_unlock(&wl->lock);
}

void workload_start(struct workload *wl)
{
	open_gate(wl);
}

/* safe to call before or after workload_start(), and twice */
void workload_stop(struct workload *wl)
{
	if (atomic_exchange(&wl->stop, true))
		return;
	open_gate(wl);
	for (int cpu = 0; cpu < wl->nr_cpus; cpu++)
		if (wl->threads[cpu].created)
			pthread_kill(wl->threads[cpu].thread, SIGUSR1);
	for (int cpu = 0; cpu < wl->nr_cpus; cpu++)
		if (wl->threads[cpu].created)
			pthread_join(wl->threads[cpu].thread, NULL);
}

void workload_free(struct workload *wl)
{
	if (!wl)
		return;
	pthread_mutex_destroy(&wl->lock);
	pthread_cond_destroy(&wl->cond);
	free(wl->threads);
	free(wl);
}
