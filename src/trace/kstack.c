// SPDX-License-Identifier: GPL-2.0
/*
 * kstack.c - stack events to return addresses (see kstack.h).
 *
 * ftrace:kernel_stack's format claims caller[8], but the kernel writes
 * `size` entries past it, so the array runs to the end of the record. On
 * 6.1 timerlat reserves 8 entries more than it fills, and the text printer
 * shows them as garbage frames: only `size` entries are real. On 6.12 the
 * stack has been seen with frames repeated; a repeat of the frames just
 * before carries no information, so it is dropped.
 */
#include <errno.h>
#include <string.h>

#include "core/array.h"
#include "trace/event_fields.h"
#include "trace/kstack.h"

#define KSTACK_MAX_REPEAT	8	/* longest repeated run looked for */

int kstack_event_init(struct kstack_event *ks, struct tep_handle *tep, const char *system,
		      const char *name, const char *count_field, const char *ips_field)
{
	struct tep_event *event = tep_find_event_by_name(tep, system, name);
	const struct event_field_want fields[] = {
		{ count_field, &ks->count }, { ips_field, &ks->ips },
	};

	ks->id = -1;
	if (!event)
		return -ENOENT;
	/* a __data_loc array has no element size in its format: x86_64's long */
	if (event_fields_find(event, fields, ARRAY_SIZE(fields)) ||
	    (!(ks->ips->flags & TEP_FIELD_IS_DYNAMIC) && ks->ips->elementsize != sizeof(u64)))
		return -ENOENT;
	/* tlat.ko's: its stack's time is a poor guide to its activation (aa_stack_of_hit()) */
	ks->seq = tep_find_field(event, "seqnum");
	ks->id = event->id;
	return 0;
}

int kstack_decode(const struct kstack_event *ks, struct tep_event *event,
		  struct tep_record *record, u64 *ips, int max)
{
	unsigned long long count = 0;
	const char *array;
	int len, nr;

	if (event->id != ks->id || tep_read_number_field(ks->count, record->data, &count))
		return 0;
	if (ks->ips->flags & TEP_FIELD_IS_DYNAMIC) {
		array = tep_get_field_raw(NULL, event, ks->ips->name, record, &len, 0);
		if (!event_raw_in_record(record, array, len))
			return 0;
	} else {
		/* a fixed array that really runs to the end of the record */
		array = (const char *)record->data + ks->ips->offset;
		len = record->size - ks->ips->offset;
	}
	nr = len > 0 ? len / (int)sizeof(u64) : 0;
	if ((unsigned long long)nr > count)
		nr = (int)count;
	if (nr > max)
		nr = max;
	for (int i = 0; i < nr; i++) {
		memcpy(&ips[i], array + i * sizeof(u64), sizeof(u64));
		if (!ips[i] || ips[i] == UINT64_MAX)
			return i;	/* the kernel's own end marks */
	}
	return nr;
}

int kstack_drop_repeats(u64 *ips, int nr)
{
	for (int run = 1; run <= KSTACK_MAX_REPEAT; run++) {
		for (int i = run; i + run <= nr;) {
			if (!memcmp(&ips[i - run], &ips[i], run * sizeof(*ips))) {
				memmove(&ips[i], &ips[i + run], (nr - i - run) * sizeof(*ips));
				nr -= run;
			} else {
				i++;
			}
		}
	}
	return nr;
}

void kstack_forward(const struct kstack_event *ks, struct tep_event *event,
		    struct tep_record *record, struct tlat_sink *sink)
{
	u64 ips[TLAT_STACK_MAX_FRAMES];
	unsigned long long seq = 0;
	struct tlat_stack stack = { .ts_ns = record->ts, .cpu = record->cpu, .ips = ips };

	if (event->id != ks->id || !sink->stack)
		return;
	stack.nr = kstack_drop_repeats(ips, kstack_decode(ks, event, record, ips, TLAT_STACK_MAX_FRAMES));
	if (!stack.nr)
		return;
	if (ks->seq && !tep_read_number_field(ks->seq, record->data, &seq))
		stack.seq = (u32)seq;
	sink->stack(sink, &stack);
}
