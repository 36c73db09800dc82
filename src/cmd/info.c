// SPDX-License-Identifier: GPL-2.0
/*
 * info.c - "tlat info": what this machine supports, so that a user or a CI
 * job knows which source tlat will measure with, and why, before running.
 */
#include <stdio.h>
#include <sys/utsname.h>

#include "cmd/info.h"
#include "core/err.h"
#include "sources/source.h"
#include "trace/session.h"

/* every source, why it can or cannot run, and auto's pick */
static void info_sources(FILE *out, struct tlat_session *session)
{
	const struct tlat_source_ops *ops, *chosen = NULL;
	char why[TLAT_ERR_LEN];

	for (size_t i = 0; (ops = source_nth(i)); i++) {
		if (ops->probe(session, why)) {
			fprintf(out, "  %-12s not available: %s\n", ops->name, why);
			continue;
		}
		fprintf(out, "  %-12s available\n", ops->name);
		if (!chosen)
			chosen = ops;
	}
	fprintf(out, "--source auto uses: %s\n", chosen ? chosen->name : "none");
}

/* which source counts in the kernel, and whether it can here */
static void info_collectors(FILE *out)
{
	const struct tlat_source_ops *ops;
	char why[TLAT_ERR_LEN];

	fprintf(out, "kernel collectors (--collector kernel):\n");
	for (size_t i = 0; (ops = source_nth(i)); i++) {
		const struct tlat_kernel_collector_ops *k = ops->kernel;

		if (!k)
			fprintf(out, "  %-12s none\n", ops->name);
		else if (k->probe(why))
			fprintf(out, "  %-12s not available: %s\n", ops->name, why);
		else
			fprintf(out, "  %-12s available\n", ops->name);
		if (k)
			fprintf(out, "    with the auto-analysis: %s\n",
				k->with_aa ?: "no (the trace collector)");
	}
	fprintf(out, "trace collector's read (--readers):\n");
	for (size_t i = 0; (ops = source_nth(i)); i++)
		fprintf(out, "  %-12s %s\n", ops->name, ops->decoder->per_cpu_order ?
			"per CPU from 8 CPUs, unless -t, record or the auto-analysis needs time order" :
			"merged in time order: the source pairs events across CPUs");
}

int tlat_info(FILE *out, const struct tlat_notes *notes, char *err)
{
	struct tlat_session session;
	struct utsname uts;

	if (session_open(&session, err))
		return -1;
	uname(&uts);
	fprintf(out, "kernel: %s %s\n", uts.release, uts.version);
	fprintf(out, "tracefs: %s\n", session.tracing_dir);
	fprintf(out, "timerlat tracer: %s\n",
		tracefs_tracer_available(NULL, "timerlat") ? "yes" : "no");
	fprintf(out, "timerlat_fd (user threads of the timerlat tracer): %s\n",
		tracefs_file_exists(NULL, "osnoise/per_cpu/cpu0/timerlat_fd") ? "yes" : "no");
	/* before the sources: their last line, auto's pick, is what a CI job reads */
	info_collectors(out);
	fprintf(out, "sources, in the order --source auto tries them:\n");
	info_sources(out, &session);
	session_close(&session, notes);
	return 0;
}
