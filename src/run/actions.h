/* SPDX-License-Identifier: GPL-2.0 */
/*
 * actions.h - what tlat does when a threshold stops tracing (--on-threshold)
 * and when the measurement ends (--on-end), as rtla's actions: save the
 * trace, signal a process, run a shell command, or measure on. A list is
 * parsed from the command line and run in order; the run supplies what an
 * action needs from it (the trace) through struct actions_env.
 */
#ifndef TLAT_RUN_ACTIONS_H
#define TLAT_RUN_ACTIONS_H

#include <stdbool.h>
#include <sys/types.h>

/* rtla's name for the trace that -t, -a and a bare "trace" action save */
#define TLAT_DEFAULT_TRACE_FILE	"timerlat_trace.txt"

enum tlat_action_type {
	TLAT_ACTION_TRACE,	/* trace[,file=NAME] */
	TLAT_ACTION_SIGNAL,	/* signal,num=N,pid=PID|parent */
	TLAT_ACTION_SHELL,	/* shell,command=CMD */
	TLAT_ACTION_CONTINUE,	/* continue */
};

/* pid=parent: tlat's parent at the time the action runs */
#define TLAT_ACTION_PARENT	0

struct tlat_action {
	enum tlat_action_type type;
	/* the trace's file or the shell's command: the caller's string, not a copy */
	const char *arg;
	int signal;
	pid_t pid;		/* > 0, or TLAT_ACTION_PARENT */
};

struct tlat_actions {
	struct tlat_action *list;
	int nr;
};

/**
 * actions_parse - append the action an --on-threshold or --on-end describes
 * @actions: the list
 * @spec: rtla's spelling: trace[,file=F], signal,num=N,pid=P, shell,command=C, continue;
 *	the action's file or command points into it, which must outlive the list
 * @option: the option, to name it in errors ("--on-threshold")
 * @err: the error line (TLAT_ERR_LEN bytes), on failure
 *
 * Returns 0, or -EINVAL or -ENOMEM with one line in @err.
 */
int actions_parse(struct tlat_actions *actions, const char *spec, const char *option, char *err);

/**
 * actions_add_trace - append a trace action, as -t does
 * @actions: the list
 * @file: where the trace is saved; kept, not copied (as the command line's
 *	other strings are): it must outlive the list
 *
 * Returns 0 or -ENOMEM.
 */
int actions_add_trace(struct tlat_actions *actions, const char *file);

/**
 * actions_first - the list's first action of a type
 * @actions: the list
 * @type: the type
 *
 * Returns the action, or NULL if the list has none of that type.
 */
const struct tlat_action *actions_first(const struct tlat_actions *actions,
				       enum tlat_action_type type);

/**
 * actions_have - whether the list has an action of a type
 * @actions: the list
 * @type: the type
 *
 * Returns true if it has one.
 */
bool actions_have(const struct tlat_actions *actions, enum tlat_action_type type);

/**
 * actions_free - free the list's actions and leave it empty
 * @actions: the list; the struct itself is the caller's
 */
void actions_free(struct tlat_actions *actions);

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
