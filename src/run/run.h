/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - the commands' one entry into measuring: tlat top, hist and record
 * measure live, tlat report replays a recording; both through the same
 * pipeline and outputs, which differ between top and hist only in the
 * text's renderer.
 */
#ifndef TLAT_RUN_RUN_H
#define TLAT_RUN_RUN_H

#include "core/notes.h"
#include "core/params.h"

enum tlat_exit {
	TLAT_EXIT_PASS = 0,
	TLAT_EXIT_ERROR = 1,
	TLAT_EXIT_THRESHOLD = 2,
};

/**
 * tlat_measure - tlat top, hist and record: measure as params say, print
 * and write the outputs, and leave the system as it was
 * @notes: where -D's lines and warnings go
 *
 * Returns the exit status; with TLAT_EXIT_ERROR, err says why.
 */
enum tlat_exit tlat_measure(const struct tlat_params *params, const struct tlat_notes *notes,
			    char *err);

/**
 * tlat_replay - tlat report: params->recording's samples through the same
 * pipeline and outputs, with the recording's CPUs and, unless params set
 * others, its thresholds
 *
 * Returns the exit status; with TLAT_EXIT_ERROR, err says why.
 */
enum tlat_exit tlat_replay(const struct tlat_params *params, const struct tlat_notes *notes,
			   char *err);

/**
 * tlat_replay_here - tlat_replay() in this process, without its bounds: for
 * the fuzzer (tests/fuzz/), which bounds the process itself
 *
 * Returns the exit status; with TLAT_EXIT_ERROR, err says why.
 */
enum tlat_exit tlat_replay_here(const struct tlat_params *params, const struct tlat_notes *notes,
				char *err);

#endif
