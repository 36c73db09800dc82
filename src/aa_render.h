/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aa_render.h - prints auto-analysis results (aa.h) as rtla prints them.
 */
#ifndef TLAT_AA_RENDER_H
#define TLAT_AA_RENDER_H

#include <stdio.h>

#include "aa.h"
#include "params.h"

struct aa_render_opts {
	enum tlat_stack_format stack_format;
	/* a return address's function name, or NULL if unknown */
	const char *(*symbol)(void *ctx, u64 addr);
	void *symbol_ctx;
};

void aa_render_result(FILE *out, const struct aa_result *r, const struct aa_render_opts *o);
void aa_render_idle_exit(FILE *out, u64 latency_ns, int cpu);
void aa_render_tasks_header(FILE *out);
/* with a kworker's work item and function, by o's symbols: rtla's " kworker:%s:%s" */
void aa_render_task(FILE *out, int cpu, const struct aa_task *task, const struct aa_render_opts *o);

#endif
