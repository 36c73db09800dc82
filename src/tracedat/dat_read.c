// SPDX-License-Identifier: GPL-2.0
/*
 * dat_read.c - reading a trace.dat (see dat_read.h). dat_open.h opens it
 * with libtracecmd, dat_pages.h merges the CPUs in time order; this finds
 * what recorded it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "tracedat/dat_check.h"
#include "tracedat/dat_open.h"
#include "tracedat/dat_pages.h"
#include "tracedat/dat_read.h"
#include "tracedat/tracecmd_private.h"

/* the first bytes of every trace.dat */
#define DAT_MAGIC	"\027\010\104tracing"

struct dat_reader {
	const char *path;		/* the caller's */
	int fd;				/* the file, for its kallsyms */
	/* kallsyms' text left unread at open, to read when first needed; size 0: none */
	struct dat_range kallsyms;
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	struct dat_pages *pages;
};

int dat_reader_open(struct dat_reader **out, const char *path, char *err)
{
	char head[sizeof(DAT_MAGIC) - 1], what[TLAT_ERR_LEN];
	struct dat_layout layout = { .version = 0 };
	struct dat_reader *rec;
	bool magic;
	int fd, ret;

	*out = NULL;
	/* libtracecmd does not say why it cannot open a file */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		tlat_err(err, "cannot open %s: %s", path, strerror(errno));
		return -errno;
	}
	/* trace-cmd's magic: a trace.dat whose headers libtracecmd refuses is damaged */
	magic = read(fd, head, sizeof(head)) == sizeof(head) &&
		!memcmp(head, DAT_MAGIC, sizeof(head));
	/* the sizes and offsets libtracecmd would trust */
	ret = magic ? dat_check(fd, &layout, what, sizeof(what)) : 0;
	if (ret) {
		close(fd);
		tlat_err(err, ret == -EBADMSG ? "%s is damaged: %s" : "cannot read %s: %s", path,
			 ret == -EBADMSG ? what : strerror(-ret));
		return ret;
	}
	rec = calloc(1, sizeof(*rec));
	if (!rec) {
		close(fd);
		return -ENOMEM;
	}
	rec->path = path;
	rec->fd = fd;
	/* its warnings about a bad file would be more lines than the one error */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	rec->handle = magic ? dat_open(fd, path, &layout, &rec->kallsyms) : NULL;
	if (!rec->handle) {
		tlat_err(err, magic ? "%s is damaged: libtracecmd cannot read its headers" :
			 "%s is not a trace.dat file (trace-cmd's format)", path);
		dat_reader_close(rec);
		return -EINVAL;
	}
	rec->tep = tracecmd_get_tep(rec->handle);
	if (dat_pages_alloc(&rec->pages, rec->handle)) {
		tlat_err(err, "out of memory");
		dat_reader_close(rec);
		return -ENOMEM;
	}
	if (dat_pages_check_file(rec->pages, path, what, sizeof(what))) {
		tlat_err(err, "%s is damaged: %s", path, what);
		dat_reader_close(rec);
		return -EBADMSG;
	}
	*out = rec;
	return 0;
}

int dat_reader_symbols(struct dat_reader *rec)
{
	u64 size = rec->kallsyms.size;
	char *buf;
	int ret = 0;

	if (!size)
		return 0;
	/* once, whatever comes of it */
	rec->kallsyms.size = 0;
	buf = malloc(size + 1);
	if (!buf)
		return -ENOMEM;
	for (u64 done = 0; !ret && done < size;) {
		ssize_t n = pread(rec->fd, buf + done, size - done,
				  (off_t)(rec->kallsyms.at + done));

		if (n <= 0)
			ret = n ? -errno : -EIO;
		else
			done += (u64)n;
	}
	/* as libtracecmd's read_proc_kallsyms(), which ignores what it returns */
	if (!ret) {
		buf[size] = '\0';
		tep_parse_kallsyms(rec->tep, buf);
	}
	free(buf);
	return ret;
}

void dat_reader_info_free(struct dat_reader_info *info)
{
	dat_run_free(&info->run);
}

struct tep_handle *dat_reader_tep(const struct dat_reader *rec)
{
	return rec->tep;
}

int dat_reader_page_size(const struct dat_reader *rec)
{
	return tracecmd_page_size(rec->handle);
}

int dat_reader_cpus(const struct dat_reader *rec)
{
	int cpus = tep_get_cpus(rec->tep);

	return cpus > 0 ? cpus : 1;
}

const char *dat_reader_uname(const struct dat_reader *rec)
{
	const char *uname = tracecmd_get_uname(rec->handle);

	return uname && *uname ? uname : NULL;
}

const char *dat_reader_clock(const struct dat_reader *rec)
{
	const char *clock = tracecmd_get_trace_clock(rec->handle);

	return clock ? clock : "local";
}

int dat_reader_replay(struct dat_reader *rec, dat_record_fn fn, void *ctx)
{
	return dat_pages_replay(rec->pages, fn, ctx);
}

void dat_reader_error(const struct dat_reader *rec, int ret, char *err)
{
	char what[TLAT_ERR_LEN];

	if (ret == -EBADMSG && dat_pages_damage(rec->pages, what, sizeof(what)))
		tlat_err(err, "%s is damaged: %s", rec->path, what);
	else
		tlat_err(err, "cannot read the recording's events");
}

u64 dat_reader_last_ts(const struct dat_reader *rec)
{
	return dat_pages_last_ts(rec->pages);
}

void dat_reader_close(struct dat_reader *rec)
{
	if (!rec)
		return;
	dat_pages_free(rec->pages);
	if (rec->handle)
		tracecmd_close(rec->handle);
	close(rec->fd);
	free(rec);
}

/* one source's decoder, counting the samples it finds */
struct scan_decoder {
	struct tlat_sink sink;		/* first: the decoder calls back through it */
	const struct dat_decoder *dec;
	struct tlat_source *src;
	u64 samples;
	u64 user_samples;
};

struct scan {
	struct scan_decoder *decoders;	/* one per source that can decode it */
	int nr_decoders;
	struct dat_reader_info *info;
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
	const char *text = (const char *)record->data + offset;

	if (record->size <= offset)
		return;
	if (!scan->info->has_meta)
		scan->info->has_meta = dat_meta_parse(text, record->size - offset,
							    &scan->info->meta);
	dat_run_line(&scan->info->run, text, record->size - offset);
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

		if (record->missed_events && d->dec->ops->lost)
			d->dec->ops->lost(d->src, cpu);
		d->dec->ops->record(d->src, event, record, &d->sink);
	}
	return 0;
}

/* tlat record's lines only, up to the last: it writes them together as its run starts */
static int scan_lines(struct tep_event *event, struct tep_record *record, int cpu, void *ctx)
{
	struct scan *scan = ctx;

	(void)cpu;
	if (event->id == scan->print_id && scan->print_buf)
		scan_meta(scan, record);
	return scan->info->has_meta && dat_run_complete(&scan->info->run);
}

static void scan_pick(const struct scan *scan, struct dat_reader_info *info)
{
	for (int i = 0; i < scan->nr_decoders; i++) {
		const struct scan_decoder *d = &scan->decoders[i];

		/* tlat record's word counts even for a run too short for samples */
		if (info->has_meta ? !strcmp(d->dec->name, info->meta.source) : d->samples > 0) {
			info->decoder = d->dec;
			info->samples = d->samples;
			/* a stop at the first activation may have kept none */
			info->user_data = d->user_samples || info->meta.user_data;
			return;
		}
	}
}

int dat_reader_scan(struct dat_reader *rec, const struct tlat_params *params,
		    const struct dat_decoder *decoders, size_t nr_decoders,
		    struct dat_reader_info *info, char *err)
{
	struct tep_event *print = tep_find_event_by_name(rec->tep, "ftrace", "print");
	struct scan scan = { .info = info, .print_id = print ? print->id : -1 };
	char why[TLAT_ERR_LEN];
	int ret;

	memset(info, 0, sizeof(*info));
	scan.print_buf = print ? tep_find_field(print, "buf") : NULL;
	scan.decoders = calloc(nr_decoders, sizeof(*scan.decoders));
	if (!scan.decoders) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	/* a source whose events have no format in the file did not record it */
	for (size_t i = 0; i < nr_decoders; i++) {
		const struct tlat_decoder_ops *ops = decoders[i].ops;
		struct scan_decoder *d = &scan.decoders[scan.nr_decoders];

		*d = (struct scan_decoder){ .sink.sample = scan_sample, .dec = &decoders[i] };
		if (!ops->open(&d->src, params, rec->tep, why))
			scan.nr_decoders++;
		else if (d->src)
			ops->close(d->src);
	}
	/*
	 * Where tlat record's line names the source, that is all this pass
	 * needs; the real pass counts the samples. Else every decoder looks
	 * at every record, and the one that finds samples recorded it.
	 */
	ret = dat_reader_replay(rec, scan_lines, &scan);
	if (!ret && !info->has_meta) {
		dat_run_free(&info->run);
		ret = dat_reader_replay(rec, scan_record, &scan);
	}
	scan_pick(&scan, info);
	/* a description cut short is none */
	if (!dat_run_complete(&info->run))
		dat_run_free(&info->run);
	for (int i = 0; i < scan.nr_decoders; i++)
		scan.decoders[i].dec->ops->close(scan.decoders[i].src);
	free(scan.decoders);
	if (ret) {
		dat_reader_error(rec, ret, err);
		return ret;
	}
	if (!info->decoder) {
		tlat_err(err, info->has_meta ?
			 "the recording is of a source this tlat cannot decode" :
			 "the recording has no timerlat samples (ftrace:timerlat, tlat:tlat_sample or tlat's markers)");
		return -ENOENT;
	}
	return 0;
}
