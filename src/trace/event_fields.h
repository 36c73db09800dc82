/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event_fields.h - an event's fields looked up by name, all at once: every
 * decoder needs a few fields of an event and refuses a format without them.
 */
#ifndef TLAT_TRACE_EVENT_FIELDS_H
#define TLAT_TRACE_EVENT_FIELDS_H

#include <stdbool.h>

#include <event-parse.h>

struct event_field_want {
	const char *name;			/* an event field or a common_* one */
	struct tep_format_field **field;	/* where it goes, NULL if missing */
};

/**
 * event_fields_find - look up the fields a decoder needs
 * @event: the event, as libtraceevent parsed its format
 * @want: the fields and where each goes
 * @nr: how many @want has
 *
 * Returns 0 when the event has every field, else -ENOENT; either way each
 * field the event has is set, the others are NULL.
 */
int event_fields_find(struct tep_event *event, const struct event_field_want *want, int nr);

/**
 * event_field_read - a numeric field of a record, through its looked-up format
 * @tep: the formats' handle, which knows the recording's byte order
 * @field: the field, from the record's event
 * @data: the record's data
 *
 * What tep_read_number_field() reads, without its two pointer hops per call
 * (the field's event, then its handle): it runs for every field of every
 * record a report decodes.
 *
 * Returns the value; 0 for a field of a size no number has.
 */
static inline unsigned long long event_field_read(struct tep_handle *tep,
						  const struct tep_format_field *field,
						  const void *data)
{
	return tep_read_number(tep, (const char *)data + field->offset, field->size);
}

/**
 * event_raw_in_record - whether a dynamic array's data, as its __data_loc
 * word says, lies within the record: tep_get_field_raw() does not check
 * @record: the record
 * @raw: tep_get_field_raw()'s return
 * @len: the length it set
 *
 * Returns true if @raw is not NULL and its @len bytes are the record's.
 */
static inline bool event_raw_in_record(const struct tep_record *record, const void *raw, int len)
{
	const char *data = record->data;

	return raw && len >= 0 && (const char *)raw >= data &&
	       (const char *)raw - data <= record->size - len;
}

#endif
