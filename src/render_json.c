// SPDX-License-Identifier: GPL-2.0
/*
 * render_json.c - tlat's own JSON document, schema "tlat/1"
 * (docs/tlat-json.schema.json): everything the text shows and what it
 * cannot, as data, so that CI reads results instead of scraping rtla's
 * text. Every latency is in nanoseconds, whatever -n says; only the
 * histogram keeps the text's buckets and unit. A field that has no value
 * (a context with no sample, an unknown count) is null, never left out.
 */
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"
#include "actions.h"
#include "render_json.h"
#include "version.h"

#define ISO_8601	"%Y-%m-%dT%H:%M:%SZ"

static const char *const ctx_name[TLAT_NR_CTX] = { "irq", "thread", "user" };

static const struct {
	const char *key;
	u32 ppm;
} percentiles[] = {
	{ "p50", 500000 }, { "p90", 900000 }, { "p99", 990000 }, { "p99_9", 999000 },
	{ "p99_99", 999900 },
};

static const char *const class_name[AA_NR_CLASS] = {
	[AA_NMI] = "nmi", [AA_IRQ] = "irq", [AA_SOFTIRQ] = "softirq", [AA_THREAD] = "thread",
};

static void add(struct json_object *obj, const char *key, struct json_object *val)
{
	json_object_object_add(obj, key, val);
}

static struct json_object *u64_json(u64 v)
{
	return json_object_new_uint64(v);
}

/* 0 means "off" or "not set" for many options: null says so */
static struct json_object *u64_or_null(u64 v)
{
	return v ? json_object_new_uint64(v) : NULL;
}

struct json_object *render_json_string(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

struct json_object *render_json_cmdline(const struct tlat_params *p)
{
	struct json_object *obj;
	size_t len = 1;
	char *line;

	for (int i = 0; i < p->argc; i++)
		len += strlen(p->argv[i]) + 1;
	line = calloc(1, len);
	if (!line)
		return NULL;
	for (int i = 0; i < p->argc; i++) {
		if (i)
			strcat(line, " ");
		strcat(line, p->argv[i]);
	}
	obj = json_object_new_string(line);
	free(line);
	return obj;
}

static struct json_object *cpus_json(const struct tlat_cpuset *cpus)
{
	struct json_object *arr = json_object_new_array();

	for (int cpu = 0; arr && cpu < cpus->nr_cpus; cpu++)
		if (cpuset_has(cpus, cpu))
			json_object_array_add(arr, json_object_new_int(cpu));
	return arr;
}

struct json_object *render_json_time(time_t t, const char *format, bool utc)
{
	char buf[64];
	struct tm tm;

	if (!(utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) ||
	    !strftime(buf, sizeof(buf), format, &tm))
		return NULL;
	return json_object_new_string(buf);
}

void render_json_uname(struct json_object *obj, const struct tlat_sysinfo *sys)
{
	add(obj, "sysname", json_object_new_string(sys->uts.sysname));
	add(obj, "nodename", json_object_new_string(sys->uts.nodename));
	add(obj, "release", json_object_new_string(sys->uts.release));
	add(obj, "version", json_object_new_string(sys->uts.version));
	add(obj, "machine", json_object_new_string(sys->uts.machine));
}

static struct json_object *argv_json(const struct tlat_params *p)
{
	struct json_object *arr = json_object_new_array();

	for (int i = 0; arr && i < p->argc; i++)
		json_object_array_add(arr, json_object_new_string(p->argv[i]));
	return arr;
}

static struct json_object *priority_json(const struct tlat_sched *s)
{
	static const char *const policy[] = {
		[SCHED_OTHER] = "other", [SCHED_FIFO] = "fifo", [SCHED_RR] = "rr",
		[SCHED_DEADLINE] = "deadline",
	};
	struct json_object *obj;

	if (!s->set)
		return NULL;
	obj = json_object_new_object();
	if (!obj)
		return NULL;
	add(obj, "policy", json_object_new_string(policy[s->policy]));
	add(obj, s->policy == SCHED_OTHER ? "nice" : "priority", json_object_new_int(s->prio));
	if (s->policy == SCHED_DEADLINE) {
		add(obj, "runtime_ns", u64_json(s->runtime_ns));
		add(obj, "period_ns", u64_json(s->period_ns));
	}
	return obj;
}

static struct json_object *hist_options_json(const struct tlat_hist_params *h)
{
	struct json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	add(obj, "bucket_size", u64_json(h->bucket_size));
	add(obj, "entries", u64_json(h->entries));
	add(obj, "no_irq", json_object_new_boolean(h->no_irq));
	add(obj, "no_thread", json_object_new_boolean(h->no_thread));
	add(obj, "no_header", json_object_new_boolean(h->no_header));
	add(obj, "no_summary", json_object_new_boolean(h->no_summary));
	add(obj, "no_index", json_object_new_boolean(h->no_index));
	add(obj, "with_zeros", json_object_new_boolean(h->with_zeros));
	return obj;
}

/* the parsed options: what the run was asked to do, whatever the spelling */
/* -t/-a or the first trace action of --on-threshold: where a stop saves the trace */
static const char *json_trace_file(const struct tlat_params *p)
{
	for (int i = 0; i < p->on_threshold.nr; i++)
		if (p->on_threshold.list[i].type == TLAT_ACTION_TRACE)
			return p->on_threshold.list[i].arg;
	return NULL;
}

static struct json_object *options_json(const struct tlat_params *p)
{
	static const char *const threads[] = { "auto", "kernel", "user" };
	static const char *const stack_format[] = { "truncate", "skip", "full" };
	struct json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	add(obj, "period_us", u64_json(p->period_us));
	add(obj, "duration_s", u64_or_null(p->duration_s));
	add(obj, "warm_up_s", u64_json(p->warmup_s));
	add(obj, "cpus", cpus_json(&p->cpus));
	add(obj, "house_keeping", p->housekeeping_set ? cpus_json(&p->housekeeping) : NULL);
	add(obj, "priority", priority_json(&p->sched));
	add(obj, "threads", json_object_new_string(threads[p->threads]));
	add(obj, "user_load", json_object_new_boolean(p->user_load));
	/* -C alone: tlat's own cgroup, "" */
	add(obj, "cgroup", p->cgroup_set ? json_object_new_string(p->cgroup ?: "") : NULL);
	add(obj, "irq_threshold_us", u64_or_null(p->stop_irq_us));
	add(obj, "thread_threshold_us", u64_or_null(p->stop_thread_us));
	add(obj, "stack_threshold_us", u64_or_null(p->stack_us));
	add(obj, "auto_analysis", json_object_new_boolean(!p->no_aa));
	add(obj, "aa_only", json_object_new_boolean(p->aa_only));
	add(obj, "dump_tasks", json_object_new_boolean(p->dump_tasks));
	add(obj, "stack_format", json_object_new_string(stack_format[p->stack_format]));
	add(obj, "trace_file", render_json_string(json_trace_file(p)));
	add(obj, "quiet", json_object_new_boolean(p->quiet));
	add(obj, "nano", json_object_new_boolean(p->nano));
	add(obj, "debug", json_object_new_boolean(p->debug));
	add(obj, "dma_latency_us", p->dma_latency_us >= 0 ? json_object_new_int(p->dma_latency_us)
							  : NULL);
	add(obj, "trace_buffer_kb", u64_or_null(p->buffer_kb));
	add(obj, "source", json_object_new_string(p->source));
	add(obj, "sample_log", render_json_string(p->sample_log));
	add(obj, "json", render_json_string(p->json_path));
	add(obj, "json_format", json_object_new_string(p->json_format == TLAT_JSON_RT_TESTS ?
						       "rt-tests" : "tlat"));
	if (p->mode == TLAT_MODE_HIST)
		add(obj, "hist", hist_options_json(&p->hist));
	return obj;
}

static struct json_object *system_json(const struct tlat_sysinfo *sys)
{
	struct json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	render_json_uname(obj, sys);
	add(obj, "kernel_cmdline", render_json_string(sys->cmdline));
	add(obj, "cpu_model", render_json_string(sys->cpu_model));
	add(obj, "nr_cpus", json_object_new_int(sys->nr_cpus));
	add(obj, "nr_cpus_online", json_object_new_int(sys->nr_online));
	add(obj, "realtime", json_object_new_boolean(sys->realtime));
	return obj;
}

/* one CPU's percentiles, or (cpu < 0) those of every measured CPU together */
static struct json_object *percentiles_json(const struct tlat_report *r, int cpu,
					    enum tlat_ctx ctx)
{
	struct json_object *obj;
	u64 ns;

	if (!r->pctl)
		return NULL;
	obj = json_object_new_object();
	for (size_t i = 0; obj && i < sizeof(percentiles) / sizeof(percentiles[0]); i++) {
		bool ok = cpu < 0 ? pctl_get_merged(r->pctl, &r->params->cpus, ctx,
						     percentiles[i].ppm, &ns)
				  : pctl_get(r->pctl, cpu, ctx, percentiles[i].ppm, &ns);

		if (!ok) {
			json_object_put(obj);
			return NULL;
		}
		add(obj, percentiles[i].key, u64_json(ns));
	}
	return obj;
}

/* the histogram of one CPU's context: the text's non-empty rows and its over: */
static struct json_object *hist_json(const struct tlat_report *r, int cpu, enum tlat_ctx ctx)
{
	struct json_object *obj = json_object_new_object(), *buckets = json_object_new_array();
	unsigned int entries = hist_entries(r->hist);

	if (!obj || !buckets) {
		json_object_put(obj);
		json_object_put(buckets);
		return NULL;
	}
	for (unsigned int b = 0; b < entries; b++) {
		u64 n = hist_bucket(r->hist, cpu, ctx, b);
		struct json_object *row;

		if (!n)
			continue;
		row = json_object_new_array_ext(2);
		if (!row)
			break;
		json_object_array_add(row, u64_json((u64)b * r->params->hist.bucket_size));
		json_object_array_add(row, u64_json(n));
		json_object_array_add(buckets, row);
	}
	add(obj, "buckets", buckets);
	add(obj, "over", u64_json(hist_bucket(r->hist, cpu, ctx, entries)));
	return obj;
}

static struct json_object *ctx_json(const struct tlat_report *r, const struct tlat_stat *st,
				    int cpu, enum tlat_ctx ctx)
{
	struct json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	add(obj, "count", u64_json(st->count));
	add(obj, "min", st->count ? u64_json(st->min) : NULL);
	add(obj, "avg", st->count ? u64_json(st->sum / st->count) : NULL);
	add(obj, "max", st->count ? u64_json(st->max) : NULL);
	add(obj, "percentiles", percentiles_json(r, cpu, ctx));
	if (r->hist && cpu >= 0)
		add(obj, "histogram", hist_json(r, cpu, ctx));
	return obj;
}

static int nr_ctx(const struct tlat_report *r)
{
	return r->user_data ? TLAT_NR_CTX : TLAT_CTX_USER;
}

static struct json_object *contexts_json(const struct tlat_report *r)
{
	struct json_object *arr = json_object_new_array();

	for (int ctx = 0; arr && ctx < nr_ctx(r); ctx++)
		json_object_array_add(arr, json_object_new_string(ctx_name[ctx]));
	return arr;
}

/* every measured CPU, also one that produced nothing: CI wants to see that */
static struct json_object *per_cpu_json(const struct tlat_report *r)
{
	struct json_object *arr = json_object_new_array(), *obj;

	for (int cpu = 0; arr && cpu < stats_nr_cpus(r->stats); cpu++) {
		if (!cpuset_has(&r->params->cpus, cpu))
			continue;
		obj = json_object_new_object();
		if (!obj)
			break;
		add(obj, "cpu", json_object_new_int(cpu));
		for (int ctx = 0; ctx < nr_ctx(r); ctx++)
			add(obj, ctx_name[ctx],
			    ctx_json(r, stats_get(r->stats, cpu, ctx), cpu, ctx));
		json_object_array_add(arr, obj);
	}
	return arr;
}

/* the text's ALL row, and the percentiles of all samples together */
static struct json_object *all_json(const struct tlat_report *r)
{
	struct json_object *obj = json_object_new_object();
	struct tlat_stat all;

	for (int ctx = 0; obj && ctx < nr_ctx(r); ctx++) {
		memset(&all, 0, sizeof(all));
		for (int cpu = 0; cpu < stats_nr_cpus(r->stats); cpu++)
			if (cpuset_has(&r->params->cpus, cpu))
				stat_merge(&all, stats_get(r->stats, cpu, ctx));
		add(obj, ctx_name[ctx], ctx_json(r, &all, -1, ctx));
	}
	return obj;
}

static struct json_object *hist_desc_json(const struct tlat_report *r)
{
	struct json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	add(obj, "unit", json_object_new_string(r->params->nano ? "ns" : "us"));
	add(obj, "bucket_size", u64_json(r->params->hist.bucket_size));
	add(obj, "entries", u64_json(hist_entries(r->hist)));
	return obj;
}

static struct json_object *events_json(const struct tlat_report *r)
{
	struct json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	add(obj, "processed", u64_json(r->processed_events));
	add(obj, "missed", r->missed_events == TLAT_MISSED_UNKNOWN ? NULL
								    : u64_json(r->missed_events));
	return obj;
}

static struct json_object *threshold_json(const struct tlat_report *r)
{
	struct json_object *obj = json_object_new_object(), *s = NULL;

	if (!obj)
		return NULL;
	add(obj, "hit", json_object_new_boolean(r->threshold_hit));
	if (r->threshold_hit && r->hit) {
		s = json_object_new_object();
		if (s) {
			add(s, "cpu", json_object_new_int(r->hit->cpu));
			add(s, "context", json_object_new_string(ctx_name[r->hit->ctx]));
			add(s, "latency_ns", u64_json(r->hit->latency_ns));
			add(s, "seq", u64_json(r->hit->seq));
		}
	}
	add(obj, "sample", s);
	return obj;
}

/* one interference class: its sum and a line per source, as the text lists them */
static struct json_object *part_json(const struct aa_part *part)
{
	struct json_object *obj = json_object_new_object(), *lines = json_object_new_array();

	if (!obj || !lines) {
		json_object_put(obj);
		json_object_put(lines);
		return NULL;
	}
	for (int i = 0; i < part->nr_lines; i++) {
		struct json_object *line = json_object_new_object();

		if (!line)
			break;
		add(line, "name", json_object_new_string(part->lines[i].name));
		add(line, "id", json_object_new_int64(part->lines[i].id));
		add(line, "ns", u64_json(part->lines[i].ns));
		json_object_array_add(lines, line);
	}
	add(obj, "ns", u64_json(part->sum_ns));
	add(obj, "lines", lines);
	add(obj, "others_ns", u64_json(part->other_ns));
	return obj;
}

/* a kernel address, with its symbol where known */
static struct json_object *address_json(u64 address, const struct tlat_report_aa *aa)
{
	struct json_object *obj = json_object_new_object();
	const char *sym = aa->symbol ? aa->symbol(aa->symbol_ctx, address) : NULL;
	char addr[24];

	if (!obj)
		return NULL;
	/* a string: kernel addresses do not fit a JSON number's 53 bits */
	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)address);
	add(obj, "address", json_object_new_string(addr));
	add(obj, "symbol", render_json_string(sym));
	return obj;
}

/* every frame, with its symbol where known (--stack-format is for the text) */
static struct json_object *stack_json(const struct aa_result *res, const struct tlat_report_aa *aa)
{
	struct json_object *arr = json_object_new_array();

	for (int i = 0; arr && i < res->nr_frames; i++)
		json_object_array_add(arr, address_json(res->frames[i], aa));
	return arr;
}

static struct json_object *blocking_json(const struct aa_result *res)
{
	struct json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	add(obj, "comm", render_json_string(res->blocking_comm));
	add(obj, "pid", res->blocking_pid >= 0 ? json_object_new_int(res->blocking_pid) : NULL);
	/* after an IRQ stop the thread had not run yet: no time to blame it for */
	add(obj, "ns", res->irq_stop ? NULL : u64_json(res->blocking_ns));
	return obj;
}

/*
 * One CPU's explanation, with the text's fields. After an IRQ stop only
 * what precedes the IRQ handler applies: the rest is null, as the text
 * leaves it out.
 */
static struct json_object *aa_result_json(const struct aa_result *res,
					  const struct tlat_report_aa *aa)
{
	struct json_object *obj = json_object_new_object(), *classes;
	bool thread = !res->irq_stop;

	if (!obj)
		return NULL;
	add(obj, "cpu", json_object_new_int(res->cpu));
	add(obj, "stop", json_object_new_string(res->irq_stop ? "irq" : "thread"));
	add(obj, "seq", u64_json(res->seq));
	add(obj, "complete", json_object_new_boolean(res->complete));
	add(obj, "latency_ns", u64_json(res->total_ns));
	add(obj, "irq_latency_ns", u64_json(res->irq_latency_ns));
	add(obj, "thread_latency_ns", thread ? u64_json(res->thread_latency_ns) : NULL);
	add(obj, "irq_handler_delay_ns", u64_json(res->irq_delay_ns));
	add(obj, "exit_from_idle", json_object_new_boolean(res->exit_from_idle));
	add(obj, "previous_irq_ns", u64_json(res->prev_irq_ns));
	add(obj, "timer_irq_ns",
	    thread && res->timer_irq_seen ? u64_json(res->timer_irq_ns) : NULL);
	add(obj, "blocking_thread", blocking_json(res));
	add(obj, "stack", stack_json(res, aa));
	classes = json_object_new_object();
	for (int cls = 0; classes && cls < AA_NR_CLASS; cls++)
		add(classes, class_name[cls],
		    thread || cls == AA_NMI ? part_json(&res->parts[cls]) : NULL);
	add(obj, "interference", classes);
	add(obj, "unexplained_ns", thread ? json_object_new_int64(res->unexplained_ns) : NULL);
	return obj;
}

/* a kworker's work item and its function; NULL if the task is doing none */
static struct json_object *kworker_json(const struct aa_task *task,
					const struct tlat_report_aa *aa)
{
	struct json_object *obj;

	if (!task->work_func)
		return NULL;
	obj = json_object_new_object();
	if (obj) {
		add(obj, "work", address_json(task->work, aa));
		add(obj, "function", address_json(task->work_func, aa));
	}
	return obj;
}

/* --dump-tasks: the text's "Printing CPU tasks:" lines */
static struct json_object *tasks_json(const struct tlat_report_aa *aa)
{
	struct json_object *arr = json_object_new_array(), *task;

	for (int i = 0; arr && i < aa->nr_tasks; i++) {
		task = json_object_new_object();
		if (task) {
			add(task, "cpu", json_object_new_int(aa->tasks[i].cpu));
			add(task, "comm", json_object_new_string(aa->tasks[i].task.comm));
			add(task, "pid", json_object_new_int(aa->tasks[i].task.pid));
			add(task, "kworker", kworker_json(&aa->tasks[i].task, aa));
		}
		json_object_array_add(arr, task);
	}
	return arr;
}

static struct json_object *aa_json(const struct tlat_report_aa *aa)
{
	struct json_object *obj = json_object_new_object(), *arr, *idle = NULL;

	if (!obj)
		return NULL;
	arr = json_object_new_array();
	for (int i = 0; arr && i < aa->nr_results; i++)
		json_object_array_add(arr, aa_result_json(&aa->results[i], aa));
	add(obj, "cpus", arr);
	if (aa->idle_exit) {
		idle = json_object_new_object();
		if (idle) {
			add(idle, "cpu", json_object_new_int(aa->idle_exit_cpu));
			add(idle, "latency_ns", u64_json(aa->idle_exit_ns));
		}
	}
	add(obj, "max_idle_exit", idle);
	add(obj, "tasks", aa->tasks ? tasks_json(aa) : NULL);
	return obj;
}

static const char *end_reason(const struct tlat_report *r)
{
	if (r->threshold_hit)
		return "threshold";
	return r->interrupted ? "signal" : "duration";
}

struct json_object *render_json_tlat(const struct tlat_report *r)
{
	const struct tlat_params *p = r->params;
	struct json_object *doc = json_object_new_object(), *tool;

	if (!doc)
		return NULL;
	add(doc, "schema_version", json_object_new_string(TLAT_JSON_SCHEMA_VERSION));
	tool = json_object_new_object();
	if (tool) {
		add(tool, "name", json_object_new_string("tlat"));
		add(tool, "version", json_object_new_string(TLAT_VERSION));
	}
	add(doc, "tool", tool);
	add(doc, "command", json_object_new_string(p->mode == TLAT_MODE_HIST ? "hist" : "top"));
	add(doc, "argv", argv_json(p));
	add(doc, "options", options_json(p));
	add(doc, "system", system_json(r->sys));
	add(doc, "source", render_json_string(r->source));
	add(doc, "start_time", render_json_time(r->start_time, ISO_8601, true));
	add(doc, "end_time", render_json_time(r->end_time, ISO_8601, true));
	add(doc, "duration_s", u64_json(r->elapsed_s));
	add(doc, "end", json_object_new_string(end_reason(r)));
	add(doc, "exit_status", json_object_new_int(r->exit_status));
	add(doc, "unit", json_object_new_string("ns"));
	add(doc, "contexts", contexts_json(r));
	add(doc, "cpus", per_cpu_json(r));
	add(doc, "all", all_json(r));
	add(doc, "histogram", r->hist ? hist_desc_json(r) : NULL);
	add(doc, "events", events_json(r));
	add(doc, "threshold", threshold_json(r));
	add(doc, "auto_analysis", r->aa ? aa_json(r->aa) : NULL);
	return doc;
}
