// SPDX-License-Identifier: GPL-2.0
/*
 * tracepoints.c - the source for kernels with neither the timerlat tracer
 * nor tlat.ko: tlat's own threads (tp_thread.c) sleep on a period grid, and
 * the stock events hrtimer_start, hrtimer_expire_entry and sched_switch tell
 * when the kernel armed, fired and switched to them (raw_syscalls:sys_exit
 * where the switch is not traced). Each thread writes its
 * own wakeup time through trace_marker_raw into the same buffer, so all three
 * latencies share one clock (mono, the clock of the hrtimers) and one order.
 * This file is the source's life cycle: it sets the events up and chooses
 * the collector; tp_decode.c decodes their records into the pairing
 * (tp_pair.h).
 *
 * With --collector kernel, where nothing reads those events (collect.h), BPF
 * programs pair the timer and the switch in the kernel instead (tp_bpf.h),
 * and each thread, once
 * awake, completes its activation from its slot and counts the samples in
 * its own aggregate, or queues them where the run needs them one by one
 * (tp_thread.c): no event in the buffer, no write, nothing to decode. Where the
 * auto-analysis is all that reads events, its events go to the instance,
 * in overwrite mode, and nothing reads them until a threshold is hit: the
 * thread whose sample crossed it turns the instance off at once, and the
 * run decodes the buffer then (measure.c), the moments before the hit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "analysis/aa_adapter.h"
#include "core/array.h"
#include "core/err.h"
#include "sources/collect.h"
#include "sources/tracepoints/tp_bpf.h"
#include "sources/tracepoints/tracepoints_local.h"
#include "stats/aggregate.h"
#include "trace/event_fields.h"
#include "util/clock.h"

#define TP_STR2(x)		#x
#define TP_STR(x)		TP_STR2(x)

#define TP_DEFAULT_BUFFER_KB	4096
/*
 * -s: the stack at the expiry of every sleeper's timer (ours among them),
 * as timerlat saves one at each of its IRQs. Filtering a function pointer
 * by name needs 6.2+; without it there is no stack, and nothing else is lost.
 */
#define TP_STACK_TRIGGER	"stacktrace if function.function == hrtimer_wakeup"
/* the kernel rejects filter strings of a page or more */
#define TP_MAX_FILTER_LEN	3072

static int tp_probe(struct tlat_session *session, char *err)
{
	(void)session;
	for (int i = 0; i < TP_NR_EVENTS; i++) {
		if (!tracefs_event_file_exists(NULL, tp_events[i].system, tp_events[i].name,
					       "format")) {
			tlat_err(err, "the kernel has no %s:%s event",
				 tp_events[i].system, tp_events[i].name);
			return -ENOENT;
		}
	}
	if (!tracefs_file_exists(NULL, "trace_marker_raw")) {
		tlat_err(err, "the kernel has no trace_marker_raw");
		return -ENOENT;
	}
	return 0;
}

/* the BPF programs load and attach here, for no thread */
static int tp_kernel_probe(char *err)
{
	pid_t none = 0;
	struct tp_bpf *bpf;
	int ret = tp_bpf_open(&bpf, &none, 1, err);

	tp_bpf_close(bpf);
	return ret;
}

/* only our threads' timers and switches matter: keep the rest out of the buffer */
static int tp_set_filters(struct tlat_source *src)
{
	static const struct { enum tp_event event; const char *field; const char *extra; } filters[] = {
		{ TP_START, "common_pid", "" },
		{ TP_SWITCH, "next_pid", "" },
		{ TP_SYSEXIT, "common_pid", "&&id==" TP_STR(SYS_clock_nanosleep) },
	};
	int nr_cpus = src->params->cpus.nr_cpus;

	for (size_t i = 0; i < ARRAY_SIZE(filters); i++) {
		const struct tp_event_desc *d = &tp_events[filters[i].event];
		char *filter = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&filter, &len);
		const char *sep = "(";
		int ret;

		if (!f)
			return -ENOMEM;
		for (int cpu = 0; cpu < nr_cpus; cpu++) {
			pid_t tid = workload_tid(src->wl, cpu);

			if (tid) {
				fprintf(f, "%s%s==%d", sep, filters[i].field, tid);
				sep = "||";
			}
		}
		fprintf(f, ")%s", filters[i].extra);
		fclose(f);
		ret = 0;
		if (len < TP_MAX_FILTER_LEN)
			ret = tracefs_event_file_write(src->session->inst, d->system, d->name,
						       "filter", filter) < 0 ? -EIO : 0;
		free(filter);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * With the kernel collector, the auto-analysis's events stay in the
 * instance's buffer, which overwrites its oldest in the meantime (the
 * option is the instance's: it goes with it), and the measuring threads
 * can turn the instance off at a hit (tp_thread.c), a few microseconds
 * after it rather than up to a poll later, while the buffer still holds
 * the moments before it.
 */
static int tp_defer_events(struct tlat_source *src, char *err)
{
	struct tracefs_instance *inst = src->session->inst;
	char *path;

	src->deferred = true;
	if (tracefs_option_enable(inst, TRACEFS_OPTION_OVERWRITE)) {
		tlat_err(err, "cannot set the instance's overwrite option: %s", strerror(errno));
		return -EIO;
	}
	path = tracefs_instance_get_file(inst, "tracing_on");
	src->stop_fd = path ? open(path, O_WRONLY | O_CLOEXEC) : -1;
	tracefs_put_tracing_file(path);
	if (src->stop_fd < 0) {
		tlat_err(err, "cannot open the instance's tracing_on: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}

/*
 * The kernel collector where --collector kernel asks for it (the command
 * line refused it where something but the analysis reads the events, and
 * the analysis's are read only at a hit), both collectors for --collector
 * both; else the trace collector, and why. auto does not take it: some
 * kernels run no BPF program while certain tasks are current, in the timer
 * IRQs that hit them included, and those activations (on one machine
 * measured, about two in a thousand at 100 us) are dropped, where the
 * trace collector drops none (bench/README.md).
 */
static int tp_collector_open(struct tlat_source *src, char *err)
{
	const struct tlat_params *p = src->params;
	int nr_cpus = p->cpus.nr_cpus;
	pid_t *tids;
	int ret;

	if (p->collect != TLAT_COLLECT_KERNEL && p->collect != TLAT_COLLECT_BOTH) {
		src->trace_why = p->collect == TLAT_COLLECT_TRACE ? "--collector trace"
				: "auto (--collector kernel counts in the kernel)";
		return 0;
	}
	if (p->collect == TLAT_COLLECT_BOTH) {
		src->trace_why = "--collector both";
		src->beside = true;
		src->beside_agg = agg_alloc(&(struct tlat_agg_layout){ .nr_cpus = nr_cpus,
								       .loglinear = true });
		if (!src->beside_agg) {
			tlat_err(err, "out of memory");
			return -ENOMEM;
		}
	}
	tids = calloc(nr_cpus, sizeof(*tids));
	ret = tids ? tp_queues_alloc(src) : -ENOMEM;
	for (int cpu = 0; !ret && cpu < nr_cpus; cpu++)
		tids[cpu] = workload_tid(src->wl, cpu);
	if (ret)
		tlat_err(err, "out of memory");
	else
		ret = tp_bpf_open(&src->bpf, tids, nr_cpus, err);
	free(tids);
	if (!ret && !src->beside && collect_needs_trace(p))
		ret = tp_defer_events(src, err);
	return ret;
}

static int tp_open(struct tlat_source **out, const struct tlat_params *params,
		   struct tlat_session *session, struct tep_handle *tep, char *err)
{
	struct tracefs_instance *inst = session->inst;
	struct tlat_source *src;
	int ret;

	src = calloc(1, sizeof(*src));
	if (!src)
		return -ENOMEM;
	*out = src;
	src->params = params;
	src->session = session;
	src->stop_fd = -1;
	if (params->threads == TLAT_THREADS_KERNEL || params->user_load) {
		tlat_err(err, "the tracepoints source measures only its own threads (no -k, -U)");
		return -EINVAL;
	}

	tracefs_trace_off(inst);
	if (tracefs_instance_set_buffer_size(inst, params->buffer_kb ?: TP_DEFAULT_BUFFER_KB, -1)) {
		tlat_err(err, "cannot set the trace buffer size: %s", strerror(errno));
		return -EIO;
	}
	ret = tp_decode_init(src, tep, err);
	if (ret)
		return ret;
	ret = workload_create(&src->wl, &params->cpus, &params->sched, &tp_workload_ops, src,
			      "tlat/", err);
	if (!ret)
		ret = tp_collector_open(src, err);
	if (ret || !tp_writes_markers(src))
		return ret;
	if (tracefs_binary_init(inst)) {
		tlat_err(err, "cannot open trace_marker_raw: %s", strerror(errno));
		return -EIO;
	}
	for (int cpu = 0; cpu < params->cpus.nr_cpus; cpu++)
		tp_pairing_set_thread(src->pairing, cpu, workload_tid(src->wl, cpu));

	if (params->stop.stack_us) {
		kstack_event_init(&src->stack, tep, "ftrace", "kernel_stack", "size", "caller");
		src->stack_trigger = tracefs_event_file_write(inst, "timer", "hrtimer_expire_entry",
							      "trigger", TP_STACK_TRIGGER) > 0;
	} else {
		src->stack.id = -1;
	}
	ret = tp_set_filters(src);
	for (int i = 0; !ret && i < TP_NR_EVENTS; i++)
		if (tp_events[i].enable &&
		    tracefs_event_enable(inst, tp_events[i].system, tp_events[i].name))
			ret = -EIO;
	if (ret)
		tlat_err(err, "cannot enable the timer and sched events: %s",
			 strerror(errno));
	return ret;
}

static int tp_start(struct tlat_source *src, char *err)
{
	if (tracefs_trace_on(src->session->inst)) {
		tlat_err(err, "cannot turn tracing on: %s", strerror(errno));
		return -EIO;
	}
	/* the threads read these after the start gate, which orders them */
	src->align_base_ns = mono_now_ns() + src->params->period_us * 1000;
	src->stop_from_ns = mono_now_ns() + (u64)src->params->warmup_s * 1000000000ull;
	if (src->params->duration_s)
		src->window_end_ns = src->stop_from_ns + src->params->duration_s * 1000000000ull;
	workload_start(src->wl);
	return 0;
}

static void tp_stop(struct tlat_source *src)
{
	if (src->wl)
		workload_stop(src->wl);
	tracefs_trace_off(src->session->inst);
}

/*
 * --collector both: what the kernel collector counted of the same
 * activations, per CPU and context, to compare with the run's results
 */
static void tp_report_beside(struct tlat_source *src, const struct tlat_notes *notes)
{
	static const u32 ppm[] = { 500000, 990000, 999000 };

	for (int cpu = 0; cpu < src->params->cpus.nr_cpus; cpu++) {
		for (int ctx = 0; agg_cpu_has_data(src->beside_agg, cpu) && ctx < TLAT_NR_CTX;
		     ctx++) {
			const struct tlat_stat *st = agg_stat(src->beside_agg, cpu, ctx);
			u64 p[ARRAY_SIZE(ppm)] = { 0 };

			for (size_t i = 0; i < ARRAY_SIZE(ppm); i++)
				agg_percentile(src->beside_agg, cpu, ctx, ppm[i], &p[i]);
			tlat_note(notes, TLAT_NOTE_DEBUG,
				  "tlat: tracepoints: beside, collector kernel: CPU %d %s: %llu samples, min %llu, max %llu, p50 %llu, p99 %llu, p99.9 %llu ns",
				  cpu, tlat_ctx_name[ctx], (unsigned long long)st->count,
				  (unsigned long long)st->min, (unsigned long long)st->max,
				  (unsigned long long)p[0], (unsigned long long)p[1],
				  (unsigned long long)p[2]);
		}
	}
	tlat_note(notes, TLAT_NOTE_DEBUG,
		  "tlat: tracepoints: beside, collector kernel: %llu activations dropped for missing events, %llu samples lost",
		  (unsigned long long)tp_queues_dropped(src), (unsigned long long)src->beside_lost);
}

static void tp_report(struct tlat_source *src, const struct tlat_notes *notes)
{
	u64 dropped = tp_dropped(src->pairing);

	if (src->beside) {
		tlat_note(notes, TLAT_NOTE_DEBUG, "tlat: tracepoints: collector trace: %s",
			  src->trace_why);
		tp_report_beside(src, notes);
	} else if (src->bpf) {
		tlat_note(notes, TLAT_NOTE_DEBUG, "tlat: tracepoints: collector kernel (BPF)");
		if (src->aggs)
			tlat_note(notes, TLAT_NOTE_DEBUG,
				  "tlat: tracepoints: samples aggregated by the measuring threads");
		else
			tlat_note(notes, TLAT_NOTE_DEBUG,
				  "tlat: tracepoints: samples queued one by one, for %s",
				  src->queue_why);
		if (src->deferred)
			tlat_note(notes, TLAT_NOTE_DEBUG,
				  "tlat: tracepoints: the auto-analysis's events in overwrite mode, decoded only at a hit");
		dropped += tp_queues_dropped(src);
	} else {
		tlat_note(notes, TLAT_NOTE_DEBUG, "tlat: tracepoints: collector trace: %s",
			  src->trace_why);
	}
	tlat_note(notes, TLAT_NOTE_DEBUG, "tlat: tracepoints: %llu activations dropped for missing events",
		  (unsigned long long)dropped);
	if (src->params->stop.stack_us && !src->stack_trigger)
		tlat_note(notes, TLAT_NOTE_DEBUG,
			  "tlat: tracepoints: this kernel cannot filter a stack trigger by function: no -s stacks");
}

static bool tp_user_data(const struct tlat_source *src)
{
	(void)src;
	return true;
}

static bool tp_events_deferred(const struct tlat_source *src)
{
	return src->deferred;
}

void tp_close(struct tlat_source *src)
{
	if (!src)
		return;
	if (src->stop_fd >= 0)
		close(src->stop_fd);
	if (src->wl) {
		workload_stop(src->wl);
		workload_free(src->wl);
	}
	if (src->session && tp_writes_markers(src))
		tracefs_binary_close(src->session->inst);
	agg_free(src->beside_agg);
	tp_bpf_close(src->bpf);
	tp_queues_free(src);
	if (src->stack_trigger)
		tracefs_event_file_write(src->session->inst, "timer", "hrtimer_expire_entry",
					 "trigger", "!stacktrace");
	tp_pairing_free(src->pairing);
	free(src);
}

static const struct tlat_kernel_collector_ops tp_kernel_ops = {
	.probe = tp_kernel_probe,
	.with_aa = "its events in overwrite mode, decoded only at a hit",
	.drain = tp_drain,
	.events_deferred = tp_events_deferred,
};

const struct tlat_source_ops tracepoints_source_ops = {
	.name = "tracepoints",
	.decoder = &tp_decoder_ops,
	.kernel = &tp_kernel_ops,
	.interference = &aa_stock_ops,
	.probe = tp_probe,
	.open = tp_open,
	.start = tp_start,
	.stop = tp_stop,
	.report = tp_report,
	.user_data = tp_user_data,
	.close = tp_close,
};
