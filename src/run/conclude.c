// SPDX-License-Identifier: GPL-2.0
/*
 * conclude.c - how a run ends, the same live and from a recording: a
 * threshold's actions (measure on, or end), then the report, built once,
 * and each output's stages in rtla's order: the statistics, the --on-end
 * actions, the stop and its analysis, the -e hist files, the documents;
 * the plot last, once the system is as it was.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/actions.h"
#include "run/run_local.h"
#include "run/signals.h"
#include "util/clock.h"

/* what the outputs read of a run measured up to now_ns: numbers and facts */
static void run_report_fill(struct run *run, struct tlat_report *r, u64 now_ns)
{
	const struct tlat_params *p = run->params;
	const struct tlat_collector *c = run->collector;
	const struct pipeline *pl = &run->pipeline;

	memset(r, 0, sizeof(*r));
	r->params = p;
	r->agg = run->agg;
	r->source = run->ops->name;
	r->user_data = run->user_data;
	r->pretty = p->out.mode == TLAT_MODE_TOP && !p->out.quiet && isatty(STDOUT_FILENO);
	r->elapsed_s = now_ns > pl->from_ns ? (now_ns - pl->from_ns) / 1000000000ull : 0;
	r->processed_events = c->counts.processed;
	r->missed_events = c->counts.missed_unknown ? TLAT_MISSED_UNKNOWN : c->counts.missed;
	r->threshold_hit = pl->stopped;
	r->hit = pl->hit_seen ? &pl->hit : NULL;
	r->hits = run->hits;
	r->interrupted = tlat_stop_requested;
	r->origin = run->origin;
	r->start_time = run->start_time;
	r->end_time = (time_t)-1;
}

/* the analysis wants names for stacks (-s) and kworkers' work (--dump-tasks) */
static bool run_aa_symbols(struct run *run)
{
	return (run->params->stop.stack_us || run->params->dump_tasks) && run_symbols(run);
}

/*
 * The analysis as data: every measured CPU that crossed a threshold, the
 * idle exit, and with --dump-tasks what each CPU ran (tasks: only with the
 * stop the text prints them with).
 */
static int run_report_aa(struct run *run, struct tlat_report_aa *aa, bool tasks)
{
	memset(aa, 0, sizeof(*aa));
	free(run->aa_results);
	free(run->aa_tasks);
	run->aa_results = NULL;
	run->aa_tasks = NULL;
	if (analysis_results(run->analysis, &run->aa_results, &aa->nr_results) ||
	    (tasks && run->params->dump_tasks &&
	     analysis_tasks(run->analysis, &run->aa_tasks, &aa->nr_tasks)))
		return -ENOMEM;
	aa->results = run->aa_results;
	aa->tasks = run->aa_tasks;
	aa->idle_exit = analysis_max_idle_exit(run->analysis, &aa->idle_exit_ns,
					       &aa->idle_exit_cpu);
	/* without them, --stack-format decides what the addresses show */
	if (run_aa_symbols(run)) {
		aa->symbol = analysis_symbol;
		aa->symbol_ctx = run->collector->tep;
	}
	return 0;
}

void run_frame(struct run *run, u64 now_ns)
{
	struct tlat_report r;

	run_report_fill(run, &r, now_ns);
	outputs_frame(run->outputs, &r);
}

static int run_actions(struct run *run, const struct tlat_actions *actions, char *err)
{
	const struct actions_env env = { run_trace_save, run };

	return actions_run(actions, &env, err);
}

static int run_hit_actions(struct run *run, char *err)
{
	run->hit_handled = true;
	return run_actions(run, &run->params->on_threshold, err);
}

int run_threshold(struct run *run, int (*resume)(void *ctx, char *err), void *ctx, char *err)
{
	struct tlat_report r;
	int ret;

	if (run->hit_handled)
		return 0;
	/* as rtla: top's refresh, the actions, then that refresh's ALL row */
	run_report_fill(run, &r, mono_now_ns());
	outputs_hit_frame(run->outputs, &r, false);
	ret = run_hit_actions(run, err);
	outputs_hit_frame(run->outputs, &r, true);
	if (ret != ACTIONS_CONTINUE)
		return ret < 0 ? ret : 0;
	/* each hit is reported as it happens: the next one would replace its analysis */
	run_report_fill(run, &r, 0);
	if (run->analysis) {
		if (run_report_aa(run, &run->report_aa, true)) {
			tlat_err(err, "out of memory");
			return -ENOMEM;
		}
		r.aa = &run->report_aa;
	}
	outputs_hit(run->outputs, &r);
	run->hits++;
	if (run->analysis)
		analysis_rearm(run->analysis);
	pipeline_resume(&run->pipeline);
	run->hit_handled = false;
	ret = resume ? resume(ctx, err) : 0;
	return ret ? ret : 1;
}

/* the report's facts only the documents show */
static int run_report_complete(struct run *run, struct tlat_report *r, char *err)
{
	int ret;

	if (run->analysis) {
		/* as the text: the tasks are printed with the stop's analysis */
		if (run_report_aa(run, &run->report_aa, r->threshold_hit)) {
			tlat_err(err, "out of memory");
			return -ENOMEM;
		}
		r->aa = &run->report_aa;
	}
	if (run->origin) {
		/* the recorded run's wall-clock window, where it says when it began */
		r->end_time = run->start_time == (time_t)-1 ? (time_t)-1 :
			      run->start_time + (time_t)r->elapsed_s;
		return 0;
	}
	ret = sysinfo_read(&run->sys);
	if (ret) {
		tlat_err(err, "cannot read the system's name: %s", strerror(-ret));
		return ret;
	}
	r->sys = &run->sys;
	return 0;
}

enum tlat_exit run_conclude(struct run *run, u64 end_ns, struct extra_events *events, char *err)
{
	struct tlat_report *r = &run->report;
	enum tlat_exit status;

	run_report_fill(run, r, end_ns);
	if (run_report_complete(run, r, err))
		return TLAT_EXIT_ERROR;
	outputs_summary(run->outputs, r);
	/* as rtla: after the statistics, before the stop's report */
	if (run_actions(run, &run->params->on_end, err) < 0)
		return TLAT_EXIT_ERROR;
	/* as rtla: a continue run that ends measuring passed, unless --report-hits */
	status = r->threshold_hit || (run->params->report_hits && run->hits) ?
		 TLAT_EXIT_THRESHOLD : TLAT_EXIT_PASS;
	outputs_conclusion(run->outputs, r);
	/* as rtla, last: it saves them when it takes its events down */
	if (extra_events_save_hists(events, &run->notes, err))
		status = TLAT_EXIT_ERROR;
	r->exit_status = status;
	if (!run->origin)
		r->end_time = time(NULL);
	if (outputs_document(run->outputs, r, err))
		status = TLAT_EXIT_ERROR;
	return status;
}

enum tlat_exit run_restored(struct run *run, enum tlat_exit status, char *err)
{
	if (status != TLAT_EXIT_ERROR && outputs_restored(run->outputs, &run->report, err))
		return TLAT_EXIT_ERROR;
	return status;
}
