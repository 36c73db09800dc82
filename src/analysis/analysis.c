// SPDX-License-Identifier: GPL-2.0
/*
 * analysis.c - ties the auto-analysis engine to a run (see analysis.h).
 * Task names the events did not carry come from libproc2, or for a
 * recording from the task names it holds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libproc2/pids.h>

#include "analysis/aa_adapter.h"
#include "analysis/analysis.h"
#include "core/array.h"
#include "core/err.h"
#include "trace/event_fields.h"

struct analysis {
	const struct tlat_params *params;
	const struct aa_adapter_ops *ops;
	struct aa_adapter *adapter;
	struct aa_engine *aa;
	struct tep_handle *tep;	/* a recording's task names */
	bool offline;		/* a recording: its tasks are not this system's */
	/* the adapter's event systems, and workqueue for --dump-tasks; NULL-ended */
	const char **systems;
	/* --dump-tasks: what a kworker does, as rtla shows it; NULL if not recorded */
	struct tep_event *work_start;
	struct tep_format_field *work, *work_func;
};

int analysis_alloc(struct analysis **out, const struct tlat_params *p,
		   const struct aa_adapter_ops *interference)
{
	struct aa_config cfg = {
		.nr_cpus = p->cpus.nr_cpus,
		.irq_threshold_ns = p->stop.irq_us * 1000,
		.thread_threshold_ns = p->stop.thread_us * 1000,
		.stack_threshold_ns = p->stop.stack_us * 1000,
	};
	struct analysis *an;
	int nr = 0;

	*out = NULL;
	if (p->no_aa || !interference)
		return 0;
	an = calloc(1, sizeof(*an));
	if (!an)
		return -ENOMEM;
	an->params = p;
	an->ops = interference;
	while (an->ops->systems[nr])
		nr++;
	/* room for workqueue and the NULL */
	an->systems = calloc(nr + 2, sizeof(*an->systems));
	cfg.threads_from_switches = an->ops->threads_from_switches;
	an->aa = aa_alloc(&cfg);
	if (!an->systems || !an->aa) {
		analysis_free(an);
		return -ENOMEM;
	}
	memcpy(an->systems, an->ops->systems, nr * sizeof(*an->systems));
	if (p->dump_tasks)
		an->systems[nr] = "workqueue";
	*out = an;
	return 0;
}

const char *const *analysis_systems(const struct analysis *an)
{
	return an ? (const char *const *)an->systems : NULL;
}

static void analysis_record(void *priv, struct tep_event *event, struct tep_record *record)
{
	struct analysis *an = priv;

	if (an->work_start && event->id == an->work_start->id) {
		aa_add_work(an->aa, record->cpu, record->ts, aa_field_number(an->work, record),
			    aa_field_number(an->work_func, record));
		return;
	}
	an->ops->record(an->adapter, event, record);
}

/*
 * --dump-tasks names the work a kworker was doing, from its last
 * workqueue_execute_start, as rtla does. Live it is required; a recording
 * may not have it.
 */
static int analysis_work_open(struct analysis *an, struct tlat_collector *c, char *err)
{
	const struct event_field_want fields[] = {
		{ "work", &an->work }, { "function", &an->work_func },
	};
	struct tep_event *ev;

	if (!an->params->dump_tasks)
		return 0;
	ev = tep_find_event_by_name(c->tep, "workqueue", "workqueue_execute_start");
	if (!ev || event_fields_find(ev, fields, ARRAY_SIZE(fields))) {
		if (an->offline)
			return 0;
		tlat_err(err, "--dump-tasks needs the workqueue:workqueue_execute_start event");
		return -ENOENT;
	}
	an->work_start = ev;
	if (!an->offline &&
	    tracefs_event_enable(c->inst, "workqueue", "workqueue_execute_start")) {
		tlat_err(err, "cannot enable workqueue:workqueue_execute_start: %s",
			 strerror(errno));
		return -EIO;
	}
	return 0;
}

static void analysis_lost(void *priv, int cpu)
{
	struct analysis *an = priv;

	aa_lost(an->aa, cpu);
	if (an->ops->lost)
		an->ops->lost(an->adapter, cpu);
}

/* the adapter's nesting restarts as after a loss; the engine knows what is gone */
static void analysis_overwritten(void *priv, int cpu, u64 ts_ns)
{
	struct analysis *an = priv;

	aa_overwritten(an->aa, cpu, ts_ns);
	if (an->ops->lost)
		an->ops->lost(an->adapter, cpu);
}

int analysis_attach(struct analysis *an, struct tlat_collector *c, char *err)
{
	struct tlat_record_observer observer = {
		analysis_record, analysis_lost, analysis_overwritten, an
	};
	int ret;

	ret = an->ops->open(&an->adapter, c->tep, an->aa, an->params->dump_tasks, err);
	an->offline = !c->inst;
	an->tep = c->tep;
	if (!ret && !an->offline)
		ret = an->ops->enable(an->adapter, c->inst, err);
	if (!ret)
		ret = analysis_work_open(an, c, err);
	if (!ret && collector_observe(c, &observer)) {
		tlat_err(err, "out of memory");
		ret = -ENOMEM;
	}
	return ret;
}

static void analysis_sample(void *an, const struct tlat_sample *sample)
{
	aa_add_sample(((struct analysis *)an)->aa, sample);
}

void analysis_window(struct analysis *an, u64 from_ns, u64 until_ns)
{
	aa_set_window(an->aa, from_ns, until_ns);
}

static void analysis_stack(void *an, const struct tlat_stack *stack)
{
	aa_add_stack(((struct analysis *)an)->aa, stack);
}

/* every sample: an activation that straddles the start needs its IRQ sample */
const struct tlat_consumer_ops analysis_consumer_ops = {
	.whole_run = true,
	.sample = analysis_sample,
	.stack = analysis_stack,
};

/*
 * The comm of a live task, or of a recording's (its saved cmdlines), or of
 * the idle task, which the events call swapper/N.
 */
static void analysis_task_comm(const struct analysis *an, int pid, int cpu, char *comm)
{
	enum pids_item items[] = { PIDS_CMD };
	struct pids_info *info = NULL;
	struct pids_fetch *fetch;
	unsigned int pids[1] = { pid };

	if (comm[0])
		return;
	if (!pid) {
		snprintf(comm, AA_NAME_LEN, "swapper/%d", cpu);
		return;
	}
	snprintf(comm, AA_NAME_LEN, "<...>");
	if (an->offline) {
		if (pid > 0)
			snprintf(comm, AA_NAME_LEN, "%s", tep_data_comm_from_pid(an->tep, pid));
		return;
	}
	if (pid < 0 || procps_pids_new(&info, items, 1) < 0)
		return;
	fetch = procps_pids_select(info, pids, 1, PIDS_SELECT_PID);
	if (fetch && fetch->counts->total == 1)
		snprintf(comm, AA_NAME_LEN, "%s", PIDS_VAL(0, str, fetch->stacks[0], info));
	procps_pids_unref(&info);
}

const char *analysis_symbol(void *tep, u64 addr)
{
	return tep_find_function(tep, addr);
}

/* CPU cpu's explanation, if it is measured and crossed a threshold */
static bool analysis_cpu_result(struct analysis *an, int cpu, struct aa_result *res)
{
	const struct tlat_params *p = an->params;

	if (!CPU_ISSET_S(cpu, p->cpus.size, p->cpus.set) || !aa_result(an->aa, cpu, res))
		return false;
	analysis_task_comm(an, res->blocking_pid, cpu, res->blocking_comm);
	return true;
}

/* --dump-tasks: the task CPU cpu ran when tracing stopped, if the events showed one */
static bool analysis_cpu_task(struct analysis *an, int cpu, struct aa_task *task)
{
	if (!aa_current_task(an->aa, cpu, task))
		return false;
	analysis_task_comm(an, task->pid, cpu, task->comm);
	return true;
}

int analysis_results(struct analysis *an, struct aa_result **results, int *nr)
{
	int nr_cpus = an->params->cpus.nr_cpus;

	*nr = 0;
	*results = calloc(nr_cpus, sizeof(**results));
	if (!*results)
		return -ENOMEM;
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (analysis_cpu_result(an, cpu, &(*results)[*nr]))
			(*nr)++;
	return 0;
}

int analysis_tasks(struct analysis *an, struct aa_cpu_task **tasks, int *nr)
{
	int nr_cpus = an->params->cpus.nr_cpus;

	*nr = 0;
	*tasks = calloc(nr_cpus, sizeof(**tasks));
	if (!*tasks)
		return -ENOMEM;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		if (analysis_cpu_task(an, cpu, &(*tasks)[*nr].task))
			(*tasks)[(*nr)++].cpu = cpu;
	}
	return 0;
}

bool analysis_max_idle_exit(const struct analysis *an, u64 *latency_ns, int *cpu)
{
	return aa_max_idle_exit(an->aa, latency_ns, cpu);
}

void analysis_rearm(struct analysis *an)
{
	for (int cpu = 0; cpu < an->params->cpus.nr_cpus; cpu++)
		aa_rearm(an->aa, cpu);
}

void analysis_free(struct analysis *an)
{
	if (!an)
		return;
	if (an->adapter)
		an->ops->close(an->adapter);
	aa_free(an->aa);
	free(an->systems);
	free(an);
}
