// SPDX-License-Identifier: GPL-2.0
/*
 * context.c - a run's state, set up before anything is measured and freed
 * at the end (see run_local.h): the outputs, the aggregate and the
 * consumers that fill it, and the auto-analysis. What the run's parts have
 * to say goes through the run's notes: rtla's own lines to the outputs,
 * where the text puts them; debug lines and warnings to the command.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_local.h"

static void run_note(void *ctx, enum tlat_note_kind kind, const char *line)
{
	struct run *run = ctx;

	if (kind == TLAT_NOTE_OUTPUT)
		outputs_note(run->outputs, line);
	else if (run->cmd_notes)
		run->cmd_notes->note(run->cmd_notes->ctx, kind, line);
}

/* the aggregate keeps what the outputs read: hist's buckets, the documents' percentiles */
static int run_aggregate_init(struct run *run, char *err)
{
	const struct tlat_params *p = run->params;
	bool hist = p->out.mode == TLAT_MODE_HIST;
	struct tlat_agg_layout layout = {
		.nr_cpus = p->cpus.nr_cpus,
		.entries = hist ? p->out.hist.entries : 0,
		/* buckets are in the display unit, samples in ns */
		.bucket_ns = (u64)p->out.hist.bucket_size * (p->out.nano ? 1 : 1000),
		.loglinear = p->out.json_path,
	};
	int ret;

	run->agg = agg_alloc(&layout);
	if (!run->agg) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	ret = pipeline_add(&run->pipeline, &stats_consumer_ops, run->agg);
	if (!ret && hist)
		ret = pipeline_add(&run->pipeline, &hist_consumer_ops, run->agg);
	if (!ret && layout.loglinear)
		ret = pipeline_add(&run->pipeline, &pctl_consumer_ops, run->agg);
	if (ret)
		tlat_err(err, "out of memory");
	return ret;
}

static int run_samplelog_init(struct run *run, char *err)
{
	const char *path = run->params->sample_log;
	FILE *f;
	int ret;

	if (!path)
		return 0;
	ret = samplelog_open(&f, path);
	if (ret) {
		tlat_err(err, "cannot open %s: %s", path, strerror(-ret));
		return ret;
	}
	ret = pipeline_add(&run->pipeline, &samplelog_consumer_ops, f);
	if (ret)
		tlat_err(err, "out of memory");
	return ret;
}

int run_init(struct run *run, const struct tlat_params *params, const struct tlat_notes *notes,
	     char *err)
{
	memset(run, 0, sizeof(*run));
	run->params = params;
	run->cmd_notes = notes;
	run->notes = (struct tlat_notes){ run_note, run };
	run->start_time = (time_t)-1;
	pipeline_init(&run->pipeline, params);
	/* a path that cannot be written fails here, before anything is measured */
	return outputs_open(&run->outputs, &params->out, err);
}

int run_consumers_init(struct run *run, char *err)
{
	return run_aggregate_init(run, err) ?: run_samplelog_init(run, err);
}

int run_analysis_init(struct run *run, const struct tlat_source_ops *ops, char *err)
{
	if (analysis_alloc(&run->analysis, run->params, ops->interference) ||
	    (run->analysis && pipeline_add(&run->pipeline, &analysis_consumer_ops, run->analysis))) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

void run_free(struct run *run)
{
	pipeline_free(&run->pipeline);
	text_save_free(run->trace);
	analysis_free(run->analysis);
	outputs_close(run->outputs);
	agg_free(run->agg);
	free(run->aa_results);
	free(run->aa_tasks);
}
