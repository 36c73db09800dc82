// SPDX-License-Identifier: GPL-2.0
/*
 * json_run.c - what a JSON document says of the run itself: its command
 * line, its parsed options and the measured system. tlat record keeps it in
 * the recording (json_run_description()), so that tlat report's documents
 * say what the recorded run's would have said; of a recording tlat record
 * did not write, they say what the recording keeps, and null for the rest.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/actions.h"
#include "core/array.h"
#include "core/cpuset.h"
#include "output/json_doc.h"
#include "util/json_value.h"

/* a key of tlat record's description of the run, if the report has one */
static struct json_object *recorded(const struct tlat_report *r, const char *key)
{
	struct json_object *val;

	if (!r->origin || !r->origin->run || !json_object_object_get_ex(r->origin->run, key, &val))
		return NULL;
	return val;
}

/* the recorded run's value, shared with the description (which outlives the document) */
static struct json_object *recorded_copy(const struct tlat_report *r, const char *key)
{
	return json_object_get(recorded(r, key));
}

/* argument i of the recorded run's argv, or of this run's */
static const char *cmdline_arg(struct json_object *argv, const struct tlat_params *p, int i)
{
	const char *arg = argv ? json_object_get_string(json_object_array_get_idx(argv, i)) :
				 p->argv[i];

	return arg ? arg : "";
}

struct json_object *json_run_cmdline(const struct tlat_report *r)
{
	struct json_object *obj, *argv = recorded(r, "argv");
	const struct tlat_params *p = r->params;
	int argc;
	size_t len = 1;
	char *line;

	if (argv && !json_object_is_type(argv, json_type_array))
		argv = NULL;
	argc = argv ? (int)json_object_array_length(argv) : p->argc;
	for (int i = 0; i < argc; i++)
		len += strlen(cmdline_arg(argv, p, i)) + 1;
	line = calloc(1, len);
	if (!line)
		return NULL;
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(line, " ");
		strcat(line, cmdline_arg(argv, p, i));
	}
	obj = json_object_new_string(line);
	free(line);
	return obj;
}

int json_run_check(struct json_object *run)
{
	static const struct {
		const char *key;
		enum json_type type;
	} keys[] = {
		{ "argv", json_type_array },
		{ "options", json_type_object },
		{ "system", json_type_object },
		{ "start_time", json_type_int },
	};
	struct json_object *val;

	if (!json_object_is_type(run, json_type_object))
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (json_object_object_get_ex(run, keys[i].key, &val) &&
		    !json_object_is_type(val, keys[i].type))
			return -EINVAL;
	if (json_object_object_get_ex(run, "argv", &val))
		for (size_t i = 0; i < json_object_array_length(val); i++)
			if (!json_object_is_type(json_object_array_get_idx(val, i),
						 json_type_string))
				return -EINVAL;
	return 0;
}

static struct json_object *cpus_json(const struct tlat_cpuset *cpus)
{
	struct json_object *arr = json_object_new_array();

	for (int cpu = 0; arr && cpu < cpus->nr_cpus; cpu++)
		if (cpuset_has(cpus, cpu))
			json_object_array_add(arr, json_object_new_int(cpu));
	return arr;
}

static void uname_json(struct json_object *obj, const struct tlat_sysinfo *sys)
{
	json_add(obj, "sysname", json_object_new_string(sys->uts.sysname));
	json_add(obj, "nodename", json_object_new_string(sys->uts.nodename));
	json_add(obj, "release", json_object_new_string(sys->uts.release));
	json_add(obj, "version", json_object_new_string(sys->uts.version));
	json_add(obj, "machine", json_object_new_string(sys->uts.machine));
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
	json_add(obj, "policy", json_object_new_string(policy[s->policy]));
	json_add(obj, s->policy == SCHED_OTHER ? "nice" : "priority", json_object_new_int(s->prio));
	if (s->policy == SCHED_DEADLINE) {
		json_add(obj, "runtime_ns", json_u64(s->runtime_ns));
		json_add(obj, "period_ns", json_u64(s->period_ns));
	}
	return obj;
}

static struct json_object *hist_options_json(const struct tlat_hist_params *h)
{
	const struct { const char *key; bool on; } flags[] = {
		{ "no_irq", h->no_irq }, { "no_thread", h->no_thread },
		{ "no_header", h->no_header }, { "no_summary", h->no_summary },
		{ "no_index", h->no_index }, { "with_zeros", h->with_zeros },
	};
	struct json_object *obj = json_object_new_object();

	json_add(obj, "bucket_size", json_u64(h->bucket_size));
	json_add(obj, "entries", json_u64(h->entries));
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		json_add(obj, flags[i].key, json_object_new_boolean(flags[i].on));
	return obj;
}

/* the parsed options: what the run was asked to do, whatever the spelling */
static struct json_object *options_json(const struct tlat_params *p)
{
	static const char *const threads[] = { "auto", "kernel", "user" };
	static const char *const stack_format[] = { "truncate", "skip", "full" };
	/* -t/-a or the first trace action of --on-threshold: where a stop saves the trace */
	const struct tlat_action *trace = actions_first(&p->on_threshold, TLAT_ACTION_TRACE);
	struct json_object *obj = json_object_new_object();

	json_add(obj, "period_us", json_u64(p->period_us));
	json_add(obj, "duration_s", json_u64_or_null(p->duration_s));
	json_add(obj, "warm_up_s", json_u64(p->warmup_s));
	json_add(obj, "cpus", cpus_json(&p->cpus));
	json_add(obj, "house_keeping", p->housekeeping_set ? cpus_json(&p->housekeeping) : NULL);
	json_add(obj, "priority", priority_json(&p->sched));
	json_add(obj, "threads", json_object_new_string(threads[p->threads]));
	json_add(obj, "user_load", json_object_new_boolean(p->user_load));
	/* -C alone: tlat's own cgroup, "" */
	json_add(obj, "cgroup", p->cgroup_set ? json_object_new_string(p->cgroup ?: "") : NULL);
	json_add(obj, "irq_threshold_us", json_u64_or_null(p->stop.irq_us));
	json_add(obj, "thread_threshold_us", json_u64_or_null(p->stop.thread_us));
	json_add(obj, "stack_threshold_us", json_u64_or_null(p->stop.stack_us));
	json_add(obj, "auto_analysis", json_object_new_boolean(!p->no_aa));
	json_add(obj, "aa_only", json_object_new_boolean(p->out.aa_only));
	json_add(obj, "dump_tasks", json_object_new_boolean(p->dump_tasks));
	json_add(obj, "stack_format", json_object_new_string(stack_format[p->out.stack_format]));
	json_add(obj, "trace_file", json_string_or_null(trace ? trace->arg : NULL));
	json_add(obj, "quiet", json_object_new_boolean(p->out.quiet));
	json_add(obj, "nano", json_object_new_boolean(p->out.nano));
	json_add(obj, "debug", json_object_new_boolean(p->debug));
	json_add(obj, "dma_latency_us",
		 p->dma_latency_us >= 0 ? json_object_new_int(p->dma_latency_us) : NULL);
	json_add(obj, "trace_buffer_kb", json_u64_or_null(p->buffer_kb));
	json_add(obj, "source", json_object_new_string(p->source));
	json_add(obj, "sample_log", json_string_or_null(p->sample_log));
	json_add(obj, "json", json_string_or_null(p->out.json_path));
	json_add(obj, "json_format",
		 json_object_new_string(p->out.json_format == TLAT_JSON_RT_TESTS ? "rt-tests" : "tlat"));
	if (p->out.mode == TLAT_MODE_HIST)
		json_add(obj, "hist", hist_options_json(&p->out.hist));
	return obj;
}

static struct json_object *system_json(const struct tlat_sysinfo *sys)
{
	struct json_object *obj = json_object_new_object();

	uname_json(obj, sys);
	json_add(obj, "kernel_cmdline", json_string_or_null(sys->cmdline));
	json_add(obj, "cpu_model", json_string_or_null(sys->cpu_model));
	json_add(obj, "nr_cpus", json_object_new_int(sys->nr_cpus));
	json_add(obj, "nr_cpus_online", json_object_new_int(sys->nr_online));
	json_add(obj, "realtime", json_object_new_boolean(sys->realtime));
	return obj;
}

/*
 * A recording that tlat record did not write says only what trace-cmd
 * keeps: uname's "sysname nodename release machine", and its CPUs.
 */
static struct json_object *recording_system_json(const struct tlat_report_origin *o)
{
	static const char *const keys[] = { "sysname", "nodename", "release", "machine" };
	struct json_object *obj = json_object_new_object();
	char *copy = o->uname ? strdup(o->uname) : NULL, *save = NULL, *tok;

	tok = copy ? strtok_r(copy, " ", &save) : NULL;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		json_add(obj, keys[i], json_string_or_null(tok));
		tok = tok ? strtok_r(NULL, " ", &save) : NULL;
	}
	free(copy);
	json_add(obj, "version", NULL);
	json_add(obj, "kernel_cmdline", NULL);
	json_add(obj, "cpu_model", NULL);
	json_add(obj, "nr_cpus", json_object_new_int(o->nr_cpus));
	json_add(obj, "nr_cpus_online", NULL);
	json_add(obj, "realtime", NULL);
	return obj;
}

struct json_object *json_run_system(const struct tlat_report *r)
{
	if (recorded(r, "system"))
		return recorded_copy(r, "system");
	return r->origin ? recording_system_json(r->origin) : system_json(r->sys);
}

struct json_object *json_run_description(const struct tlat_params *p,
					 const struct tlat_sysinfo *sys, time_t start_time)
{
	struct json_object *obj = json_object_new_object();

	json_add(obj, "argv", argv_json(p));
	json_add(obj, "options", options_json(p));
	json_add(obj, "system", system_json(sys));
	json_add(obj, "start_time", json_object_new_int64(start_time));
	return obj;
}


struct json_object *json_run_argv(const struct tlat_report *r)
{
	return recorded(r, "argv") ? recorded_copy(r, "argv") : argv_json(r->params);
}

struct json_object *json_run_options(const struct tlat_report *r)
{
	return recorded(r, "options") ? recorded_copy(r, "options") : options_json(r->params);
}
