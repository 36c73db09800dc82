// SPDX-License-Identifier: GPL-2.0
/*
 * dat_pages.c - a trace.dat's records, merged in time order off
 * libtracecmd's pages (see dat_pages.h).
 *
 * tracecmd_iterate_events() allocates, links and frees a record for every
 * event, which cost tlat report most of its time. Here libtracecmd still
 * reads, uncompresses and maps every page, and returns each page's first
 * record; the rest of the page is read with the kbuffer it loaded it in, so
 * that its cursor is where its next read expects it. libtracecmd corrects
 * the times of some recordings (--ts-offset, a guest's clock): a CPU whose
 * page starts at a corrected time is read record by record through it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <kbuffer.h>

#include "trace/page_records.h"
#include "tracedat/dat_pages.h"
#include "tracedat/tracecmd_private.h"

struct pages_cpu {
	int index;			/* libtracecmd's CPU index, given to the callback */
	struct tep_record rec;		/* the current record, handed over */
	struct tep_event *event;	/* its event; NULL once the CPU is done */
	struct tep_record *owned;	/* libtracecmd's: the page's first record */
	struct page_cursor page;	/* in libtracecmd's kbuffer, past the first record */
	bool started;
	bool slow;			/* times corrected: every record through libtracecmd */
	u64 pages;			/* pages read, for the line about a damaged one */
};

struct dat_pages {
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	struct kbuffer *probe;		/* reads a page's first raw time */
	struct event_index events;
	int nr_cpus;
	struct pages_cpu *cpus;
	u64 last_ts;
	int page_size;
	/* what is damaged, from the last pass: NULL, or a description */
	const char *damage;
	int damage_cpu;
	u64 damage_page;
};

int dat_pages_alloc(struct dat_pages **out, struct tracecmd_input *handle)
{
	struct dat_pages *pg = calloc(1, sizeof(*pg));

	*out = pg;
	if (!pg)
		return -ENOMEM;
	pg->handle = handle;
	pg->tep = tracecmd_get_tep(handle);
	pg->nr_cpus = tep_get_cpus(pg->tep);
	if (pg->nr_cpus < 0)
		pg->nr_cpus = 0;
	pg->cpus = calloc(pg->nr_cpus ?: 1, sizeof(*pg->cpus));
	pg->probe = tep_kbuffer(pg->tep);
	pg->page_size = tracecmd_page_size(handle);
	if (!pg->cpus || !pg->probe || event_index_init(&pg->events, pg->tep))
		return -ENOMEM;
	if (tep_is_old_format(pg->tep))
		kbuffer_set_old_format(pg->probe);
	return 0;
}

/*
 * Whether libtracecmd gave the page's first record its raw time, as it does
 * unless the recording asks for a correction: then the times the kbuffer
 * reads of the rest of the page are what libtracecmd would have given.
 */
static bool pages_raw_time(struct dat_pages *pg, const struct tep_record *r)
{
	void *page = tracecmd_record_page(pg->handle, (struct tep_record *)r);
	unsigned long long ts;

	return page && !kbuffer_load_subbuffer(pg->probe, page) &&
	       kbuffer_read_event(pg->probe, &ts) == r->data && ts == r->ts;
}

/* the pass stops at the first damage it finds; the CPU is done */
static void pages_damaged(struct dat_pages *pg, struct pages_cpu *c, const char *what)
{
	if (!pg->damage) {
		pg->damage = what;
		pg->damage_cpu = c->index;
		pg->damage_page = c->pages;
	}
	c->event = NULL;
}

/*
 * Whether the page of libtracecmd's record r holds what its header says:
 * its data, and r, within the page. libtracecmd checks neither.
 */
static const char *pages_check(struct dat_pages *pg, const struct tep_record *r)
{
	const char *page = tracecmd_record_page(pg->handle, (struct tep_record *)r);
	struct kbuffer *kbuf = tracecmd_record_kbuf(pg->handle, (struct tep_record *)r);
	long start, commit;

	if (!page || !kbuf || pg->page_size <= 0)
		return NULL;
	start = kbuffer_start_of_data(kbuf);
	commit = kbuffer_subbuffer_size(kbuf);
	if (commit < 0 || start + commit > pg->page_size)
		return "a page's header says it holds more than a page";
	if (r->size < 0 || (const char *)r->data < page ||
	    (const char *)r->data + r->size > page + start + commit)
		return "a record runs past the end of its page";
	return NULL;
}

/* the CPU's next record with a known event, or none (event NULL) */
static void pages_next(struct dat_pages *pg, struct pages_cpu *c)
{
	u64 prev_ts = c->started ? c->rec.ts : 0;
	struct tep_record *r;
	const char *bad;

	do {
		if (c->owned) {
			tracecmd_free_record(c->owned);
			c->owned = NULL;
		}
		if (!page_cursor_next(&c->page, &c->rec)) {
			if (c->page.overrun) {
				pages_damaged(pg, c,
					      "a record's length runs past the end of its page, or is 0");
				return;
			}
			r = c->started ? tracecmd_read_data(pg->handle, c->index) :
					 tracecmd_read_cpu_first(pg->handle, c->index);
			c->started = true;
			if (!r) {
				c->event = NULL;
				return;
			}
			c->owned = r;
			c->rec = *r;
			c->pages++;
			bad = pages_check(pg, r);
			if (bad) {
				pages_damaged(pg, c, bad);
				return;
			}
			if (!c->slow)
				c->slow = !pages_raw_time(pg, r);
			page_cursor_start(&c->page, c->slow ? NULL :
					  tracecmd_record_kbuf(pg->handle, r),
					  tracecmd_record_page(pg->handle, r));
		}
		/* a CPU's records are in time order, as its ring buffer wrote them */
		if (c->rec.ts < prev_ts) {
			pages_damaged(pg, c, "a record's time is before the one before it");
			return;
		}
		c->event = event_index_find(&pg->events, c->rec.data, c->rec.size);
	} while (!c->event);
}

/* as tracecmd_iterate_events() orders them */
static bool pages_before(const struct pages_cpu *a, const struct pages_cpu *b)
{
	return a->rec.ts < b->rec.ts || (a->rec.ts == b->rec.ts && a->index < b->index);
}

static void pages_end(struct dat_pages *pg)
{
	for (int i = 0; i < pg->nr_cpus; i++) {
		tracecmd_free_record(pg->cpus[i].owned);
		pg->cpus[i].owned = NULL;
	}
}

int dat_pages_replay(struct dat_pages *pg, dat_record_fn fn, void *ctx)
{
	struct pages_cpu *next, *other;

	pg->last_ts = 0;
	pg->damage = NULL;
	for (int i = 0; i < pg->nr_cpus; i++) {
		struct pages_cpu *c = &pg->cpus[i];

		tracecmd_free_record(c->owned);
		*c = (struct pages_cpu){ .index = i };
		pages_next(pg, c);
	}
	for (;;) {
		next = other = NULL;
		for (int i = 0; i < pg->nr_cpus; i++) {
			struct pages_cpu *c = &pg->cpus[i];

			if (!c->event)
				continue;
			if (!next || pages_before(c, next)) {
				other = next;
				next = c;
			} else if (!other || pages_before(c, other)) {
				other = c;
			}
		}
		if (!next)
			break;
		/* until it passes the other CPUs' earliest, the same CPU comes next */
		do {
			pg->last_ts = next->rec.ts;
			if (fn(next->event, &next->rec, next->index, ctx))
				goto out;
			pages_next(pg, next);
		} while (next->event && (!other || pages_before(next, other)));
	}
out:
	pages_end(pg);
	return pg->damage ? -EBADMSG : 0;
}

int dat_pages_damage(const struct dat_pages *pg, char *buf, size_t len)
{
	if (!pg->damage)
		return 0;
	snprintf(buf, len, "CPU %d's data, page %llu: %s", pg->damage_cpu,
		 (unsigned long long)pg->damage_page, pg->damage);
	return 1;
}

/* the file offset of the CPU's first page, or -1 if it cannot be told */
static off_t pages_first(struct dat_pages *pg, int fd, int cpu)
{
	struct tep_record *r = tracecmd_read_cpu_first(pg->handle, cpu);
	const char *page = r ? tracecmd_record_page(pg->handle, r) : NULL;
	off_t at = r ? (off_t)(r->offset & ~((u64)pg->page_size - 1)) : -1;
	u64 ts_file = 0, ts_mem = 1;

	/* trace-cmd writes each CPU's data page-aligned: the page there is this one */
	if (page && pread(fd, &ts_file, sizeof(ts_file), at) == sizeof(ts_file))
		memcpy(&ts_mem, page, sizeof(ts_mem));
	tracecmd_free_record(r);
	return ts_file == ts_mem ? at : -1;
}

/* a page's header: a time, then the size of its data (flags above bit 27) */
static bool pages_header_ok(const struct dat_pages *pg, u64 commit)
{
	return 8 + tep_get_long_size(pg->tep) + (commit & ((1ULL << 27) - 1)) <= (u64)pg->page_size;
}

/*
 * The headers of @nr pages from @first on, the file mapped: one pread() a
 * page cost a report of a 10 s recording 5% of its time; mapped, the
 * kernel maps the pages 16 at a time (its fault-around). -1 if it cannot
 * be mapped; else 0, or 1 with @bad set to the first damaged page (1 for
 * the first).
 */
static int pages_check_mapped(struct dat_pages *pg, int fd, off_t first, u64 nr, u64 *bad)
{
	off_t start = first & ~((off_t)sysconf(_SC_PAGESIZE) - 1);
	size_t len = (size_t)(first - start) + (size_t)nr * (size_t)pg->page_size;
	int long_size = tep_get_long_size(pg->tep);
	const char *map;
	int ret = 0;

	if (!nr)
		return 0;
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, start);
	if (map == MAP_FAILED)
		return -1;
	for (u64 k = 0; k < nr && !ret; k++) {
		u64 commit = 0;

		memcpy(&commit, map + (first - start) + k * pg->page_size + 8, long_size);
		if (!pages_header_ok(pg, commit)) {
			*bad = k + 1;
			ret = 1;
		}
	}
	munmap((void *)map, len);
	return ret;
}

/* the same, a pread() a page */
static int pages_check_read(struct dat_pages *pg, int fd, off_t first, u64 nr, u64 *bad)
{
	int long_size = tep_get_long_size(pg->tep);

	for (u64 k = 0; k < nr; k++) {
		u64 commit = 0;

		if (pread(fd, &commit, long_size, first + (off_t)k * pg->page_size + 8) != long_size)
			return 0;
		if (!pages_header_ok(pg, commit)) {
			*bad = k + 1;
			return 1;
		}
	}
	return 0;
}

int dat_pages_check_file(struct dat_pages *pg, const char *path, char *buf, size_t len)
{
	int long_size = tep_get_long_size(pg->tep);
	const char *name, *version;
	struct stat st;
	int fd, ret = 0;

	/* compressed data is not in the file as pages; nor is another byte order's */
	if (!tracecmd_get_file_compress_proto(pg->handle, &name, &version) ||
	    tep_is_file_bigendian(pg->tep) != tep_is_local_bigendian(pg->tep) ||
	    pg->page_size <= 0 || (long_size != 4 && long_size != 8))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st)) {
		close(fd);
		return 0;
	}
	for (int cpu = 0; cpu < pg->nr_cpus && !ret; cpu++) {
		u64 size = tracecmd_get_cpu_file_size(pg->handle, cpu);
		off_t first = size ? pages_first(pg, fd, cpu) : -1;
		u64 nr = size / pg->page_size, bad = 0;

		if (first < 0 || first >= st.st_size)
			continue;
		/* the pages in the file: a mapping past its end faults */
		if (nr > (u64)(st.st_size - first) / pg->page_size)
			nr = (u64)(st.st_size - first) / pg->page_size;
		ret = pages_check_mapped(pg, fd, first, nr, &bad);
		if (ret < 0)
			ret = pages_check_read(pg, fd, first, nr, &bad);
		if (ret)
			snprintf(buf, len, "CPU %d's data, page %llu: %s", cpu,
				 (unsigned long long)bad,
				 "a page's header says it holds more than a page");
	}
	close(fd);
	return ret;
}

u64 dat_pages_last_ts(const struct dat_pages *pg)
{
	return pg->last_ts;
}

void dat_pages_free(struct dat_pages *pg)
{
	if (!pg)
		return;
	if (pg->cpus)
		pages_end(pg);
	kbuffer_free(pg->probe);
	event_index_free(&pg->events);
	free(pg->cpus);
	free(pg);
}
