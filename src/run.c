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
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis.h"
#include "cgroup.h"
#include "cli.h"
#include "collector.h"
#include "consumer.h"
#include "cpuset.h"
#include "ksyms.h"
#include "recording.h"
#include "render.h"
#include "run.h"
#include "systune.h"
#include "tracesave.h"

/* how often the buffers are drained: each pass has a fixed cost of ~0.2 ms */
#define RUN_POLL_NS	(250 * 1000000ull)
#define RUN_FRAME_NS	(1000 * 1000000ull)	/* top's refresh, as rtla's */
#define RUN_MAX_CONSUMERS 4
/* -t keeps what the kernel's own buffers would: its size on each CPU */
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
	struct tlat_consumer samplelog;
	struct analysis *analysis;	/* NULL: no auto-analysis */
	struct tracesave *trace;	/* NULL: no -t */
	struct tracefs_instance *inst;
	bool threshold_hit;
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

	if (run->threshold_hit || sample->ts_ns < run->measure_start_ns ||
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
	if (over_threshold(run->params, sample))
		run->threshold_hit = true;
}

static void run_stack(struct tlat_sink *sink, int cpu, u64 ts_ns, const u64 *ips, int nr)
{
	struct run *run = (struct run *)sink;

	if (run->analysis)
		analysis_stack(run->analysis, cpu, ts_ns, ips, nr);
}

static void analysis_consume(void *priv, const struct tlat_sample *sample)
{
	analysis_sample(priv, sample);
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

	report->params = p;
	report->stats = run->stats;
	report->hist = run->hist;
	report->user_data = user_data;
	report->pretty = p->mode == TLAT_MODE_TOP && !p->quiet && isatty(STDOUT_FILENO);
	report->elapsed_s = now_ns > run->measure_start_ns ?
			    (now_ns - run->measure_start_ns) / 1000000000ull : 0;
	report->processed_events = c->processed;
	report->missed_events = c->missed_unknown ? TLAT_MISSED_UNKNOWN : c->missed;
}

static int run_trace_init(struct run *run, struct tlat_collector *c, char *err)
{
	const struct tlat_params *p = run->params;
	struct tlat_record_observer observer = { trace_record, NULL, NULL };
	size_t kb = (p->buffer_kb ?: RUN_TRACE_DEFAULT_KB) * cpuset_count(&p->cpus);

	if (!p->trace_file)
		return 0;
	run->trace = tracesave_alloc(kb * 1024);
	if (!run->trace) {
		snprintf(err, TLAT_ERR_LEN, "cannot keep %zu kB of trace for -t: %s", kb,
			 strerror(errno));
		return -ENOMEM;
	}
	observer.priv = run->trace;
	collector_observe(c, &observer);
	return 0;
}

static int run_trace_save(struct run *run, struct tlat_collector *c,
			  const struct tlat_source_ops *ops, char *err)
{
	const char *path = run->params->trace_file;
	int ret;

	if (!run->trace)
		return 0;
	printf("  Saving trace to %s\n", path);
	ret = tracesave_write(run->trace, c->tep, ops->name, path);
	if (ret)
		snprintf(err, TLAT_ERR_LEN, "cannot save the trace to %s: %s", path, strerror(-ret));
	return ret;
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

/* the final output, live or from a recording: summary, then the stop and its analysis */
static enum tlat_exit run_print(struct run *run, const struct tlat_report *report,
				const struct tlat_renderer_ops *renderer, struct tep_handle *tep,
				bool symbols)
{
	const struct tlat_params *p = run->params;
	enum tlat_exit status = TLAT_EXIT_PASS;

	if (!p->aa_only)
		renderer->final(stdout, report);
	if (run->threshold_hit) {
		printf("timerlat hit stop tracing\n");
		if (run->analysis)
			analysis_report(run->analysis, stdout, tep, symbols);
		status = TLAT_EXIT_THRESHOLD;
	} else if (p->aa_only) {
		printf("  Max latency was %llu\n", (unsigned long long)run_max_latency_us(run));
	}
	fflush(stdout);
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
	struct timespec poll = { 0, RUN_POLL_NS };
	bool armed = !run->params->warmup_s;
	bool kernel_stopped;
	struct tlat_report report;
	u64 now;

	while (!tlat_stop_requested && !run->threshold_hit) {
		nanosleep(&poll, NULL);	/* a stop signal cuts it short */
		/* the kernel stopped the instance: what it wrote before still counts */
		kernel_stopped = !tracefs_trace_is_on(run->inst);
		if (collector_drain(c)) {
			snprintf(err, TLAT_ERR_LEN, "cannot %s the trace buffers: %s",
				 c->recorder ? "record" : "read", strerror(errno));
			return -EIO;
		}
		if (kernel_stopped)
			run->threshold_hit = true;
		now = mono_now_ns();
		if (end_ns && now >= end_ns)
			break;
		/* until the kernel stops are armed, run_sample() checks alone */
		if (!armed && now >= run->measure_start_ns) {
			armed = true;
			if (ops->arm_thresholds && ops->arm_thresholds(c->src)) {
				snprintf(err, TLAT_ERR_LEN, "cannot arm the stop thresholds after the warm-up");
				return -EIO;
			}
		}
		if (renderer->frame && now >= next_frame_ns) {
			report_fill(&report, run, c, ops->user_data(c->src), now);
			renderer->frame(stdout, &report);
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
	struct tlat_collector c;
	struct tlat_report report;
	enum tlat_exit status = TLAT_EXIT_ERROR;
	bool recording = p->command == TLAT_CMD_RECORD;
	bool symbols;
	u64 stopped_ns;
	int ret;

	ops = source_select(p->source, session, p->debug, err);
	if (!ops)
		return TLAT_EXIT_ERROR;
	if (analysis_alloc(&run->analysis, p, ops)) {
		snprintf(err, TLAT_ERR_LEN, "out of memory");
		return TLAT_EXIT_ERROR;
	}
	if (run->analysis)
		add_consumer(run, analysis_consume, run->analysis);
	/* a recording has every event's format: so that the counts are the same */
	if (collector_init(&c, session, ops, analysis_systems(run->analysis), recording, err))
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
	/* after the source: the adapter's events and filters win over its own */
	if (run->analysis && analysis_attach(run->analysis, &c, err))
		goto out_close;
	/* after the source set its tracer: the kernel keeps it while the buffers are read */
	if (recording && collector_record_to(&c, p->recording, p->cpus.nr_cpus, err))
		goto out_close;

	/* the trace clock is mono: sample times compare with CLOCK_MONOTONIC */
	run->measure_start_ns = mono_now_ns() + (u64)p->warmup_s * 1000000000ull;
	if (p->duration_s)
		run->measure_end_ns = run->measure_start_ns + p->duration_s * 1000000000ull;
	if (ops->start(src, err))
		goto out_stop;
	if (recording)
		run_record_meta(run, session->inst, ops, src);
	/* after start: the module creates its kernel threads only then */
	if (p->cgroup_set && cgroup_attach_measuring_threads(p->cgroup, err))
		goto out_stop;
	if (run_loop(run, &c, ops, renderer, err))
		goto out_stop;
	/*
	 * A stop tlat saw before the kernel did: let the kernel finish the
	 * activation first. With timerlat_fd it saves the stack only at the
	 * thread's return to read(), which stopping the threads would prevent.
	 */
	if (run->threshold_hit && tracefs_trace_is_on(run->inst))
		nanosleep(&(struct timespec){ 0, RUN_POLL_NS }, NULL);
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
	/* stacks and the saved trace's %ps fields want names; load them once */
	symbols = run->threshold_hit && (p->trace_file || (run->analysis && p->stack_us)) &&
		  !ksyms_load(c.tep);
	/* as rtla: the trace is saved before the final statistics are printed */
	if (run->threshold_hit && run_trace_save(run, &c, ops, err))
		goto out_close;
	if (p->debug)
		ops->report(src, stderr);
	/* the time measured, not that of writing files */
	report_fill(&report, run, &c, ops->user_data(src), stopped_ns);
	status = run_print(run, &report, renderer, c.tep, symbols);
	goto out_close;

out_stop:
	ops->stop(src);
out_close:
	/* first: while the recorder reads the buffers, the tracer cannot be cleared */
	collector_free(&c);
	if (src)
		ops->close(src);
	return status;
}

enum tlat_exit tlat_run(const struct tlat_params *params, char *err)
{
	struct run run = { .params = params };
	struct tlat_session session;
	enum tlat_exit status;
	int dma_fd;

	signals_install();
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
	if (session_open(&session, err)) {
		status = TLAT_EXIT_ERROR;
	} else {
		status = run_measure(&run, &session, err);
		session_close(&session);
	}
	if (dma_fd >= 0)
		close(dma_fd);
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
	struct tlat_report report;
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
	if (run->analysis)
		add_consumer(run, analysis_consume, run->analysis);
	collector_init_offline(&c, recording_tep(rec), ops);
	if (ops->decoder(&src, p, c.tep, err))
		goto out;
	collector_attach(&c, src, &run->sink);
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
	if (recording_replay(rec, collector_record, &c)) {
		snprintf(err, TLAT_ERR_LEN, "cannot read the recording's events");
		goto out;
	}
	if (!info->has_meta)
		run->measure_start_ns = info->first_ts;
	end_ns = info->meta.end_ns && info->last_ts > info->meta.end_ns ? info->meta.end_ns
								       : info->last_ts;
	report_fill(&report, run, &c, info->user_data, end_ns);
	/* a recording has the kallsyms of the machine it was taken on */
	status = run_print(run, &report, renderer, c.tep, true);
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
out:
	run_consumers_free(&run);
	recording_close(rec);
	cpuset_free(&p.cpus);
	return status;
}
