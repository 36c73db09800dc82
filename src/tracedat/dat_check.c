// SPDX-License-Identifier: GPL-2.0
/*
 * dat_check.c - a trace.dat's headers walked before libtracecmd sees them
 * (see dat_check.h): every size and offset they hold must fit in the file,
 * and in its section. libtracecmd allocates what they say, and reads on.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracedat/dat_check.h"
#include "tracedat/dat_walk.h"

#define DAT_MAGIC_LEN	10
#define DAT_MAX_SECTIONS 1024		/* options sections chained in one file */
#define DAT_MAX_CPU	65536		/* libtracecmd allocates up to the highest CPU id */
#define DAT_MAX_INFLATE	(1ULL << 30)	/* a compressed section's uncompressed size */
#define SEC_COMPRESSED	1
#define PAGE_RANGE	"is not a power of 2 from 1 KiB to 1 MiB"

enum {
	OPT_DONE = 0, OPT_BUFFER = 3, OPT_CPUCOUNT = 8, OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS, OPT_EVENT_FORMATS, OPT_KALLSYMS, OPT_PRINTK, OPT_CMDLINES,
	OPT_BUFFER_TEXT, OPT_BTF_FILE, OPT_MODULES_FILE = 25,
};

static bool page_ok(u64 page)
{
	return page >= 1024 && page <= (1 << 20) && !(page & (page - 1));
}

static int header_info(struct dat_walk *w)
{
	return dw_expect(w, "header_page", 12, "the header page") ?:
	       dw_sized(w, 8, "the header page") ?:
	       dw_expect(w, "header_event", 13, "the event header") ?:
	       dw_sized(w, 8, "the event header");
}

static int ftrace_events(struct dat_walk *w)
{
	u64 count;
	int ret = dw_num(w, 4, &count, "the count of ftrace events");

	for (u64 i = 0; !ret && i < count; i++)
		ret = dw_sized(w, 8, "an ftrace event's format");
	return ret;
}

static int event_formats(struct dat_walk *w)
{
	u64 systems, count;
	int ret = dw_num(w, 4, &systems, "the count of event systems");

	for (u64 s = 0; !ret && s < systems; s++) {
		ret = dw_string(w, NULL, 0, "an event system's name") ?:
		      dw_num(w, 4, &count, "an event system's count of events");
		for (u64 i = 0; !ret && i < count; i++)
			ret = dw_sized(w, 8, "an event's format");
	}
	return ret;
}

/* a CPU's data, for the layout: merged with the last range if it follows it */
static void layout_data(struct dat_walk *w, u64 at, u64 size)
{
	struct dat_layout *l = w->layout;
	struct dat_range *last = l && l->nr_data ? &l->data[l->nr_data - 1] : NULL;

	if (!l)
		return;
	if (last && last->at + last->size == at)
		last->size += size;
	else if (l->nr_data < DAT_LAYOUT_RANGES)
		l->data[l->nr_data++] = (struct dat_range){ .at = at, .size = size };
}

/* kallsyms (version 7: its section's content): for the layout, where its size and text are */
static int kallsyms(struct dat_walk *w, struct dat_walk *s, bool packed)
{
	u64 at = s->pos;
	int ret;

	if (w->layout) {
		w->layout->nr_kallsyms++;
		w->layout->kallsyms_packed |= packed;
	}
	if (packed)
		return 0;
	ret = dw_sized(s, 4, "kallsyms");
	if (!ret && w->layout) {
		w->layout->kallsyms_at = at;
		w->layout->kallsyms_size = s->pos - at - 4;
	}
	return ret;
}

/*
 * A CPU's data: in the file, and its first page's header (a time, then the
 * size of its data, flags above bit 27) within the page: libtracecmd loads
 * that page as it opens the file, and walks it as far as the header says.
 */
static int cpu_pages(struct dat_walk *w, u64 cpu, u64 at, u64 size, u64 page_size, bool packed)
{
	struct dat_walk p = *w;
	u64 commit;

	if (!size)
		return 0;
	if (at > w->file_size || size > w->file_size - at)
		return dw_damaged(w, "CPU %llu's data runs past the end of the file",
				  (unsigned long long)cpu);
	layout_data(w, at, size);
	if (packed || size < 8 + w->long_size)
		return 0;
	p.pos = at + 8;
	p.end = w->file_size;
	if (dw_num(&p, (int)w->long_size, &commit, "a page's header"))
		return -EBADMSG;
	if (8 + w->long_size + (commit & ((1ULL << 27) - 1)) > page_size)
		return dw_damaged(w, "CPU %llu's data, page 1: %s", (unsigned long long)cpu,
				  "a page's header says it holds more than a page");
	return 0;
}

/* version 6: "flyrecord" then each CPU's offset and size; "latency" then text */
static int cpu_data(struct dat_walk *w, const char *kind)
{
	u64 offset, size;

	if (!memcmp(kind, "latency  ", 10))
		return 0;
	if (memcmp(kind, "flyrecord", 10))
		return dw_damaged(w, "its data is neither \"flyrecord\" nor \"latency\"");
	for (int cpu = 0; cpu < w->cpus; cpu++) {
		if (dw_num(w, 8, &offset, "a CPU's data offset") ||
		    dw_num(w, 8, &size, "a CPU's data size") ||
		    cpu_pages(w, cpu, offset, size, w->page_size, false))
			return -EBADMSG;
	}
	return 0;
}

/* version 7: the section at @offset, of id @id; @w walks its content on return */
static int section(struct dat_walk *w, u64 offset, unsigned int id, struct dat_walk *s,
		   bool *packed)
{
	u64 sec_id, flags, desc, size, zsize, usize;
	char name[32];

	snprintf(name, sizeof(name), id ? "section %u" : "the options section", id);
	*s = *w;
	s->pos = offset;
	s->end = w->file_size;
	if (offset > w->file_size)
		return dw_damaged(w, "%s's offset is past the end of the file", name);
	if (dw_num(s, 2, &sec_id, "a section's header") ||
	    dw_num(s, 2, &flags, "a section's header") ||
	    dw_num(s, 4, &desc, "a section's header") ||
	    dw_num(s, 8, &size, "a section's header"))
		return -EBADMSG;
	if (sec_id != id)
		return dw_damaged(w, "the section at offset %llu is not of id %u",
				  (unsigned long long)offset, id);
	if (size > s->end - s->pos)
		return dw_damaged(w, "%s's size runs past the end of the file", name);
	s->end = s->pos + size;
	*packed = flags & SEC_COMPRESSED;
	if (!*packed || id == OPT_BUFFER)
		return 0;
	if (dw_num(s, 4, &zsize, "a compressed section's header") ||
	    dw_num(s, 4, &usize, "a compressed section's header"))
		return -EBADMSG;
	if (zsize > s->end - s->pos)
		return dw_damaged(w, "%s's compressed size runs past its end", name);
	if (usize > DAT_MAX_INFLATE)
		return dw_damaged(w, "%s's uncompressed size, %llu, is more than %llu", name,
				  (unsigned long long)usize, DAT_MAX_INFLATE);
	return 0;
}

/* version 7: the sections an option points to, walked as far as they are not compressed */
static int pointed(struct dat_walk *w, unsigned int id, u64 offset)
{
	bool packed;
	struct dat_walk s;
	int ret = section(w, offset, id, &s, &packed);

	if (!ret && id == OPT_KALLSYMS)
		return kallsyms(w, &s, packed);
	if (ret || packed)
		return ret;
	switch (id) {
	case OPT_HEADER_INFO:
		return header_info(&s);
	case OPT_FTRACE_EVENTS:
		return ftrace_events(&s);
	case OPT_EVENT_FORMATS:
		return event_formats(&s);
	case OPT_PRINTK:
		return dw_sized(&s, 4, "the printk formats");
	case OPT_CMDLINES:
		return dw_sized(&s, 8, "the saved command lines");
	}
	return 0;
}

/* a BUFFER option: its section, and each CPU's data */
static int buffer(struct dat_walk *w, struct dat_walk *o, bool v7)
{
	u64 offset, page, cpus, cpu, at, size;
	bool packed;
	struct dat_walk s;

	if (dw_num(o, 8, &offset, "a buffer option's offset"))
		return -EBADMSG;
	if (!v7)
		return offset > w->file_size ?
		       dw_damaged(w, "a buffer's offset is past the end of the file") : 0;
	if (section(w, offset, OPT_BUFFER, &s, &packed) ||
	    dw_string(o, NULL, 0, "a buffer's name") || dw_string(o, NULL, 0, "a buffer's clock") ||
	    dw_num(o, 4, &page, "a buffer's page size") ||
	    dw_num(o, 4, &cpus, "a buffer's CPU count"))
		return -EBADMSG;
	if (page && !page_ok(page))
		return dw_damaged(w, "a buffer's page size, %llu, %s", (unsigned long long)page,
				  PAGE_RANGE);
	for (u64 i = 0; i < cpus; i++) {
		if (dw_num(o, 4, &cpu, "a buffer's CPU") || dw_num(o, 8, &at, "a buffer's CPU") ||
		    dw_num(o, 8, &size, "a buffer's CPU"))
			return -EBADMSG;
		if (cpu >= DAT_MAX_CPU)
			return dw_damaged(w, "a buffer's CPU id, %llu, is not below %d",
					  (unsigned long long)cpu, DAT_MAX_CPU);
		if (cpu_pages(w, cpu, at, size, page ?: w->page_size, packed))
			return -EBADMSG;
	}
	return 0;
}

/* the options at the cursor: version 6's end with id 0, version 7's with DONE's next offset */
static int options(struct dat_walk *w, struct dat_walk *o, bool v7, u64 *next)
{
	u64 id, size, v;
	struct dat_walk d;
	char name[64];
	int ret = 0;

	*next = 0;
	for (int nr = 1; !ret; nr++) {
		snprintf(name, sizeof(name), "option %d", nr);
		if (dw_num(o, 2, &id, name))
			return -EBADMSG;
		if (!v7 && id == OPT_DONE)
			return 0;
		snprintf(name, sizeof(name), "option %d (id %llu)'s size", nr,
			 (unsigned long long)id);
		if (dw_num(o, 4, &size, name))
			return -EBADMSG;
		d = *o;
		d.end = d.pos + size;
		if (dw_take(o, NULL, size, name))
			return -EBADMSG;
		snprintf(name, sizeof(name), "option %d (id %llu)", nr, (unsigned long long)id);
		switch (id) {
		case OPT_DONE:
			return dw_num(&d, 8, next, name);
		case OPT_BUFFER:
		case OPT_BUFFER_TEXT:
			ret = buffer(w, &d, v7 && id == OPT_BUFFER);
			break;
		case OPT_CPUCOUNT:
			ret = dw_num(&d, 4, &v, name);
			break;
		case OPT_HEADER_INFO ... OPT_CMDLINES:
		case OPT_BTF_FILE:
		case OPT_MODULES_FILE:
			if (v7)
				ret = dw_num(&d, 8, &v, name) ?: pointed(w, id, v);
			break;
		}
	}
	return ret;
}

static int check_v6(struct dat_walk *w)
{
	char kind[10];
	u64 cpus, next;
	int ret;

	ret = header_info(w) ?: ftrace_events(w) ?: event_formats(w) ?:
	      kallsyms(w, w, false) ?: dw_sized(w, 4, "the printk formats") ?:
	      dw_sized(w, 8, "the saved command lines") ?: dw_num(w, 4, &cpus, "the CPU count") ?:
	      dw_take(w, kind, sizeof(kind), "the kind of data");
	if (ret)
		return ret;
	if (cpus > DAT_MAX_CPU)
		return dw_damaged(w, "its CPU count, %llu, is more than %d",
				  (unsigned long long)cpus, DAT_MAX_CPU);
	w->cpus = (int)cpus;
	if (!memcmp(kind, "options  ", 10)) {
		ret = options(w, w, false, &next) ?:
		      dw_take(w, kind, sizeof(kind), "the kind of data");
		if (ret)
			return ret;
	}
	return cpu_data(w, kind);
}

static int check_v7(struct dat_walk *w)
{
	u64 offset;
	struct dat_walk s;
	bool packed;
	int ret;

	ret = dw_string(w, NULL, 0, "the compression's name") ?:
	      dw_string(w, NULL, 0, "the compression's version") ?:
	      dw_num(w, 8, &offset, "the offset of the options");
	for (int nr = 0; !ret && offset; nr++) {
		if (nr == DAT_MAX_SECTIONS)
			return dw_damaged(w, "its options sections go round in a loop");
		ret = section(w, offset, OPT_DONE, &s, &packed);
		if (ret || packed)
			return ret;
		ret = options(w, &s, true, &offset);
	}
	return ret;
}

int dat_check(int fd, struct dat_layout *layout, char *what, size_t len)
{
	struct dat_walk w = { .fd = fd, .what = what, .len = len, .layout = layout };
	u64 endian, long_size, page;
	char magic[DAT_MAGIC_LEN], version[16];
	struct stat st;
	int ret;

	if (fstat(fd, &st))
		return -errno;
	w.file_size = w.end = (u64)st.st_size;
	if (dw_take(&w, magic, sizeof(magic), "the magic") ||
	    dw_string(&w, version, sizeof(version), "the file version") ||
	    dw_num(&w, 1, &endian, "the byte order") || dw_num(&w, 1, &long_size, "the long size"))
		return -EBADMSG;
	if (strcmp(version, "6") && strcmp(version, "7"))
		return dw_damaged(&w, "its file version is neither 6 nor 7");
	if (endian > 1)
		return dw_damaged(&w, "its byte order, %llu, is neither 0 nor 1",
				  (unsigned long long)endian);
	if (long_size != 4 && long_size != 8)
		return dw_damaged(&w, "its long size, %llu, is neither 4 nor 8",
				  (unsigned long long)long_size);
	w.swap = endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	w.long_size = long_size;
	ret = dw_num(&w, 4, &page, "the page size");
	if (ret)
		return ret;
	if (!page_ok(page))
		return dw_damaged(&w, "its page size, %llu, %s", (unsigned long long)page,
				  PAGE_RANGE);
	w.page_size = page;
	if (layout)
		*layout = (struct dat_layout){ .version = version[0] - '0' };
	return version[0] == '6' ? check_v6(&w) : check_v7(&w);
}
