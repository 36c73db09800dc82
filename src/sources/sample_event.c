// SPDX-License-Identifier: GPL-2.0
/*
 * sample_event.c - one timerlat-style record to one struct tlat_sample.
 */
#include <errno.h>
#include <stdio.h>

#include "core/array.h"
#include "core/err.h"
#include "sources/sample_event.h"
#include "trace/event_fields.h"

static bool is_number_size(int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

int timerlat_event_init(struct timerlat_event *ev, struct tep_handle *tep, const char *system,
			const char *name)
{
	struct tep_event *event = tep_find_event_by_name(tep, system, name);
	const struct event_field_want fields[] = {
		{ "seqnum", &ev->seqnum }, { "context", &ev->context },
		{ "timer_latency", &ev->latency }, { "common_pid", &ev->common_pid },
	};
	int ret;

	ev->numbers = false;
	if (!event)
		return -ENOENT;
	ev->id = event->id;
	ev->tep = tep;
	ret = event_fields_find(event, fields, ARRAY_SIZE(fields));
	/* what tep_read_number_field() would refuse, record after record */
	ev->numbers = !ret;
	for (size_t i = 0; ev->numbers && i < ARRAY_SIZE(fields); i++)
		ev->numbers = is_number_size((*fields[i].field)->size);
	return ret;
}

bool timerlat_event_decode(const struct timerlat_event *ev, const struct tep_record *record,
			   struct tlat_sample *sample)
{
	unsigned long long context;

	if (!ev->numbers)
		return false;
	context = event_field_read(ev->tep, ev->context, record->data);
	if (context >= TLAT_NR_CTX)
		return false;
	sample->ts_ns = record->ts;
	sample->latency_ns = event_field_read(ev->tep, ev->latency, record->data);
	sample->seq = (u32)event_field_read(ev->tep, ev->seqnum, record->data);
	sample->cpu = record->cpu;
	/* in IRQ context the current task is the one the timer interrupted */
	sample->pid = (int)event_field_read(ev->tep, ev->common_pid, record->data);
	sample->ctx = (enum tlat_ctx)context;
	return true;
}

void timerlat_event_forward(const struct timerlat_event *ev, const struct tep_event *event,
			    const struct tep_record *record, struct tlat_sink *sink)
{
	struct tlat_sample sample;

	if (event->id == ev->id && timerlat_event_decode(ev, record, &sample))
		sink->sample(sink, &sample);
}

int timerlat_records_init(struct timerlat_records *r, struct tep_handle *tep, const char *system,
			  const char *sample, const char *stack, const char *count_field,
			  const char *ips_field, char *err)
{
	int ret = timerlat_event_init(&r->sample, tep, system, sample);

	kstack_event_init(&r->stack, tep, system, stack, count_field, ips_field);
	if (ret)
		tlat_err(err, "cannot parse the format of %s:%s", system, sample);
	return ret;
}

void timerlat_records_forward(const struct timerlat_records *r, struct tep_event *event,
			      struct tep_record *record, struct tlat_sink *sink)
{
	timerlat_event_forward(&r->sample, event, record, sink);
	kstack_forward(&r->stack, event, record, sink);
}
