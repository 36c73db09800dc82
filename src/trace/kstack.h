/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstack.h - decoding of the stack a kernel source saves at the timer IRQ:
 * ftrace:kernel_stack (the timerlat tracer's print_stack) or tlat.ko's
 * tlat:tlat_stack. Both are a count and an array of return addresses;
 * tlat_stack also names its activation (seqnum), kernel_stack does not.
 */
#ifndef TLAT_TRACE_KSTACK_H
#define TLAT_TRACE_KSTACK_H

#include <event-parse.h>

#include "core/sink.h"

struct kstack_event {
	int id;			/* -1: the source has no stack event */
	struct tep_format_field *count;
	struct tep_format_field *ips;
	struct tep_format_field *seq;	/* NULL: the records do not name their activation */
};

/**
 * kstack_event_init - find a stack event's fields
 * @ks: filled in; its id is -1 if the event is unusable
 * @tep: the tep that knows the event
 * @system: the event's system
 * @name: its name
 * @count_field: the field that counts its frames
 * @ips_field: its field of return addresses
 *
 * An event's seqnum field, if it has one, is the activation of its stacks.
 *
 * Returns 0, or -ENOENT if the event or a field is missing.
 */
int kstack_event_init(struct kstack_event *ks, struct tep_handle *tep, const char *system,
		      const char *name, const char *count_field, const char *ips_field);
/**
 * kstack_decode - a stack record's return addresses, innermost first
 * @ks: the event's fields
 * @event: the record's event; another event has no stack
 * @record: the record
 * @ips: set to the addresses
 * @max: @ips' room
 *
 * Returns how many, 0 if none.
 */
int kstack_decode(const struct kstack_event *ks, struct tep_event *event,
		  struct tep_record *record, u64 *ips, int max);
/**
 * kstack_forward - decode a stack record, without repeats, and hand it to the sink
 * @ks: the event's fields
 * @event: the record's event: records of other events are ignored
 * @record: the record
 * @sink: where the stack goes, if it takes stacks, with its activation's
 *	seqnum where the event has one
 */
void kstack_forward(const struct kstack_event *ks, struct tep_event *event,
		    struct tep_record *record, struct tlat_sink *sink);
/**
 * kstack_drop_repeats - drop runs of frames that repeat the run just before them
 * @ips: the addresses, changed in place
 * @nr: how many
 *
 * Returns the new count.
 */
int kstack_drop_repeats(u64 *ips, int nr);

#endif
