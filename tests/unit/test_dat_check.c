// SPDX-License-Identifier: GPL-2.0
/*
 * test_dat_check.c - the walk of a trace.dat's headers before libtracecmd
 * reads them (dat_check.c): small files of versions 6 and 7, built here
 * whole, then damaged one size or offset at a time; each damage is one line
 * saying what is wrong.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracedat/dat_check.h"
#include "unit_helpers.h"

struct file {
	unsigned char b[8192];
	size_t len;
};

static void put(struct file *f, const void *p, size_t n)
{
	memcpy(f->b + f->len, p, n);
	f->len += n;
}

/* little-endian numbers, as the files below say they are */
static size_t num(struct file *f, u64 v, int bytes)
{
	size_t at = f->len;

	for (int i = 0; i < bytes; i++)
		f->b[f->len++] = (unsigned char)(v >> (8 * i));
	return at;
}

static void patch(struct file *f, size_t at, u64 v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		f->b[at + i] = (unsigned char)(v >> (8 * i));
}

/* where test_v6() and test_v7() damage the file */
struct spots {
	size_t header_page, option_size, cpu_size, cpu_id, done_next, options, section_id;
	size_t version, page_size, page_header, options_size;
};

static void start(struct file *f, struct spots *s, const char *version)
{
	s->version = 10;
	s->page_size = 14;
	f->len = 0;
	put(f, "\027\010\104tracing", 10);
	put(f, version, 2);
	num(f, 0, 1);		/* little endian */
	num(f, 8, 1);		/* long size */
	num(f, 4096, 4);	/* page size */
}

static void header_info(struct file *f)
{
	put(f, "header_page", 12);
	num(f, 3, 8);
	put(f, "abc", 3);
	put(f, "header_event", 13);
	num(f, 2, 8);
	put(f, "de", 2);
}

static void event_formats(struct file *f)
{
	num(f, 1, 4);		/* systems */
	put(f, "sched", 6);
	num(f, 1, 4);		/* events */
	num(f, 4, 8);
	put(f, "fmt!", 4);
}

/* a version 6 file: the headers, one CPUCOUNT option, flyrecord of 1 CPU */
static void build_v6(struct file *f, struct spots *s)
{
	start(f, s, "6");
	s->header_page = f->len + 12;
	header_info(f);
	num(f, 1, 4);		/* ftrace events */
	num(f, 1, 8);
	put(f, "x", 1);
	event_formats(f);
	num(f, 0, 4);		/* kallsyms */
	num(f, 0, 4);		/* printk */
	num(f, 0, 8);		/* cmdlines */
	num(f, 1, 4);		/* cpus */
	put(f, "options  ", 10);
	num(f, 8, 2);		/* CPUCOUNT */
	s->option_size = num(f, 4, 4);
	num(f, 1, 4);
	num(f, 0, 2);		/* the end of the options */
	put(f, "flyrecord", 10);
	num(f, f->len + 16, 8);
	s->cpu_size = num(f, 64, 8);
	s->page_header = f->len + 8;
	memset(f->b + f->len, 0, 64);
	f->len += 64;
}

static size_t section(struct file *f, unsigned int id, u64 size)
{
	size_t at = f->len;

	num(f, id, 2);
	num(f, 0, 2);		/* flags */
	num(f, 0, 4);		/* description */
	num(f, size, 8);
	return at;
}

/*
 * A version 7 file: the options section has a HEADER_INFO, an
 * EVENT_FORMATS and a BUFFER option (1 CPU); the sections follow it.
 */
static void build_v7(struct file *f, struct spots *s)
{
	size_t opts, hi_opt, ev_opt, buf_opt, hi, ev, buf, size_at, cpu_off;

	start(f, s, "7");
	put(f, "none", 5);
	put(f, "", 1);
	opts = num(f, 0, 8);
	patch(f, opts, f->len, 8);
	s->options = f->len;
	size_at = section(f, 0, 0) + 8;
	s->options_size = size_at;
	num(f, 16, 2);
	num(f, 8, 4);
	hi_opt = num(f, 0, 8);
	num(f, 18, 2);
	num(f, 8, 4);
	ev_opt = num(f, 0, 8);
	num(f, 3, 2);		/* BUFFER: offset, name, clock, page size, cpus, cpu */
	s->option_size = num(f, 8 + 1 + 6 + 4 + 4 + 20, 4);
	buf_opt = num(f, 0, 8);
	put(f, "", 1);
	put(f, "local", 6);
	num(f, 4096, 4);
	num(f, 1, 4);
	s->cpu_id = num(f, 0, 4);
	cpu_off = num(f, 0, 8);
	s->cpu_size = num(f, 64, 8);
	num(f, 0, 2);		/* DONE */
	num(f, 8, 4);
	s->done_next = num(f, 0, 8);
	patch(f, size_at, f->len - size_at - 8, 8);

	hi = section(f, 16, 12 + 8 + 3 + 13 + 8 + 2);
	s->header_page = f->len + 12;
	header_info(f);
	ev = section(f, 18, 4 + 6 + 4 + 8 + 4);
	event_formats(f);
	buf = section(f, 3, 64);
	s->section_id = buf;
	patch(f, cpu_off, f->len, 8);
	s->page_header = f->len + 8;
	memset(f->b + f->len, 0, 64);
	f->len += 64;
	patch(f, hi_opt, hi, 8);
	patch(f, ev_opt, ev, 8);
	patch(f, buf_opt, buf, 8);
}

/* dat_check() of @f, with @what set to its line */
static int check(const struct file *f, char *what, size_t len)
{
	char path[] = "/tmp/tlat-dat-check.XXXXXX";
	int fd = mkstemp(path);
	int ret;

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, f->b, f->len), (ssize_t)f->len);
	what[0] = '\0';
	ret = dat_check(fd, NULL, what, len);
	close(fd);
	return ret;
}

static void expect_damage(const struct file *f, const char *line)
{
	char what[256];

	assert_int_equal(check(f, what, sizeof(what)), -EBADMSG);
	assert_string_equal(what, line);
}

/* one field of a file made @value (@bytes bytes); @line: what it says, NULL: still whole */
struct damage {
	size_t spot;		/* offsetof(struct spots, ...) */
	u64 value;
	int bytes;
	const char *line;
};

#define SPOT(field)	offsetof(struct spots, field)

/* each damage of d in turn, on f built anew */
static void damage_each(struct file *f, void (*build)(struct file *, struct spots *),
			const struct damage *d, size_t nr)
{
	struct spots s;
	char what[256];

	build(f, &s);
	assert_int_equal(check(f, what, sizeof(what)), 0);
	for (size_t i = 0; i < nr; i++) {
		build(f, &s);
		patch(f, *(size_t *)((char *)&s + d[i].spot), d[i].value, d[i].bytes);
		if (d[i].line)
			expect_damage(f, d[i].line);
		else
			assert_int_equal(check(f, what, sizeof(what)), 0);
	}
}

#define PAGE_FULL	"CPU 0's data, page 1: a page's header says it holds more than a page"

static const struct damage v6_damages[] = {
	{ SPOT(header_page), 1ULL << 40, 8,
	  "the header page's size runs past the end of the file" },
	{ SPOT(option_size), 100000, 4, "option 1 (id 8)'s size runs past the end of the file" },
	{ SPOT(cpu_size), 65, 8, "CPU 0's data runs past the end of the file" },
	{ SPOT(page_header), 4081, 8, PAGE_FULL },
	{ SPOT(page_header), 4080 | (1ULL << 30), 8, NULL },	/* a flag, and a full page */
	{ SPOT(version), '5', 1, "its file version is neither 6 nor 7" },
	{ SPOT(page_size), 4095, 4,
	  "its page size, 4095, is not a power of 2 from 1 KiB to 1 MiB" },
};

static const struct damage v7_damages[] = {
	{ SPOT(header_page), 100, 8, "the header page's size runs past the end of its section" },
	{ SPOT(option_size), 200, 4, "option 3 (id 3)'s size runs past the end of its section" },
	{ SPOT(cpu_size), 1ULL << 62, 8, "CPU 0's data runs past the end of the file" },
	{ SPOT(page_header), 1ULL << 26, 8, PAGE_FULL },
	{ SPOT(cpu_id), 0xffffffff, 4, "a buffer's CPU id, 4294967295, is not below 65536" },
	{ SPOT(options_size), 1ULL << 40, 8,
	  "the options section's size runs past the end of the file" },
};

/* cut anywhere in its headers, a version 6 file is never read past its end */
static void cut_anywhere(struct file *f)
{
	struct spots s;
	char what[256];

	build_v6(f, &s);
	for (size_t len = 11; len < f->len - 64; len++) {
		struct file cut = *f;

		cut.len = len;
		assert_int_equal(check(&cut, what, sizeof(what)), -EBADMSG);
		assert_non_null(strstr(what, "the end of the file"));
	}
}

/* version 7's sections: one of another id where options are, and a loop of them */
static void bad_sections(struct file *f)
{
	struct spots s;
	char line[256];

	build_v7(f, &s);
	patch(f, s.section_id, 4, 2);
	snprintf(line, sizeof(line), "the section at offset %zu is not of id 3", s.section_id);
	expect_damage(f, line);
	build_v7(f, &s);
	patch(f, s.done_next, s.options, 8);
	expect_damage(f, "its options sections go round in a loop");
}

/* a file version: how to build a file of it, its damages, and its own checks */
struct version_case {
	void (*build)(struct file *f, struct spots *s);
	const struct damage *damages;
	size_t nr_damages;
	void (*more)(struct file *f);
};

static const struct version_case v6 = {
	build_v6, v6_damages, UNIT_ARRAY_SIZE(v6_damages), cut_anywhere
};
static const struct version_case v7 = {
	build_v7, v7_damages, UNIT_ARRAY_SIZE(v7_damages), bad_sections
};

static void test_version(void **state)
{
	const struct version_case *c = *state;
	struct file *f = malloc(sizeof(*f));

	assert_non_null(f);
	damage_each(f, c->build, c->damages, c->nr_damages);
	c->more(f);
	free(f);
}

UNIT_MAIN("dat_check",
	UNIT_CASE("test_v6", test_version, NULL, NULL, &v6),
	UNIT_CASE("test_v7", test_version, NULL, NULL, &v7),
)
