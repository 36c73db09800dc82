// SPDX-License-Identifier: GPL-2.0
/*
 * dat_write.c - tlat's instance into a trace.dat (see dat_write.h).
 *
 * Each page the live reader (buffer_read.h) takes from a CPU's
 * trace_pipe_raw is appended whole to that CPU's file, as trace-cmd's
 * recorder does, before its records are handed on. The kernel hands out
 * each page once: reading it here is the only reading.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/err.h"
#include "trace/buffer_read.h"
#include "tracedat/dat_write.h"
#include "tracedat/tracecmd_private.h"

struct rec_cpu {
	int fd;				/* this CPU's pages, for libtracecmd */
	char *path;
};

struct dat_writer {
	struct tracefs_instance *inst;
	char *path;
	int nr_cpus;
	int error;			/* the first failed write, -errno */
	struct rec_cpu *cpus;
	struct buffer_reader *reader;
	struct tracecmd_event_list *formats;	/* the systems whose formats the file holds */
};

static int rec_cpu_open(struct dat_writer *rec, int cpu, char *err)
{
	struct rec_cpu *rc = &rec->cpus[cpu];

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
	return 0;
}

/* each page whole into its CPU's file, before its records are decoded */
static void rec_write_page(void *ctx, int cpu, const void *page, int size)
{
	struct dat_writer *rec = ctx;
	const char *p = page;
	size_t left = size;
	ssize_t n;

	while (left && !rec->error) {
		n = write(rec->cpus[cpu].fd, p, left);
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

/*
 * A system's formats, once. ftrace's are always written (they describe the
 * ring buffer's own entries: print, raw_data, kernel_stack, the tracers'),
 * and a glob of "ftrace/" would write them a second time.
 */
static int rec_add_system(struct dat_writer *rec, const char *system, int len)
{
	struct tracecmd_event_list *l;
	char *glob;

	if (!len || (len == 6 && !strncmp(system, "ftrace", 6)))
		return 0;
	for (l = rec->formats; l; l = l->next)
		if (!strncmp(l->glob, system, len) && l->glob[len] == '/')
			return 0;
	l = calloc(1, sizeof(*l));
	if (!l || asprintf(&glob, "%.*s/*", len, system) < 0) {
		free(l);
		return -ENOMEM;
	}
	l->glob = glob;
	l->next = rec->formats;
	rec->formats = l;
	return 0;
}

/* and the system of every event enabled in the instance ("system:event" lines) */
static int rec_add_enabled(struct dat_writer *rec)
{
	char *set = tracefs_instance_file_read(rec->inst, "set_event", NULL);
	char *line, *save = NULL, *colon;
	int ret = 0;

	for (line = set ? strtok_r(set, "\n", &save) : NULL; line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		colon = strchr(line, ':');
		if (colon)
			ret = rec_add_system(rec, line, colon - line);
	}
	free(set);
	return ret;
}

int dat_writer_open(struct dat_writer **out, struct tracefs_instance *inst, struct tep_handle *tep,
		    const char *const *systems, int nr_cpus, const char *path, char *err)
{
	struct dat_writer *rec = calloc(1, sizeof(*rec));
	int ret;

	*out = rec;
	if (!rec)
		return -ENOMEM;
	rec->inst = inst;
	rec->nr_cpus = nr_cpus;
	rec->path = strdup(path);
	rec->cpus = calloc(nr_cpus, sizeof(*rec->cpus));
	if (!rec->path || !rec->cpus)
		return -ENOMEM;
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		rec->cpus[cpu].fd = -1;
	for (int i = 0; systems && systems[i]; i++)
		if (rec_add_system(rec, systems[i], strlen(systems[i])))
			return -ENOMEM;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		ret = rec_cpu_open(rec, cpu, err);
		if (ret)
			return ret;
	}
	ret = buffer_reader_open(&rec->reader, inst, tep, nr_cpus, rec_write_page, rec, err);
	if (ret)
		return ret;
	if (buffer_reader_page_size(rec->reader) != getpagesize()) {
		tlat_err(err, "the ring buffer's sub-buffers are %d bytes, not a page: libtracecmd cannot record them",
			 buffer_reader_page_size(rec->reader));
		return -EOPNOTSUPP;
	}
	return 0;
}

int dat_writer_drain(struct dat_writer *rec, u64 until_ns, dat_record_fn fn, void *ctx)
{
	int ret = buffer_reader_drain(rec->reader, until_ns, fn, ctx);

	if (rec->error) {
		errno = -rec->error;
		return rec->error;
	}
	return ret;
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
	struct tracecmd_event_list none = { .glob = "tlat-no-system/no-event" };
	struct tracecmd_output *out;
	char **files;
	int ret = -EIO;

	buffer_reader_close(rec->reader);
	if (rec->error) {
		tlat_err(err, "cannot write the recording next to %s: %s", rec->path,
			 strerror(-rec->error));
		return rec->error;
	}
	/* what the run enabled, whatever stopping it turned off since */
	if (rec_add_enabled(rec))
		return -ENOMEM;
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
	/*
	 * The formats of the recording's systems, as trace-cmd record writes
	 * those of the events it enables: a reader parses each one it holds
	 * (not every event of the kernel, some 2,300). An empty list would be
	 * every event: a glob that matches none instead.
	 */
	if (out && !tracecmd_output_set_trace_dir(out, tracing_dir) &&
	    !tracecmd_output_write_headers(out, rec->formats ?: &none)) {
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

		if (rc->fd >= 0)
			close(rc->fd);
		if (rc->path)
			unlink(rc->path);
		free(rc->path);
	}
	buffer_reader_free(rec->reader);
	while (rec->formats) {
		struct tracecmd_event_list *l = rec->formats;

		rec->formats = l->next;
		free((char *)l->glob);
		free(l);
	}
	free(rec->cpus);
	free(rec->path);
	free(rec);
}
