// SPDX-License-Identifier: GPL-2.0
/*
 * kernel_source.c - the life of a source that measures in the kernel (the
 * timerlat tracer, tlat.ko), apart from what each configures: one place
 * where the run lock, tlat's threads, tracing on and off and the knobs are
 * taken and given back in the right order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "sources/kernel_source.h"
#include "util/knobs.h"
#include "util/runlock.h"

/* every kernel source's struct tlat_source begins with its struct kernel_source */
static struct kernel_source *ks_of(struct tlat_source *src)
{
	return (struct kernel_source *)src;
}

static struct kernel_source *ks_alloc(struct tlat_source **out,
				      const struct kernel_source_kind *kind,
				      const struct tlat_params *params)
{
	struct kernel_source *ks = calloc(1, kind->size);

	*out = (struct tlat_source *)ks;
	if (!ks)
		return NULL;
	ks->kind = kind;
	ks->params = params;
	ks->lock_fd = -1;
	return ks;
}

static int ks_records_init(struct kernel_source *ks, struct tep_handle *tep, char *err)
{
	const struct kernel_source_events *e = &ks->kind->events;

	return timerlat_records_init(&ks->records, tep, e->system, e->sample, e->stack,
				     e->stack_count, e->stack_ips, err);
}

int kernel_source_decoder(struct tlat_source **out, const struct kernel_source_kind *kind,
			  const struct tlat_params *params, struct tep_handle *tep, char *err)
{
	struct kernel_source *ks = ks_alloc(out, kind, params);

	if (!ks)
		return -ENOMEM;
	return ks_records_init(ks, tep, err);
}

int kernel_source_open(struct tlat_source **out, const struct kernel_source_kind *kind,
		       const struct tlat_params *params, struct tlat_session *session, char *err)
{
	struct kernel_source *ks = ks_alloc(out, kind, params);
	enum tlat_threads threads = params->threads;

	if (!ks)
		return -ENOMEM;
	ks->session = session;
	/*
	 * The resource's settings are global: one tlat run at a time. Between
	 * a probe and taking the resource, another tlat may probe too: the
	 * lock closes that window.
	 */
	ks->lock_fd = runlock_acquire(kind->resource);
	if (ks->lock_fd < 0) {
		tlat_err(err, "%s is in use by another tlat", kind->owner);
		return ks->lock_fd;
	}
	ks->user_threads = threads == TLAT_THREADS_USER ||
			   (threads == TLAT_THREADS_AUTO &&
			    (!kind->user_by_default || kind->user_by_default()));
	return kind->check ? kind->check(ks, params, err) : 0;
}

int kernel_source_setup(struct kernel_source *ks, struct tep_handle *tep, const char *knobs_dir,
			char *err)
{
	int ret = ks_records_init(ks, tep, err);

	if (ret)
		return ret;
	ks->knobs = knobs_alloc(knobs_dir);
	return ks->knobs ? 0 : -ENOMEM;
}

int kernel_source_set_stops(struct kernel_source *ks, bool armed)
{
	const struct tlat_params *p = ks->params;

	return knobs_set_u64(ks->knobs, ks->kind->stop_irq_knob, armed ? p->stop.irq_us : 0) ?:
	       knobs_set_u64(ks->knobs, ks->kind->stop_thread_knob,
			     armed ? p->stop.thread_us : 0);
}

int kernel_source_workload(struct kernel_source *ks, char *err)
{
	if (ks->params->user_load)
		return 0;	/* the user's own tasks read it */
	return workload_create(&ks->wl, &ks->params->cpus, &ks->params->sched, &fd_workload_ops,
			       &ks->user_fd, ks->user_fd.comm, err);
}

int kernel_source_start(struct tlat_source *src, char *err)
{
	struct kernel_source *ks = ks_of(src);

	if (tracefs_trace_on(ks->session->inst)) {
		tlat_err(err, "cannot turn tracing on: %s", strerror(errno));
		return -EIO;
	}
	if (ks->wl) {
		workload_start(ks->wl);
		return 0;
	}
	return ks->kind->start ? ks->kind->start(src, err) : 0;
}

int kernel_source_arm_thresholds(struct tlat_source *src, u64 *from_ns)
{
	(void)from_ns;
	return kernel_source_set_stops(ks_of(src), true);
}

void kernel_source_record(struct tlat_source *src, struct tep_event *event,
			  struct tep_record *record, struct tlat_sink *sink)
{
	timerlat_records_forward(&ks_of(src)->records, event, record, sink);
}

int kernel_source_trace_instance(struct tlat_source *src, struct tracefs_instance *inst,
				 char *err)
{
	struct kernel_source *ks = ks_of(src);
	const struct kernel_source_events *ev = &ks->kind->events;

	if (ks->kind->tracer) {
		if (!tracefs_tracer_set(inst, TRACEFS_TRACER_CUSTOM, ks->kind->tracer))
			return 0;
		tlat_err(err, "cannot set the %s tracer in %s: %s", ks->kind->tracer,
			 tracefs_instance_get_name(inst), strerror(errno));
		return -EIO;
	}
	if (!tracefs_event_enable(inst, ev->system, ev->sample) &&
	    (!ks->params->stop.stack_us || !tracefs_event_enable(inst, ev->system, ev->stack)))
		return 0;
	tlat_err(err, "cannot enable %s's events in %s: %s", ev->system,
		 tracefs_instance_get_name(inst), strerror(errno));
	return -EIO;
}

/*
 * User threads must have closed timerlat_fd before the tracer goes: the
 * kernel SIGKILLs the user threads it still knows, and with them tlat.
 */
void kernel_source_stop(struct tlat_source *src)
{
	struct kernel_source *ks = ks_of(src);

	if (ks->wl)
		workload_stop(ks->wl);
	if (ks->kind->stop)
		ks->kind->stop(src);
	tracefs_trace_off(ks->session->inst);
}

bool kernel_source_user_data(const struct tlat_source *src)
{
	return ((const struct kernel_source *)src)->user_threads;
}

void kernel_source_close(struct tlat_source *src)
{
	struct kernel_source *ks = ks_of(src);

	if (!ks)
		return;
	if (ks->wl) {
		workload_stop(ks->wl);
		workload_free(ks->wl);
	}
	if (ks->kind->release)
		ks->kind->release(src);
	knobs_free(ks->knobs);
	runlock_release(ks->lock_fd);
	free(ks);
}
