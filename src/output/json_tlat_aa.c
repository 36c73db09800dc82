// SPDX-License-Identifier: GPL-2.0
/*
 * json_tlat_aa.c - the auto-analysis in tlat's JSON document: the text's
 * lines as data (docs/tlat-json.schema.json, "auto_analysis"), every
 * latency in nanoseconds, kernel addresses as strings with their symbols.
 */
#include <stdio.h>

#include "output/json_doc.h"
#include "util/json_value.h"

static const char *const class_name[AA_NR_CLASS] = {
	[AA_NMI] = "nmi", [AA_IRQ] = "irq", [AA_SOFTIRQ] = "softirq", [AA_THREAD] = "thread",
};

static struct json_object *lines_json(const struct aa_line *lines, int nr)
{
	struct json_object *arr = json_object_new_array();

	for (int i = 0; arr && i < nr; i++) {
		struct json_object *line = json_object_new_object();

		if (!line)
			break;
		json_add(line, "name", json_object_new_string(lines[i].name));
		json_add(line, "id", json_object_new_int64(lines[i].id));
		json_add(line, "ns", json_u64(lines[i].ns));
		json_object_array_add(arr, line);
	}
	return arr;
}

/* a class: rtla's lines (one per occurrence) and tlat's (summed per source) */
static struct json_object *part_json(const struct aa_part *part)
{
	struct json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	json_add(obj, "ns", json_u64(part->sum_ns));
	json_add(obj, "occurrences", lines_json(part->occs, part->nr_occs));
	json_add(obj, "other_occurrences", json_object_new_int(part->nr_other_occs));
	json_add(obj, "other_occurrences_ns", json_u64(part->other_occs_ns));
	json_add(obj, "lines", lines_json(part->lines, part->nr_lines));
	json_add(obj, "others_ns", json_u64(part->other_ns));
	return obj;
}

/* a kernel address, with its symbol where known */
static struct json_object *address_json(u64 address, const struct tlat_report_aa *aa)
{
	struct json_object *obj = json_object_new_object();
	const char *sym = aa->symbol ? aa->symbol(aa->symbol_ctx, address) : NULL;
	char addr[24];

	/* a string: kernel addresses do not fit a JSON number's 53 bits */
	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)address);
	json_add(obj, "address", json_object_new_string(addr));
	json_add(obj, "symbol", json_string_or_null(sym));
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

	json_add(obj, "comm", json_string_or_null(res->blocking_comm));
	json_add(obj, "pid", res->blocking_pid >= 0 ? json_object_new_int(res->blocking_pid) : NULL);
	/* after an IRQ stop the thread had not run yet: no time to blame it for */
	json_add(obj, "ns", res->irq_stop ? NULL : json_u64(res->blocking_ns));
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

	json_add(obj, "cpu", json_object_new_int(res->cpu));
	json_add(obj, "stop", json_object_new_string(res->irq_stop ? "irq" : "thread"));
	json_add(obj, "seq", json_u64(res->seq));
	json_add(obj, "complete", json_object_new_boolean(res->complete));
	json_add(obj, "latency_ns", json_u64(res->total_ns));
	json_add(obj, "irq_latency_ns", json_u64(res->irq_latency_ns));
	json_add(obj, "thread_latency_ns", thread ? json_u64(res->thread_latency_ns) : NULL);
	json_add(obj, "irq_handler_delay_ns", json_u64(res->irq_delay_ns));
	json_add(obj, "exit_from_idle", json_object_new_boolean(res->exit_from_idle));
	json_add(obj, "previous_irq_ns", json_u64(res->prev_irq_ns));
	json_add(obj, "timer_irq_ns",
		 thread && res->timer_irq_seen ? json_u64(res->timer_irq_ns) : NULL);
	json_add(obj, "blocking_thread", blocking_json(res));
	json_add(obj, "stack", stack_json(res, aa));
	classes = json_object_new_object();
	for (int cls = 0; classes && cls < AA_NR_CLASS; cls++)
		json_add(classes, class_name[cls],
			 thread || cls == AA_NMI ? part_json(&res->parts[cls]) : NULL);
	json_add(obj, "interference", classes);
	json_add(obj, "unexplained_ns", thread ? json_object_new_int64(res->unexplained_ns) : NULL);
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
	json_add(obj, "work", address_json(task->work, aa));
	json_add(obj, "function", address_json(task->work_func, aa));
	return obj;
}

/* --dump-tasks: the text's "Printing CPU tasks:" lines */
static struct json_object *tasks_json(const struct tlat_report_aa *aa)
{
	struct json_object *arr = json_object_new_array(), *task;

	for (int i = 0; arr && i < aa->nr_tasks; i++) {
		task = json_object_new_object();
		json_add(task, "cpu", json_object_new_int(aa->tasks[i].cpu));
		json_add(task, "comm", json_object_new_string(aa->tasks[i].task.comm));
		json_add(task, "pid", json_object_new_int(aa->tasks[i].task.pid));
		json_add(task, "kworker", kworker_json(&aa->tasks[i].task, aa));
		json_object_array_add(arr, task);
	}
	return arr;
}

struct json_object *json_tlat_aa(const struct tlat_report_aa *aa)
{
	struct json_object *obj = json_object_new_object(), *arr, *idle = NULL;

	arr = json_object_new_array();
	for (int i = 0; arr && i < aa->nr_results; i++)
		json_object_array_add(arr, aa_result_json(&aa->results[i], aa));
	json_add(obj, "cpus", arr);
	if (aa->idle_exit) {
		idle = json_object_new_object();
		json_add(idle, "cpu", json_object_new_int(aa->idle_exit_cpu));
		json_add(idle, "latency_ns", json_u64(aa->idle_exit_ns));
	}
	json_add(obj, "max_idle_exit", idle);
	json_add(obj, "tasks", aa->tasks ? tasks_json(aa) : NULL);
	return obj;
}

