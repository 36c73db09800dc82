// SPDX-License-Identifier: GPL-2.0
/*
 * collect.c - whether a run needs its samples' trace events, and a pass of
 * the collector it takes (see collect.h).
 */
#include "core/actions.h"
#include "core/array.h"
#include "sources/collect.h"

int collect_drain(const struct tlat_source_ops *ops, struct tlat_source *src,
		  struct tlat_collector *c, u64 until_ns, char *err)
{
	const struct tlat_kernel_collector_ops *k = ops->kernel;
	int ret;

	/* a kernel collector's samples reach no buffer: nothing there to read */
	if (k && src) {
		ret = k->drain(src, c->sink, &c->counts.processed, &c->counts.missed, err);
		if (ret <= 0)
			return ret;
	}
	return collector_drain(c, until_ns, err);
}

const char *collect_needs_trace(const struct tlat_params *p)
{
	if (p->command == TLAT_CMD_RECORD)
		return "tlat record";
	if (!p->no_aa)
		return "the auto-analysis";
	return collect_needs_events(p);
}

const char *collect_needs_events(const struct tlat_params *p)
{
	if (p->command == TLAT_CMD_RECORD)
		return "tlat record";
	if (actions_have(&p->on_threshold, TLAT_ACTION_TRACE) ||
	    actions_have(&p->on_end, TLAT_ACTION_TRACE))
		return "a saved trace (-t, trace actions)";
	if (p->events.nr)
		return "-e events";
	if (p->stop.stack_us)
		return "-s stacks";
	return NULL;
}

const char *collect_needs_samples(const struct tlat_params *p)
{
	if (p->stop.irq_us || p->stop.thread_us)
		return "the -i/-T stop";
	if (p->sample_log)
		return "--sample-log";
	return NULL;
}

const char *collect_name(enum tlat_collect collect)
{
	static const char *const names[] = {
		[TLAT_COLLECT_AUTO] = "auto",
		[TLAT_COLLECT_KERNEL] = "kernel",
		[TLAT_COLLECT_TRACE] = "trace",
		[TLAT_COLLECT_BOTH] = "both",
	};

	return (unsigned int)collect < ARRAY_SIZE(names) ? names[collect] : "?";
}
