// SPDX-License-Identifier: GPL-2.0
/*
 * dat_read.c - reading a trace.dat (see dat_read.h). libtracecmd does the
 * reading, dat_pages.h merges the CPUs in time order; this finds what
 * recorded it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "core/err.h"
#include "core/sanitize.h"
#include "trace/dat_check.h"
#include "trace/dat_pages.h"
#include "trace/dat_read.h"
#include "trace/tracecmd_private.h"

/* the first bytes of every trace.dat */
#define DAT_MAGIC	"\027\010\104tracing"

/* trace-cmd's plugins print events; tlat reads fields */
#define DAT_OPEN_FLAGS	(TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS)

struct dat_reader {
	const char *path;		/* the caller's */
	int fd;				/* the file, for its kallsyms */
	/* kallsyms left unread at open, to read when first needed; 0: none left */
	u64 kallsyms_at, kallsyms_size;
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	struct dat_pages *pages;
};

static int range_cmp(const void *a, const void *b)
{
	const struct dat_range *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* @fd's bytes from @from to @to, to the same place in @view */
static int dat_copy(int fd, int view, u64 from, u64 to)
{
	char buf[1 << 16];

	while (from < to) {
		size_t want = to - from < sizeof(buf) ? to - from : sizeof(buf);
		ssize_t n = pread(fd, buf, want, (off_t)from);

		if (n <= 0)
			return n ? -errno : -EIO;
		if (pwrite(view, buf, n, (off_t)from) != n)
			return -EIO;
		from += n;
	}
	return 0;
}

/*
 * A copy of a version 7 file, in memory, for libtracecmd to read the
 * headers of (dat_open_v7()): the file's size, and all its bytes but the CPUs' data
 * (libtracecmd reads none of it before tracecmd_init_data()) and the
 * kallsyms section's content, holes that read as zeros: its 4-byte size
 * reads 0, which libtracecmd's read_proc_kallsyms() takes for an empty
 * section. Version 7 finds each section by its offset, so the sections
 * after it read as in the file. What is copied is the headers, the formats
 * and the options: some hundred KB.
 */
static int dat_view(int fd, u64 file_size, const struct dat_layout *l)
{
	struct dat_range skip[DAT_LAYOUT_RANGES + 1];
	int nr = l->nr_data, view, ret = 0;
	u64 pos = 0;

	memcpy(skip, l->data, nr * sizeof(*skip));
	skip[nr++] = (struct dat_range){ .at = l->kallsyms_at, .size = 4 + l->kallsyms_size };
	qsort(skip, nr, sizeof(*skip), range_cmp);
	view = memfd_create("tlat-dat-headers", MFD_CLOEXEC);
	if (view < 0)
		return -errno;
	if (ftruncate(view, (off_t)file_size))
		ret = -errno;
	for (int i = 0; !ret && i <= nr; i++) {
		u64 end = i < nr ? skip[i].at : file_size;

		if (end > pos)
			ret = dat_copy(fd, view, pos, end);
		if (i < nr && skip[i].at + skip[i].size > pos)
			pos = skip[i].at + skip[i].size;
	}
	if (ret) {
		close(view);
		return ret;
	}
	return view;
}

/*
 * Version 7: libtracecmd reads the headers from dat_view()'s copy, then the
 * handle's descriptor is made the file's own (dup2()), whose CPU data
 * tracecmd_init_data() reads as in tracecmd_open_fd().
 */
static struct tracecmd_input *dat_open_v7(struct dat_reader *rec, const struct dat_layout *l)
{
	struct tracecmd_input *handle;
	struct stat st;
	int view;

	if (fstat(rec->fd, &st))
		return NULL;
	view = dat_view(rec->fd, (u64)st.st_size, l);
	if (view < 0)
		return NULL;
	handle = tracecmd_alloc_fd(view, DAT_OPEN_FLAGS);
	if (!handle) {
		close(view);
		return NULL;
	}
	/* the handle owns view from here: tracecmd_close() closes it */
	if (tracecmd_read_headers(handle, 0) < 0 || dup2(rec->fd, view) < 0 ||
	    tracecmd_init_data(handle) < 0) {
		tracecmd_close(handle);
		return NULL;
	}
	return handle;
}

/*
 * Version 6: the sections follow each other, each read where the last
 * ended. libtracecmd reads the headers up to the event formats; its
 * descriptor must then be at kallsyms' 4-byte size, where the walk found
 * it. For the one step that reads kallsyms, the descriptor is /dev/zero's
 * (dup2()): the size reads 0, an empty section. The file's is put back,
 * moved past the text, and the rest is read as in tracecmd_open_fd().
 */
static struct tracecmd_input *dat_open_v6(struct dat_reader *rec, const struct dat_layout *l)
{
	u64 past = l->kallsyms_at + 4 + l->kallsyms_size;
	int fd = open(rec->path, O_RDONLY | O_CLOEXEC), zero, saved, ret;
	struct tracecmd_input *handle = fd >= 0 ? tracecmd_alloc_fd(fd, DAT_OPEN_FLAGS) : NULL;

	if (!handle) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	/* the handle owns fd from here */
	if (tracecmd_read_headers(handle, TRACECMD_FILE_ALL_EVENTS) < 0 ||
	    tracecmd_get_file_state(handle) != TRACECMD_FILE_ALL_EVENTS ||
	    lseek(fd, 0, SEEK_CUR) != (off_t)l->kallsyms_at)
		goto fail;
	zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	saved = zero >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : -1;
	ret = saved >= 0 && dup2(zero, fd) >= 0 ?
	      tracecmd_read_headers(handle, TRACECMD_FILE_KALLSYMS) : -1;
	/* the file back in any case: the handle closes it */
	if (saved >= 0 && dup2(saved, fd) < 0)
		ret = -1;
	if (saved >= 0)
		close(saved);
	if (zero >= 0)
		close(zero);
	if (ret < 0 || tracecmd_get_file_state(handle) != TRACECMD_FILE_KALLSYMS ||
	    lseek(fd, (off_t)past, SEEK_SET) != (off_t)past ||
	    tracecmd_read_headers(handle, 0) < 0 || tracecmd_init_data(handle) < 0)
		goto fail;
	return handle;
fail:
	tracecmd_close(handle);
	return NULL;
}

/*
 * libtracecmd parses the recording's kallsyms as it opens it: 5 MB of
 * text, sscanf()'d a line at a time (tep_parse_kallsyms()), a quarter of
 * the CPU time of a report of a 10 s recording, for names that only a
 * stack or --dump-tasks prints. tlat opens the file in libtracecmd's
 * steps (tracecmd_alloc_fd(), tracecmd_read_headers(),
 * tracecmd_init_data(): tracecmd_open_fd()'s) and has libtracecmd read
 * an empty kallsyms instead, with the file's layout as dat_check() walked
 * it: version 7 (what tlat record and trace-cmd record 3.x write) from a
 * copy of its headers, version 6 with /dev/zero for that one step. The
 * names are parsed by dat_reader_symbols() when asked for, with the same
 * call on the same bytes. The report reads the file in a one-thread
 * child (tlat_replay()), and nothing else uses these descriptors.
 *
 * NULL: open it as usual, libtracecmd's way: a file with no kallsyms, or
 * compressed ones, or more than one section of them; a latency trace; a
 * file that this way cannot open.
 */
static struct tracecmd_input *dat_open_lazy(struct dat_reader *rec, const struct dat_layout *l)
{
	struct tracecmd_input *handle;

	if (l->nr_kallsyms != 1 || l->kallsyms_packed || !l->kallsyms_size)
		return NULL;
	handle = l->version == 7 ? dat_open_v7(rec, l) : dat_open_v6(rec, l);
	if (handle && tracecmd_get_file_state(handle) != TRACECMD_FILE_CPU_FLYRECORD) {
		tracecmd_close(handle);
		return NULL;
	}
	if (handle) {
		rec->kallsyms_at = l->kallsyms_at;
		rec->kallsyms_size = l->kallsyms_size;
	}
	return handle;
}

/*
 * libtracecmd perror()s what it meets in a damaged file ("mmap: Unknown
 * error -22") whatever its log level: its standard error is /dev/null
 * while it reads the headers, and tlat says the one line. Not under
 * AddressSanitizer, whose reports must be seen.
 */
static struct tracecmd_input *dat_open_quiet(struct dat_reader *rec, const struct dat_layout *l)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int saved = null >= 0 ? fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3) : -1;
	struct tracecmd_input *handle;

	fflush(stderr);
#ifndef TLAT_ASAN
	if (saved >= 0)
		dup2(null, STDERR_FILENO);
#endif
	handle = dat_open_lazy(rec, l);
	if (!handle)
		handle = tracecmd_open(rec->path, DAT_OPEN_FLAGS);
	if (saved >= 0) {
		dup2(saved, STDERR_FILENO);
		close(saved);
	}
	if (null >= 0)
		close(null);
	return handle;
}

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
	rec->handle = magic ? dat_open_quiet(rec, &layout) : NULL;
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
	u64 size = rec->kallsyms_size;
	char *buf;
	int ret = 0;

	if (!size)
		return 0;
	/* once, whatever comes of it */
	rec->kallsyms_size = 0;
	buf = malloc(size + 1);
	if (!buf)
		return -ENOMEM;
	for (u64 done = 0; !ret && done < size;) {
		ssize_t n = pread(rec->fd, buf + done, size - done,
				  (off_t)(rec->kallsyms_at + 4 + done));

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
	const struct tlat_source_ops *ops;
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

		if (record->missed_events && d->ops->lost)
			d->ops->lost(d->src, cpu);
		d->ops->record(d->src, event, record, &d->sink);
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
		if (info->has_meta ? !strcmp(d->ops->name, info->meta.source) : d->samples > 0) {
			info->ops = d->ops;
			info->samples = d->samples;
			/* a stop at the first activation may have kept none */
			info->user_data = d->user_samples || info->meta.user_data;
			return;
		}
	}
}

int dat_reader_scan(struct dat_reader *rec, const struct tlat_params *params,
		   struct dat_reader_info *info, char *err)
{
	struct tep_event *print = tep_find_event_by_name(rec->tep, "ftrace", "print");
	struct scan scan = { .info = info, .print_id = print ? print->id : -1 };
	const struct tlat_source_ops *ops;
	char why[TLAT_ERR_LEN];
	size_t nr_sources = 0;
	int ret;

	memset(info, 0, sizeof(*info));
	scan.print_buf = print ? tep_find_field(print, "buf") : NULL;
	while (source_nth(nr_sources))
		nr_sources++;
	scan.decoders = calloc(nr_sources, sizeof(*scan.decoders));
	if (!scan.decoders) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	/* a source whose events have no format in the file did not record it */
	for (size_t i = 0; (ops = source_nth(i)); i++) {
		struct scan_decoder *d = &scan.decoders[scan.nr_decoders];

		*d = (struct scan_decoder){ .sink.sample = scan_sample, .ops = ops };
		if (ops->decoder && !ops->decoder(&d->src, params, rec->tep, why))
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
		scan.decoders[i].ops->close(scan.decoders[i].src);
	free(scan.decoders);
	if (ret) {
		dat_reader_error(rec, ret, err);
		return ret;
	}
	if (!info->ops) {
		tlat_err(err, info->has_meta ?
			 "the recording is of a source this tlat cannot decode" :
			 "the recording has no timerlat samples (ftrace:timerlat, tlat:tlat_sample or tlat's markers)");
		return -ENOENT;
	}
	return 0;
}
