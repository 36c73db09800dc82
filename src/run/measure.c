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

#include "output/json.h"
#include "run/loop.h"
#include "run/run_local.h"
#include "run/signals.h"
#include "sources/collect.h"
#include "trace/dat_meta.h"
#include "trace/dat_write.h"
#include "util/cgroup.h"
#include "util/clock.h"
#include "util/idle.h"
#include "util/systune.h"

/* what the measurement loop reads and waits on, live */
struct live {
	struct run *run;
	struct tlat_collector *c;
	struct tlat_session *session;
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

	return collector_drain(l->c, until_ns, err);
}

static int live_arm(void *ctx, char *err)
{
	struct live *l = ctx;
	struct run *run = l->run;
	u64 from_ns = 0;

	if (l->c->ops->arm_thresholds(l->c->src, &from_ns)) {
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
	const struct tlat_collector *c = l->c;

	if (c->ops->resume && c->ops->resume(c->src, err))
		return -EIO;
	run_trace_switch(l->run, true);
	if (tracefs_trace_is_on(l->session->inst) || !tracefs_trace_on(l->session->inst))
		return 0;
	tlat_err(err, "cannot turn tracing back on after a threshold: %s", strerror(errno));
	return -EIO;
}

/*
 * A hit, where the analysis's events were left in the buffer
 * (events_deferred()): the instance stops, if the thread that saw the hit
 * did not stop it already, and the analysis gets the buffer's events now.
 */
static int live_decode_hit(struct live *l, char *err)
{
	const struct tlat_collector *c = l->c;

	if (!c->ops->events_deferred || !c->ops->events_deferred(c->src))
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
		.stop_irq_us = p->stop_irq_us,
		.stop_thread_us = p->stop_thread_us,
		.stack_us = p->stack_us,
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

/* the source chosen and opened, its events and the analysis's decoded, then the loop */
static enum tlat_exit measure(struct run *run, struct tlat_session *session, char *err)
{
	const struct tlat_params *p = run->params;
	bool recording = p->command == TLAT_CMD_RECORD;
	struct extra_events *events = NULL;
	enum tlat_exit status = TLAT_EXIT_ERROR;
	struct tlat_source *src = NULL;
	struct tlat_collector c;
	struct live live = { run, &c, session };
	struct loop_env env = {
		.now_ns = live_now,
		.sleep_ns = live_sleep,
		.stop_requested = live_stop_requested,
		.tracing_on = live_tracing_on,
		.drain = live_drain,
		.arm = live_arm,
		.frame = live_frame,
		.hit = live_hit,
		.ctx = &live,
	};
	struct loop_window w = { .armed = !p->warmup_s };
	const char **systems;
	u64 stopped_ns;
	int ret;

	run->ops = source_select(p->source, session, &run->notes, err);
	if (!run->ops)
		return TLAT_EXIT_ERROR;
	if ((p->collect == TLAT_COLLECT_KERNEL || p->collect == TLAT_COLLECT_BOTH) &&
	    !run->ops->drain) {
		tlat_err(err, "--collector %s: the %s source has no kernel collector",
			 collect_name(p->collect), run->ops->name);
		return TLAT_EXIT_ERROR;
	}
	if (run_analysis_init(run, run->ops, err))
		return TLAT_EXIT_ERROR;
	/* the -e events too: the trace -t saves prints them; a recording holds their formats */
	systems = extra_events_systems(p, analysis_systems(run->analysis));
	if (!systems) {
		tlat_err(err, "out of memory");
		return TLAT_EXIT_ERROR;
	}
	ret = collector_init(&c, session, p->cpus.nr_cpus, run->ops, systems, recording, err);
	free(systems);
	if (ret)
		return TLAT_EXIT_ERROR;
	c.readers = p->readers;
	c.measured = &p->cpus;
	run->collector = &c;

	/* the measuring threads inherit the mask: stop signals go to the main thread */
	signals_block(true);
	ret = run->ops->open(&src, p, session, c.tep, err);
	signals_block(false);
	if (ret)
		goto out_close;
	collector_attach(&c, src, &run->pipeline.sink);
	c.stopped_sink = &run->pipeline.whole_run;
	run->user_data = run->ops->user_data(src);
	w.kernel_stops = run->ops->arm_thresholds != NULL;
	if (!w.kernel_stops)
		env.arm = NULL;
	/* after the source: the adapter's events and filters win over its own */
	if (run->analysis && analysis_attach(run->analysis, &c, err))
		goto out_close;
	/* last: a --filter must not starve what the source and the analysis read */
	if (extra_events_enable(&events, p, session->inst, &run->notes, err))
		goto out_close;
	if (run_trace_init(run, &c, session, src, err))
		goto out_close;
	/* after the source set its tracer: the kernel keeps it while the buffers are read */
	if (recording && collector_record_to(&c, p->recording, err))
		goto out_close;

	/* the trace clock is mono: sample times compare with CLOCK_MONOTONIC */
	w.start_ns = mono_now_ns() + (u64)p->warmup_s * 1000000000ull;
	run->start_time = time(NULL) + p->warmup_s;
	if (p->duration_s)
		w.end_ns = w.start_ns + p->duration_s * 1000000000ull;
	pipeline_window(&run->pipeline, w.start_ns, w.end_ns);
	if (run->analysis)
		analysis_window(run->analysis, w.start_ns, w.end_ns);
	if (run->ops->start(src, err))
		goto out_stop;
	run_trace_switch(run, true);
	if (recording)
		record_meta(run, session->inst, src);
	/* after start: the module creates its kernel threads only then */
	if (p->cgroup_set && cgroup_attach_measuring_threads(p->cgroup, err))
		goto out_stop;
	/* as rtla: the threshold actions (a saved trace) come before the final statistics */
	if (run_loop(&env, &run->pipeline, &w, err))
		goto out_stop;
	run->ops->stop(src);
	run_trace_switch(run, false);
	stopped_ns = mono_now_ns();
	/* what the kernel wrote before the stop is still measurement */
	if (live_drain(&live, 0, err) < 0)
		goto out_close;
	if (recording && dat_writer_write(c.recorder, session->tracing_dir, err))
		goto out_close;
	/*
	 * A hit in that last drain (at -d's end or a stop signal): the run ends
	 * anyway; after a continue it is one more hit, and the run passed, as
	 * rtla's does when -d ends it
	 */
	if (run->pipeline.stopped &&
	    (live_decode_hit(&live, err) || run_threshold(run, NULL, NULL, err) < 0))
		goto out_close;
	if (p->debug) {
		char mode[128];

		if (c.reader)
			tlat_note(&run->notes, TLAT_NOTE_DEBUG, "tlat: trace buffers read %s",
				  collector_read_mode(&c, mode, sizeof(mode)));
		run->ops->report(src, &run->notes);
		if (run->ops->events_deferred && run->ops->events_deferred(src))
			tlat_note(&run->notes, TLAT_NOTE_DEBUG,
				  "tlat: %llu records decoded for the auto-analysis at hits",
				  (unsigned long long)c.decoded);
	}
	/* the time measured, not that of writing files */
	status = run_conclude(run, stopped_ns, events, err);
	goto out_close;

out_stop:
	run->ops->stop(src);
out_close:
	/* first: while the recorder reads the buffers, the tracer cannot be cleared */
	collector_free(&c);
	/* before the source: the module source unloads the module its events may use */
	extra_events_free(events);
	/* before the source: the tracer must not outlive its knobs */
	run_trace_close(run);
	if (src)
		run->ops->close(src);
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
	    systune_housekeeping(params, err)) {
		run_free(&run);
		return TLAT_EXIT_ERROR;
	}
	dma_fd = systune_dma_latency(params, err);
	if (dma_fd < -1) {
		run_free(&run);
		return TLAT_EXIT_ERROR;
	}
	/* a stop signal only sets a flag: every way out passes the restore below */
	if (idle_limit_apply(&idle, &idle_cpupower, params, &run.notes, err)) {
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
