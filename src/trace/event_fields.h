/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event_fields.h - an event's fields looked up by name, all at once: every
 * decoder needs a few fields of an event and refuses a format without them.
 */
#ifndef TLAT_TRACE_EVENT_FIELDS_H
#define TLAT_TRACE_EVENT_FIELDS_H

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

#endif
