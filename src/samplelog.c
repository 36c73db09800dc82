// SPDX-License-Identifier: GPL-2.0
/*
 * samplelog.c - the sample log consumer (--sample-log): every sample as a
 * text line, so that tests and scripts can check each activation. The last
 * column is the sample's CLOCK_MONOTONIC time: minus the latency, it gives
 * the timer's expected expiry, to compare with other programs' clocks.
 */
#include <errno.h>
#include <stdio.h>

#include "consumer.h"

static const char *const ctx_name[TLAT_NR_CTX] = { "irq", "thread", "user" };

static void samplelog_sample(void *priv, const struct tlat_sample *s)
{
	fprintf(priv, "%d %u %s %llu %llu\n", s->cpu, s->seq, ctx_name[s->ctx],
		(unsigned long long)s->latency_ns, (unsigned long long)s->ts_ns);
}

int samplelog_open(struct tlat_consumer *consumer, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	consumer->sample = samplelog_sample;
	consumer->priv = f;
	return 0;
}

void samplelog_close(struct tlat_consumer *consumer)
{
	if (consumer->priv)
		fclose(consumer->priv);
	consumer->priv = NULL;
}
