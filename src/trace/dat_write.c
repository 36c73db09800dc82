// SPDX-License-Identifier: GPL-2.0
/*
 * dat_write.c - tlat's instance into a trace.dat (see dat_write.h).
 *
 * Each page read from a CPU's trace_pipe_raw is appended whole to that
 * CPU's file, as trace-cmd's recorder does, and then decoded; the records of
 * all CPUs are handed on in time order, as libtracefs's iterator does. The
 * kernel hands out each page once: reading it here is the only reading.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <kbuffer.h>

#include "core/err.h"
#include "trace/dat_write.h"
#include "trace/tracecmd_private.h"

struct rec_cpu {
	struct tracefs_cpu *tcpu;	/* NULL: no buffer on this CPU, or closed */
	int fd;				/* this CPU's pages, for libtracecmd */
	char *path;
	void *page;
	struct kbuffer *kbuf;
	struct tep_record record;
	struct tep_event *event;	/* the record's; NULL: none pending */
};

struct dat_writer {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	char *path;
	int nr_cpus;
	int page_size;
	int error;			/* the first failed write, -errno */
	struct rec_cpu *cpus;
};

static int rec_cpu_open(struct dat_writer *rec, int cpu, char *err)
{
	struct rec_cpu *rc = &rec->cpus[cpu];
	enum kbuffer_long_size lsize = tep_get_header_page_size(rec->tep) == 8 ?
				       KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4;
	enum kbuffer_endian endian = tep_is_file_bigendian(rec->tep) ?
				     KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE;

	/* next to the output, as trace-cmd keeps them: same file system, same space */
	if (asprintf(&rc->path, "%s.cpu%d.XXXXXX", rec->path, cpu) < 0) {
		rc->path = NULL;
		return -ENOMEM;
	}
	rc->fd = mkstemp(rc->path);
	if (rc->fd < 0) {
		tlat_err(err, "cannot write %s: %s", rec->path, strerror(errno));
		free(rc->path);
		rc->path = NULL;
		return -errno;
	}
	rc->page = calloc(1, rec->page_size);
	rc->kbuf = kbuffer_alloc(lsize, endian);
	if (!rc->page || !rc->kbuf)
		return -ENOMEM;
	/* a possible but absent CPU has no buffer: its file stays empty */
	rc->tcpu = tracefs_cpu_open(rec->inst, cpu, true);
	if (rc->tcpu && tracefs_cpu_read_size(rc->tcpu) != rec->page_size) {
		tlat_err(err, "the ring buffer's sub-buffers are %d bytes, not a page: libtracecmd cannot record them",
			 tracefs_cpu_read_size(rc->tcpu));
		return -EOPNOTSUPP;
	}
	return 0;
}

int dat_writer_open(struct dat_writer **out, struct tracefs_instance *inst, struct tep_handle *tep,
		  int nr_cpus, const char *path, char *err)
{
	struct dat_writer *rec = calloc(1, sizeof(*rec));
	int opened = 0, ret;

	*out = rec;
	if (!rec)
		return -ENOMEM;
	rec->inst = inst;
	rec->tep = tep;
	rec->nr_cpus = nr_cpus;
	rec->page_size = getpagesize();
	rec->path = strdup(path);
	rec->cpus = calloc(nr_cpus, sizeof(*rec->cpus));
	if (!rec->path || !rec->cpus)
		return -ENOMEM;
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		rec->cpus[cpu].fd = -1;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		ret = rec_cpu_open(rec, cpu, err);
		if (ret)
			return ret;
		opened += rec->cpus[cpu].tcpu != NULL;
	}
	if (!opened) {
		tlat_err(err, "cannot read the trace buffers: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}

static void rec_write_page(struct dat_writer *rec, struct rec_cpu *rc)
{
	const char *p = rc->page;
	size_t left = rec->page_size;
	ssize_t n;

	while (left && !rec->error) {
		n = write(rc->fd, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rec->error = n < 0 ? -errno : -EIO;
		} else {
			p += n;
			left -= n;
		}
	}
}

/* the next page of a CPU: into its file first, then into its kbuffer */
static bool rec_read_page(struct dat_writer *rec, struct rec_cpu *rc)
{
	int n;

	if (!rc->tcpu)
		return false;
	n = tracefs_cpu_read(rc->tcpu, rc->page, true);
	if (n <= 0)
		return false;
	/* a page read before it filled up: libtracecmd reads whole pages */
	if (n < rec->page_size)
		memset((char *)rc->page + n, 0, rec->page_size - n);
	rec_write_page(rec, rc);
	return kbuffer_load_subbuffer(rc->kbuf, rc->page) == 0;
}

/* the CPU's next record of a known event into rc->record; false when none is left */
static bool rec_next(struct dat_writer *rec, struct rec_cpu *rc)
{
	unsigned long long ts;
	void *data;

	do {
		while ((data = kbuffer_read_event(rc->kbuf, &ts))) {
			rc->record = (struct tep_record){
				.ts = ts,
				.size = kbuffer_event_size(rc->kbuf),
				.record_size = kbuffer_curr_size(rc->kbuf),
				.missed_events = kbuffer_missed_events(rc->kbuf),
				.cpu = (int)(rc - rec->cpus),
				.data = data,
				.ref_count = 1,
			};
			kbuffer_next_event(rc->kbuf, NULL);
			rc->event = tep_find_event_by_record(rec->tep, &rc->record);
			if (rc->event)
				return true;
		}
	} while (rec_read_page(rec, rc));
	return false;
}

int dat_writer_drain(struct dat_writer *rec, dat_record_fn fn, void *ctx)
{
	struct rec_cpu *next;

	for (int cpu = 0; cpu < rec->nr_cpus; cpu++)
		if (!rec->cpus[cpu].event)
			rec_next(rec, &rec->cpus[cpu]);
	for (;;) {
		next = NULL;
		for (int cpu = 0; cpu < rec->nr_cpus; cpu++) {
			struct rec_cpu *rc = &rec->cpus[cpu];

			if (rc->event && (!next || rc->record.ts < next->record.ts))
				next = rc;
		}
		if (!next)
			break;
		fn(next->event, &next->record, next->record.cpu, ctx);
		next->event = NULL;
		rec_next(rec, next);
	}
	errno = -rec->error;
	return rec->error;
}

static void rec_close_buffers(struct dat_writer *rec)
{
	for (int cpu = 0; cpu < rec->nr_cpus; cpu++) {
		tracefs_cpu_close(rec->cpus[cpu].tcpu);
		rec->cpus[cpu].tcpu = NULL;
	}
}

/* what trace-cmd record stores besides the data, in the same options */
static void rec_add_options(struct dat_writer *rec, struct tracecmd_output *out)
{
	char *clocks = tracefs_instance_file_read(rec->inst, "trace_clock", NULL);
	char *clock = tracefs_get_clock(rec->inst);
	struct utsname u;
	char *text;

	/* "local global ... [mono] ...": the reader takes the one in brackets */
	if (clocks)
		tracecmd_add_option(out, TLAT_TRACECMD_OPTION_TRACECLOCK, strlen(clocks) + 1,
				    clocks);
	free(clocks);
	/* the buffer's own description names it too */
	if (clock)
		tracecmd_set_out_clock(out, clock);
	free(clock);
	if (!uname(&u) && asprintf(&text, "%s %s %s %s", u.sysname, u.nodename, u.release,
				   u.machine) >= 0) {
		tracecmd_add_option(out, TLAT_TRACECMD_OPTION_UNAME, strlen(text) + 1, text);
		free(text);
	}
	/* trace-cmd report --stat shows them: entries, overruns, dropped events */
	for (int cpu = 0; cpu < rec->nr_cpus; cpu++) {
		char file[64];
		char *stats;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		stats = tracefs_instance_file_read(rec->inst, file, NULL);
		if (stats && asprintf(&text, "CPU: %d\n%s", cpu, stats) >= 0) {
			tracecmd_add_option(out, TLAT_TRACECMD_OPTION_CPUSTAT, strlen(text) + 1,
					    text);
			free(text);
		}
		free(stats);
	}
}

int dat_writer_write(struct dat_writer *rec, const char *tracing_dir, char *err)
{
	struct tracecmd_output *out;
	char **files;
	int ret = -EIO;

	rec_close_buffers(rec);
	if (rec->error) {
		tlat_err(err, "cannot write the recording next to %s: %s", rec->path,
			 strerror(-rec->error));
		return rec->error;
	}
	files = calloc(rec->nr_cpus, sizeof(*files));
	if (!files)
		return -ENOMEM;
	for (int cpu = 0; cpu < rec->nr_cpus; cpu++)
		files[cpu] = rec->cpus[cpu].path;
	/* its warnings would be more lines than the one error line */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	errno = 0;
	out = tracecmd_output_create(rec->path);
	if (out)
		tracecmd_set_quiet(out, true);
	if (out && !tracecmd_output_set_trace_dir(out, tracing_dir) &&
	    !tracecmd_output_write_headers(out, NULL)) {
		rec_add_options(rec, out);
		if (!tracecmd_write_cmdlines(out) &&
		    !tracecmd_append_cpu_data(out, rec->nr_cpus, files))
			ret = 0;
	}
	if (ret)
		tlat_err(err, "cannot write %s: %s", rec->path,
			 strerror(errno ? errno : EIO));
	if (out)
		tracecmd_output_close(out);
	if (ret)
		unlink(rec->path);
	free(files);
	return ret;
}

void dat_writer_free(struct dat_writer *rec)
{
	if (!rec)
		return;
	for (int cpu = 0; rec->cpus && cpu < rec->nr_cpus; cpu++) {
		struct rec_cpu *rc = &rec->cpus[cpu];

		tracefs_cpu_close(rc->tcpu);
		if (rc->fd >= 0)
			close(rc->fd);
		if (rc->path)
			unlink(rc->path);
		free(rc->path);
		free(rc->page);
		kbuffer_free(rc->kbuf);
	}
	free(rec->cpus);
	free(rec->path);
	free(rec);
}
