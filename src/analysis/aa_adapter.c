// SPDX-License-Identifier: GPL-2.0
/*
 * aa_adapter.c - what both auto-analysis adapters need: reading fields and
 * switches, and naming things the way the kernel prints them.
 */
#include <errno.h>
#include <string.h>

#include "analysis/aa_adapter.h"
#include "core/array.h"
#include "trace/event_fields.h"

/* the kernel's softirq names, as __print_symbolic() prints them */
const char *aa_softirq_name(unsigned long long vec)
{
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
		"IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	return vec < ARRAY_SIZE(names) ? names[vec] : "UNKNOWN";
}

/* event strings need not be NUL-terminated within their field */
void aa_copy_name(char *dst, const void *src, size_t len)
{
	size_t n = strnlen(src, len < AA_NAME_LEN - 1 ? len : AA_NAME_LEN - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

int aa_switch_event_init(struct aa_switch_event *se, struct tep_event *event)
{
	const struct event_field_want fields[] = {
		{ "prev_pid", &se->prev_pid }, { "prev_comm", &se->prev_comm },
		{ "next_pid", &se->next_pid }, { "next_comm", &se->next_comm },
	};

	se->id = event->id;
	return event_fields_find(event, fields, ARRAY_SIZE(fields));
}

u64 aa_field_number(struct tep_format_field *field, const struct tep_record *record)
{
	unsigned long long val = 0;

	if (field)
		tep_read_number_field(field, record->data, &val);
	return val;
}

void aa_field_name(char *dst, struct tep_event *event, const char *name,
		   struct tep_record *record)
{
	int len;
	const char *s = tep_get_field_raw(NULL, event, name, record, &len, 0);

	if (!event_raw_in_record(record, s, len))
		s = NULL;
	aa_copy_name(dst, s ? s : "", s ? len : 1);
}

void aa_switch_add(const struct aa_switch_event *se, struct aa_engine *aa,
		   const struct tep_record *record)
{
	struct aa_switch sw = { .cpu = record->cpu, .ts_ns = record->ts };

	sw.prev_pid = (int)aa_field_number(se->prev_pid, record);
	sw.next_pid = (int)aa_field_number(se->next_pid, record);
	aa_copy_name(sw.prev_comm, (char *)record->data + se->prev_comm->offset,
		     se->prev_comm->size);
	aa_copy_name(sw.next_comm, (char *)record->data + se->next_comm->offset,
		     se->next_comm->size);
	aa_add_switch(aa, &sw);
}
