/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gnuplot.h - what tlat's plots share (hist --plot, compare --plot): the
 * PNG or SVG terminal, quoting, the colours, and gnuplot run on a script
 * into a file that appears only once drawn.
 */
#ifndef TLAT_OUTPUT_GNUPLOT_H
#define TLAT_OUTPUT_GNUPLOT_H

#include <stdio.h>

enum tlat_plot_format {
	TLAT_PLOT_NONE,		/* neither .png nor .svg */
	TLAT_PLOT_PNG,
	TLAT_PLOT_SVG,
};

/*
 * An empty bucket is drawn at this count: below the y range, which starts at
 * 0.8 as OSADL's plots do so that a single sample shows, gnuplot clips it and
 * the curve drops to the axis instead of leaving a gap (log(0) is undefined).
 */
#define GNUPLOT_EMPTY	"0.5"

/**
 * gnuplot_colour - the colour of the n-th curve group (a CPU), in turn
 * @n: the group
 *
 * Returns an "#rrggbb" string.
 */
const char *gnuplot_colour(unsigned int n);

/* the format a file name asks for: the command line checks it */
enum tlat_plot_format render_plot_format(const char *path);

/**
 * gnuplot_terminal - the script's terminal line: 1000x600 PNG or SVG
 * @out: the script
 * @format: PNG or SVG
 */
void gnuplot_terminal(FILE *out, enum tlat_plot_format format);

/**
 * gnuplot_quoted - text from outside tlat in gnuplot's single quotes
 * @out: the script
 * @text: the text; newlines are dropped
 */
void gnuplot_quoted(FILE *out, const char *text);

/**
 * gnuplot_check - before anything is measured or read: @path can be
 * written and gnuplot runs; changes nothing
 * @path: the plot's file
 * @err: set to one line on failure
 *
 * Returns 0 or a negative errno.
 */
int gnuplot_check(const char *path, char *err);

/**
 * gnuplot_draw - run gnuplot on a script into @path
 * @path: the plot's file; on error it is left as it was
 * @script: the script, written and rewound
 * @err: set to one line on failure
 *
 * Returns 0 or a negative errno.
 */
int gnuplot_draw(const char *path, FILE *script, char *err);

/* writes a plot's script of data in a format: 0 or a negative errno */
typedef int (*gnuplot_script_fn)(FILE *out, const void *data, enum tlat_plot_format format);

/**
 * gnuplot_render - a plot's script written into a temporary file, then drawn
 * @path: the plot's file, whose extension says the format
 * @script_fn: writes the script
 * @data: what it draws
 * @err: set to one line on failure
 *
 * Returns 0 or a negative errno; on error @path is left as it was.
 */
int gnuplot_render(const char *path, gnuplot_script_fn script_fn, const void *data, char *err);

#endif
