// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - tlat report: a recording's records through the source's own
 * decoder, the same pipeline and the same outputs as the run that recorded
 * it, so that a report of tlat record's recording prints what the run did.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/array.h"
#include "core/cpuset.h"
#include "output/json_doc.h"
#include "run/run_local.h"
#include "tracedat/dat_read.h"
#include "util/sandbox.h"

/* the bounds of the child that reads a recording: see tlat_replay() */
#define REPLAY_AS_BASE		(1UL << 30)
#define REPLAY_AS_MAX		(64UL << 30)
#define REPLAY_SECONDS_BASE	20
#define REPLAY_BYTES_PER_SECOND	(2UL << 20)
/* room for every source's decoder */
#define REPLAY_MAX_SOURCES	8

/*
 * What the decoder hands the pipeline, counted on the way: where tlat
 * record's line named the source, the scan decoded nothing.
 */
struct replay_count {
	struct tlat_sink sink;		/* first: the decoder calls back through it */
	struct tlat_sink *next;
	u64 samples;
	u64 user_samples;
};

static void count_sample(struct tlat_sink *sink, const struct tlat_sample *sample)
{
	struct replay_count *count = (struct replay_count *)sink;

	count->samples++;
	count->user_samples += sample->ctx == TLAT_CTX_USER;
	count->next->sample(count->next, sample);
}

static void count_stack(struct tlat_sink *sink, const struct tlat_stack *stack)
{
	struct replay_count *count = (struct replay_count *)sink;

	count->next->stack(count->next, stack);
}

static enum tlat_exit replay(struct run *run, struct dat_reader *rec,
			     struct dat_reader_info *info, char *err)
{
	const struct tlat_decoder_ops *dec = run->ops->decoder;
	struct replay_count count = {
		.sink = { .sample = count_sample, .stack = count_stack },
		.next = &run->pipeline.sink,
	};
	const struct tlat_params *p = run->params;
	const char *clock = dat_reader_clock(rec);
	enum tlat_exit status = TLAT_EXIT_ERROR;
	int ret;
	struct tlat_source *src = NULL;
	struct tlat_collector c;
	char why[TLAT_ERR_LEN];
	u64 end_ns;

	if (dec->clock && strcmp(clock, dec->clock)) {
		tlat_err(err, "the %s source's records need the %s trace clock, not %s",
			 run->ops->name, dec->clock, clock);
		return TLAT_EXIT_ERROR;
	}
	if (run_consumers_init(run, err) || run_analysis_init(run, run->ops, err))
		return TLAT_EXIT_ERROR;
	collector_init_offline(&c, dat_reader_tep(rec), dec);
	run->collector = &c;
	if (dec->open(&src, p, c.tep, err))
		goto out;
	collector_attach(&c, src, &count.sink);
	/* its kallsyms, parsed only if a stack or --dump-tasks needs a name (run_symbols()) */
	run->recording = rec;
	if (run->analysis && analysis_attach(run->analysis, &c, err)) {
		snprintf(why, sizeof(why), "%s", err);
		tlat_err(err, "the recording cannot be analysed (%.160s): record its events, or use --no-aa",
			 why);
		goto out;
	}
	/* the same window as the run: no warm-up, nothing past -d */
	pipeline_window(&run->pipeline, info->meta.start_ns, info->meta.end_ns);
	if (run->analysis)
		analysis_window(run->analysis, info->meta.start_ns, info->meta.end_ns);
	ret = dat_reader_replay(rec, collector_record, &c);
	if (ret) {
		dat_reader_error(rec, ret, err);
		goto out;
	}
	info->samples = count.samples;
	info->last_ts = dat_reader_last_ts(rec);
	/* a stop at the first activation may have kept none */
	run->user_data = info->user_data || count.user_samples;
	if (p->debug)
		tlat_note(run->cmd_notes, TLAT_NOTE_DEBUG, "tlat: %s: %llu samples of the %s source, %s clock%s",
			  p->recording, (unsigned long long)info->samples, run->ops->name, clock,
			  info->has_meta ? ", written by tlat record" : "");
	/* without tlat record's line, the measured time runs from the first record */
	if (!info->has_meta)
		run->pipeline.from_ns = info->first_ts;
	end_ns = info->meta.end_ns && info->last_ts > info->meta.end_ns ? info->meta.end_ns
								       : info->last_ts;
	status = run_conclude(run, end_ns, NULL, err);
out:
	collector_free(&c);
	if (src)
		dec->close(src);
	return status;
}

/*
 * The recording's CPUs, not this machine's, and its thresholds unless the
 * user gave others.
 */
static void replay_params(struct tlat_params *p, const struct dat_reader_info *info)
{
	if (!p->thresholds_set && info->has_meta) {
		p->stop.irq_us = info->meta.stop_irq_us;
		p->stop.thread_us = info->meta.stop_thread_us;
		p->stop.stack_us = info->meta.stack_us;
	}
	if (!p->stop.irq_us && !p->stop.thread_us)
		p->no_aa = true;
	/* a file, not a terminal being refreshed */
	p->out.quiet = true;
}

/*
 * For the JSON documents: tlat record's description of its run, or what
 * trace-cmd keeps of the machine (its uname, its CPUs); start_time is when
 * the recorded run began, or (time_t)-1 if the recording does not say.
 */
static int replay_origin(struct tlat_report_origin *origin, struct dat_reader *rec,
			 const struct dat_reader_info *info, struct run *run, char *err)
{
	struct json_object *start;

	run->origin = origin;
	run->start_time = (time_t)-1;
	origin->nr_cpus = dat_reader_cpus(rec);
	if (dat_reader_uname(rec)) {
		origin->uname = strdup(dat_reader_uname(rec));
		if (!origin->uname) {
			tlat_err(err, "out of memory");
			return -ENOMEM;
		}
	}
	if (!info->run.json)
		return 0;
	origin->run = json_tokener_parse(info->run.json);
	if (!origin->run || json_run_check(origin->run)) {
		tlat_err(err, "the recording's description of its run (%s) is damaged",
			 DAT_RUN_PREFIX);
		return -EINVAL;
	}
	if (json_object_object_get_ex(origin->run, "start_time", &start) &&
	    json_object_is_type(start, json_type_int))
		run->start_time = (time_t)json_object_get_int64(start);
	return 0;
}

/* every source's decoder, in auto's order: whichever finds its samples in a recording */
static size_t replay_decoders(struct dat_decoder *decoders, size_t max)
{
	const struct tlat_source_ops *ops;
	size_t n = 0;

	while (n < max && (ops = source_nth(n))) {
		decoders[n] = (struct dat_decoder){ ops->name, ops->decoder };
		n++;
	}
	return n;
}

enum tlat_exit tlat_replay_here(const struct tlat_params *params, const struct tlat_notes *notes,
				char *err)
{
	struct dat_decoder decoders[REPLAY_MAX_SOURCES];
	size_t nr_decoders = replay_decoders(decoders, ARRAY_SIZE(decoders));
	struct tlat_report_origin origin = { .run = NULL, .uname = NULL };
	struct dat_reader_info info = { .samples = 0 };
	enum tlat_exit status = TLAT_EXIT_ERROR;
	struct tlat_params p = *params;
	struct dat_reader *rec = NULL;
	struct run run;

	if (run_init(&run, &p, notes, err) || dat_reader_open(&rec, params->recording, err))
		goto out_free;
	if (cpuset_init(&p.cpus, dat_reader_cpus(rec))) {
		tlat_err(err, "out of memory");
		goto out_free;
	}
	cpuset_fill(&p.cpus);
	if (dat_reader_scan(rec, &p, decoders, nr_decoders, &info, err))
		goto out;
	run.ops = source_nth(info.decoder - decoders);
	replay_params(&p, &info);
	if (replay_origin(&origin, rec, &info, &run, err))
		goto out;
	status = replay(&run, rec, &info, err);
	status = run_restored(&run, status, err);
out:
	cpuset_free(&p.cpus);
out_free:
	run_free(&run);
	dat_reader_close(rec);
	dat_reader_info_free(&info);
	json_object_put(origin.run);
	free(origin.uname);
	return status;
}

struct replay_job {
	const struct tlat_params *params;
	const struct tlat_notes *notes;
};

static int replay_child(void *arg, char *err)
{
	const struct replay_job *job = arg;

	return tlat_replay_here(job->params, job->notes, err);
}

/*
 * libtracecmd and libtraceevent trust the file: damaged headers or event
 * formats crash them, or make them loop or allocate what a size read from
 * the file says. The whole report runs in a child whose memory and time
 * grow with the file's size only, and a child that does not end by itself
 * is one line saying that the file is damaged.
 */
enum tlat_exit tlat_replay(const struct tlat_params *params, const struct tlat_notes *notes,
			   char *err)
{
	struct replay_job job = { .params = params, .notes = notes };
	struct sandbox_limits lim = { 0 };
	struct stat st;
	size_t size = 0;
	int ret;

	if (!stat(params->recording, &st) && st.st_size > 0)
		size = (size_t)st.st_size;
	/* tlat report reads some 70 MB/s; a page of the file is not 8 in memory */
	lim.as_bytes = REPLAY_AS_BASE + (size < REPLAY_AS_MAX / 8 ? size * 8 : REPLAY_AS_MAX);
	lim.seconds = REPLAY_SECONDS_BASE + (unsigned int)(size / REPLAY_BYTES_PER_SECOND);
	ret = sandbox_run(replay_child, &job, &lim, params->recording, err);
	if (ret == SANDBOX_FAILED)
		return TLAT_EXIT_ERROR;
	return (enum tlat_exit)ret;
}
