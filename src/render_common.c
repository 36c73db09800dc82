// SPDX-License-Identifier: GPL-2.0
/*
 * render_common.c - the pieces of rtla's output that top and hist share:
 * the duration stamp, the missed-events line and the choice of columns.
 */
#include "cpuset.h"
#include "render.h"

void render_duration(char *buf, size_t len, u64 elapsed_s)
{
	snprintf(buf, len, "%3d %02d:%02d:%02d", (int)(elapsed_s / 86400),
		 (int)(elapsed_s / 3600 % 24), (int)(elapsed_s / 60 % 60), (int)(elapsed_s % 60));
}

void render_missed_events(FILE *out, const struct tlat_report *report)
{
	u64 missed = report->missed_events;

	if (missed == TLAT_MISSED_UNKNOWN) {
		fprintf(out, "unknown number of events missed, results might not be accurate\n");
	} else if (missed) {
		fprintf(out, "%lld (%.2f%%) events missed, results might not be accurate\n",
			(long long)missed,
			(double)missed / (double)(report->processed_events + missed) * 100.0);
	}
}

/* rtla hides CPUs that were not measured or produced nothing */
bool render_cpu_shown(const struct tlat_report *report, int cpu)
{
	return cpuset_has(&report->params->cpus, cpu) && stats_cpu_has_data(report->stats, cpu);
}

bool render_ctx_shown(const struct tlat_report *report, enum tlat_ctx ctx)
{
	const struct tlat_hist_params *h = &report->params->hist;
	bool hist = report->params->mode == TLAT_MODE_HIST;

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

u64 render_divisor(const struct tlat_report *report)
{
	return report->params->nano ? 1 : 1000;
}
