/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot.h - hist --plot: the histogram drawn by gnuplot into a PNG or SVG
 * file, an output of its own (plot_output_ops, in output.h).
 */
#ifndef TLAT_OUTPUT_PLOT_H
#define TLAT_OUTPUT_PLOT_H

#include <stdio.h>

#include "output/gnuplot.h"
#include "output/report.h"

/**
 * render_plot_script - the gnuplot script of a report, its data inline
 *
 * What the plot output feeds gnuplot, and what the unit tests read.
 * Returns 0, or -EIO if @out could not be written.
 */
int render_plot_script(FILE *out, const struct tlat_report *r, enum tlat_plot_format format);

#endif
