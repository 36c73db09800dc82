// SPDX-License-Identifier: GPL-2.0
/*
 * samplelog.c - the sample log consumer (--sample-log): every sample as a
 * text line, so that tests and scripts can check each activation. The last
 * column is the sample's CLOCK_MONOTONIC time: minus the latency, it gives
 * the timer's expected expiry, to compare with other programs' clocks.
 */
#include <errno.h>
#include <stdio.h>

#include "stats/consumer.h"

static void samplelog_sample(void *f, const struct tlat_sample *s)
{
	fprintf(f, "%d %u %s %llu %llu\n", s->cpu, s->seq, tlat_ctx_name[s->ctx],
		(unsigned long long)s->latency_ns, (unsigned long long)s->ts_ns);
}

static void samplelog_close(void *f)
{
	fclose(f);
}

int samplelog_open(FILE **f, const char *path)
{
	*f = fopen(path, "w");
	return *f ? 0 : -errno;
}

const struct tlat_consumer_ops samplelog_consumer_ops = {
	.sample = samplelog_sample,
	.free = samplelog_close,
};
