/* SPDX-License-Identifier: GPL-2.0 */
/*
 * consumer.h - what the run feeds each sample to: statistics, histogram,
 * sample log (and later auto-analysis and trace saving). A consumer sees only
 * struct tlat_sample, never the source.
 */
#ifndef TLAT_CONSUMER_H
#define TLAT_CONSUMER_H

#include "sample.h"

struct tlat_consumer {
	void (*sample)(void *priv, const struct tlat_sample *sample);
	void *priv;
};

/* samplelog.c: one "cpu seq ctx latency_ns" line per sample, for tests and scripts */
int samplelog_open(struct tlat_consumer *consumer, const char *path);
void samplelog_close(struct tlat_consumer *consumer);

#endif
