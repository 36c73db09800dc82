/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timerlat_event.h - decoding of the timerlat sample payload (seqnum,
 * context, timer_latency) that both the kernel's ftrace:timerlat and tlat.ko's
 * tlat:tlat_sample carry. Field offsets come from the event's format, once.
 */
#ifndef TLAT_TIMERLAT_EVENT_H
#define TLAT_TIMERLAT_EVENT_H

#include <event-parse.h>

#include "kstack.h"
#include "source.h"

struct timerlat_event {
	int id;
	struct tep_format_field *seqnum;
	struct tep_format_field *context;
	struct tep_format_field *latency;
	struct tep_format_field *common_pid;
};

int timerlat_event_init(struct timerlat_event *ev, struct tep_handle *tep, const char *system,
			const char *name);
/* false if the record is not a sample this decoder understands */
bool timerlat_event_decode(const struct timerlat_event *ev, const struct tep_record *record,
			   struct tlat_sample *sample);
/* decode a record of this event and hand it to the sink; ignore others */
void timerlat_event_forward(const struct timerlat_event *ev, const struct tep_event *event,
			    const struct tep_record *record, struct tlat_sink *sink);

/* what a timerlat-style source decodes, live or from a recording: samples and stacks */
struct timerlat_records {
	struct timerlat_event sample;
	struct kstack_event stack;	/* optional: the analysis goes without */
};

/* system:sample must have a usable format (else why in err); system:stack may not */
int timerlat_records_init(struct timerlat_records *r, struct tep_handle *tep, const char *system,
			  const char *sample, const char *stack, const char *count_field,
			  const char *ips_field, char *err);
void timerlat_records_forward(const struct timerlat_records *r, struct tep_event *event,
			      struct tep_record *record, struct tlat_sink *sink);

#endif
