/* SPDX-License-Identifier: GPL-2.0 */
/*
 * actions.h - what tlat does when a threshold stops tracing (--on-threshold)
 * and when the measurement ends (--on-end), as rtla's actions: save the
 * trace, signal a process, run a shell command, or measure on. A list is
 * parsed from the command line and run in order; the run supplies what an
 * action needs from it (the trace) through struct actions_env.
 */
#ifndef TLAT_ACTIONS_H
#define TLAT_ACTIONS_H

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
	char *arg;		/* the trace's file or the shell's command */
	int signal;
	pid_t pid;		/* > 0, or TLAT_ACTION_PARENT */
};

struct tlat_actions {
	struct tlat_action *list;
	int nr;
};

/*
 * Append the action that spec describes; option names the list in errors
 * ("--on-threshold"). 0, or -EINVAL / -ENOMEM with one line in err
 * (TLAT_ERR_LEN bytes).
 */
int actions_parse(struct tlat_actions *actions, const char *spec, const char *option, char *err);
/* append a trace action, as -t does; 0 or -ENOMEM */
int actions_add_trace(struct tlat_actions *actions, const char *file);
bool actions_have(const struct tlat_actions *actions, enum tlat_action_type type);
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

/*
 * Run the actions in order; the first that fails ends the list. A shell
 * command that exits non-zero is its own verdict, ACTIONS_STOPPED; an action
 * that cannot do its job (a trace that cannot be written, a signal that
 * cannot be sent, a shell that cannot start) is an error: -errno, err set.
 */
int actions_run(const struct tlat_actions *actions, const struct actions_env *env, char *err);

#endif
