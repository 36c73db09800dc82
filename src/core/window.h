/* SPDX-License-Identifier: GPL-2.0 */
/*
 * window.h - the measured window's rule for one sample, in one place: the
 * pipeline applies it to the samples it sees, and a source that counts
 * samples the pipeline never sees (the tracepoint source's threads) applies
 * the same.
 */
#ifndef TLAT_CORE_WINDOW_H
#define TLAT_CORE_WINDOW_H

#include <stdbool.h>

#include "core/sample.h"

/**
 * window_counts - whether a sample counts in the run's window
 * @from_ns: the window's start (the warm-up's end)
 * @until_ns: its end (-d), 0 for none
 * @ts_ns: the sample's time
 * @began_ns: when its activation began (its IRQ sample's time)
 * @same_activation: the activation's earlier samples were seen, so
 *	@began_ns is known
 *
 * From the start on, a sample counts. Past the end it counts only in an
 * activation begun within the window, so that an activation is counted
 * whole; the start stays per sample, as the kernel's stops are armed there
 * and rtla counts a thread sample whose IRQ came before it.
 */
static inline bool window_counts(u64 from_ns, u64 until_ns, u64 ts_ns, u64 began_ns,
				 bool same_activation)
{
	if (!until_ns || ts_ns <= until_ns)
		return ts_ns >= from_ns;
	return same_activation && began_ns >= from_ns && began_ns <= until_ns;
}

#endif
