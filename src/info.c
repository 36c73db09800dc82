// SPDX-License-Identifier: GPL-2.0
/*
 * info.c - "tlat info": what this machine supports, so that a user or a CI
 * job knows which source tlat will measure with, and why, before running.
 */
#include <stdio.h>
#include <sys/utsname.h>

#include "info.h"
#include "session.h"
#include "source.h"

int tlat_info(FILE *out, char *err)
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
	fprintf(out, "sources, in the order --source auto tries them:\n");
	source_report(out, &session);
	session_close(&session);
	return 0;
}
