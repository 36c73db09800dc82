/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - CLOCK_MONOTONIC in nanoseconds: the clock of tlat's instance
 * (trace clock "mono") and of the hrtimers, so that sample times, the
 * measured window and a thread's own reads compare with each other.
 */
#ifndef TLAT_UTIL_CLOCK_H
#define TLAT_UTIL_CLOCK_H

#include <time.h>

#include "core/sample.h"

/**
 * mono_now_ns - CLOCK_MONOTONIC now
 *
 * Returns it in nanoseconds.
 */
static inline u64 mono_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

#endif
