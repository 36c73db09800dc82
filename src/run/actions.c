// SPDX-License-Identifier: GPL-2.0
/*
 * actions.c - rtla's --on-threshold and --on-end actions (see actions.h).
 * The syntax is rtla's: a type, then comma-separated key=value arguments.
 * A shell command is the rest of the spec, commas included: rtla cuts it
 * at the first comma, which leaves no way to write one with a comma.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "core/err.h"
#include "run/actions.h"
#include "util/parse.h"

static int action_error(char *err, const char *option, const char *spec, const char *why)
{
	tlat_err(err, "invalid %s action '%s': %s", option, spec, why);
	return -EINVAL;
}

static int actions_append(struct tlat_actions *actions, enum tlat_action_type type,
			  const char *arg, int signo, pid_t pid)
{
	struct tlat_action *list;

	list = reallocarray(actions->list, actions->nr + 1, sizeof(*list));
	if (!list)
		return -ENOMEM;
	list[actions->nr++] = (struct tlat_action){ type, arg, signo, pid };
	actions->list = list;
	return 0;
}

int actions_add_trace(struct tlat_actions *actions, const char *file)
{
	return actions_append(actions, TLAT_ACTION_TRACE, file, 0, 0);
}

/* signal's arguments, in any order: num=N and pid=PID|parent, both needed */
static int parse_signal(struct tlat_actions *actions, const char *args, const char *option,
			const char *spec, char *err)
{
	char *copy = strdup(args ? args : "");
	char *rest = args ? copy : NULL, *tok;
	const char *why = NULL;
	int signo = 0;
	pid_t pid = -1;
	u64 v;

	if (!copy)
		return -ENOMEM;
	while (!why && (tok = strsep(&rest, ","))) {
		if (!strncmp(tok, "num=", 4)) {
			if (parse_u64_range(tok + 4, 1, SIGRTMAX, &v))
				why = "num= takes a signal number";
			signo = (int)v;
		} else if (!strcmp(tok, "pid=parent")) {
			pid = TLAT_ACTION_PARENT;
		} else if (!strncmp(tok, "pid=", 4)) {
			if (parse_u64_range(tok + 4, 1, INT_MAX, &v))
				why = "pid= takes a process id or parent";
			pid = (pid_t)v;
		} else {
			why = "signal takes num=N and pid=PID|parent";
		}
	}
	free(copy);
	if (!why && (!signo || pid < 0))
		why = "signal needs both num=N and pid=PID|parent";
	if (why)
		return action_error(err, option, spec, why);
	return actions_append(actions, TLAT_ACTION_SIGNAL, NULL, signo, pid);
}

int actions_parse(struct tlat_actions *actions, const char *spec, const char *option, char *err)
{
	const char *args = strchr(spec, ',');
	size_t len = args ? (size_t)(args - spec) : strlen(spec);
	int ret;

	if (args)
		args++;
	if (len == 5 && !strncmp(spec, "trace", len)) {
		if (!args)
			return actions_add_trace(actions, TLAT_DEFAULT_TRACE_FILE);
		if (strncmp(args, "file=", 5) || !args[5] || strchr(args, ','))
			return action_error(err, option, spec,
					    "trace takes one argument, file=NAME");
		ret = actions_add_trace(actions, args + 5);
	} else if (len == 6 && !strncmp(spec, "signal", len)) {
		ret = parse_signal(actions, args, option, spec, err);
	} else if (len == 5 && !strncmp(spec, "shell", len)) {
		if (!args || strncmp(args, "command=", 8) || !args[8])
			return action_error(err, option, spec, "shell takes command=CMD");
		ret = actions_append(actions, TLAT_ACTION_SHELL, args + 8, 0, 0);
	} else if (len == 8 && !strncmp(spec, "continue", len)) {
		if (args)
			return action_error(err, option, spec, "continue takes no argument");
		ret = actions_append(actions, TLAT_ACTION_CONTINUE, NULL, 0, 0);
	} else {
		return action_error(err, option, spec,
				    "expected trace, signal, shell or continue");
	}
	if (ret == -ENOMEM)
		tlat_err(err, "out of memory");
	return ret;
}

const struct tlat_action *actions_first(const struct tlat_actions *actions,
				       enum tlat_action_type type)
{
	for (int i = 0; i < actions->nr; i++)
		if (actions->list[i].type == type)
			return &actions->list[i];
	return NULL;
}

bool actions_have(const struct tlat_actions *actions, enum tlat_action_type type)
{
	return actions_first(actions, type);
}

void actions_free(struct tlat_actions *actions)
{
	free(actions->list);
	actions->list = NULL;
	actions->nr = 0;
}

static int run_signal(const struct tlat_action *action, char *err)
{
	pid_t pid = action->pid == TLAT_ACTION_PARENT ? getppid() : action->pid;
	int e;

	if (!kill(pid, action->signal))
		return 0;
	e = errno;
	tlat_err(err, "cannot send signal %d to %d: %s", action->signal, pid,
		 strerror(e));
	return -e;
}

/* 0 when the command ran and exited 0, 1 when it did not succeed, or -errno */
static int run_shell(const struct tlat_action *action, char *err)
{
	int status = system(action->arg);
	int e = errno;

	if (status == -1) {
		tlat_err(err, "cannot run the shell for '%s': %s", action->arg,
			 strerror(e));
		return -e;
	}
	return !WIFEXITED(status) || WEXITSTATUS(status);
}

int actions_run(const struct tlat_actions *actions, const struct actions_env *env, char *err)
{
	int ret = 0;

	for (int i = 0; i < actions->nr && !ret; i++) {
		const struct tlat_action *action = &actions->list[i];

		/* what tlat printed comes before what a command or a signal causes */
		fflush(NULL);
		switch (action->type) {
		case TLAT_ACTION_TRACE:
			ret = env->save_trace(env->priv, action->arg, err);
			break;
		case TLAT_ACTION_SIGNAL:
			ret = run_signal(action, err);
			break;
		case TLAT_ACTION_SHELL:
			ret = run_shell(action, err);
			if (ret > 0)
				return ACTIONS_STOPPED;
			break;
		case TLAT_ACTION_CONTINUE:
			return ACTIONS_CONTINUE;
		}
	}
	return ret < 0 ? ret : ACTIONS_DONE;
}
