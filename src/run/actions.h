/* SPDX-License-Identifier: GPL-2.0 */
/*
 * actions.h - running a list of actions (core/actions.h) when a threshold
 * stops tracing (--on-threshold) and when the measurement ends (--on-end);
 * the run supplies what an action needs from it (the trace) through struct
 * actions_env.
 */
#ifndef TLAT_RUN_ACTIONS_H
#define TLAT_RUN_ACTIONS_H

#include "core/actions.h"

/* what the actions need from the run */
struct actions_env {
	/* write the trace kept so far to path: 0, or -errno with err set */
	int (*save_trace)(void *priv, const char *path, char *err);
	void *priv;
};

enum actions_result {
	ACTIONS_DONE,		/* every action ran */
	ACTIONS_CONTINUE,	/* a continue ended the list: measure on */
	ACTIONS_STOPPED,	/* a shell command failed: the rest was skipped */
};

/**
 * actions_run - run the actions in order; the first that fails ends the list
 * @actions: the list
 * @env: what the actions need from the run (saving the trace)
 * @err: the error line, on failure
 *
 * A shell command that exits non-zero is its own verdict, ACTIONS_STOPPED.
 * An action that cannot do its job (a trace that cannot be written, a
 * signal that cannot be sent, a shell that cannot start) is an error.
 *
 * Returns an enum actions_result, or -errno with @err set.
 */
int actions_run(const struct tlat_actions *actions, const struct actions_env *env, char *err);

#endif
