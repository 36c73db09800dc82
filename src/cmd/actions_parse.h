/* SPDX-License-Identifier: GPL-2.0 */
/*
 * actions_parse.h - the command line's --on-threshold and --on-end, in rtla's
 * spelling, into a list of actions (core/actions.h).
 */
#ifndef TLAT_CMD_ACTIONS_PARSE_H
#define TLAT_CMD_ACTIONS_PARSE_H

#include "core/actions.h"

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

#endif
