/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace events of the tlat module: events/tlat/ in tracefs.
 *
 * <trace/define_trace.h> reads this header several times with
 * TRACE_HEADER_MULTI_READ defined, hence the form of the include guard.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tlat

#if !defined(_TLAT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TLAT_TRACE_H

#include <linux/tracepoint.h>

#include "tlat_internal.h"

#ifndef _TLAT_TRACE_HELPERS
#define _TLAT_TRACE_HELPERS
struct trace_seq;
const char *tlat_trace_print_ips(struct trace_seq *p, const unsigned long *ips,
				 unsigned int nr);
#endif

/* Put the numbers, not the enum names, into the format files. */
TRACE_DEFINE_ENUM(TLAT_CTX_IRQ);
TRACE_DEFINE_ENUM(TLAT_CTX_THREAD);
TRACE_DEFINE_ENUM(TLAT_CTX_USER_RET);

DECLARE_EVENT_CLASS(tlat_sample_class,

	TP_PROTO(u32 seqnum, int context, u64 timer_latency),

	TP_ARGS(seqnum, context, timer_latency),

	TP_STRUCT__entry(
		__field(unsigned int, seqnum)
		__field(int, context)
		__field(u64, timer_latency)
	),

	TP_fast_assign(
		__entry->seqnum = seqnum;
		__entry->context = context;
		__entry->timer_latency = timer_latency;
	),

	TP_printk("#%-5u context %6s timer_latency %9llu ns",
		  __entry->seqnum,
		  __print_symbolic(__entry->context,
				   { TLAT_CTX_IRQ, "irq" },
				   { TLAT_CTX_THREAD, "thread" },
				   { TLAT_CTX_USER_RET, "user-ret" }),
		  __entry->timer_latency)
);

/*
 * tlat_sample - one latency sample
 * @seqnum:		activation number; the IRQ, thread and user-ret samples
 *			of one activation share it
 * @context:		enum tlat_ctx: 0 IRQ, 1 thread, 2 user-ret
 * @timer_latency:	ns from the programmed expiry to the sample
 *
 * The payload of the kernel's ftrace:timerlat entry, field for field.
 */
DEFINE_EVENT(tlat_sample_class, tlat_sample,
	TP_PROTO(u32 seqnum, int context, u64 timer_latency),
	TP_ARGS(seqnum, context, timer_latency)
);

/*
 * tlat_threshold - the sample just written reached stop_irq_us (IRQ) or
 * stop_thread_us (thread, user-ret); same fields as that sample.
 *
 * Emitted after the sample, so that a "traceoff" trigger on this event stops
 * a buffer with the sample in it. (A trigger with a filter on tlat_sample
 * runs before its own sample is committed, and 6.12 then drops that sample.)
 */
DEFINE_EVENT(tlat_sample_class, tlat_threshold,
	TP_PROTO(u32 seqnum, int context, u64 timer_latency),
	TP_ARGS(seqnum, context, timer_latency)
);

/*
 * tlat_stack - the stack saved in the hrtimer callback of activation @seqnum
 * @seqnum:	activation number, as in tlat_sample
 * @nr:		number of entries in @ips
 * @ips:	return addresses, innermost first
 *
 * Emitted once per activation, before the first sample of that activation
 * whose latency reaches print_stack_us, so that an event trigger that stops
 * the buffer on that sample keeps the stack.
 */
TRACE_EVENT(tlat_stack,

	TP_PROTO(u32 seqnum, const unsigned long *ips, unsigned int nr),

	TP_ARGS(seqnum, ips, nr),

	TP_STRUCT__entry(
		__field(unsigned int, seqnum)
		__field(unsigned int, nr)
		__dynamic_array(unsigned long, ips, nr)
	),

	TP_fast_assign(
		__entry->seqnum = seqnum;
		__entry->nr = nr;
		memcpy(__get_dynamic_array(ips), ips, nr * sizeof(*ips));
	),

	TP_printk("#%u nr %u%s", __entry->seqnum, __entry->nr,
		  tlat_trace_print_ips(p, __get_dynamic_array(ips), __entry->nr))
);

#endif /* _TLAT_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE tlat_trace
#include <trace/define_trace.h>
