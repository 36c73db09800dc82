/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample.h - what every source emits and every consumer receives: one latency
 * sample of one context (IRQ, thread, user-return) of one activation, with
 * -s the stack saved at an activation's timer IRQ, and the numbers a
 * collector that counts in the kernel hands on whole.
 */
#ifndef TLAT_CORE_SAMPLE_H
#define TLAT_CORE_SAMPLE_H

#include <stdint.h>

typedef uint64_t u64;
typedef uint32_t u32;

enum tlat_ctx {
	TLAT_CTX_IRQ,
	TLAT_CTX_THREAD,
	TLAT_CTX_USER,
	TLAT_NR_CTX
};

/* the contexts' names in the documents and the sample log */
static const char *const tlat_ctx_name[TLAT_NR_CTX] = { "irq", "thread", "user" };

struct tlat_sample {
	u64 ts_ns;		/* ring-buffer time of the event that completed it */
	u64 latency_ns;
	u32 seq;		/* activation number on that CPU */
	int cpu;
	/* IRQ: the task the timer interrupted; else the measuring thread */
	int pid;
	enum tlat_ctx ctx;
};

/* the frames of a stack that are kept: rtla's limit too */
#define TLAT_STACK_MAX_FRAMES	64

/* a stack saved at a timer IRQ, innermost frame first */
struct tlat_stack {
	u64 ts_ns;		/* ring-buffer time of its event */
	/*
	 * Its activation, as struct tlat_sample's seq, where the source's
	 * stack event names it (tlat.ko's); 0: unknown, placed by its time
	 */
	u32 seq;
	int cpu;
	int nr;
	const u64 *ips;
};

/* one CPU's context: the numbers of tlat top and of hist's summary rows */
struct tlat_stat {
	u64 count;
	u64 cur;		/* the latest sample */
	u64 min;
	u64 max;
	u64 sum;
};

#endif
