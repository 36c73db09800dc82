/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - the outputs of a run, chosen once from the command line, for a
 * live run and a recording alike: rtla's text (top's screen or hist's
 * histogram, and the analysis), a JSON document (tlat's schema or
 * cyclictest's shape) and the plot. Each output implements the stages it
 * has something for; the run calls every stage in order.
 */
#ifndef TLAT_OUTPUT_OUTPUT_H
#define TLAT_OUTPUT_OUTPUT_H

#include <stdbool.h>

#include "core/params.h"
#include "output/report.h"

struct tlat_output_ops {
	/* whether the command line asks for this output */
	bool (*chosen)(const struct tlat_output_params *params);
	/*
	 * Before anything is measured: get ready, and refuse what cannot be
	 * written (a path, a missing program), so that bad input changes
	 * nothing. 0, or -errno with err set.
	 */
	int (*open)(void **priv, const struct tlat_output_params *params, char *err);
	/* top's refresh while measuring; NULL: nothing until the end */
	void (*frame)(void *priv, const struct tlat_report *report);
	/* top's refresh around a threshold's actions, as rtla's; NULL: none */
	void (*hit_frame)(void *priv, const struct tlat_report *report, bool after_actions);
	/* the final statistics */
	void (*summary)(void *priv, const struct tlat_report *report);
	/* a line of rtla's among the output, such as "  Saving trace to ..." */
	void (*note)(void *priv, const char *line);
	/* a threshold hit and its analysis, as it happens (with a continue action) */
	void (*hit)(void *priv, const struct tlat_report *report);
	/* after the --on-end actions: the final hit, or what --aa-only says without one */
	void (*conclusion)(void *priv, const struct tlat_report *report);
	/* the run is over, its system not yet restored: documents. 0 or -errno */
	int (*document)(void *priv, const struct tlat_report *report, char *err);
	/* the system is as it was: outputs that run programs (the plot). 0 or -errno */
	int (*restored)(void *priv, const struct tlat_report *report, char *err);
	void (*close)(void *priv);
};

struct outputs;

/**
 * outputs_open - the outputs the command line asks for, each opened
 * @out: set even on failure, so that outputs_close() undoes what was opened
 * @params: the options that choose and shape them
 * @err: the error line, on failure
 *
 * Returns 0, or the first output's error (err set).
 */
int outputs_open(struct outputs **out, const struct tlat_output_params *params, char *err);
/**
 * outputs_frame - top's refresh while measuring, in every output that has one
 * @o: the outputs
 * @report: the report so far
 */
void outputs_frame(struct outputs *o, const struct tlat_report *report);

/**
 * outputs_hit_frame - top's refresh around a threshold's actions, as rtla prints it
 * @o: the outputs
 * @report: the report at the hit
 * @after_actions: false before the actions run, true after
 */
void outputs_hit_frame(struct outputs *o, const struct tlat_report *report, bool after_actions);

/**
 * outputs_summary - the final statistics, in every output that has them
 * @o: the outputs
 * @report: the run's report
 */
void outputs_summary(struct outputs *o, const struct tlat_report *report);

/**
 * outputs_note - a line of rtla's among the output, such as "  Saving trace to ..."
 * @o: the outputs
 * @line: the line, without its newline
 */
void outputs_note(struct outputs *o, const char *line);

/**
 * outputs_hit - a threshold hit and its analysis, as it happens
 * @o: the outputs
 * @report: the report, with the hit
 */
void outputs_hit(struct outputs *o, const struct tlat_report *report);

/**
 * outputs_conclusion - after the --on-end actions: the final hit, or what
 * --aa-only says without one
 * @o: the outputs
 * @report: the run's report
 */
void outputs_conclusion(struct outputs *o, const struct tlat_report *report);

/**
 * outputs_document - the run is over, its system not yet restored: documents
 * @o: the outputs
 * @report: the run's report
 * @err: the first error's line
 *
 * Every output's stage runs. Returns 0 or the first error (@err set).
 */
int outputs_document(struct outputs *o, const struct tlat_report *report, char *err);

/**
 * outputs_restored - the system is as it was: outputs that run programs (the plot)
 * @o: the outputs
 * @report: the run's report
 * @err: the first error's line
 *
 * Every output's stage runs. Returns 0 or the first error (@err set).
 */
int outputs_restored(struct outputs *o, const struct tlat_report *report, char *err);

/**
 * outputs_close - close and free every output opened
 * @o: from outputs_open(), or NULL
 */
void outputs_close(struct outputs *o);

/* the outputs, in the order they are opened and run */
extern const struct tlat_output_ops plot_output_ops;	/* hist --plot */
extern const struct tlat_output_ops json_output_ops;	/* --json, in --json-format */
extern const struct tlat_output_ops text_output_ops;	/* rtla's, top's or hist's */

#endif
