/* SPDX-License-Identifier: GPL-2.0 */
/*
 * threshold.h - the -i/-T stop's rule for one sample, in one place: the
 * pipeline, and the tracepoint source's threads where they decide the
 * stop themselves, ask here.
 */
#ifndef TLAT_CORE_THRESHOLD_H
#define TLAT_CORE_THRESHOLD_H

#include <stdbool.h>

#include "core/params.h"

/**
 * threshold_crossed - whether a sample crosses its context's stop threshold
 * @t: the run's thresholds: -i for the IRQ context, -T for the others
 * @s: the sample
 *
 * Returns true if that threshold is set and the sample's latency reaches it.
 */
static inline bool threshold_crossed(const struct tlat_thresholds *t, const struct tlat_sample *s)
{
	u64 threshold_us = s->ctx == TLAT_CTX_IRQ ? t->irq_us : t->thread_us;

	return threshold_us && s->latency_ns >= threshold_us * 1000;
}

#endif
