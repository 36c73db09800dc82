/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit_helpers.h - what the cmocka unit tests share: command lines and case
 * tables as cmocka tests, a seeded generator, temporary files and
 * directories, a tep of embedded event formats, and texts compared with a
 * message that says where they differ. Linked into every unit test binary.
 */
#ifndef TLAT_UNIT_HELPERS_H
#define TLAT_UNIT_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/sample.h"

struct tep_handle;
struct tlat_agg_layout;
struct tlat_cpuset;

#define UNIT_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* argv and argc of a command line written out: getopt may permute the pointers, not the strings */
#define UNIT_ARGV(...)		((char *[]){ __VA_ARGS__, NULL })
#define UNIT_ARGC(...)		((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))

/*
 * The cmocka test "name" of one case of a table: fn finds the case in
 * *state, or setup does first (and keeps it in what it puts there)
 */
#define UNIT_CASE(name, fn, setup, teardown, c)	{ name, fn, setup, teardown, (void *)(c) }

/*
 * main() of a unit test binary: the tests given, as the cmocka group name,
 * its exit status theirs
 */
#define UNIT_MAIN(name, ...)						\
	int main(void)							\
	{								\
		const struct CMUnitTest tests[] = { __VA_ARGS__ };	\
									\
		return cmocka_run_group_tests_name(name, tests, NULL, NULL); \
	}

/* the cmocka test fn, on an aggregate of layout that unit_agg_setup() makes */
#define UNIT_AGG_TEST(fn, layout) \
	UNIT_CASE(#fn, fn, unit_agg_setup, unit_agg_teardown, layout)

/* the four fields every event format of tracefs opens with */
#define UNIT_COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"

/* the fields of ftrace:timerlat after the common ones, one a line */
#define UNIT_TIMERLAT_FIELDS \
	"\tfield:unsigned int seqnum;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:int context;\toffset:12;\tsize:4;\tsigned:1;\n" \
	"\tfield:u64 timer_latency;\toffset:16;\tsize:8;\tsigned:0;\n"

/* the fields of sched:sched_switch after the common ones (6.x, x86-64) */
#define UNIT_SCHED_SWITCH_FIELDS \
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n" \
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n" \
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"

/* a name of a made-up symbol table, up to one with a NULL name */
struct unit_symbol {
	u64 addr;
	const char *name;
};

/* an event's format file, as tracefs has it, and its system */
struct unit_format {
	const char *system;
	const char *text;
};

/* a seed of unit_rng() (Marsaglia's) */
#define UNIT_RNG_SEED		88172645463325252ull

/**
 * unit_rng - the next number of a xorshift64 sequence: the same data on every run
 * @state: the sequence, seeded by its caller (never 0)
 *
 * Return: the next number.
 */
u64 unit_rng(u64 *state);

/**
 * unit_agg_setup - a cmocka setup: an aggregate of the layout in *state, in its place
 * @state: the test's state, a struct tlat_agg_layout (UNIT_AGG_TEST())
 *
 * Return: 0, or -1 if the aggregate cannot be allocated.
 */
int unit_agg_setup(void **state);

/**
 * unit_agg_teardown - a cmocka teardown: free the aggregate of unit_agg_setup()
 * @state: the test's state
 *
 * Return: 0.
 */
int unit_agg_teardown(void **state);

/**
 * unit_tep - a tep of an x86-64 machine (little endian, 8-byte longs) that knows formats
 * @formats: the formats, up to one with a NULL text
 *
 * A format that does not parse fails the test.
 *
 * Return: the tep, for tep_free().
 */
struct tep_handle *unit_tep(const struct unit_format *formats);

/**
 * unit_symbol - the name of an address in a made-up symbol table: a symbol() of the reports
 * @ctx: the table, a struct unit_symbol array
 * @addr: the address
 *
 * Return: its name, or NULL if the table has none for it.
 */
const char *unit_symbol(void *ctx, u64 addr);

/**
 * unit_tmpdir - a new empty directory /tmp/<name>.XXXXXX
 * @name: the start of its name
 *
 * Fails the test if it cannot be made.
 *
 * Return: its path, for unit_rmtree().
 */
char *unit_tmpdir(const char *name);

/**
 * unit_rmtree - remove a directory of unit_tmpdir() and all in it, and free its path
 * @dir: the path unit_tmpdir() returned
 *
 * Return: 0, or -1 if it could not be removed.
 */
int unit_rmtree(char *dir);

/**
 * unit_count_entries - how many entries a directory holds, "." and ".." not counted
 * @dir: the directory, which must exist
 *
 * Return: the count.
 */
int unit_count_entries(const char *dir);

/**
 * unit_write_file - create or replace a file with a text
 * @path: the file
 * @text: all it holds
 */
void unit_write_file(const char *path, const char *text);

/**
 * unit_read_file - a file's whole text
 * @path: the file, which must exist and be readable
 *
 * Return: the text, NUL-terminated, for free().
 */
char *unit_read_file(const char *path);

/**
 * unit_cpu_mask - the CPUs of a set as a bit mask, CPU n as bit n
 * @cpus: the set; CPUs from 64 on are left out
 *
 * Return: the mask.
 */
u64 unit_cpu_mask(const struct tlat_cpuset *cpus);

/**
 * unit_expect_text - fail the test unless a text is exactly the one expected
 * @got: the text
 * @want: the one expected
 *
 * The failure prints the first line that differs, from its first differing
 * column, and the whole text, control characters escaped.
 */
void unit_expect_text(const char *got, const char *want);

#endif
