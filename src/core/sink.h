/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sink.h - where a source's decoder hands what it finds: samples, the
 * stacks saved at timer IRQs, and a kernel collector's counts. The run's
 * pipeline is one; the per-CPU read's batches and a recording's scan are
 * others.
 */
#ifndef TLAT_CORE_SINK_H
#define TLAT_CORE_SINK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/sample.h"

struct tlat_sink {
	void (*sample)(struct tlat_sink *sink, const struct tlat_sample *sample);
	/* the stack saved at a timer IRQ (-s) */
	void (*stack)(struct tlat_sink *sink, const struct tlat_stack *stack);
	/*
	 * A CPU's context as a kernel collector counted it, whole since the
	 * measured window began: it replaces what the sink had of it. The
	 * log-linear buckets (stats/loglinear.h), NULL while it has no sample.
	 */
	void (*aggregate)(struct tlat_sink *sink, int cpu, enum tlat_ctx ctx,
			  const struct tlat_stat *stat, const u64 *loglinear);
	/*
	 * A kernel collector stopped counting at this sample, which the
	 * aggregates it handed on hold (tlat.ko's at a stop_*_us): the run
	 * checks it as a sample that came alone, and stops there.
	 */
	void (*stopped_at)(struct tlat_sink *sink, const struct tlat_sample *sample);
	/*
	 * Per-CPU delivery (trace/collector_percpu.c); NULL: the sink needs
	 * the samples in time order across CPUs. first_stop(): of one CPU's
	 * next samples, in order, the index of the first that would stop the
	 * run (counts and crosses a threshold), or n. cpu_order(): a pass's
	 * samples come CPU by CPU between begin (true) and end (false), none
	 * later than the first that stops the run, which comes last.
	 */
	size_t (*first_stop)(struct tlat_sink *sink, const struct tlat_sample *samples, size_t n);
	void (*cpu_order)(struct tlat_sink *sink, bool begin);
};

#endif
