// SPDX-License-Identifier: GPL-2.0
/*
 * actions.c - a list of actions (see actions.h): kept in order, looked up
 * by type.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/actions.h"

int actions_add(struct tlat_actions *actions, enum tlat_action_type type, const char *arg,
		int signo, pid_t pid)
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
	return actions_add(actions, TLAT_ACTION_TRACE, file, 0, 0);
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
