// SPDX-License-Identifier: GPL-2.0
/*
 * actions_parse.c - an --on-threshold or --on-end action from rtla's
 * syntax: a type, then comma-separated key=value arguments. A shell command
 * is the rest of the spec, commas included: rtla cuts it at the first
 * comma, which leaves no way to write one with a comma.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/actions_parse.h"
#include "core/err.h"
#include "util/parse.h"

static int action_error(char *err, const char *option, const char *spec, const char *why)
{
	tlat_err(err, "invalid %s action '%s': %s", option, spec, why);
	return -EINVAL;
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
	return actions_add(actions, TLAT_ACTION_SIGNAL, NULL, signo, pid);
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
		ret = actions_add(actions, TLAT_ACTION_SHELL, args + 8, 0, 0);
	} else if (len == 8 && !strncmp(spec, "continue", len)) {
		if (args)
			return action_error(err, option, spec, "continue takes no argument");
		ret = actions_add(actions, TLAT_ACTION_CONTINUE, NULL, 0, 0);
	} else {
		return action_error(err, option, spec,
				    "expected trace, signal, shell or continue");
	}
	if (ret == -ENOMEM)
		tlat_err(err, "out of memory");
	return ret;
}
