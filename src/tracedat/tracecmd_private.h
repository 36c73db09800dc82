/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracecmd_private.h - the part of libtracecmd that writes trace.dat files,
 * that opens one a step at a time, and that hands out the page a record was
 * read from.
 *
 * libtracecmd exports its writer (trace-cmd record is built on it), but
 * Debian's libtracecmd-dev 3.1.6 (libtracecmd 1.3) installs only the reading
 * API; the writer is declared in trace-cmd's trace-cmd-private.h, which is
 * not installed. These are the few declarations tlat uses, exactly as that
 * header of trace-cmd 3.1.6 has them; the option ids are trace.dat's on-disk
 * numbers, which never change.
 */
#ifndef TLAT_TRACEDAT_TRACECMD_PRIVATE_H
#define TLAT_TRACEDAT_TRACECMD_PRIVATE_H

#include <stdbool.h>
#include <trace-cmd.h>

struct tracecmd_output;
struct tracecmd_option;

/*
 * The events whose formats a file holds, besides ftrace's own (always all
 * of them): each glob is "system/event" or "system:event", and an event of
 * "*" is all of the system's (glob(3) patterns, under events/)
 */
struct tracecmd_event_list {
	struct tracecmd_event_list *next;
	const char *glob;
};

enum {
	TLAT_TRACECMD_OPTION_CPUSTAT	= 2,
	TLAT_TRACECMD_OPTION_TRACECLOCK	= 4,
	TLAT_TRACECMD_OPTION_UNAME	= 5,
};

struct tracecmd_output *tracecmd_output_create(const char *output_file);
/* no "CPU0 data recorded at offset..." lines on stderr */
void tracecmd_set_quiet(struct tracecmd_output *handle, bool set_quiet);
/* the clock in the buffer's description; else the top-level buffer's */
void tracecmd_set_out_clock(struct tracecmd_output *handle, const char *clock);
int tracecmd_output_set_trace_dir(struct tracecmd_output *handle, const char *tracing_dir);
/* a NULL list: the formats of every event of the kernel */
int tracecmd_output_write_headers(struct tracecmd_output *handle,
				  struct tracecmd_event_list *list);
struct tracecmd_option *tracecmd_add_option(struct tracecmd_output *handle, unsigned short id,
					    int size, const void *data);
int tracecmd_write_cmdlines(struct tracecmd_output *handle);
int tracecmd_append_cpu_data(struct tracecmd_output *handle, int cpus,
			     char * const *cpu_data_files);
void tracecmd_output_close(struct tracecmd_output *handle);

/* how far a handle has read its file */
enum tracecmd_file_states {
	TRACECMD_FILE_ALLOCATED = 0,
	TRACECMD_FILE_INIT,
	TRACECMD_FILE_HEADERS,
	TRACECMD_FILE_FTRACE_EVENTS,
	TRACECMD_FILE_ALL_EVENTS,
	TRACECMD_FILE_KALLSYMS,
	TRACECMD_FILE_PRINTK,
	TRACECMD_FILE_CMD_LINES,
	TRACECMD_FILE_CPU_COUNT,
	TRACECMD_FILE_OPTIONS,
	TRACECMD_FILE_CPU_LATENCY,
	TRACECMD_FILE_CPU_FLYRECORD,
};

/*
 * tracecmd_open_fd() in steps: a handle of the file's header (the handle
 * owns fd, except on failure), its headers read up to @state (0: all),
 * then its CPUs' data (tracecmd_init_data(), in trace-cmd.h)
 */
struct tracecmd_input *tracecmd_alloc_fd(int fd, int flags);
int tracecmd_read_headers(struct tracecmd_input *handle,
			  enum tracecmd_file_states state);
enum tracecmd_file_states tracecmd_get_file_state(struct tracecmd_input *handle);

/* the reader's side of the same header: the clock the file was recorded with */
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
/* and the uname option's text */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
/* the recording's ring-buffer page size (its tep's is not set) */
int tracecmd_page_size(struct tracecmd_input *handle);
/* the size of a CPU's data in the file */
unsigned long long tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);
/* 0 if the file's data is compressed (name and version set), -1 if not */
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle, const char **name,
				     const char **version);

/*
 * A record's page, and the CPU's kbuffer that libtracecmd reads it with
 * (its cursor: just past the record it last returned on that CPU)
 */
struct kbuffer *tracecmd_record_kbuf(struct tracecmd_input *handle, struct tep_record *record);
void *tracecmd_record_page(struct tracecmd_input *handle, struct tep_record *record);

#endif
