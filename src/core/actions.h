/* SPDX-License-Identifier: GPL-2.0 */
/*
 * actions.h - the actions --on-threshold and --on-end name, as rtla's: save
 * the trace, signal a process, run a shell command, or measure on. A list
 * is a parsed option (cmd/actions_parse.c fills it from the command line);
 * run/actions.c runs it.
 */
#ifndef TLAT_CORE_ACTIONS_H
#define TLAT_CORE_ACTIONS_H

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
 * actions_add - append an action
 * @actions: the list
 * @type: its type
 * @arg: the trace's file or the shell's command, kept, not copied: it must
 *	outlive the list (NULL for the others)
 * @signo: a signal action's signal (0 for the others)
 * @pid: a signal action's target, > 0 or TLAT_ACTION_PARENT (0 for the others)
 *
 * Returns 0 or -ENOMEM.
 */
int actions_add(struct tlat_actions *actions, enum tlat_action_type type, const char *arg,
		int signo, pid_t pid);

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

#endif
