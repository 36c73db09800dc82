// SPDX-License-Identifier: GPL-2.0
/*
 * tp_decode.c - the tracepoint source's decoder: the records of its events
 * (hrtimer_start, hrtimer_expire_entry, sched_switch or sys_exit, and the
 * threads' trace_marker_raw markers) into the pairing of each activation
 * (tp_pair.h), live from tlat's instance and in a recording alike.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "sources/tracepoints/tracepoints_local.h"
#include "trace/event_fields.h"

/* trace_marker_raw's ftrace:raw_data holds the id, then the rest as buf[] */
#define TP_MARKER_PAYLOAD	(sizeof(struct tp_marker) - sizeof(u32))

const struct tp_event_desc tp_events[TP_NR_EVENTS] = {
	[TP_START]  = { "timer", "hrtimer_start", { "hrtimer", "expires", "softexpires" }, true },
	[TP_EXPIRE] = { "timer", "hrtimer_expire_entry", { "hrtimer", "now" }, true },
	[TP_SWITCH] = { "sched", "sched_switch", { "next_pid" }, true },
	/*
	 * Some kernels do not trace switches away from the idle task (seen on
	 * one CPU of two of a machine measured). The thread's return from
	 * clock_nanosleep() is then the first sign that it runs.
	 */
	[TP_SYSEXIT] = { "raw_syscalls", "sys_exit", { "id" }, true },
	[TP_MARKER] = { "ftrace", "raw_data", { "id", "buf" }, false },
};

static const char *const tp_systems[] = { "timer", "sched", "raw_syscalls", "ftrace", NULL };

static int tp_lookup_fields(struct tlat_source *src, struct tep_handle *tep, char *err)
{
	src->tep = tep;
	for (int i = 0; i < TP_NR_EVENTS; i++) {
		const struct tp_event_desc *d = &tp_events[i];
		struct tep_event *event = tep_find_event_by_name(tep, d->system, d->name);

		if (!event) {
			tlat_err(err, "cannot parse the format of %s:%s",
				 d->system, d->name);
			return -ENOENT;
		}
		src->event_id[i] = event->id;
		for (int f = 0; d->fields[f]; f++) {
			src->field[i][f] = tep_find_field(event, d->fields[f]);
			if (!src->field[i][f]) {
				tlat_err(err, "%s:%s has no field %s",
					 d->system, d->name, d->fields[f]);
				return -ENOENT;
			}
		}
		if (i == TP_START) {
			src->common_pid = tep_find_common_field(event, "common_pid");
			src->common_flags = tep_find_common_field(event, "common_flags");
		}
	}
	return src->common_pid ? 0 : -ENOENT;
}

static void tp_emit(void *ctx, const struct tlat_sample *sample)
{
	struct tlat_source *src = ctx;

	src->sink->sample(src->sink, sample);
}

int tp_decode_init(struct tlat_source *src, struct tep_handle *tep, char *err)
{
	int ret = tp_lookup_fields(src, tep, err);

	if (ret)
		return ret;
	src->pairing = tp_pairing_alloc(src->params->cpus.nr_cpus, tp_emit, src);
	return src->pairing ? 0 : -ENOMEM;
}

/* the threads' tids come from their markers: a recording names them itself */
static int tp_decoder(struct tlat_source **out, const struct tlat_params *params,
		      struct tep_handle *tep, char *err)
{
	struct tlat_source *src = calloc(1, sizeof(*src));
	int ret;

	*out = src;
	if (!src)
		return -ENOMEM;
	src->params = params;
	src->stop_fd = -1;
	ret = tp_decode_init(src, tep, err);
	if (ret)
		return ret;
	/* stacks are in the recording or not, whatever -s says now */
	kstack_event_init(&src->stack, tep, "ftrace", "kernel_stack", "size", "caller");
	return 0;
}

static u64 tp_field(struct tlat_source *src, enum tp_event event, int field,
		    struct tep_record *record)
{
	return event_field_read(src->tep, src->field[event][field], record->data);
}

static int tp_pid(struct tlat_source *src, struct tep_record *record)
{
	return (int)event_field_read(src->tep, src->common_pid, record->data);
}

/* whether the kernel wrote it in an interrupt, which tells whose timer it is */
static bool tp_in_interrupt(struct tlat_source *src, struct tep_record *record)
{
	int flags = src->common_flags ?
		    (int)event_field_read(src->tep, src->common_flags, record->data) : 0;

	return flags > 0 && (flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ));
}

static void tp_record(struct tlat_source *src, struct tep_event *event, struct tep_record *record,
		     struct tlat_sink *sink)
{
	const struct tep_format_field *buf;
	struct tp_marker m;

	src->sink = sink;
	if (event->id == src->event_id[TP_START]) {
		tp_timer_start(src->pairing, record->cpu, tp_pid(src, record),
			       tp_in_interrupt(src, record), tp_field(src, TP_START, 0, record),
			       tp_field(src, TP_START, 1, record), tp_field(src, TP_START, 2, record));
	} else if (event->id == src->event_id[TP_EXPIRE]) {
		tp_timer_expire(src->pairing, record->cpu, tp_field(src, TP_EXPIRE, 0, record),
				tp_field(src, TP_EXPIRE, 1, record), record->ts,
				tp_pid(src, record));
	} else if (event->id == src->event_id[TP_SWITCH]) {
		tp_thread_runs(src->pairing, record->cpu, (int)tp_field(src, TP_SWITCH, 0, record),
			       record->ts);
	} else if (event->id == src->event_id[TP_SYSEXIT]) {
		tp_thread_runs(src->pairing, record->cpu, tp_pid(src, record), record->ts);
	} else if (event->id == src->event_id[TP_MARKER]) {
		buf = src->field[TP_MARKER][1];
		if (tp_field(src, TP_MARKER, 0, record) != TP_MARKER_ID ||
		    record->size < buf->offset + (int)TP_MARKER_PAYLOAD)
			return;
		memcpy(&m.cpu, (char *)record->data + buf->offset, TP_MARKER_PAYLOAD);
		tp_pairing_learn_thread(src->pairing, m.cpu, tp_pid(src, record));
		tp_user_return(src->pairing, m.cpu, m.requested_ns, m.now_ns, record->ts);
	} else {
		kstack_forward(&src->stack, event, record, sink);
	}
}

static void tp_lost(struct tlat_source *src, int cpu)
{
	tp_events_lost(src->pairing, cpu);
}

const struct tlat_decoder_ops tp_decoder_ops = {
	.systems = tp_systems,
	/* hrtimer expiries are CLOCK_MONOTONIC times, compared with record times */
	.clock = "mono",
	.open = tp_decoder,
	.record = tp_record,
	.lost = tp_lost,
	.close = tp_close,
};
