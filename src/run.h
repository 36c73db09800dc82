/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - one measurement, shared by tlat top and tlat hist: they differ
 * only in their renderer; and the same from a recording.
 */
#ifndef TLAT_RUN_H
#define TLAT_RUN_H

#include <signal.h>

#include "params.h"

enum tlat_exit {
	TLAT_EXIT_PASS = 0,
	TLAT_EXIT_ERROR = 1,
	TLAT_EXIT_THRESHOLD = 2,
};

/* the only mutable global: set from signal handlers */
extern volatile sig_atomic_t tlat_stop_requested;

/* tlat top, hist and record */
enum tlat_exit tlat_run(const struct tlat_params *params, char *err);
/* tlat report: params->recording's samples through the same consumers and renderers */
enum tlat_exit tlat_report(const struct tlat_params *params, char *err);

#endif
