/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mod_agg.h - the module source's kernel collector: tlat.ko counts every
 * sample in per-CPU aggregates, and tlat reads them whole from
 * /dev/tlat_agg (layout in kernel/tlat_uapi.h) instead of one trace event
 * per sample. At a stop_*_us sample the aggregates stop counting, and the
 * snapshot says at which sample.
 */
#ifndef TLAT_SOURCES_MOD_AGG_H
#define TLAT_SOURCES_MOD_AGG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/cpuset.h"
#include "sources/source.h"

#define MOD_AGG_DEVICE	"/dev/tlat_agg"

struct mod_agg;

/**
 * mod_agg_open - open /dev/tlat_agg
 * @out: set to the reader on success
 * @err: the error line, on failure
 *
 * Returns 0, or -errno with @err set: -ENOENT for a tlat.ko without it.
 */
int mod_agg_open(struct mod_agg **out, char *err);

/**
 * mod_agg_reset - start new aggregates: what was measured before no longer counts
 * @a: the reader
 * @warm_up: a warm-up's: no sample counted in them stops them, until the next reset
 * @reset_ns: if not NULL, set to the reset's CLOCK_MONOTONIC time, from a
 *	snapshot: the first sample the new aggregates count comes after it
 * @err: the error line, on failure
 *
 * Returns 0 or -errno with @err set.
 */
int mod_agg_reset(struct mod_agg *a, bool warm_up, u64 *reset_ns, char *err);

/**
 * mod_agg_resume - count again after a stop, keeping what the aggregates hold
 * @a: the reader
 * @err: the error line, on failure
 *
 * Returns 0 or -errno with @err set.
 */
int mod_agg_resume(struct mod_agg *a, char *err);

/**
 * mod_agg_check - whether this tlat.ko's snapshots have the layout of this tlat's
 * @a: the reader
 * @err: the error line, if not
 *
 * Returns 0, or -errno with @err set (-EPROTO: an older tlat.ko's layout).
 */
int mod_agg_check(struct mod_agg *a, char *err);

/**
 * mod_agg_drain - read the aggregates and hand each measured CPU's to @sink
 * @a: the reader
 * @cpus: the CPUs whose aggregates go to @sink
 * @nr_ctx: the contexts that do: 2 (IRQ, thread) or 3 (and user return)
 * @sink: its aggregate() gets every context of those CPUs, whole
 * @total: set to the samples counted in them all
 * @stops: the stops handed on so far (0 after a reset); where the
 *	aggregates stopped at a new one, its sample goes to @sink's
 *	stopped_at() after them, and @stops becomes the snapshot's count
 * @err: the error line, on failure
 *
 * Returns 0 or -errno with @err set.
 */
int mod_agg_drain(struct mod_agg *a, const struct tlat_cpuset *cpus, int nr_ctx,
		  struct tlat_sink *sink, u64 *total, u64 *stops, char *err);

/**
 * mod_agg_parse - mod_agg_drain() on a snapshot already read
 * @buf: the snapshot, as /dev/tlat_agg returns it
 * @len: its length
 *
 * The rest as mod_agg_drain(). Returns 0, or -EPROTO with @err set for a
 * snapshot of another layout, a short one or a stop out of range; the sink
 * then got nothing.
 */
int mod_agg_parse(const void *buf, size_t len, const struct tlat_cpuset *cpus, int nr_ctx,
		  struct tlat_sink *sink, u64 *total, u64 *stops, char *err);

/**
 * mod_agg_close - close the reader
 * @a: the reader, or NULL
 */
void mod_agg_close(struct mod_agg *a);

#endif
