// SPDX-License-Identifier: GPL-2.0
/*
 * module.c - the source backed by tlat.ko (kernel/), tlat's own
 * timerlat-like tracer: its kernel threads or, with user threads, tlat's
 * threads reading /dev/tlat measure, and tlat:tlat_sample carries each
 * sample. tlat loads the module if it is not loaded (mod_load.h), and
 * unloads it again at the end.
 *
 * Its kernel collector: where nothing needs every sample's event
 * (collect.h's events, and here --sample-log), tlat reads the per-CPU
 * aggregates the module keeps (mod_agg.h). They stop at a -i/-T sample and
 * say which: the run's hit. Without the auto-analysis tlat.ko writes no
 * event (trace_samples=N); with it, the samples' and the analysis's events
 * go to the instance in overwrite mode, which the hit's tlat_threshold
 * turns off, and are decoded only at a hit, for the analysis.
 * --collector auto takes it then.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/aa_adapter.h"
#include "core/cpuset.h"
#include "core/err.h"
#include "sources/collect.h"
#include "sources/kernel_source.h"
#include "sources/mod_agg.h"
#include "sources/mod_load.h"
#include "util/knobs.h"

#define MOD_PARAMS	"/sys/module/tlat/parameters"
#define MOD_DEVICE	"/dev/tlat"
#define MOD_DEFAULT_BUFFER_KB	2048

struct tlat_source {
	struct kernel_source ks;	/* first: kernel_source.c's part */
	bool loaded_by_us;
	struct mod_agg *agg;		/* the kernel collector; NULL: the trace one */
	const char *trace_why;		/* why the trace collector, for -D */
	char agg_why[TLAT_ERR_LEN];	/* why not the kernel one, when this tlat.ko cannot */
	bool deferred;			/* the analysis's events decoded only at a hit */
	bool counting;			/* the aggregates are the window's */
	u64 drained;			/* the samples the aggregates held at the last drain */
	u64 stops;			/* the aggregates' stops handed on as hits */
};
_Static_assert(offsetof(struct tlat_source, ks) == 0, "kernel_source.c finds ks at src");

static const char *const mod_systems[] = { "tlat", NULL };

static int mod_probe(struct tlat_session *session, char *err)
{
	(void)session;
	if (mod_loaded() || mod_loadable())
		return 0;
	tlat_err(err, "tlat.ko is neither loaded nor loadable (modprobe tlat, or %s)",
		 "kernel/tlat.ko next to the tlat binary");
	return -ENOENT;
}

/* -A: the module's align_us (-1: off); a tlat.ko older than -A has no such parameter */
static int mod_set_align(struct tlat_source *src, char *err)
{
	const struct tlat_params *p = src->ks.params;
	char val[24];
	int ret;

	if (!knobs_exists(src->ks.knobs, "align_us")) {
		if (!p->aligned)
			return 0;
		tlat_err(err, "this tlat.ko cannot align its threads (no align_us parameter): load the tlat.ko built with this tlat for -A");
		return -EOPNOTSUPP;
	}
	snprintf(val, sizeof(val), "%lld", p->aligned ? (long long)p->align_us : -1LL);
	ret = knobs_set(src->ks.knobs, "align_us", val);
	if (ret)
		tlat_err(err, "cannot configure tlat.ko: %s", strerror(-ret));
	return ret;
}

/*
 * What in a run needs every one of tlat.ko's samples as an event: what
 * needs any source's (collect.h), and the sample log. NULL: its aggregates
 * serve the run, the -i/-T stop included (they stop there and say where),
 * and the auto-analysis's events are decoded only at a hit.
 */
static const char *mod_needs_trace(const struct tlat_params *p)
{
	const char *why = collect_needs_events(p);

	if (why)
		return why;
	if (p->sample_log)
		return "--sample-log";
	return NULL;
}

/* this tlat.ko's aggregates, if they have this tlat's layout; else why not */
static int mod_agg_take(struct tlat_source *src, char *err)
{
	int ret = mod_agg_open(&src->agg, err);

	if (!ret)
		ret = mod_agg_check(src->agg, err);
	if (ret) {
		mod_agg_close(src->agg);
		src->agg = NULL;
	}
	return ret;
}

/*
 * The kernel collector if the run can take it and this tlat.ko has it; a
 * forced one that cannot be had is an error, auto falls back to the trace
 * collector and tells -D why.
 */
static int mod_collector_open(struct tlat_source *src, char *err)
{
	const struct tlat_params *p = src->ks.params;
	const char *why = mod_needs_trace(p);
	char agg_err[TLAT_ERR_LEN];
	int ret;

	if (p->collect == TLAT_COLLECT_BOTH) {
		tlat_err(err, "--collector both: tlat.ko's aggregates count beside any run");
		return -EINVAL;
	}
	if (p->collect == TLAT_COLLECT_TRACE) {
		src->trace_why = "--collector trace";
		return 0;
	}
	if (why) {
		src->trace_why = why;
		if (p->collect != TLAT_COLLECT_KERNEL)
			return 0;
		tlat_err(err, "--collector kernel: %s needs the trace collector", why);
		return -EINVAL;
	}
	if (!knobs_exists(src->ks.knobs, "trace_samples")) {
		src->trace_why = "this tlat.ko has no aggregates (no trace_samples parameter)";
		if (p->collect != TLAT_COLLECT_KERNEL)
			return 0;
		tlat_err(err, "--collector kernel: %s: load the tlat.ko built with this tlat",
			 src->trace_why);
		return -EOPNOTSUPP;
	}
	ret = mod_agg_take(src, agg_err);
	/* an older tlat.ko's layout: auto falls back */
	if (ret == -EPROTO && p->collect != TLAT_COLLECT_KERNEL) {
		snprintf(src->agg_why, sizeof(src->agg_why), "%s", agg_err);
		src->trace_why = src->agg_why;
		return 0;
	}
	if (ret) {
		tlat_err(err, "--collector %s: %s", collect_name(p->collect), agg_err);
		return ret;
	}
	src->deferred = !p->no_aa;
	return 0;
}

static int mod_configure(struct tlat_source *src, char *err)
{
	const struct tlat_params *p = src->ks.params;
	struct knobs *knobs = src->ks.knobs;
	bool user_threads = src->ks.user_threads;
	char cpus[4096];
	int ret;

	/* stop whatever measures before changing what it measures */
	ret = knobs_set(knobs, "enabled", "N");
	if (!ret)
		ret = knobs_set(knobs, "kthreads", user_threads ? "N" : "Y");
	if (!ret)
		ret = knobs_set_u64(knobs, "period_us", p->period_us);
	if (!ret)
		ret = cpuset_to_list(&p->cpus, cpus, sizeof(cpus));
	if (!ret)
		ret = knobs_set(knobs, "cpus", cpus);
	if (!ret && !user_threads)
		ret = knobs_set_u64(knobs, "prio",
				    p->sched.set ? p->sched.prio : TLAT_DEFAULT_PRIO);
	if (!ret)
		ret = knobs_set_u64(knobs, "print_stack_us", p->stop.stack_us);
	/* an older tlat.ko writes every sample, and has no aggregates */
	if (!ret && knobs_exists(knobs, "trace_samples"))
		ret = knobs_set(knobs, "trace_samples",
				src->agg && !src->deferred ? "N" : "Y");
	/* a warm-up must not stop the run: run.c arms the stops after it */
	if (!ret)
		ret = kernel_source_set_stops(&src->ks, !p->warmup_s);
	if (ret) {
		tlat_err(err, "cannot configure tlat.ko: %s", strerror(-ret));
		return ret;
	}
	return mod_set_align(src, err);
}

static int mod_enable(struct tlat_source *src, char *err)
{
	int ret = knobs_set(src->ks.knobs, "enabled", "Y");

	if (ret)
		tlat_err(err, "cannot enable tlat.ko: %s", strerror(-ret));
	return ret;
}

static void mod_disable(struct tlat_source *src)
{
	if (src->ks.knobs)
		knobs_set(src->ks.knobs, "enabled", "N");
}

static void mod_release(struct tlat_source *src)
{
	const struct tlat_params *p = src->ks.params;
	struct tracefs_instance *inst;

	/* an open /dev/tlat_agg would keep the module */
	mod_agg_close(src->agg);
	src->agg = NULL;
	if (!src->loaded_by_us)
		return;
	/* its parameters go back while it is there to take them */
	knobs_free(src->ks.knobs);
	src->ks.knobs = NULL;
	/* a module must not go while an instance still uses its events */
	inst = src->ks.session->inst;
	if (p->stop.irq_us || p->stop.thread_us)
		tracefs_event_file_write(inst, "tlat", "tlat_threshold", "trigger", "!traceoff");
	tracefs_event_disable(inst, "tlat", NULL);
	mod_unload();
}

/* its kernel threads take no other policy */
static int mod_check(const struct kernel_source *ks, const struct tlat_params *params, char *err)
{
	if (!ks->user_threads && params->sched.set && params->sched.policy != SCHED_FIFO) {
		tlat_err(err, "tlat.ko's kernel threads run SCHED_FIFO: use -P f:prio, or -u");
		return -EINVAL;
	}
	return 0;
}

static const struct kernel_source_kind mod_kind = {
	.size = sizeof(struct tlat_source),
	.resource = "module",
	.owner = "tlat.ko",
	.events = { "tlat", "tlat_sample", "tlat_stack", "nr", "ips" },
	.stop_irq_knob = "stop_irq_us",
	.stop_thread_knob = "stop_thread_us",
	/* its kernel threads only where -k asks for them */
	.user_by_default = NULL,
	.check = mod_check,
	/* without user threads, enabling the module starts its kernel threads */
	.start = mod_enable,
	.stop = mod_disable,
	.release = mod_release,
};

static int mod_decoder(struct tlat_source **out, const struct tlat_params *params,
		       struct tep_handle *tep, char *err)
{
	return kernel_source_decoder(out, &mod_kind, params, tep, err);
}

/* tlat.ko's events, known to libtraceevent once the module is loaded */
static int mod_load_events(struct tlat_source *src, struct tep_handle *tep, char *err)
{
	int failures, ret;

	if (mod_loaded())
		return 0;
	ret = mod_load();
	if (ret) {
		tlat_err(err, "cannot load tlat.ko: %s", strerror(-ret));
		return ret;
	}
	src->loaded_by_us = true;
	return tracefs_fill_local_events(NULL, tep, &failures) ? -EIO : 0;
}

/*
 * The module cannot stop an instance: a trigger on its threshold event,
 * which follows the offending sample, stops only tlat's. Deferred, the
 * buffer overwrites its oldest events until then (the option is the
 * instance's: it goes with it).
 */
static int mod_set_instance(struct tracefs_instance *inst, const struct tlat_params *params,
			    bool samples, bool deferred, char *err)
{
	tracefs_trace_off(inst);
	if (!samples)
		return 0;
	if ((deferred && tracefs_option_enable(inst, TRACEFS_OPTION_OVERWRITE)) ||
	    tracefs_instance_set_buffer_size(inst, params->buffer_kb ?: MOD_DEFAULT_BUFFER_KB, -1) ||
	    tracefs_event_enable(inst, "tlat", "tlat_sample") ||
	    (params->stop.stack_us && tracefs_event_enable(inst, "tlat", "tlat_stack")) ||
	    ((params->stop.irq_us || params->stop.thread_us) &&
	     tracefs_event_file_write(inst, "tlat", "tlat_threshold", "trigger", "traceoff") < 0)) {
		tlat_err(err, "cannot set up the trace instance: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}

static int mod_open(struct tlat_source **out, const struct tlat_params *params,
		    struct tlat_session *session, struct tep_handle *tep, char *err)
{
	struct tlat_source *src;
	int ret;

	ret = kernel_source_open(out, &mod_kind, params, session, err);
	src = *out;
	if (ret)
		return ret;
	ret = mod_load_events(src, tep, err) ?:
	      kernel_source_setup(&src->ks, tep, MOD_PARAMS, err) ?:
	      mod_collector_open(src, err) ?:
	      mod_configure(src, err) ?:
	      mod_set_instance(session->inst, params, !src->agg || src->deferred, src->deferred,
			       err);
	if (ret)
		return ret;
	/* nothing measures yet: the aggregates start empty, the warm-up's go at arming */
	src->counting = !params->warmup_s;
	if (src->agg) {
		ret = mod_agg_reset(src->agg, params->warmup_s != 0, NULL, err);
		if (ret)
			return ret;
	}
	if (!src->ks.user_threads)
		return 0;
	/* /dev/tlat opens only while measurement is enabled */
	ret = mod_enable(src, err);
	if (ret)
		return ret;
	src->ks.user_fd = (struct fd_workload){ .prefix = MOD_DEVICE, .comm = "tlat/" };
	return kernel_source_workload(&src->ks, err);
}

/*
 * The warm-up is over: the stops are set, then its samples leave the
 * aggregates. The warm-up's reset gated them: each sample either went
 * with the warm-up, unchecked, or is counted after this reset and checked.
 * The run's window begins at the reset, so that the analysis and a stop
 * agree on which sample is the first over a threshold.
 */
static int mod_arm_thresholds(struct tlat_source *src, u64 *from_ns)
{
	char err[TLAT_ERR_LEN];
	int ret = kernel_source_arm_thresholds(src, from_ns);

	if (ret || !src->agg)
		return ret;
	if (mod_agg_reset(src->agg, false, from_ns, err))
		return -EIO;
	src->counting = true;
	src->drained = 0;
	src->stops = 0;
	return 0;
}

/* the kernel collector's drain: the aggregates whole, the warm-up's left out */
static int mod_drain(struct tlat_source *src, struct tlat_sink *sink, u64 *processed,
		     u64 *lost, char *err)
{
	u64 total;
	int ret;

	(void)lost;	/* the module counts every sample it measures */
	if (!src->agg)
		return 1;
	if (!src->counting)
		return 0;
	/* a stop not handed on yet: the run checks its sample, which the aggregates hold */
	ret = mod_agg_drain(src->agg, &src->ks.params->cpus, src->ks.user_threads ? 3 : 2, sink,
			    &total, &src->stops, err);
	if (ret)
		return ret;
	*processed += total - src->drained;
	src->drained = total;
	return 0;
}

/* --on-threshold continue: the aggregates count on from the hit, keeping it */
static int mod_resume(struct tlat_source *src, char *err)
{
	return src->agg ? mod_agg_resume(src->agg, err) : 0;
}

static bool mod_events_deferred(const struct tlat_source *src)
{
	return src->deferred;
}

/*
 * The kernel collector loads with the module: a tlat.ko with /dev/tlat_agg,
 * whose snapshots have this tlat's layout where the loaded one can be read
 */
static int mod_kernel_probe(char *err)
{
	struct mod_agg *agg;
	int ret;

	if (!access(MOD_AGG_DEVICE, F_OK)) {
		if (access(MOD_AGG_DEVICE, R_OK) || mod_agg_open(&agg, err))
			return 0;
		ret = mod_agg_check(agg, err);
		mod_agg_close(agg);
		return ret;
	}
	if (mod_loaded()) {
		tlat_err(err, "the loaded tlat.ko has no %s: load the tlat.ko built with this tlat",
			 MOD_AGG_DEVICE);
		return -ENOENT;
	}
	if (mod_loadable())
		return 0;
	tlat_err(err, "tlat.ko is neither loaded nor loadable");
	return -ENOENT;
}

static void mod_report(struct tlat_source *src, const struct tlat_notes *notes)
{
	if (src->agg && src->deferred) {
		tlat_note(notes, TLAT_NOTE_DEBUG, "tlat: module: collector kernel (%s)",
			  MOD_AGG_DEVICE);
		tlat_note(notes, TLAT_NOTE_DEBUG,
			  "tlat: module: the auto-analysis's events in overwrite mode, decoded only at a hit");
	} else if (src->agg) {
		tlat_note(notes, TLAT_NOTE_DEBUG,
			  "tlat: module: collector kernel (%s): no event per sample needed",
			  MOD_AGG_DEVICE);
	} else {
		tlat_note(notes, TLAT_NOTE_DEBUG, "tlat: module: collector trace: %s",
			  src->trace_why);
	}
	tlat_note(notes, TLAT_NOTE_DEBUG, "tlat: module: %s threads%s",
		  src->ks.user_threads ? "user" : "kernel",
		  src->loaded_by_us ? ", loaded for this run" : "");
}

static const struct tlat_decoder_ops mod_decoder_ops = {
	.systems = mod_systems,
	.open = mod_decoder,
	KERNEL_DECODER_OPS,
};

static const struct tlat_kernel_collector_ops mod_kernel_ops = {
	.probe = mod_kernel_probe,
	.with_aa = "the samples' and its events in overwrite mode, decoded only at a hit",
	.drain = mod_drain,
	.events_deferred = mod_events_deferred,
	.deferred_records = true,
	.resume = mod_resume,
};

const struct tlat_source_ops module_source_ops = {
	.name = "module",
	.decoder = &mod_decoder_ops,
	.kernel = &mod_kernel_ops,
	.interference = &aa_stock_ops,
	.probe = mod_probe,
	.open = mod_open,
	.report = mod_report,
	.start = kernel_source_start,
	/* the warm-up's end also resets the aggregates */
	.arm_thresholds = mod_arm_thresholds,
	.trace_instance = kernel_source_trace_instance,
	.stop = kernel_source_stop,
	.user_data = kernel_source_user_data,
	.close = kernel_source_close,
};
