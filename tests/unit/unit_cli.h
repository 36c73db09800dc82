/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit_cli.h - tlat top's and tlat hist's command lines parsed into fresh
 * options on a made-up machine of UNIT_CLI_NR_CPUS CPUs: the fixture of the
 * command-line tests, their PARSE macros, and cases written as lines of
 * "ARGS => VALUE" or "ARGS => error NEEDLE".
 */
#ifndef TLAT_UNIT_CLI_H
#define TLAT_UNIT_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/cli.h"
#include "unit_helpers.h"

#define UNIT_CLI_NR_CPUS	4

struct unit_cli {
	const void *c;			/* the test's case: *state before the setup */
	struct tlat_params p;
	char err[TLAT_ERR_LEN];
	char words[256];		/* the last line of unit_cli_parse_words(), split */
};

/* parse "tlat <args>" into freshly initialised params */
#define PARSE(c, ...) \
	(unit_cli_reset(c), cli_parse(&(c)->p, UNIT_ARGC("tlat", __VA_ARGS__), \
				      UNIT_ARGV("tlat", __VA_ARGS__), (c)->err))

#define PARSE_OK(c, ...)	assert_int_equal(PARSE(c, __VA_ARGS__), 0)

/* the command line must fail with a one-line error that mentions needle */
#define PARSE_ERR(c, needle, ...)	unit_cli_expect_error(c, PARSE(c, __VA_ARGS__), needle)

/* a field of the options, read as a number; a CPU set as its mask */
struct unit_field {
	size_t offset;
	size_t size;
	bool cpus;
};

#define FIELD(name) \
	{ offsetof(struct tlat_params, name), sizeof(((struct tlat_params *)0)->name), false }
#define CPUS(name)	{ offsetof(struct tlat_params, name), 0, true }

/* a field, and the value it must hold */
struct unit_check {
	struct unit_field field;
	long long value;
};

/*
 * Command lines and what each gives, in turn: "ARGS => N", the field's
 * value once ARGS parse (and the also checks hold); or "ARGS => error
 * NEEDLE", a one-line error that mentions NEEDLE. Then the left check holds
 * of what the last one left, if it names a field. unit_cli_test_lines()
 * runs them.
 */
struct unit_lines_case {
	struct unit_field field;
	const char *lines[16];
	struct unit_check also[2];
	struct unit_check left;
};

/* the tests, by mode: "top: test_x" and "hist: test_x" */
#define TOP(fn)		{ "top: " #fn, fn, unit_cli_setup_top, unit_cli_teardown, NULL }
#define HIST(fn)	{ "hist: " #fn, fn, unit_cli_setup_hist, unit_cli_teardown, NULL }
#define TOP_LINES(c) \
	{ "top: test_" #c, unit_cli_test_lines, unit_cli_setup_top, unit_cli_teardown, (void *)&c }
#define HIST_LINES(c) \
	{ "hist: test_" #c, unit_cli_test_lines, unit_cli_setup_hist, unit_cli_teardown, \
	  (void *)&c }

/**
 * unit_cli_setup_top - a cmocka setup: tlat top's default options, the case in *state kept
 * @state: the test's state
 *
 * Return: 0, or -1 if they cannot be allocated.
 */
int unit_cli_setup_top(void **state);

/**
 * unit_cli_setup_hist - a cmocka setup: tlat hist's default options, the case kept
 * @state: the test's state
 *
 * Return: 0, or -1 if they cannot be allocated.
 */
int unit_cli_setup_hist(void **state);

/**
 * unit_cli_teardown - a cmocka teardown: free the options of a setup
 * @state: the test's state
 *
 * Return: 0.
 */
int unit_cli_teardown(void **state);

/**
 * unit_cli_reset - the defaults again, for the same mode and command, and no error
 * @c: the options
 */
void unit_cli_reset(struct unit_cli *c);

/**
 * unit_cli_expect_error - fail unless a parse was refused with one line mentioning needle
 * @c: the options, after the parse
 * @ret: what cli_parse() returned
 * @needle: what the error line must mention
 */
void unit_cli_expect_error(struct unit_cli *c, int ret, const char *needle);

/**
 * unit_cli_parse_words - parse "tlat <line>", its words split at spaces, into fresh options
 * @c: the options
 * @line: the words; they stay in c->words, where the options may point
 *
 * Return: what cli_parse() returns.
 */
int unit_cli_parse_words(struct unit_cli *c, const char *line);

/**
 * unit_cli_parse_ok - unit_cli_parse_words(), which must succeed
 * @c: the options
 * @line: the words
 */
void unit_cli_parse_ok(struct unit_cli *c, const char *line);

/**
 * unit_cli_test_lines - a cmocka test: the struct unit_lines_case of the setup, line by line
 * @state: the test's state
 */
void unit_cli_test_lines(void **state);

#endif
