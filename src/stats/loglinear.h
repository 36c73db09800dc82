/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loglinear.h - the log-linear (HDR-style) buckets of the percentiles:
 * exact below 256 ns, then 128 buckets per power of two, so that the middle
 * of a bucket is within 1/256 (0.4%) of anything in it, up to 2^36 ns (about
 * 68 s; larger latencies share the last bucket). Plain integer arithmetic,
 * so that a collector counting in the kernel can bucket as tlat does.
 */
#ifndef TLAT_STATS_LOGLINEAR_H
#define TLAT_STATS_LOGLINEAR_H

#include "core/sample.h"

#define LOGLIN_SUB_BITS		7
#define LOGLIN_SUB		(1u << LOGLIN_SUB_BITS)
#define LOGLIN_MAX_BITS		36
#define LOGLIN_MAX_NS		((1ull << LOGLIN_MAX_BITS) - 1)
#define LOGLIN_BUCKETS		((LOGLIN_MAX_BITS - LOGLIN_SUB_BITS + 1) * LOGLIN_SUB)

/**
 * loglin_index - the bucket of a latency
 * @ns: the latency; past LOGLIN_MAX_NS it counts in the last bucket
 *
 * Below 256 ns a bucket per nanosecond; from 2^e to 2^(e+1) - 1 (e >= 8),
 * one of 128 buckets 2^(e-7) ns wide.
 *
 * Returns the bucket index, below LOGLIN_BUCKETS.
 */
static inline unsigned int loglin_index(u64 ns)
{
	unsigned int shift;

	if (ns > LOGLIN_MAX_NS)
		ns = LOGLIN_MAX_NS;
	if (ns < 2 * LOGLIN_SUB)
		return (unsigned int)ns;
	shift = 63 - __builtin_clzll(ns) - LOGLIN_SUB_BITS;
	return shift * LOGLIN_SUB + (unsigned int)(ns >> shift);
}

/**
 * loglin_lowest - the smallest latency of a bucket
 * @index: the bucket
 *
 * Returns it, in nanoseconds.
 */
static inline u64 loglin_lowest(unsigned int index)
{
	unsigned int shift;

	if (index < 2 * LOGLIN_SUB)
		return index;
	shift = index / LOGLIN_SUB - 1;
	return (u64)(index - shift * LOGLIN_SUB) << shift;
}

/**
 * loglin_width - how many latencies a bucket holds
 * @index: the bucket
 *
 * Returns its width in nanoseconds: 1 below 256 ns.
 */
static inline u64 loglin_width(unsigned int index)
{
	return index < 2 * LOGLIN_SUB ? 1 : 1ull << (index / LOGLIN_SUB - 1);
}

/**
 * loglin_middle - the latency that stands for a bucket
 * @index: the bucket
 *
 * Returns its middle, within half its width of anything in it.
 */
static inline u64 loglin_middle(unsigned int index)
{
	return loglin_lowest(index) + (loglin_width(index) - 1) / 2;
}

#endif
