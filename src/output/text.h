/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text.h - rtla's text output, shared by top's and hist's renderers: the
 * pieces both print and the choice of what is shown. Private to output/.
 */
#ifndef TLAT_OUTPUT_TEXT_H
#define TLAT_OUTPUT_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "output/report.h"

/* top's screen or hist's histogram, byte for byte rtla's */
struct text_renderer {
	/* the periodic refresh; NULL if the mode prints only at the end */
	void (*frame)(FILE *out, const struct tlat_report *report);
	void (*final)(FILE *out, const struct tlat_report *report);
	/* around a threshold's actions; NULL: nothing */
	void (*hit_frame)(FILE *out, const struct tlat_report *report, bool after_actions);
};

extern const struct text_renderer text_top_renderer;
extern const struct text_renderer text_hist_renderer;

/**
 * text_missed_events - rtla's "N (P%) events missed" line, if any were
 * @out: where to print it
 * @report: the report
 */
void text_missed_events(FILE *out, const struct tlat_report *report);

/**
 * text_aa - the auto-analysis of a hit, after rtla's "timerlat hit stop tracing"
 * @out: where to print it
 * @report: the report, with its analysis
 */
void text_aa(FILE *out, const struct tlat_report *report);

#endif
