// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - the measurement driver: source -> collector -> consumers ->
 * renderer. It owns the order of set-up and tear-down, so that every exit
 * path (end of -d, Ctrl-C, SIGTERM, an error) leaves the system as it was.
 * tlat report drives the same consumers and renderers from a recording.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "actions.h"
#include "analysis.h"
#include "cgroup.h"
#include "cli.h"
#include "collector.h"
#include "consumer.h"
#include "cpuset.h"
#include "extra_events.h"
#include "idle.h"
#include "ksyms.h"
#include "pctl.h"
#include "recording.h"
#include "render.h"
#include "render_json.h"
#include "run.h"
#include "sysinfo.h"
#include "systune.h"
#include "tracesave.h"

/* how often the buffers are drained: each pass has a fixed cost of ~0.2 ms */
#define RUN_POLL_NS	(250 * 1000000ull)
#define RUN_FRAME_NS	(1000 * 1000000ull)	/* top's refresh, as rtla's */
#define RUN_MAX_CONSUMERS 5
/* a trace action keeps what the kernel's own buffers would: its size on each CPU */
#define RUN_TRACE_DEFAULT_KB	4096

volatile sig_atomic_t tlat_stop_requested;

struct run {
	struct tlat_sink sink;		/* first: the source calls back through it */
	const struct tlat_params *params;
	struct tlat_consumer consumers[RUN_MAX_CONSUMERS];
	int nr_consumers;
	u64 measure_start_ns;		/* samples before this are warm-up */
	u64 measure_end_ns;		/* and after this, past -d (0: none) */
	struct tlat_stats *stats;
	struct tlat_hist *hist;
	struct tlat_pctl *pctl;		/* NULL without --json */
	struct tlat_consumer samplelog;
	struct analysis *analysis;	/* NULL: no auto-analysis */
	struct tracesave *trace;	/* NULL: no trace action */
	struct tracefs_instance *inst;
	struct json_output *json;	/* NULL without --json */
	FILE *text;			/* stdout, or NULL when --json - has it */
	time_t start_time;		/* wall clock at the start of the measurement */
	bool hit_seen;			/* hit holds the sample that crossed */
	struct tlat_sample hit;
	struct tlat_report report;	/* the final one, for --plot after the clean-up */
	struct tlat_collector *collector;
	const char *tracer;		/* the source's name, for a saved trace */
	bool kernel_stops;		/* the source's kernel side stops tracing too */
	bool threshold_hit;		/* tracing is stopped at a threshold */
	bool hit_handled;		/* and its --on-threshold actions ran */
	unsigned int hits;		/* thresholds a continue action measured past */
	bool symbols_tried;
	bool symbols;			/* the tep knows the kernel's functions */
};

static u64 mono_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static bool over_threshold(const struct tlat_params *p, const struct tlat_sample *s)
{
	u64 threshold_us = s->ctx == TLAT_CTX_IRQ ? p->stop_irq_us : p->stop_thread_us;

	return threshold_us && s->latency_ns >= threshold_us * 1000;
}

/*
 * Kernel sources stop the instance themselves at a threshold; this check
 * also covers sources that cannot, the time before the kernel's stops are
 * armed, and samples of a kernel stop already in flight. Nothing after the
 * offending sample is measured.
 */
static void run_sample(struct tlat_sink *sink, const struct tlat_sample *sample)
{
	struct run *run = (struct run *)sink;

	if (run->threshold_hit)
		return;
	/* all of them: an activation that straddles the start needs its IRQ sample */
	if (run->analysis)
		analysis_sample(run->analysis, sample);
	if (sample->ts_ns < run->measure_start_ns ||
	    (run->measure_end_ns && sample->ts_ns > run->measure_end_ns))
		return;
	for (int i = 0; i < run->nr_consumers; i++)
		run->consumers[i].sample(run->consumers[i].priv, sample);
	/*
	 * Not tracefs_trace_off() here: turning tracing off calls the tracer's
	 * stop, and the kernel's timerlat then SIGKILLs user threads still
	 * reading timerlat_fd, tlat with them. The loop stops the source,
	 * which knows the safe order.
	 */
	if (over_threshold(run->params, sample)) {
		run->threshold_hit = true;
		run->hit_seen = true;
		run->hit = *sample;
	}
}

static void run_stack(struct tlat_sink *sink, int cpu, u64 ts_ns, const u64 *ips, int nr)
{
	struct run *run = (struct run *)sink;

	if (run->analysis)
		analysis_stack(run->analysis, cpu, ts_ns, ips, nr);
}

static void trace_record(void *priv, struct tep_event *event, struct tep_record *record)
{
	(void)event;
	tracesave_add(priv, record);
}

static void stats_consume(void *priv, const struct tlat_sample *sample)
{
	stats_add_sample(priv, sample);
}

static void hist_consume(void *priv, const struct tlat_sample *sample)
{
	hist_add_sample(priv, sample);
}

static void pctl_consume(void *priv, const struct tlat_sample *sample)
{
	pctl_add_sample(priv, sample);
}

static void add_consumer(struct run *run, void (*fn)(void *, const struct tlat_sample *),
			 void *priv)
{
	run->consumers[run->nr_consumers++] = (struct tlat_consumer){ fn, priv };
}

static int run_consumers_init(struct run *run, char *err)
{
	const struct tlat_params *p = run->params;
	int nr_cpus = p->cpus.nr_cpus;
	int ret;

	run->sink.sample = run_sample;
	run->sink.stack = run_stack;
	run->stats = stats_alloc(nr_cpus);
	if (!run->stats)
		return -ENOMEM;
	add_consumer(run, stats_consume, run->stats);
	if (p->mode == TLAT_MODE_HIST) {
		/* buckets are in the display unit, samples in ns */
		run->hist = hist_alloc(nr_cpus, p->hist.entries,
				       (u64)p->hist.bucket_size * (p->nano ? 1 : 1000));
		if (!run->hist)
			return -ENOMEM;
		add_consumer(run, hist_consume, run->hist);
	}
	/* a path that cannot be written fails here, before anything is measured */
	ret = json_output_open(&run->json, p, err);
	if (ret)
		return ret;
	run->text = json_output_stdout(p) ? NULL : stdout;
	if (p->json_path) {
		run->pctl = pctl_alloc(nr_cpus);
		if (!run->pctl)
			return -ENOMEM;
		add_consumer(run, pctl_consume, run->pctl);
	}
	if (p->sample_log) {
		ret = samplelog_open(&run->samplelog, p->sample_log);
		if (ret) {
			snprintf(err, TLAT_ERR_LEN, "cannot open %s: %s", p->sample_log,
				 strerror(-ret));
			return ret;
		}
		run->consumers[run->nr_consumers++] = run->samplelog;
	}
	return 0;
}

static void run_consumers_free(struct run *run)
{
	tracesave_free(run->trace);
	analysis_free(run->analysis);
	samplelog_close(&run->samplelog);
	json_output_close(run->json);
	pctl_free(run->pctl);
	hist_free(run->hist);
	stats_free(run->stats);
}

static void on_stop_signal(int sig)
{
	(void)sig;
	tlat_stop_requested = 1;
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void signals_install(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
}

/* the measuring threads inherit the mask: stop signals go to the main thread */
static void signals_block(bool block)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&set, stop_signals[i]);
	pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

static void report_fill(struct tlat_report *report, const struct run *run,
			const struct tlat_collector *c, bool user_data, u64 now_ns)
{
	const struct tlat_params *p = run->params;

	memset(report, 0, sizeof(*report));
	report->params = p;
	report->stats = run->stats;
	report->hist = run->hist;
	report->user_data = user_data;
	report->pretty = p->mode == TLAT_MODE_TOP && !p->quiet && isatty(STDOUT_FILENO);
	report->elapsed_s = now_ns > run->measure_start_ns ?
			    (now_ns - run->measure_start_ns) / 1000000000ull : 0;
	report->processed_events = c->processed;
	report->missed_events = c->missed_unknown ? TLAT_MISSED_UNKNOWN : c->missed;
	report->threshold_hit = run->threshold_hit;
	report->hit = run->hit_seen ? &run->hit : NULL;
	report->interrupted = tlat_stop_requested;
}

static int run_trace_init(struct run *run, struct tlat_collector *c, char *err)
{
	const struct tlat_params *p = run->params;
	struct tlat_record_observer observer = { trace_record, NULL, NULL };
	size_t kb = (p->buffer_kb ?: RUN_TRACE_DEFAULT_KB) * cpuset_count(&p->cpus);

	if (!actions_have(&p->on_threshold, TLAT_ACTION_TRACE) &&
	    !actions_have(&p->on_end, TLAT_ACTION_TRACE))
		return 0;
	run->trace = tracesave_alloc(kb * 1024);
	if (!run->trace) {
		snprintf(err, TLAT_ERR_LEN, "cannot keep %zu kB of trace for the trace action: %s",
			 kb, strerror(errno));
		return -ENOMEM;
	}
	observer.priv = run->trace;
	collector_observe(c, &observer);
	return 0;
}

/* stacks and a saved trace's %ps fields want names: loaded once, when first needed */
static bool run_symbols(struct run *run)
{
	if (!run->symbols_tried) {
		run->symbols_tried = true;
		run->symbols = !ksyms_load(run->collector->tep);
	}
	return run->symbols;
}

/* the analysis names functions in stacks (-s) and kworkers' work (--dump-tasks) */
static bool run_aa_symbols(struct run *run)
{
	return (run->params->stack_us || run->params->dump_tasks) && run_symbols(run);
}

/* a trace action */
static int run_trace_save(void *priv, const char *path, char *err)
{
	struct run *run = priv;
	int ret;

	run_symbols(run);
	/* without them every task prints as <...>, so that is also what their failure costs */
	tracefs_load_cmdlines(tracefs_instance_get_trace_dir(run->inst), run->collector->tep);
	if (run->text)
		fprintf(run->text, "  Saving trace to %s\n", path);
	ret = tracesave_write(run->trace, run->collector->tep, run->tracer, path);
	if (ret)
		snprintf(err, TLAT_ERR_LEN, "cannot save the trace to %s: %s", path, strerror(-ret));
	return ret;
}

static int run_actions(struct run *run, const struct tlat_actions *actions, char *err)
{
	const struct actions_env env = { run_trace_save, run };

	return actions_run(actions, &env, err);
}

/* the --on-threshold actions of the current hit, once */
static int run_hit_actions(struct run *run, char *err)
{
	if (run->hit_handled)
		return ACTIONS_DONE;
	run->hit_handled = true;
	return run_actions(run, &run->params->on_threshold, err);
}

/* "timerlat hit stop tracing", as rtla, and the analysis of the hit */
static void run_report_hit(struct run *run)
{
	if (!run->text)
		return;		/* --json -: the document has it */
	fprintf(run->text, "timerlat hit stop tracing\n");
	if (run->analysis)
		analysis_report(run->analysis, run->text, run_aa_symbols(run));
}

/*
 * A threshold stopped tracing: run the --on-threshold actions. 1 when a
 * continue among them says to measure on, 0 when the run ends, or -errno.
 * Samples stay ignored until then: after a hit, as after a kernel stop,
 * nothing is measured until tracing is back on.
 */
static int run_threshold(struct run *run, char *err)
{
	int ret;

	/*
	 * A stop tlat saw before the kernel did: let the kernel finish the
	 * activation first. With timerlat_fd it saves the stack only at the
	 * thread's return to read(), which stopping the threads would prevent.
	 */
	if (run->kernel_stops && tracefs_trace_is_on(run->inst)) {
		nanosleep(&(struct timespec){ 0, RUN_POLL_NS }, NULL);
		if (collector_drain(run->collector)) {
			snprintf(err, TLAT_ERR_LEN, "cannot read the trace buffers: %s",
				 strerror(errno));
			return -EIO;
		}
	}
	ret = run_hit_actions(run, err);
	if (ret != ACTIONS_CONTINUE)
		return ret < 0 ? ret : 0;
	/* each hit is reported as it happens: the next one would replace its analysis */
	run_report_hit(run);
	fflush(stdout);
	run->hits++;
	if (run->analysis)
		analysis_rearm(run->analysis);
	run->threshold_hit = false;
	run->hit_handled = false;
	/*
	 * The kernel's own stop only turned the buffer off, its threads run on:
	 * turning it on again does not restart the tracer (as rtla does).
	 */
	if (!tracefs_trace_is_on(run->inst) && tracefs_trace_on(run->inst)) {
		snprintf(err, TLAT_ERR_LEN, "cannot turn tracing back on after a threshold: %s",
			 strerror(errno));
		return -EIO;
	}
	return 1;
}

/* --aa-only with no stop: the highest latency of any context, in us */
static u64 run_max_latency_us(const struct run *run)
{
	u64 max = 0;

	for (int cpu = 0; cpu < stats_nr_cpus(run->stats); cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			if (stats_get(run->stats, cpu, ctx)->max > max)
				max = stats_get(run->stats, cpu, ctx)->max;
	return max / 1000;
}

/* --json: the report completed with what only the document shows, then written */
static int run_json_write(struct run *run, struct tlat_report *report,
			  const struct tlat_source_ops *ops, enum tlat_exit status, char *err)
{
	struct tlat_report_aa aa = { .results = NULL };
	struct aa_result *results = NULL;
	struct aa_cpu_task *tasks = NULL;
	struct tlat_sysinfo sys;
	int ret;

	if (!run->json)
		return 0;
	ret = sysinfo_read(&sys);
	if (ret) {
		snprintf(err, TLAT_ERR_LEN, "cannot read the system's name: %s", strerror(-ret));
		return ret;
	}
	report->source = ops->name;
	report->pctl = run->pctl;
	report->sys = &sys;
	report->start_time = run->start_time;
	report->end_time = time(NULL);
	report->exit_status = status;
	if (run->analysis) {
		ret = analysis_results(run->analysis, &results, &aa.nr_results);
		if (ret) {
			snprintf(err, TLAT_ERR_LEN, "out of memory");
			return ret;
		}
		aa.results = results;
		/* as the text: the tasks are printed with the stop's analysis */
		if (run->params->dump_tasks && run->threshold_hit) {
			ret = analysis_tasks(run->analysis, &tasks, &aa.nr_tasks);
			if (ret) {
				free(results);
				snprintf(err, TLAT_ERR_LEN, "out of memory");
				return ret;
			}
			aa.tasks = tasks;
		}
		aa.idle_exit = analysis_max_idle_exit(run->analysis, &aa.idle_exit_ns,
						      &aa.idle_exit_cpu);
		if (run_aa_symbols(run)) {
			aa.symbol = analysis_symbol;
			aa.symbol_ctx = run->collector->tep;
		}
		report->aa = &aa;
	}
	ret = json_output_write(run->json, report, err);
	free(tasks);
	free(results);
	return ret;
}

/*
 * The final output, live or from a recording: the statistics, the --on-end
 * actions, the stop and its analysis, the -e hist files, the --json document.
 */
static enum tlat_exit run_finish(struct run *run, const struct tlat_source_ops *ops,
				 const struct tlat_renderer_ops *renderer,
				 struct extra_events *events, char *err)
{
	const struct tlat_params *p = run->params;
	enum tlat_exit status;

	if (run->text && !p->aa_only)
		renderer->final(run->text, &run->report);
	/* as rtla: after the statistics, before the stop's report */
	if (run_actions(run, &p->on_end, err) < 0)
		return TLAT_EXIT_ERROR;
	status = run->threshold_hit || run->hits ? TLAT_EXIT_THRESHOLD : TLAT_EXIT_PASS;
	if (run->threshold_hit)
		run_report_hit(run);
	else if (run->text && p->aa_only)
		fprintf(run->text, "  Max latency was %llu\n",
			(unsigned long long)run_max_latency_us(run));
	/* as rtla, last: it saves them when it takes its events down */
	if (extra_events_save_hists(events, run->text, err))
		status = TLAT_EXIT_ERROR;
	fflush(stdout);
	if (run_json_write(run, &run->report, ops, status, err))
		status = TLAT_EXIT_ERROR;
	return status;
}

/*
 * tlat record: what report needs to know about this run and cannot find
 * in the records, as a line in the recording itself. Lost if the kernel
 * already stopped the instance; report then counts every sample.
 */
static void run_record_meta(const struct run *run, struct tracefs_instance *inst,
			    const struct tlat_source_ops *ops, const struct tlat_source *src)
{
	const struct tlat_params *p = run->params;
	struct recording_meta meta = {
		.start_ns = run->measure_start_ns,
		.end_ns = run->measure_end_ns,
		.stop_irq_us = p->stop_irq_us,
		.stop_thread_us = p->stop_thread_us,
		.stack_us = p->stack_us,
		.user_data = ops->user_data(src),
	};
	char line[256];

	snprintf(meta.source, sizeof(meta.source), "%s", ops->name);
	recording_meta_format(line, sizeof(line), &meta);
	tracefs_instance_file_write(inst, "trace_marker", line);
}

static int run_loop(struct run *run, struct tlat_collector *c, const struct tlat_source_ops *ops,
		    const struct tlat_renderer_ops *renderer, char *err)
{
	u64 end_ns = run->measure_end_ns;
	u64 next_frame_ns = run->measure_start_ns + RUN_FRAME_NS;
	bool armed = !run->params->warmup_s;
	bool kernel_stopped;
	struct tlat_report report;
	u64 now, wait_ns;
	int ret;

	while (!tlat_stop_requested) {
		/*
		 * The kernel's stops are armed as the warm-up ends, not up to a
		 * poll later: a hit in between would have neither the kernel's
		 * stop nor its stack.
		 */
		wait_ns = RUN_POLL_NS;
		now = mono_now_ns();
		if (!armed && run->measure_start_ns > now && run->measure_start_ns - now < wait_ns)
			wait_ns = run->measure_start_ns - now;
		/* a stop signal cuts it short */
		nanosleep(&(struct timespec){ wait_ns / 1000000000ull, wait_ns % 1000000000ull },
			  NULL);
		now = mono_now_ns();
		/* until the kernel stops are armed, run_sample() checks alone */
		if (!armed && now >= run->measure_start_ns) {
			armed = true;
			if (ops->arm_thresholds && ops->arm_thresholds(c->src)) {
				snprintf(err, TLAT_ERR_LEN, "cannot arm the stop thresholds after the warm-up");
				return -EIO;
			}
		}
		/* the kernel stopped the instance: what it wrote before still counts */
		kernel_stopped = !tracefs_trace_is_on(run->inst);
		if (collector_drain(c)) {
			snprintf(err, TLAT_ERR_LEN, "cannot %s the trace buffers: %s",
				 c->recorder ? "record" : "read", strerror(errno));
			return -EIO;
		}
		now = mono_now_ns();
		/*
		 * A kernel stop tlat's own check did not see is a hit whose
		 * sample was lost, unless it came past -d's end: not a hit then.
		 */
		if (kernel_stopped && !(end_ns && now >= end_ns))
			run->threshold_hit = true;
		if (run->threshold_hit) {
			ret = run_threshold(run, err);
			if (ret <= 0)
				return ret;
			now = mono_now_ns();
		}
		if (end_ns && now >= end_ns)
			break;
		if (renderer->frame && run->text && now >= next_frame_ns) {
			report_fill(&report, run, c, ops->user_data(c->src), now);
			renderer->frame(run->text, &report);
			next_frame_ns += RUN_FRAME_NS;
		}
	}
	return 0;
}

static enum tlat_exit run_measure(struct run *run, struct tlat_session *session, char *err)
{
	const struct tlat_params *p = run->params;
	const struct tlat_renderer_ops *renderer =
		p->mode == TLAT_MODE_TOP ? &render_top_ops : &render_hist_ops;
	const struct tlat_source_ops *ops;
	struct tlat_source *src = NULL;
	struct extra_events *events = NULL;
	struct tlat_collector c;
	enum tlat_exit status = TLAT_EXIT_ERROR;
	bool recording = p->command == TLAT_CMD_RECORD;
	const char **systems;
	u64 stopped_ns;
	int ret;

	ops = source_select(p->source, session, p->debug, err);
	if (!ops)
		return TLAT_EXIT_ERROR;
	if (analysis_alloc(&run->analysis, p, ops)) {
		snprintf(err, TLAT_ERR_LEN, "out of memory");
		return TLAT_EXIT_ERROR;
	}
	/* the -e events too: the trace -t saves prints them; a recording has all formats */
	systems = extra_events_systems(p, analysis_systems(run->analysis));
	if (!systems) {
		snprintf(err, TLAT_ERR_LEN, "out of memory");
		return TLAT_EXIT_ERROR;
	}
	ret = collector_init(&c, session, ops, systems, recording, err);
	free(systems);
	if (ret)
		return TLAT_EXIT_ERROR;
	if (run_trace_init(run, &c, err))
		goto out_close;

	signals_block(true);
	ret = ops->open(&src, p, session, c.tep, err);
	signals_block(false);
	if (ret)
		goto out_close;
	collector_attach(&c, src, &run->sink);
	run->inst = session->inst;
	run->collector = &c;
	run->tracer = ops->name;
	run->kernel_stops = !!ops->arm_thresholds;
	/* after the source: the adapter's events and filters win over its own */
	if (run->analysis && analysis_attach(run->analysis, &c, err))
		goto out_close;
	/* last: a --filter must not starve what the source and the analysis read */
	if (extra_events_enable(&events, p, session->inst, err))
		goto out_close;
	/* after the source set its tracer: the kernel keeps it while the buffers are read */
	if (recording && collector_record_to(&c, p->recording, p->cpus.nr_cpus, err))
		goto out_close;

	/* the trace clock is mono: sample times compare with CLOCK_MONOTONIC */
	run->measure_start_ns = mono_now_ns() + (u64)p->warmup_s * 1000000000ull;
	run->start_time = time(NULL) + p->warmup_s;
	if (p->duration_s)
		run->measure_end_ns = run->measure_start_ns + p->duration_s * 1000000000ull;
	if (run->analysis)
		analysis_window(run->analysis, run->measure_start_ns, run->measure_end_ns);
	if (ops->start(src, err))
		goto out_stop;
	if (recording)
		run_record_meta(run, session->inst, ops, src);
	/* after start: the module creates its kernel threads only then */
	if (p->cgroup_set && cgroup_attach_measuring_threads(p->cgroup, err))
		goto out_stop;
	/* as rtla: the threshold actions (a saved trace) come before the final statistics */
	if (run_loop(run, &c, ops, renderer, err))
		goto out_stop;
	ops->stop(src);
	stopped_ns = mono_now_ns();
	/* what the kernel wrote before the stop is still measurement */
	if (collector_drain(&c)) {
		snprintf(err, TLAT_ERR_LEN, "cannot %s the trace buffers: %s",
			 recording ? "record" : "read", strerror(errno));
		goto out_close;
	}
	if (recording && recorder_write(c.recorder, session->tracing_dir, err))
		goto out_close;
	/* a hit in that last drain (at -d's end or a stop signal): the run ends anyway */
	if (run->threshold_hit && run_hit_actions(run, err) < 0)
		goto out_close;
	if (p->debug)
		ops->report(src, stderr);
	/* the time measured, not that of writing files */
	report_fill(&run->report, run, &c, ops->user_data(src), stopped_ns);
	status = run_finish(run, ops, renderer, events, err);
	goto out_close;

out_stop:
	ops->stop(src);
out_close:
	/* first: while the recorder reads the buffers, the tracer cannot be cleared */
	collector_free(&c);
	/* before the source: the module source unloads the module its events may use */
	extra_events_free(events);
	if (src)
		ops->close(src);
	return status;
}

enum tlat_exit tlat_run(const struct tlat_params *params, char *err)
{
	struct run run = { .params = params };
	struct tlat_session session;
	struct idle_limit *idle;
	enum tlat_exit status;
	int dma_fd;

	signals_install();
	/* a bad --plot path is bad input: it must fail before anything changes */
	if (params->hist.plot_file && render_plot_check(params->hist.plot_file, err))
		return TLAT_EXIT_ERROR;
	if (systune_housekeeping(params, err))
		return TLAT_EXIT_ERROR;
	if (run_consumers_init(&run, err)) {
		if (!*err)
			snprintf(err, TLAT_ERR_LEN, "out of memory");
		run_consumers_free(&run);
		return TLAT_EXIT_ERROR;
	}
	dma_fd = systune_dma_latency(params, err);
	if (dma_fd < -1) {
		run_consumers_free(&run);
		return TLAT_EXIT_ERROR;
	}
	/* a stop signal only sets a flag: every way out passes the restore below */
	if (idle_limit_apply(&idle, &idle_cpupower, params, err)) {
		status = TLAT_EXIT_ERROR;
	} else if (session_open(&session, err)) {
		status = TLAT_EXIT_ERROR;
	} else {
		if (params->debug)
			fprintf(stderr, "tlat: tracefs at %s%s\n", session.tracing_dir,
				session.mount.ours ? " (mounted by tlat)" : "");
		status = run_measure(&run, &session, err);
		session_close(&session);
	}
	idle_limit_restore(idle);
	if (dma_fd >= 0)
		close(dma_fd);
	/* gnuplot runs once the system is as it was: its failure cannot leave anything */
	if (status != TLAT_EXIT_ERROR && params->hist.plot_file && render_plot(&run.report, err))
		status = TLAT_EXIT_ERROR;
	run_consumers_free(&run);
	return status;
}

static enum tlat_exit run_replay(struct run *run, struct recording *rec,
				 const struct recording_info *info, char *err)
{
	const struct tlat_params *p = run->params;
	const struct tlat_renderer_ops *renderer =
		p->mode == TLAT_MODE_TOP ? &render_top_ops : &render_hist_ops;
	const struct tlat_source_ops *ops = info->ops;
	const char *clock = recording_clock(rec);
	struct tlat_source *src = NULL;
	enum tlat_exit status = TLAT_EXIT_ERROR;
	struct tlat_collector c;
	u64 end_ns;

	if (ops->clock && strcmp(clock, ops->clock)) {
		snprintf(err, TLAT_ERR_LEN, "the %s source's records need the %s trace clock, not %s",
			 ops->name, ops->clock, clock);
		return TLAT_EXIT_ERROR;
	}
	if (run_consumers_init(run, err) || analysis_alloc(&run->analysis, p, ops)) {
		if (!*err)
			snprintf(err, TLAT_ERR_LEN, "out of memory");
		return TLAT_EXIT_ERROR;
	}
	collector_init_offline(&c, recording_tep(rec), ops);
	if (ops->decoder(&src, p, c.tep, err))
		goto out;
	collector_attach(&c, src, &run->sink);
	run->collector = &c;
	/* a recording has the kallsyms of the machine it was taken on */
	run->symbols_tried = run->symbols = true;
	if (run->analysis && analysis_attach(run->analysis, &c, err)) {
		char why[TLAT_ERR_LEN];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, TLAT_ERR_LEN, "the recording cannot be analysed (%.160s): record its events, or use --no-aa",
			 why);
		goto out;
	}
	/* the same window as the run: no warm-up, nothing past -d */
	run->measure_start_ns = info->meta.start_ns;
	run->measure_end_ns = info->meta.end_ns;
	if (run->analysis)
		analysis_window(run->analysis, run->measure_start_ns, run->measure_end_ns);
	if (recording_replay(rec, collector_record, &c)) {
		snprintf(err, TLAT_ERR_LEN, "cannot read the recording's events");
		goto out;
	}
	if (!info->has_meta)
		run->measure_start_ns = info->first_ts;
	end_ns = info->meta.end_ns && info->last_ts > info->meta.end_ns ? info->meta.end_ns
								       : info->last_ts;
	report_fill(&run->report, run, &c, info->user_data, end_ns);
	status = run_finish(run, ops, renderer, NULL, err);
out:
	collector_free(&c);
	if (src)
		ops->close(src);
	return status;
}

/*
 * The recording's CPUs, not this machine's, and its thresholds unless the
 * user gave others.
 */
static void report_params(struct tlat_params *p, const struct recording_info *info)
{
	if (!p->thresholds_set && info->has_meta) {
		p->stop_irq_us = info->meta.stop_irq_us;
		p->stop_thread_us = info->meta.stop_thread_us;
		p->stack_us = info->meta.stack_us;
	}
	if (!p->stop_irq_us && !p->stop_thread_us)
		p->no_aa = true;
	/* a file, not a terminal being refreshed */
	p->quiet = true;
}

enum tlat_exit tlat_report(const struct tlat_params *params, char *err)
{
	struct tlat_params p = *params;
	struct run run = { .params = &p };
	struct recording_info info;
	struct recording *rec;
	enum tlat_exit status = TLAT_EXIT_ERROR;

	if (params->hist.plot_file && render_plot_check(params->hist.plot_file, err))
		return TLAT_EXIT_ERROR;
	if (recording_open(&rec, params->recording, err))
		return TLAT_EXIT_ERROR;
	if (cpuset_init(&p.cpus, recording_cpus(rec))) {
		snprintf(err, TLAT_ERR_LEN, "out of memory");
		recording_close(rec);
		return TLAT_EXIT_ERROR;
	}
	cpuset_fill(&p.cpus);
	if (recording_scan(rec, &p, &info, err))
		goto out;
	report_params(&p, &info);
	if (p.debug)
		fprintf(stderr, "tlat: %s: %llu samples of the %s source, %s clock%s\n",
			p.recording, (unsigned long long)info.samples, info.ops->name,
			recording_clock(rec), info.has_meta ? ", written by tlat record" : "");
	/* a second pass needs a second open */
	recording_close(rec);
	if (recording_open(&rec, params->recording, err))
		goto out;
	status = run_replay(&run, rec, &info, err);
	if (status != TLAT_EXIT_ERROR && p.hist.plot_file && render_plot(&run.report, err))
		status = TLAT_EXIT_ERROR;
out:
	run_consumers_free(&run);
	recording_close(rec);
	cpuset_free(&p.cpus);
	return status;
}
