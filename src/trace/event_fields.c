// SPDX-License-Identifier: GPL-2.0
/*
 * event_fields.c - an event's fields looked up by name (see event_fields.h).
 */
#include <errno.h>

#include "trace/event_fields.h"

int event_fields_find(struct tep_event *event, const struct event_field_want *want, int nr)
{
	int ret = 0;

	for (int i = 0; i < nr; i++) {
		*want[i].field = tep_find_any_field(event, want[i].name);
		if (!*want[i].field)
			ret = -ENOENT;
	}
	return ret;
}
