/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstack.h - decoding of the stack a kernel source saves at the timer IRQ:
 * ftrace:kernel_stack (the timerlat tracer's print_stack) or tlat.ko's
 * tlat:tlat_stack. Both are a count and an array of return addresses.
 */
#ifndef TLAT_KSTACK_H
#define TLAT_KSTACK_H

#include <event-parse.h>

#include "source.h"

struct kstack_event {
	int id;			/* -1: the source has no stack event */
	struct tep_format_field *count;
	struct tep_format_field *ips;
};

int kstack_event_init(struct kstack_event *ks, struct tep_handle *tep, const char *system,
		      const char *name, const char *count_field, const char *ips_field);
/* the return addresses, innermost first; how many, 0 if none */
int kstack_decode(const struct kstack_event *ks, struct tep_event *event,
		  struct tep_record *record, u64 *ips, int max);
/* decode a record of this event, without repeats, and hand it to the sink */
void kstack_forward(const struct kstack_event *ks, struct tep_event *event,
		    struct tep_record *record, struct tlat_sink *sink);
/* drop repeats of the frames just before them; returns the new count */
int kstack_drop_repeats(u64 *ips, int nr);

#endif
