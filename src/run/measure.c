// SPDX-License-Identifier: GPL-2.0
/*
 * measure.c - tlat top, hist and record: a live run, source -> collector ->
 * pipeline -> outputs. It owns the order of set-up and tear-down, so that
 * every way out (the end of -d, Ctrl-C, SIGTERM, an error) leaves the
 * system as it was.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output/json_doc.h"
#include "run/loop.h"
#include "run/run_local.h"
#include "run/signals.h"
#include "sources/collect.h"
#include "tracedat/dat_meta.h"
#include "tracedat/dat_write.h"
#include "util/cgroup.h"
#include "util/clock.h"
#include "util/idle.h"
#include "util/systune.h"

/* what the measurement loop reads and waits on, live */
struct live {
	struct run *run;
	struct tlat_collector *c;
	struct tlat_session *session;
	struct tlat_source *src;
	struct dat_writer *recorder;	/* tlat record's, which reads the buffers */
};

static u64 live_now(void *ctx)
{
	(void)ctx;
	return mono_now_ns();
}

static void live_sleep(void *ctx, u64 ns)
{
	(void)ctx;
	/* a stop signal cuts it short */
	nanosleep(&(struct timespec){ ns / 1000000000ull, ns % 1000000000ull }, NULL);
}

static bool live_stop_requested(void *ctx)
{
	(void)ctx;
	return tlat_stop_requested;
}

static bool live_tracing_on(void *ctx)
{
	struct live *l = ctx;

	return tracefs_trace_is_on(l->session->inst);
}

static int live_drain(void *ctx, u64 until_ns, char *err)
{
	struct live *l = ctx;

	return collect_drain(l->run->ops, l->src, l->c, until_ns, err);
}

static int live_arm(void *ctx, char *err)
{
	struct live *l = ctx;
	struct run *run = l->run;
	u64 from_ns = 0;

	if (run->ops->arm_thresholds(l->src, &from_ns)) {
		tlat_err(err, "cannot arm the stop thresholds after the warm-up");
		return -EIO;
	}
	/* the source measures from later than the warm-up's end: its sample counts first */
	if (from_ns > run->pipeline.from_ns) {
		pipeline_window(&run->pipeline, from_ns, run->pipeline.until_ns);
		if (run->analysis)
			analysis_window(run->analysis, from_ns, run->pipeline.until_ns);
	}
	return 0;
}

static void live_frame(void *ctx, u64 now_ns)
{
	struct live *l = ctx;

	run_frame(l->run, now_ns);
}

/*
 * The kernel's own stop only turned the buffer off, its threads run on:
 * turning it on again does not restart the tracer (as rtla does).
 */
static int live_resume(void *ctx, char *err)
{
	struct live *l = ctx;
	const struct tlat_kernel_collector_ops *k = l->run->ops->kernel;

	if (k && k->resume && k->resume(l->src, err))
		return -EIO;
	run_trace_switch(l->run, true);
	if (tracefs_trace_is_on(l->session->inst) || !tracefs_trace_on(l->session->inst))
		return 0;
	tlat_err(err, "cannot turn tracing back on after a threshold: %s", strerror(errno));
	return -EIO;
}

/* whether the analysis's events wait in the buffer for a hit (a kernel collector's run) */
static bool live_events_deferred(const struct live *l)
{
	const struct tlat_kernel_collector_ops *k = l->run->ops->kernel;

	return k && k->events_deferred && k->events_deferred(l->src);
}

/*
 * A hit, where the analysis's events were left in the buffer: the instance
 * stops, if the thread that saw the hit did not stop it already, and the
 * analysis gets the buffer's events now.
 */
static int live_decode_hit(struct live *l, char *err)
{
	if (!live_events_deferred(l))
		return 0;
	tracefs_trace_off(l->session->inst);
	return collector_decode_stopped(l->c, err);
}

static int live_hit(void *ctx, char *err)
{
	struct live *l = ctx;

	if (live_decode_hit(l, err))
		return -EIO;
	return run_threshold(l->run, live_resume, l, err);
}

static int marker_write(void *inst, const char *line)
{
	return tracefs_instance_file_write(inst, "trace_marker", line) < 0 ? -EIO : 0;
}

/*
 * tlat record: what report needs to know about this run and cannot find
 * in the records, as lines in the recording itself: the window and the
 * thresholds, and what the run's JSON document would say of it. Lost if
 * the kernel already stopped the instance; report then counts every sample.
 */
static void record_meta(const struct run *run, struct tracefs_instance *inst,
			const struct tlat_source *src)
{
	const struct tlat_params *p = run->params;
	struct dat_meta meta = {
		.start_ns = run->pipeline.from_ns,
		.end_ns = run->pipeline.until_ns,
		.stop_irq_us = p->stop.irq_us,
		.stop_thread_us = p->stop.thread_us,
		.stack_us = p->stop.stack_us,
		.user_data = run->ops->user_data(src),
	};
	struct json_object *desc;
	struct tlat_sysinfo sys;
	char line[256];

	snprintf(meta.source, sizeof(meta.source), "%s", run->ops->name);
	dat_meta_format(line, sizeof(line), &meta);
	tracefs_instance_file_write(inst, "trace_marker", line);
	if (sysinfo_read(&sys))
		return;
	desc = json_run_description(p, &sys, run->start_time);
	if (desc)
		dat_run_write(json_object_to_json_string_ext(desc, JSON_C_TO_STRING_PLAIN |
								   JSON_C_TO_STRING_NOSLASHESCAPE),
				    marker_write, inst);
	json_object_put(desc);
}

static int live_record_drain(void *recorder, u64 until_ns, buffer_record_fn fn, void *ctx)
{
	return dat_writer_drain(recorder, until_ns, fn, ctx);
}

/* the source chosen, and the collector of its events, the analysis's and -e's */
static int measure_collector(struct run *run, struct tlat_session *session,
			     struct tlat_collector *c, char *err)
{
	const struct tlat_params *p = run->params;
	const char **systems;
	int ret;

	run->ops = source_select(p->source, session, &run->notes, err);
	if (!run->ops)
		return -EINVAL;
	if ((p->collect == TLAT_COLLECT_KERNEL || p->collect == TLAT_COLLECT_BOTH) &&
	    !run->ops->kernel) {
		tlat_err(err, "--collector %s: the %s source has no kernel collector",
			 collect_name(p->collect), run->ops->name);
		return -EINVAL;
	}
	if (run_analysis_init(run, run->ops, err))
		return -EINVAL;
	/* the -e events too: the trace -t saves prints them; a recording holds their formats */
	systems = extra_events_systems(&p->events, analysis_systems(run->analysis));
	if (!systems) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	ret = collector_init(c, session, p->cpus.nr_cpus, run->ops->decoder, systems,
			     p->command == TLAT_CMD_RECORD, err);
	free(systems);
	if (ret)
		return ret;
	c->readers = p->readers;
	c->measured = &p->cpus;
	run->collector = c;
	return 0;
}

/* the source opened, then what reads its instance: the analysis, -e, -t, the recorder */
static int measure_open(struct run *run, struct live *l, struct extra_events **events, char *err)
{
	const struct tlat_kernel_collector_ops *k = run->ops->kernel;
	const struct tlat_params *p = run->params;
	struct tlat_collector *c = l->c;
	int ret;

	/* the measuring threads inherit the mask: stop signals go to the main thread */
	signals_block(true);
	ret = run->ops->open(&l->src, p, l->session, c->tep, err);
	signals_block(false);
	if (ret)
		return ret;
	collector_attach(c, l->src, &run->pipeline.sink);
	if (k && k->deferred_records)
		c->stopped_sink = &run->pipeline.whole_run;
	run->user_data = run->ops->user_data(l->src);
	/* after the source: the adapter's events and filters win over its own */
	if (run->analysis && analysis_attach(run->analysis, c, err))
		return -EIO;
	/* last: a --filter must not starve what the source and the analysis read */
	if (extra_events_enable(events, &p->events, l->session->inst,
				p->debug ? &run->notes : NULL, err))
		return -EIO;
	if (run_trace_init(run, c, l->session, l->src, err))
		return -EIO;
	if (p->command != TLAT_CMD_RECORD)
		return 0;
	/* after the source set its tracer: the kernel keeps it while the buffers are read */
	ret = dat_writer_open(&l->recorder, l->session->inst, c->tep, c->systems, c->nr_cpus,
			      p->recording, err);
	if (!ret)
		collector_read_through(c, &(struct record_stream){ live_record_drain, l->recorder });
	return ret;
}

/* -D: how the buffers were read, what the source discarded, what the analysis decoded */
static void measure_debug(struct run *run, struct live *l)
{
	char mode[128];

	if (l->c->reader)
		tlat_note(&run->notes, TLAT_NOTE_DEBUG, "tlat: trace buffers read %s",
			  collector_read_mode(l->c, mode, sizeof(mode)));
	run->ops->report(l->src, &run->notes);
	if (live_events_deferred(l))
		tlat_note(&run->notes, TLAT_NOTE_DEBUG,
			  "tlat: %llu records decoded for the auto-analysis at hits",
			  (unsigned long long)l->c->decoded);
}

/* the source started, the loop until the end, the last records, the end */
static enum tlat_exit measure_run(struct run *run, struct live *l, struct extra_events *events,
				  char *err)
{
	const struct tlat_params *p = run->params;
	struct loop_env env = {
		.now_ns = live_now,
		.sleep_ns = live_sleep,
		.stop_requested = live_stop_requested,
		.tracing_on = live_tracing_on,
		.drain = live_drain,
		.arm = run->ops->arm_thresholds ? live_arm : NULL,
		.frame = live_frame,
		.hit = live_hit,
		.ctx = l,
	};
	struct loop_window w = {
		.armed = !p->warmup_s,
		.kernel_stops = run->ops->arm_thresholds != NULL,
	};
	u64 stopped_ns;

	/* the trace clock is mono: sample times compare with CLOCK_MONOTONIC */
	w.start_ns = mono_now_ns() + (u64)p->warmup_s * 1000000000ull;
	run->start_time = time(NULL) + p->warmup_s;
	if (p->duration_s)
		w.end_ns = w.start_ns + p->duration_s * 1000000000ull;
	pipeline_window(&run->pipeline, w.start_ns, w.end_ns);
	if (run->analysis)
		analysis_window(run->analysis, w.start_ns, w.end_ns);
	if (run->ops->start(l->src, err))
		goto out_stop;
	run_trace_switch(run, true);
	if (l->recorder)
		record_meta(run, l->session->inst, l->src);
	/* after start: the module creates its kernel threads only then */
	if (p->cgroup_set && cgroup_attach_measuring_threads(p->cgroup, err))
		goto out_stop;
	/* as rtla: the threshold actions (a saved trace) come before the final statistics */
	if (run_loop(&env, &run->pipeline, &w, err))
		goto out_stop;
	run->ops->stop(l->src);
	run_trace_switch(run, false);
	stopped_ns = mono_now_ns();
	/* what the kernel wrote before the stop is still measurement */
	if (live_drain(l, 0, err) < 0)
		return TLAT_EXIT_ERROR;
	if (l->recorder && dat_writer_write(l->recorder, l->session->tracing_dir, err))
		return TLAT_EXIT_ERROR;
	/*
	 * A hit in that last drain (at -d's end or a stop signal): the run ends
	 * anyway; after a continue it is one more hit, and the run passed, as
	 * rtla's does when -d ends it
	 */
	if (run->pipeline.stopped &&
	    (live_decode_hit(l, err) || run_threshold(run, NULL, NULL, err) < 0))
		return TLAT_EXIT_ERROR;
	if (p->debug)
		measure_debug(run, l);
	/* the time measured, not that of writing files */
	return run_conclude(run, stopped_ns, events, err);

out_stop:
	run->ops->stop(l->src);
	return TLAT_EXIT_ERROR;
}

/* the source chosen and opened, its events and the analysis's decoded, then the loop */
static enum tlat_exit measure(struct run *run, struct tlat_session *session, char *err)
{
	enum tlat_exit status = TLAT_EXIT_ERROR;
	struct extra_events *events = NULL;
	struct tlat_collector c;
	struct live live = { run, &c, session, NULL, NULL };

	if (measure_collector(run, session, &c, err))
		return TLAT_EXIT_ERROR;
	if (!measure_open(run, &live, &events, err))
		status = measure_run(run, &live, events, err);
	/* first: while the recorder reads the buffers, the tracer cannot be cleared */
	collector_free(&c);
	dat_writer_free(live.recorder);
	/* before the source: the module source unloads the module its events may use */
	extra_events_free(events);
	/* before the source: the tracer must not outlive its knobs */
	run_trace_close(run);
	if (live.src)
		run->ops->close(live.src);
	return status;
}

enum tlat_exit tlat_measure(const struct tlat_params *params, const struct tlat_notes *notes,
			    char *err)
{
	struct tlat_session session;
	struct idle_limit *idle;
	enum tlat_exit status;
	struct run run;
	int dma_fd;

	signals_install();
	/* bad input (a path that cannot be written) fails before anything changes */
	if (run_init(&run, params, notes, err) || run_consumers_init(&run, err) ||
	    systune_housekeeping(&params->cpus,
				 params->housekeeping_set ? &params->housekeeping : NULL, err)) {
		run_free(&run);
		return TLAT_EXIT_ERROR;
	}
	dma_fd = systune_dma_latency(params->dma_latency_us, err);
	if (dma_fd < -1) {
		run_free(&run);
		return TLAT_EXIT_ERROR;
	}
	/* a stop signal only sets a flag: every way out passes the restore below */
	if (idle_limit_apply(&idle, &idle_cpupower, &params->cpus, params->deepest_idle_state,
			     params->debug ? &run.notes : NULL, err)) {
		status = TLAT_EXIT_ERROR;
	} else if (session_open(&session, err)) {
		status = TLAT_EXIT_ERROR;
	} else {
		if (params->debug)
			tlat_note(&run.notes, TLAT_NOTE_DEBUG, "tlat: tracefs at %s%s",
				  session.tracing_dir, session.mount.ours ? " (mounted by tlat)" : "");
		status = measure(&run, &session, err);
		session_close(&session, &run.notes);
	}
	idle_limit_restore(idle);
	if (dma_fd >= 0)
		close(dma_fd);
	status = run_restored(&run, status, err);
	run_free(&run);
	return status;
}
