/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_records.h - the records of a ring-buffer page loaded in a kbuffer,
 * each handed on as a tep_record with its event: the live reader
 * (buffer_read.c) and tlat report's (dat_pages.c) read pages alike. No
 * allocation and one kbuffer call per record, and each record's event
 * found by its id in a table: both run for every record tlat reads.
 */
#ifndef TLAT_TRACE_PAGE_RECORDS_H
#define TLAT_TRACE_PAGE_RECORDS_H

#include <stdbool.h>

#include <event-parse.h>
#include <kbuffer.h>

#include "trace/event_fields.h"

/* the events of a set of formats by their id */
struct event_index {
	struct tep_handle *tep;
	struct tep_format_field *type;	/* common_type, the event id; NULL: no events */
	struct tep_event **by_id;
	int *min_size;			/* by id: event_min_size() */
	int nr_ids;
};

/**
 * event_index_init - index the events of a set of formats
 * @ix: the index, the caller's memory
 * @tep: the formats, complete: an event parsed later is not in the index
 *
 * Returns 0 or -ENOMEM; free it with event_index_free().
 */
int event_index_init(struct event_index *ix, struct tep_handle *tep);
/**
 * event_min_size - the size a record of an event needs for its fixed fields
 * @event: the event's format
 *
 * Returns the end of its last field, arrays not counted (a fixed array at
 * the end may be cut short): a shorter record is damaged.
 */
int event_min_size(const struct tep_event *event);
/**
 * event_index_free - free what the index holds
 * @ix: the index, initialized or zeroed
 */
void event_index_free(struct event_index *ix);

/**
 * event_index_find - what tep_find_event_by_record() finds, by a table
 * @ix: the index
 * @data: a record's data
 * @size: its size: a record too short for its event's fields (damaged) has none
 *
 * Returns the record's event, or NULL if the formats have none of its id,
 * or the record is shorter than its fields.
 */
static inline struct tep_event *event_index_find(const struct event_index *ix, const void *data,
						 int size)
{
	int id;

	if (!ix->type || size < ix->type->offset + ix->type->size)
		return NULL;
	id = (int)event_field_read(ix->tep, ix->type, data);
	return id >= 0 && id < ix->nr_ids && size >= ix->min_size[id] ? ix->by_id[id] : NULL;
}

/* where a page is read: the record after the last one handed on */
struct page_cursor {
	struct kbuffer *kbuf;
	void *next;			/* its data; NULL at the page's end */
	const char *end;		/* the end of the page's data, as its header says */
	unsigned long long next_ts;
	int missed;			/* the events lost before it */
	bool overrun;			/* a record ran past end, or stood still: damaged */
};

/**
 * page_cursor_start - read a kbuffer's page from its current record on
 * @pc: the cursor
 * @kbuf: the kbuffer, its page loaded; NULL: a page with no records
 * @page: the page kbuf loaded, whose header says where its data ends: a
 *	record that runs past it ends the page, with overrun set
 */
static inline void page_cursor_start(struct page_cursor *pc, struct kbuffer *kbuf,
				     const void *page)
{
	pc->kbuf = kbuf;
	pc->overrun = false;
	pc->end = kbuf ? (const char *)page + kbuffer_start_of_data(kbuf) +
			 kbuffer_subbuffer_size(kbuf) : NULL;
	pc->next = kbuf ? kbuffer_read_event(kbuf, &pc->next_ts) : NULL;
	/* what kbuffer says of the page's first record, 0 of the others */
	pc->missed = pc->next ? kbuffer_missed_events(kbuf) : 0;
}

/**
 * page_cursor_next - the page's next record
 * @pc: the cursor
 * @rec: its time, data, size and lost events are set; the rest is left
 *	as the caller set it (the CPU, a reference)
 *
 * Returns false at the page's end, @rec untouched.
 */
static inline bool page_cursor_next(struct page_cursor *pc, struct tep_record *rec)
{
	int size;

	if (!pc->next)
		return false;
	size = kbuffer_event_size(pc->kbuf);
	/* a length read from a damaged page: the record is not all in it */
	if (size < 0 || size > pc->end - (const char *)pc->next) {
		pc->overrun = true;
		pc->next = NULL;
		return false;
	}
	rec->ts = pc->next_ts;
	rec->data = pc->next;
	rec->size = size;
	rec->missed_events = pc->missed;
	pc->missed = 0;
	/* the call that moves on also reads the next record: one call a record */
	pc->next = kbuffer_next_event(pc->kbuf, &pc->next_ts);
	/* a length of 0 read from a damaged page: the same record again, for ever */
	if (pc->next && (const char *)pc->next <= (const char *)rec->data) {
		pc->overrun = true;
		pc->next = NULL;
	}
	return true;
}

#endif
