// SPDX-License-Identifier: GPL-2.0
/*
 * collect.c - whether a run needs its samples' trace events (see collect.h).
 */
#include "core/array.h"
#include "run/actions.h"
#include "sources/collect.h"

static bool actions_save_trace(const struct tlat_actions *actions)
{
	for (int i = 0; i < actions->nr; i++)
		if (actions->list[i].type == TLAT_ACTION_TRACE)
			return true;
	return false;
}

const char *collect_needs_trace(const struct tlat_params *p)
{
	if (p->command == TLAT_CMD_RECORD)
		return "tlat record";
	if (!p->no_aa)
		return "the auto-analysis";
	if (actions_save_trace(&p->on_threshold) || actions_save_trace(&p->on_end))
		return "a saved trace (-t, trace actions)";
	if (p->nr_events)
		return "-e events";
	if (p->stack_us)
		return "-s stacks";
	return NULL;
}

const char *collect_name(enum tlat_collect collect)
{
	static const char *const names[] = {
		[TLAT_COLLECT_AUTO] = "auto",
		[TLAT_COLLECT_KERNEL] = "kernel",
		[TLAT_COLLECT_TRACE] = "trace",
	};

	return (unsigned int)collect < ARRAY_SIZE(names) ? names[collect] : "?";
}
