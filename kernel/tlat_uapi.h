/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tlat - the layout of /dev/tlat_agg, shared with user space.
 *
 * A read from offset 0 takes a new snapshot of the per-CPU aggregates and
 * returns it from there: a struct tlat_agg_header, then header.nr_cpus
 * records of header.cpu_size bytes, one per CPU id from 0. A reader checks
 * magic, version and the sizes before it uses the records. Each record is
 * consistent in itself: it was copied while its CPU wrote nothing.
 *
 * Latencies are in nanoseconds. buckets[] are log-linear: one bucket per
 * nanosecond below 2^(sub_bits + 1), then 2^sub_bits buckets per power of
 * two, up to 2^max_bits - 1 (larger latencies count in the last bucket).
 *
 * At a stop (a sample at or over stop_irq_us or stop_thread_us, where the
 * module emits tlat_threshold), the aggregates stop counting on every CPU
 * right after that sample, which they hold: until TLAT_AGG_IOC_RESUME or
 * TLAT_AGG_IOC_RESET, they keep the samples up to the stop, and no later
 * one over a threshold (a sample under one that another CPU counted as the
 * stop was taken may still be there). The header says that they stopped,
 * and at which sample.
 *
 * TLAT_AGG_IOC_RESET starts new aggregates: what the CPUs measured before
 * it no longer counts; they count again if a stop had stopped them.
 * TLAT_AGG_IOC_RESET_GATED starts a warm-up's: until the next reset, no
 * sample stops them or emits tlat_threshold, whatever stop_*_us says, so
 * that a warm-up ends with stop_*_us set, then TLAT_AGG_IOC_RESET, and no
 * sample between the two is counted unchecked. The gate lifts when the file
 * that set it is closed. TLAT_AGG_IOC_RESUME makes stopped aggregates count
 * again, keeping what they hold.
 */
#ifndef _UAPI_TLAT_H
#define _UAPI_TLAT_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define TLAT_AGG_MAGIC		0x47414c54	/* "TLAG" in little endian */
#define TLAT_AGG_VERSION	3

/* Contexts, in the order of enum tlat_ctx: IRQ, thread, user return. */
#define TLAT_AGG_NR_CTX		3
#define TLAT_AGG_SUB_BITS	7
#define TLAT_AGG_MAX_BITS	36
#define TLAT_AGG_BUCKETS	\
	((TLAT_AGG_MAX_BITS - TLAT_AGG_SUB_BITS + 1) << TLAT_AGG_SUB_BITS)

/* tlat_agg_cpu.flags */
#define TLAT_AGG_CPU_MEASURED	0x1	/* the CPU has measured since load */

struct tlat_agg_header {
	__u32 magic;
	__u16 version;
	__u16 header_size;	/* sizeof(struct tlat_agg_header) */
	__u32 nr_cpus;		/* records that follow */
	__u32 cpu_size;		/* sizeof(struct tlat_agg_cpu) */
	__u32 nr_ctx;		/* TLAT_AGG_NR_CTX */
	__u32 nr_buckets;	/* TLAT_AGG_BUCKETS */
	__u32 sub_bits;		/* TLAT_AGG_SUB_BITS */
	__u32 max_bits;		/* TLAT_AGG_MAX_BITS */
	__u64 resets;		/* TLAT_AGG_IOC_RESET calls since load */
	/* Since version 2: the stops. */
	__u64 stops;		/* stops since load, the current one included */
	__u32 stopped;		/* 1: stopped at the stop_* sample below */
	__u32 stop_cpu;		/* with stopped: the CPU of the sample, */
	__u32 stop_ctx;		/* its context, */
	__u32 stop_seqnum;	/* its activation (tlat_sample's seqnum), */
	__s32 stop_pid;		/* IRQ: the task it interrupted; else the measuring task */
	__u32 stop_pad;		/* 0 */
	__u64 stop_lat;		/* its latency in ns, */
	__u64 stop_ts;		/* and its CLOCK_MONOTONIC time in ns */
	/* Since version 3: the warm-up's gate (TLAT_AGG_IOC_RESET_GATED). */
	__u64 reset_ts;		/* CLOCK_MONOTONIC ns of the latest reset, 0: none */
};

struct tlat_agg_ctx {
	__u64 count;
	__u64 cur;		/* the latest sample */
	__u64 min;		/* 0 when count is 0 */
	__u64 max;
	__u64 sum;
	__u64 buckets[TLAT_AGG_BUCKETS];
};

struct tlat_agg_cpu {
	__u32 cpu;
	__u32 flags;
	struct tlat_agg_ctx ctx[TLAT_AGG_NR_CTX];
};

#define TLAT_AGG_IOC_MAGIC	0xb7
#define TLAT_AGG_IOC_RESET	_IO(TLAT_AGG_IOC_MAGIC, 1)
#define TLAT_AGG_IOC_RESUME	_IO(TLAT_AGG_IOC_MAGIC, 2)
#define TLAT_AGG_IOC_RESET_GATED	_IO(TLAT_AGG_IOC_MAGIC, 3)

#endif /* _UAPI_TLAT_H */
