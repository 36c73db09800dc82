/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recording.h - a trace.dat, read with libtracecmd, for tlat report: one
 * that tlat record wrote, or one of trace-cmd record of the timerlat tracer
 * or of tlat.ko's events. The source that recorded it is the one whose
 * decoder finds samples in it; what only tlat record knew about its run
 * (the measured window, the thresholds) it put in the recording itself, as
 * a trace_marker line.
 */
#ifndef TLAT_RECORDING_H
#define TLAT_RECORDING_H

#include <stdbool.h>
#include <stddef.h>

#include "recorder.h"
#include "source.h"

#define RECORDING_META_PREFIX	"tlat-record:"

/* what tlat record writes about its run; 0 where it has nothing to say */
struct recording_meta {
	char source[16];
	u64 start_ns;		/* samples before it are warm-up */
	u64 end_ns;		/* samples after it are past -d */
	u64 stop_irq_us;
	u64 stop_thread_us;
	u64 stack_us;
	bool user_data;		/* the user-return context was measured */
};

/* the marker line, without a newline; the length snprintf() would write */
int recording_meta_format(char *buf, size_t len, const struct recording_meta *meta);
/* false if text is not such a line */
bool recording_meta_parse(const char *text, size_t len, struct recording_meta *meta);

struct recording;

/* one line in err if path cannot be read or is not a trace.dat */
int recording_open(struct recording **rec, const char *path, char *err);
struct tep_handle *recording_tep(const struct recording *rec);
int recording_cpus(const struct recording *rec);
/* the trace clock it was recorded with; trace-cmd's default, local, if it does not say */
const char *recording_clock(const struct recording *rec);
/* every record, in time order, once: a second pass needs a second open */
int recording_replay(struct recording *rec, recorder_record_fn fn, void *ctx);
void recording_close(struct recording *rec);

/* what a first pass over a recording finds */
struct recording_info {
	const struct tlat_source_ops *ops;	/* the source whose samples it holds */
	u64 samples;				/* how many its decoder found */
	bool user_data;				/* some of user-return latency */
	bool has_meta;
	struct recording_meta meta;
	u64 first_ts;				/* of any record */
	u64 last_ts;
};

/*
 * Decode the whole recording with every source's decoder (params: as they
 * will be for the real pass); the first in auto's order that finds samples
 * recorded it, unless tlat record's line names it.
 */
int recording_scan(struct recording *rec, const struct tlat_params *params,
		   struct recording_info *info, char *err);

#endif
