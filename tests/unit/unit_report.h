/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit_report.h - the report a run of "tlat top|hist <args>" hands its
 * outputs at the end, on a made-up machine of UNIT_NR_CPUS CPUs, with the
 * samples a test adds: what the tests of the text, JSON and plot outputs
 * start from.
 */
#ifndef TLAT_UNIT_REPORT_H
#define TLAT_UNIT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd/cli.h"
#include "output/report.h"
#include "unit_helpers.h"

#define UNIT_NR_CPUS	4

struct unit_report {
	const void *c;			/* the test's case: *state before the setup */
	enum tlat_command command;	/* of the next start; measure unless set */
	bool loglinear;			/* the aggregate keeps the percentiles' too */
	bool started;
	struct tlat_params params;
	struct tlat_aggregate *agg;
	struct tlat_report report;	/* its params and aggregate; the rest is the test's */
	char *text;			/* the last output rendered, or the test's */
	size_t len;
};

/* unit_report_start() of the words given */
#define UNIT_REPORT_START(r, mode, ...) \
	unit_report_start(r, mode, UNIT_ARGC(__VA_ARGS__), UNIT_ARGV(__VA_ARGS__))

/**
 * unit_report_setup - a cmocka setup: a new report in *state, its case what *state held
 * @state: the test's state
 *
 * Return: 0, or -1 if it cannot be allocated.
 */
int unit_report_setup(void **state);

/**
 * unit_report_teardown - a cmocka teardown: free the report of unit_report_setup()
 * @state: the test's state
 *
 * Return: 0.
 */
int unit_report_teardown(void **state);

/**
 * unit_report_clear - free what a report holds, not the report itself
 * @r: the report
 */
void unit_report_clear(struct unit_report *r);

/**
 * unit_report_start - the options of a command line and an aggregate sized for them
 * @r: the report, not started yet
 * @mode: top or hist
 * @argc: the command line's words
 * @argv: argv[0] names the command, as the parser takes it; then the options
 *
 * Buckets in the display unit, as the run sizes them; a command line that
 * does not parse fails the test.
 */
void unit_report_start(struct unit_report *r, enum tlat_mode mode, int argc, char **argv);

/**
 * unit_report_add - count a sample n times, as the consumers of a run do
 * @r: the report, started
 * @cpu: its CPU
 * @ctx: its context
 * @ns: its latency
 * @n: how many times
 */
void unit_report_add(struct unit_report *r, int cpu, enum tlat_ctx ctx, u64 ns, int n);

/**
 * unit_report_render - what an output writes of the report, in r->text
 * @r: the report
 * @fn: the output
 *
 * Return: the text.
 */
const char *unit_report_render(struct unit_report *r,
			       void (*fn)(FILE *out, const struct tlat_report *report));

#endif
