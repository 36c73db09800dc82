/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample_event.h - decoding of the timerlat sample payload (seqnum,
 * context, timer_latency) that both the kernel's ftrace:timerlat and tlat.ko's
 * tlat:tlat_sample carry. Field offsets come from the event's format, once.
 */
#ifndef TLAT_SOURCES_SAMPLE_EVENT_H
#define TLAT_SOURCES_SAMPLE_EVENT_H

#include <event-parse.h>

#include "sources/source.h"
#include "trace/kstack.h"

struct timerlat_event {
	int id;
	struct tep_handle *tep;
	struct tep_format_field *seqnum;
	struct tep_format_field *context;
	struct tep_format_field *latency;
	struct tep_format_field *common_pid;
	bool numbers;		/* all four found, each of a size a number has */
};

/**
 * timerlat_event_init - find a timerlat-style sample event's fields
 * @ev: filled in
 * @tep: the tep that knows the event
 * @system: its system ("ftrace" for timerlat's, "tlat" for tlat.ko's)
 * @name: its name
 *
 * Returns 0, or -ENOENT if the event or one of its fields (seqnum, context,
 * timer_latency, common_pid) is missing.
 */
int timerlat_event_init(struct timerlat_event *ev, struct tep_handle *tep, const char *system,
			const char *name);
/**
 * timerlat_event_decode - a record of the event as a sample
 * @ev: the event's fields, from timerlat_event_init()
 * @record: a record of it
 * @sample: filled in
 *
 * Returns false if the record is not a sample this decoder understands.
 */
bool timerlat_event_decode(const struct timerlat_event *ev, const struct tep_record *record,
			   struct tlat_sample *sample);
/**
 * timerlat_event_forward - decode a record of the event and hand it to the sink
 * @ev: the event's fields
 * @event: the record's event: records of other events are ignored
 * @record: the record
 * @sink: where the sample goes
 */
void timerlat_event_forward(const struct timerlat_event *ev, const struct tep_event *event,
			    const struct tep_record *record, struct tlat_sink *sink);

/* what a timerlat-style source decodes, live or from a recording: samples and stacks */
struct timerlat_records {
	struct timerlat_event sample;
	struct kstack_event stack;	/* optional: the analysis goes without */
};

/**
 * timerlat_records_init - find a timerlat-style source's sample and stack events
 * @r: filled in
 * @tep: the tep that knows the events
 * @system: their system
 * @sample: the sample event's name, whose format must be usable
 * @stack: the stack event's name; without it the analysis goes without stacks
 * @count_field: the stack event's field that counts its frames
 * @ips_field: its field of return addresses
 * @err: the error line, on failure
 *
 * Returns 0, or -ENOENT with @err set if the sample event is unusable.
 */
int timerlat_records_init(struct timerlat_records *r, struct tep_handle *tep, const char *system,
			  const char *sample, const char *stack, const char *count_field,
			  const char *ips_field, char *err);
/**
 * timerlat_records_forward - hand a sample or stack record to the sink
 * @r: the events, from timerlat_records_init()
 * @event: the record's event: records of other events are ignored
 * @record: the record
 * @sink: where samples and stacks go
 */
void timerlat_records_forward(const struct timerlat_records *r, struct tep_event *event,
			      struct tep_record *record, struct tlat_sink *sink);

#endif
