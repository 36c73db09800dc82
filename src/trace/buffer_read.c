// SPDX-License-Identifier: GPL-2.0
/*
 * buffer_read.c - the live reading of tlat's instance, in passes that may
 * end at a deadline (see buffer_read.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <kbuffer.h>

#include "core/err.h"
#include "trace/buffer_percpu.h"
#include "trace/buffer_read.h"
#include "trace/page_records.h"
#include "util/clock.h"

/* records handed on between two looks at the clock: a vDSO call each */
#define BUFFER_CLOCK_EVERY	64

struct buffer_cpu {
	struct tracefs_cpu *tcpu;	/* NULL: no buffer on this CPU, or closed */
	void *page;
	struct kbuffer *kbuf;
	struct page_cursor cursor;	/* in kbuf, at the next record to hand on */
	struct tep_record record;
	struct tep_event *event;	/* the record's; NULL: none pending */
};

struct buffer_reader {
	struct tep_handle *tep;
	struct event_index events;
	int nr_cpus;
	int page_size;
	buffer_page_fn page_fn;
	void *page_ctx;
	struct buffer_cpu *cpus;
};

static int buffer_cpu_open(struct buffer_reader *r, struct tracefs_instance *inst, int cpu)
{
	struct buffer_cpu *bc = &r->cpus[cpu];
	int size;

	/* what the cursor leaves as it is, record after record */
	bc->record.cpu = cpu;
	bc->record.ref_count = 1;

	/* a possible but absent CPU has no buffer */
	bc->tcpu = tracefs_cpu_open(inst, cpu, true);
	if (!bc->tcpu)
		return 0;
	size = tracefs_cpu_read_size(bc->tcpu);
	if (size <= 0)
		return -EIO;
	if (r->page_size && size != r->page_size)
		return -EINVAL;
	r->page_size = size;
	bc->page = calloc(1, size);
	/* the page header's long size and endianness, as the formats say */
	bc->kbuf = tep_kbuffer(r->tep);
	return bc->page && bc->kbuf ? 0 : -ENOMEM;
}

int buffer_reader_open(struct buffer_reader **out, struct tracefs_instance *inst,
		       struct tep_handle *tep, int nr_cpus, buffer_page_fn page_fn,
		       void *page_ctx, char *err)
{
	struct buffer_reader *r = calloc(1, sizeof(*r));
	int opened = 0, ret;

	*out = r;
	if (!r)
		return -ENOMEM;
	r->tep = tep;
	r->nr_cpus = nr_cpus;
	r->page_fn = page_fn;
	r->page_ctx = page_ctx;
	r->cpus = calloc(nr_cpus, sizeof(*r->cpus));
	if (!r->cpus || event_index_init(&r->events, tep))
		return -ENOMEM;
	/* ENOENT unless a tracefs_cpu_open() below says otherwise */
	errno = ENOENT;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		ret = buffer_cpu_open(r, inst, cpu);
		if (ret) {
			tlat_err(err, "cannot read the trace buffer of CPU %d: %s", cpu,
				 strerror(-ret));
			return ret;
		}
		opened += r->cpus[cpu].tcpu != NULL;
	}
	if (!opened) {
		tlat_err(err, "cannot read the trace buffers: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}

int buffer_reader_page_size(const struct buffer_reader *r)
{
	return r->page_size;
}

/* the next page of a CPU, to the page hook first, then into its kbuffer */
static bool buffer_read_page(struct buffer_reader *r, struct buffer_cpu *bc)
{
	int n;

	if (!bc->tcpu)
		return false;
	n = tracefs_cpu_read(bc->tcpu, bc->page, true);
	if (n <= 0)
		return false;
	/* a page read before it filled up: what follows its data is not events */
	if (n < r->page_size)
		memset((char *)bc->page + n, 0, r->page_size - n);
	if (r->page_fn)
		r->page_fn(r->page_ctx, (int)(bc - r->cpus), bc->page, r->page_size);
	if (kbuffer_load_subbuffer(bc->kbuf, bc->page))
		return false;
	page_cursor_start(&bc->cursor, bc->kbuf, bc->page);
	return true;
}

/* the CPU's next record of a known event into bc->record; false when none is left */
static bool buffer_next(struct buffer_reader *r, struct buffer_cpu *bc)
{
	if (!bc->kbuf)
		return false;
	do {
		while (page_cursor_next(&bc->cursor, &bc->record)) {
			bc->event = event_index_find(&r->events, bc->record.data, bc->record.size);
			if (bc->event)
				return true;
		}
	} while (buffer_read_page(r, bc));
	return false;
}

int buffer_reader_drain(struct buffer_reader *r, u64 until_ns, buffer_record_fn fn, void *ctx)
{
	struct buffer_cpu *next;
	unsigned int handed = 0;

	for (int cpu = 0; cpu < r->nr_cpus; cpu++)
		if (!r->cpus[cpu].event)
			buffer_next(r, &r->cpus[cpu]);
	for (;;) {
		next = NULL;
		for (int cpu = 0; cpu < r->nr_cpus; cpu++) {
			struct buffer_cpu *bc = &r->cpus[cpu];

			if (bc->event && (!next || bc->record.ts < next->record.ts))
				next = bc;
		}
		if (!next)
			return 0;
		/* the record stays pending: the next pass hands it on first */
		if (until_ns && ++handed % BUFFER_CLOCK_EVERY == 0 && mono_now_ns() >= until_ns)
			return 1;
		fn(next->event, &next->record, next->record.cpu, ctx);
		next->event = NULL;
		buffer_next(r, next);
	}
}

static bool buffer_peek(void *sctx, int cpu, struct tep_event **event,
			struct tep_record **record)
{
	struct buffer_reader *r = sctx;
	struct buffer_cpu *bc = &r->cpus[cpu];

	if (!bc->event && !buffer_next(r, bc))
		return false;
	*event = bc->event;
	*record = &bc->record;
	return true;
}

static void buffer_take(void *sctx, int cpu)
{
	struct buffer_reader *r = sctx;

	r->cpus[cpu].event = NULL;
}

static const struct percpu_stream_ops buffer_streams = {
	.peek = buffer_peek,
	.take = buffer_take,
};

void buffer_reader_percpu(const struct percpu_stream_ops **ops)
{
	*ops = &buffer_streams;
}

void buffer_reader_close(struct buffer_reader *r)
{
	for (int cpu = 0; r && cpu < r->nr_cpus; cpu++) {
		tracefs_cpu_close(r->cpus[cpu].tcpu);
		r->cpus[cpu].tcpu = NULL;
	}
}

void buffer_reader_free(struct buffer_reader *r)
{
	if (!r)
		return;
	for (int cpu = 0; r->cpus && cpu < r->nr_cpus; cpu++) {
		struct buffer_cpu *bc = &r->cpus[cpu];

		tracefs_cpu_close(bc->tcpu);
		free(bc->page);
		kbuffer_free(bc->kbuf);
	}
	free(r->cpus);
	event_index_free(&r->events);
	free(r);
}
