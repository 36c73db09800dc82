// SPDX-License-Identifier: GPL-2.0
/*
 * recording.c - reading a trace.dat (see recording.h). libtracecmd does the
 * reading and merges the CPUs in time order; this finds what recorded it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "recording.h"
#include "tracecmd_output.h"

#define RECORDING_MAX_SOURCES	8

struct recording {
	struct tracecmd_input *handle;
	struct tep_handle *tep;
};

int recording_meta_format(char *buf, size_t len, const struct recording_meta *m)
{
	return snprintf(buf, len, RECORDING_META_PREFIX " source=%s start_ns=%" PRIu64
			" end_ns=%" PRIu64 " irq_us=%" PRIu64 " thread_us=%" PRIu64
			" stack_us=%" PRIu64 " user=%d", m->source, m->start_ns, m->end_ns,
			m->stop_irq_us, m->stop_thread_us, m->stack_us, m->user_data);
}

bool recording_meta_parse(const char *text, size_t len, struct recording_meta *m)
{
	static const struct { const char *key; size_t offset; } keys[] = {
		{ "start_ns", offsetof(struct recording_meta, start_ns) },
		{ "end_ns", offsetof(struct recording_meta, end_ns) },
		{ "irq_us", offsetof(struct recording_meta, stop_irq_us) },
		{ "thread_us", offsetof(struct recording_meta, stop_thread_us) },
		{ "stack_us", offsetof(struct recording_meta, stack_us) },
	};
	size_t plen = strlen(RECORDING_META_PREFIX);
	char line[256];

	len = strnlen(text, len);
	if (len < plen || len >= sizeof(line) || strncmp(text, RECORDING_META_PREFIX, plen))
		return false;
	memcpy(line, text, len);
	line[len] = '\0';
	memset(m, 0, sizeof(*m));
	/* unknown keys are a later tlat's: skipped */
	for (char *save, *tok = strtok_r(line + plen, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			continue;
		*eq++ = '\0';
		if (!strcmp(tok, "source"))
			snprintf(m->source, sizeof(m->source), "%s", eq);
		if (!strcmp(tok, "user"))
			m->user_data = !strcmp(eq, "1");
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(tok, keys[i].key))
				*(u64 *)((char *)m + keys[i].offset) = strtoull(eq, NULL, 10);
	}
	return m->source[0] != '\0';
}

int recording_open(struct recording **out, const char *path, char *err)
{
	struct recording *rec;
	int fd;

	*out = NULL;
	/* libtracecmd does not say why it cannot open a file */
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, TLAT_ERR_LEN, "cannot open %s: %s", path, strerror(errno));
		return -errno;
	}
	close(fd);
	rec = calloc(1, sizeof(*rec));
	if (!rec)
		return -ENOMEM;
	/* its warnings about a bad file would be more lines than the one error */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	/* trace-cmd's plugins print events; tlat reads fields */
	rec->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
				    TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!rec->handle) {
		snprintf(err, TLAT_ERR_LEN, "%s is not a trace.dat file (trace-cmd's format)", path);
		free(rec);
		return -EINVAL;
	}
	rec->tep = tracecmd_get_tep(rec->handle);
	*out = rec;
	return 0;
}

struct tep_handle *recording_tep(const struct recording *rec)
{
	return rec->tep;
}

int recording_cpus(const struct recording *rec)
{
	int cpus = tep_get_cpus(rec->tep);

	return cpus > 0 ? cpus : 1;
}

const char *recording_clock(const struct recording *rec)
{
	const char *clock = tracecmd_get_trace_clock(rec->handle);

	return clock ? clock : "local";
}

struct replay {
	struct tep_handle *tep;
	recorder_record_fn fn;
	void *ctx;
};

static int replay_record(struct tracecmd_input *handle, struct tep_record *record, int cpu,
			 void *data)
{
	struct replay *r = data;
	struct tep_event *event = tep_find_event_by_record(r->tep, record);

	(void)handle;
	/* as the live readers: a record of an event without a format is skipped */
	if (event)
		r->fn(event, record, cpu, r->ctx);
	return 0;
}

int recording_replay(struct recording *rec, recorder_record_fn fn, void *ctx)
{
	struct replay r = { rec->tep, fn, ctx };

	return tracecmd_iterate_events(rec->handle, NULL, 0, replay_record, &r) < 0 ? -EIO : 0;
}

void recording_close(struct recording *rec)
{
	if (!rec)
		return;
	tracecmd_close(rec->handle);
	free(rec);
}

/* one source's decoder, counting the samples it finds */
struct scan_decoder {
	struct tlat_sink sink;		/* first: the decoder calls back through it */
	const struct tlat_source_ops *ops;
	struct tlat_source *src;
	u64 samples;
	u64 user_samples;
};

struct scan {
	struct scan_decoder decoders[RECORDING_MAX_SOURCES];
	int nr_decoders;
	struct recording_info *info;
	int print_id;			/* ftrace:print, where tlat record's line is */
	struct tep_format_field *print_buf;
};

static void scan_sample(struct tlat_sink *sink, const struct tlat_sample *sample)
{
	struct scan_decoder *d = (struct scan_decoder *)sink;

	d->samples++;
	d->user_samples += sample->ctx == TLAT_CTX_USER;
}

static void scan_meta(struct scan *scan, struct tep_record *record)
{
	int offset = scan->print_buf->offset;

	if (scan->info->has_meta || record->size <= offset)
		return;
	scan->info->has_meta = recording_meta_parse((const char *)record->data + offset,
						    record->size - offset, &scan->info->meta);
}

static int scan_record(struct tep_event *event, struct tep_record *record, int cpu, void *ctx)
{
	struct scan *scan = ctx;

	if (!scan->info->first_ts)
		scan->info->first_ts = record->ts;
	scan->info->last_ts = record->ts;
	if (event->id == scan->print_id && scan->print_buf)
		scan_meta(scan, record);
	for (int i = 0; i < scan->nr_decoders; i++) {
		struct scan_decoder *d = &scan->decoders[i];

		if (record->missed_events && d->ops->lost)
			d->ops->lost(d->src, cpu);
		d->ops->record(d->src, event, record, &d->sink);
	}
	return 0;
}

static void scan_pick(const struct scan *scan, struct recording_info *info)
{
	for (int i = 0; i < scan->nr_decoders; i++) {
		const struct scan_decoder *d = &scan->decoders[i];

		/* tlat record's word counts even for a run too short for samples */
		if (info->has_meta ? !strcmp(d->ops->name, info->meta.source) : d->samples > 0) {
			info->ops = d->ops;
			info->samples = d->samples;
			/* a stop at the first activation may have kept none */
			info->user_data = d->user_samples || info->meta.user_data;
			return;
		}
	}
}

int recording_scan(struct recording *rec, const struct tlat_params *params,
		   struct recording_info *info, char *err)
{
	struct tep_event *print = tep_find_event_by_name(rec->tep, "ftrace", "print");
	struct scan scan = { .info = info, .print_id = print ? print->id : -1 };
	const struct tlat_source_ops *ops;
	char why[TLAT_ERR_LEN];
	int ret;

	memset(info, 0, sizeof(*info));
	scan.print_buf = print ? tep_find_field(print, "buf") : NULL;
	/* a source whose events have no format in the file did not record it */
	for (size_t i = 0; (ops = source_nth(i)) && scan.nr_decoders < RECORDING_MAX_SOURCES; i++) {
		struct scan_decoder *d = &scan.decoders[scan.nr_decoders];

		*d = (struct scan_decoder){ .sink.sample = scan_sample, .ops = ops };
		if (ops->decoder && !ops->decoder(&d->src, params, rec->tep, why))
			scan.nr_decoders++;
		else if (d->src)
			ops->close(d->src);
	}
	ret = recording_replay(rec, scan_record, &scan);
	scan_pick(&scan, info);
	for (int i = 0; i < scan.nr_decoders; i++)
		scan.decoders[i].ops->close(scan.decoders[i].src);
	if (ret) {
		snprintf(err, TLAT_ERR_LEN, "cannot read the recording's events");
		return ret;
	}
	if (!info->ops) {
		snprintf(err, TLAT_ERR_LEN, info->has_meta ?
			 "the recording is of a source this tlat cannot decode" :
			 "the recording has no timerlat samples (ftrace:timerlat, tlat:tlat_sample or tlat's markers)");
		return -ENOENT;
	}
	return 0;
}
