// SPDX-License-Identifier: GPL-2.0
/*
 * page_records.c - the event index of a page's records (see page_records.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/page_records.h"

int event_index_init(struct event_index *ix, struct tep_handle *tep)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	int n = tep_get_events_count(tep);

	memset(ix, 0, sizeof(*ix));
	ix->tep = tep;
	if (!events)
		return n ? -ENOMEM : 0;
	/* every format has it, in the same place: tep_data_type() reads the first one's */
	ix->type = n ? tep_find_common_field(events[0], "common_type") : NULL;
	if (!ix->type)
		n = 0;
	ix->nr_ids = n ? events[n - 1]->id + 1 : 0;
	ix->by_id = calloc(ix->nr_ids ?: 1, sizeof(*ix->by_id));
	ix->min_size = calloc(ix->nr_ids ?: 1, sizeof(*ix->min_size));
	if (!ix->by_id || !ix->min_size)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		if (events[i]->id >= 0) {
			ix->by_id[events[i]->id] = events[i];
			ix->min_size[events[i]->id] = event_min_size(events[i]);
		}
	}
	return 0;
}

/*
 * Where its last field ends, but for arrays: a __data_loc field is the
 * 4-byte word that says where its data is, and a fixed array at the end may
 * be cut short (kernel_stack's caller[8] holds only the frames there are):
 * its readers bound it by the record's size.
 */
static int fields_end(struct tep_format_field *field)
{
	int end = 0;

	for (; field; field = field->next) {
		int size = field->flags & TEP_FIELD_IS_DYNAMIC ? 4 :
			   field->flags & TEP_FIELD_IS_ARRAY ? 0 : field->size;

		if (field->offset >= 0 && size >= 0 && field->offset + size > end)
			end = field->offset + size;
	}
	return end;
}

int event_min_size(const struct tep_event *event)
{
	int common = fields_end(event->format.common_fields);
	int own = fields_end(event->format.fields);

	return common > own ? common : own;
}

void event_index_free(struct event_index *ix)
{
	free(ix->by_id);
	free(ix->min_size);
	ix->by_id = NULL;
	ix->min_size = NULL;
	ix->nr_ids = 0;
}
