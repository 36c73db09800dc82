// SPDX-License-Identifier: GPL-2.0
/*
 * actions.c - running rtla's --on-threshold and --on-end actions (see
 * actions.h): a signal is sent, a shell command run with sh -c.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "core/err.h"
#include "run/actions.h"

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
