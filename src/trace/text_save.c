// SPDX-License-Identifier: GPL-2.0
/*
 * text_save.c - the -t store: a byte ring of variable-size entries (a header,
 * then the record's data), so that keeping the newest records costs one copy
 * per record and no allocation. An entry never straddles the ring's end: when
 * one does not fit there, the rest of the ring becomes padding and writing
 * resumes at its start, evicting the oldest entries in the way.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "trace/text_save.h"
#include "util/publish.h"

/* a record's size is an int, so this size only ever marks the padding */
#define PAD_SIZE	0xffffffffu

struct entry {
	unsigned long long ts;
	int cpu;
	unsigned int size;
	unsigned char data[];
};

struct text_save {
	unsigned char *buf;
	size_t cap;
	size_t head;			/* the oldest entry */
	size_t tail;			/* where the next entry goes */
	/* the entries run from head to the padding, then from 0 to tail */
	bool wrapped;
	unsigned long nr;
	unsigned long long dropped;
};

/* what the kernel's trace file starts with, after its own two lines */
static const char legend[] =
	"#\n"
	"#                                _-----=> irqs-off/BH-disabled\n"
	"#                               / _----=> need-resched\n"
	"#                              | / _---=> hardirq/softirq\n"
	"#                              || / _--=> preempt-depth\n"
	"#                              ||| / _-=> migrate-disable\n"
	"#                              |||| /     delay\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n";

/* entries stay 8-byte aligned so that their headers can be read in place */
static size_t entry_len(unsigned int size)
{
	return sizeof(struct entry) + (((size_t)size + 7) & ~(size_t)7);
}

static struct entry *entry_at(const struct text_save *ts, size_t pos)
{
	return (struct entry *)(ts->buf + pos);
}

/* nothing more before the ring's end: the next entry is at 0 */
static bool at_end(const struct text_save *ts, size_t pos)
{
	return ts->cap - pos < sizeof(struct entry) || entry_at(ts, pos)->size == PAD_SIZE;
}

struct text_save *text_save_alloc(size_t max_bytes)
{
	struct text_save *ts = calloc(1, sizeof(*ts));

	if (!ts)
		return NULL;
	ts->cap = max_bytes & ~(size_t)7;
	/* the pages are only touched (and only cost memory) as records fill them */
	if (ts->cap >= sizeof(struct entry)) {
		ts->buf = malloc(ts->cap);
		if (!ts->buf) {
			free(ts);
			return NULL;
		}
	}
	return ts;
}

static void evict_oldest(struct text_save *ts)
{
	ts->head += entry_len(entry_at(ts, ts->head)->size);
	ts->dropped++;
	if (!--ts->nr) {
		ts->head = ts->tail = 0;
		ts->wrapped = false;
	} else if (ts->wrapped && at_end(ts, ts->head)) {
		ts->head = 0;
		ts->wrapped = false;
	}
}

int text_save_add(struct text_save *ts, const struct tep_record *record)
{
	struct entry *e;
	size_t len;

	if (record->size < 0)
		return -EINVAL;
	len = entry_len(record->size);
	if (len > ts->cap) {
		ts->dropped++;
		return 0;
	}
	/* ends at the latest once all is evicted: head == tail == 0, and len fits */
	for (;;) {
		if (!ts->wrapped) {
			if (ts->cap - ts->tail >= len)
				break;
			if (ts->cap - ts->tail >= sizeof(*e))
				entry_at(ts, ts->tail)->size = PAD_SIZE;
			ts->tail = 0;
			ts->wrapped = true;
		}
		if (ts->head - ts->tail >= len)
			break;
		evict_oldest(ts);
	}
	e = entry_at(ts, ts->tail);
	e->ts = record->ts;
	e->cpu = record->cpu;
	e->size = record->size;
	memcpy(e->data, record->data, record->size);
	ts->tail += len;
	ts->nr++;
	return 0;
}

/* stdio does not always leave errno set on a failed write */
static int write_error(void)
{
	return errno ? -errno : -EIO;
}

static int write_records(struct text_save *ts, struct tep_handle *tep, const char *tracer,
			 FILE *f)
{
	struct trace_seq s;
	size_t pos = ts->head;
	unsigned long i;
	int ret = 0;

	errno = 0;
	if (fprintf(f, "# tracer: %s\n#\n# entries-in-buffer/entries-written: %lu/%llu   #P:%ld\n",
		    tracer, ts->nr, ts->nr + ts->dropped, sysconf(_SC_NPROCESSORS_ONLN)) < 0 ||
	    fputs(legend, f) == EOF)
		return write_error();

	trace_seq_init(&s);
	for (i = 0; i < ts->nr && !ret; i++) {
		struct tep_record rec = { 0 };
		struct entry *e;

		if (at_end(ts, pos))
			pos = 0;
		e = entry_at(ts, pos);
		pos += entry_len(e->size);
		rec.ts = e->ts;
		rec.cpu = e->cpu;
		rec.size = e->size;
		rec.data = e->data;

		trace_seq_reset(&s);
		/* the kernel's layout; each argument says what to print, it is no value */
		tep_print_event(tep, &s, &rec, "%16s-%-7d [%03d] %s %6.1000d: %s: %s",
				TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU, TEP_PRINT_LATENCY,
				TEP_PRINT_TIME, TEP_PRINT_NAME, TEP_PRINT_INFO);
		/* apart, since an unknown event stops tep_print_event early */
		trace_seq_putc(&s, '\n');
		if (s.state != TRACE_SEQ__GOOD)
			ret = -ENOMEM;
		else if (fwrite(s.buffer, 1, s.len, f) != s.len)
			ret = write_error();
	}
	trace_seq_destroy(&s);
	return ret;
}

int text_save_write(struct text_save *ts, struct tep_handle *tep, const char *tracer,
		    const char *path)
{
	struct publish file;
	FILE *f;
	int ret;

	/* 0644: the trace of a root run is for the user who reads it too */
	ret = publish_open(&file, path, 0644);
	if (ret)
		return ret;
	f = publish_stream(&file);
	ret = f ? write_records(ts, tep, tracer, f) : -errno;
	if (ret) {
		publish_abort(&file);
		return ret;
	}
	return publish_commit(&file);
}

unsigned long long text_save_dropped(const struct text_save *ts)
{
	return ts->dropped;
}

void text_save_free(struct text_save *ts)
{
	if (!ts)
		return;
	free(ts->buf);
	free(ts);
}
