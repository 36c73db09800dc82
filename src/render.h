/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - text renderers. A renderer reads a finished or running report
 * and prints it in rtla's formats; it never sees where samples came from.
 */
#ifndef TLAT_RENDER_H
#define TLAT_RENDER_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "aa.h"
#include "hist.h"
#include "params.h"
#include "pctl.h"
#include "stats.h"
#include "sysinfo.h"

#define TLAT_MISSED_UNKNOWN	UINT64_MAX

/* the auto-analysis after a stop, as data, for the JSON document */
struct tlat_report_aa {
	const struct aa_result *results;	/* one per CPU that crossed a threshold */
	int nr_results;
	bool idle_exit;				/* idle_exit_ns and _cpu are known */
	u64 idle_exit_ns;
	int idle_exit_cpu;
	/* --dump-tasks: what each CPU ran at the stop; NULL without it */
	const struct aa_cpu_task *tasks;
	int nr_tasks;
	/* a return address's function name or NULL; NULL when no symbols are loaded */
	const char *(*symbol)(void *ctx, u64 addr);
	void *symbol_ctx;
};

struct tlat_report {
	const struct tlat_params *params;
	const struct tlat_stats *stats;
	const struct tlat_hist *hist;	/* NULL unless hist mode */
	bool user_data;			/* the source measures the user-return context */
	bool pretty;			/* colours: stdout is a terminal and not -q */
	u64 elapsed_s;
	u64 processed_events;
	u64 missed_events;		/* TLAT_MISSED_UNKNOWN if the kernel could not tell */
	bool threshold_hit;
	const struct tlat_sample *hit;	/* the sample that crossed it; NULL if not seen */
	bool interrupted;		/* a signal ended the run */
	/* what only the JSON documents show; unset in frames */
	const char *source;		/* the source's name */
	const struct tlat_pctl *pctl;
	const struct tlat_report_aa *aa;	/* NULL: no auto-analysis */
	const struct tlat_sysinfo *sys;
	time_t start_time;
	time_t end_time;
	int exit_status;
};

struct tlat_renderer_ops {
	/* periodic refresh while running; NULL if the mode prints only at the end */
	void (*frame)(FILE *out, const struct tlat_report *report);
	void (*final)(FILE *out, const struct tlat_report *report);
};

extern const struct tlat_renderer_ops render_top_ops;
extern const struct tlat_renderer_ops render_hist_ops;

/* shared by the renderers */
void render_duration(char *buf, size_t len, u64 elapsed_s);
void render_missed_events(FILE *out, const struct tlat_report *report);
bool render_cpu_shown(const struct tlat_report *report, int cpu);
bool render_ctx_shown(const struct tlat_report *report, enum tlat_ctx ctx);
u64 render_divisor(const struct tlat_report *report);

/* render_plot.c: hist --plot, the histogram drawn by gnuplot into a PNG or SVG file */
enum tlat_plot_format {
	TLAT_PLOT_NONE,		/* neither .png nor .svg */
	TLAT_PLOT_PNG,
	TLAT_PLOT_SVG,
};

enum tlat_plot_format render_plot_format(const char *path);
/* before measuring: the name, the directory and gnuplot are usable; changes nothing */
int render_plot_check(const char *path, char *err);
/* the gnuplot script, its data inline; for render_plot() and the unit tests */
int render_plot_script(FILE *out, const struct tlat_report *report, enum tlat_plot_format format);
/* draws report->params->hist.plot_file; on error it is left as it was */
int render_plot(const struct tlat_report *report, char *err);

#endif
