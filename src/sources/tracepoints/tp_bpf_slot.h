/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tp_bpf_slot.h - what the tracepoint source's BPF programs (tp_bpf.bpf.c)
 * write of a measuring thread's activation, and the thread reads back from a
 * memory-mapped array when it wakes: one activation in flight per thread, so
 * one slot each. Shared by the BPF side and user space.
 */
#ifndef TLAT_SOURCES_TRACEPOINTS_TP_BPF_SLOT_H
#define TLAT_SOURCES_TRACEPOINTS_TP_BPF_SLOT_H

/* which of an activation's kernel-side events the slot holds */
enum {
	TP_BPF_SEEN_IRQ		= 1,	/* its timer expired */
	TP_BPF_SEEN_THREAD	= 2,	/* and then its thread was switched in */
};

/* one cache line each: every thread writes its own */
struct tp_bpf_slot {
	__u64 expires_ns;	/* the hrtimer's expiry, where the latencies count from */
	__u64 softexpires_ns;	/* what the thread asked for: tells its activation */
	__u64 irq_ns;		/* latency of the expiry */
	__u64 irq_ts_ns;
	__u64 thread_ns;	/* latency of the switch to the thread */
	__u64 thread_ts_ns;
	__u32 irq_pid;		/* the task the timer interrupted */
	__u32 seen;		/* TP_BPF_SEEN_*; the thread clears it */
	__u64 pad;
};

#endif
