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
	if (!ix->by_id)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		if (events[i]->id >= 0)
			ix->by_id[events[i]->id] = events[i];
	return 0;
}

void event_index_free(struct event_index *ix)
{
	free(ix->by_id);
	ix->by_id = NULL;
	ix->nr_ids = 0;
}
