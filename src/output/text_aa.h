/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_aa.h - the auto-analysis in rtla's text: each piece, which the unit
 * tests hold to rtla's format strings, and text_aa() (text.h), which prints a
 * report's analysis with them.
 */
#ifndef TLAT_OUTPUT_TEXT_AA_H
#define TLAT_OUTPUT_TEXT_AA_H

#include <stdio.h>

#include "analysis/aa.h"
#include "core/params.h"

struct aa_render_opts {
	enum tlat_stack_format stack_format;
	bool extras;		/* --aa-extras: tlat's lines after rtla's */
	/* a return address's function name, or NULL if unknown */
	const char *(*symbol)(void *ctx, u64 addr);
	void *symbol_ctx;
};

/**
 * aa_render_result - one CPU's explanation, as rtla prints it
 * @out: where to print it
 * @r: the explanation
 * @o: the stack's format and the symbols of its addresses
 */
void aa_render_result(FILE *out, const struct aa_result *r, const struct aa_render_opts *o);

/**
 * aa_render_idle_exit - rtla's "Max timerlat IRQ latency from idle" line
 * @out: where to print it
 * @latency_ns: the latency
 * @cpu: its CPU
 */
void aa_render_idle_exit(FILE *out, u64 latency_ns, int cpu);

/**
 * aa_render_tasks_header - rtla's "Printing CPU tasks:" line, before the tasks
 * @out: where to print it
 */
void aa_render_tasks_header(FILE *out);

/**
 * aa_render_task - a CPU's task when tracing stopped, as --dump-tasks prints it
 * @out: where to print it
 * @cpu: the CPU
 * @task: the task, with a kworker's work item and function if it has them
 *	(rtla's " kworker:%s:%s", by @o's symbols)
 * @o: the symbols of the addresses
 */
void aa_render_task(FILE *out, int cpu, const struct aa_task *task, const struct aa_render_opts *o);

#endif
