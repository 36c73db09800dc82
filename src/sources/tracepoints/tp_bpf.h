/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tp_bpf.h - the tracepoint source's kernel-side collector: its BPF programs
 * (tp_bpf.bpf.c) loaded and attached, and the slots they write mapped into
 * tlat's memory. A tlat built without BPF has the interface and says why it
 * cannot open it.
 */
#ifndef TLAT_SOURCES_TRACEPOINTS_TP_BPF_H
#define TLAT_SOURCES_TRACEPOINTS_TP_BPF_H

#include <linux/types.h>
#include <sys/types.h>

#include "sources/tracepoints/tp_bpf_slot.h"

struct tp_bpf;

/**
 * tp_bpf_open - load, fill and attach the programs for a run's threads
 * @out: set to the collector on success
 * @tids: the measuring thread of each slot (a CPU), 0 where there is none
 * @nr: the number of slots
 * @err: the error line, on failure
 *
 * Returns 0, or -errno with @err set: -EOPNOTSUPP for a build without BPF,
 * else what libbpf or the kernel refused. Nothing is left loaded on failure.
 */
int tp_bpf_open(struct tp_bpf **out, const pid_t *tids, int nr, char *err);

/**
 * tp_bpf_slot - the slot the programs write for one thread
 * @b: the collector
 * @slot: its index, below tp_bpf_open()'s @nr
 *
 * Returns the slot, in memory shared with the kernel.
 */
struct tp_bpf_slot *tp_bpf_slot(struct tp_bpf *b, int slot);

/**
 * tp_bpf_close - detach and unload
 * @b: the collector, or NULL
 */
void tp_bpf_close(struct tp_bpf *b);

#endif
