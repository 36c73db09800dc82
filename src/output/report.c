// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - what every output shows of a report alike (see report.h): the
 * CPUs and contexts, the unit, the duration stamp.
 */
#include <stdio.h>

#include "core/cpuset.h"
#include "output/report.h"

bool report_cpu_shown(const struct tlat_report *report, int cpu)
{
	return cpuset_has(&report->params->cpus, cpu) && agg_cpu_has_data(report->agg, cpu);
}

struct tlat_stat report_stat_shown(const struct tlat_report *report, enum tlat_ctx ctx)
{
	struct tlat_stat all = { .count = 0 };

	for (int cpu = 0; cpu < agg_nr_cpus(report->agg); cpu++)
		if (report_cpu_shown(report, cpu))
			stat_merge(&all, agg_stat(report->agg, cpu, ctx));
	return all;
}

bool report_ctx_shown(const struct tlat_report *report, enum tlat_ctx ctx)
{
	const struct tlat_hist_params *h = &report->params->out.hist;
	bool hist = report->params->out.mode == TLAT_MODE_HIST;

	switch (ctx) {
	case TLAT_CTX_IRQ:
		return !(hist && h->no_irq);
	case TLAT_CTX_THREAD:
		return !(hist && h->no_thread);
	case TLAT_CTX_USER:
		return report->user_data;
	default:
		return false;
	}
}

u64 report_divisor(const struct tlat_report *report)
{
	return report->params->out.nano ? 1 : 1000;
}

void report_duration(char *buf, size_t len, u64 elapsed_s)
{
	snprintf(buf, len, "%3d %02d:%02d:%02d", (int)(elapsed_s / 86400),
		 (int)(elapsed_s / 3600 % 24), (int)(elapsed_s / 60 % 60), (int)(elapsed_s % 60));
}
