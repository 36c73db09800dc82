/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - tlat's own tracefs instance: mounted if needed, named after the
 * tlat process that owns it, destroyed at exit, and reaped at the next start
 * if its owner was killed.
 */
#ifndef TLAT_TRACE_SESSION_H
#define TLAT_TRACE_SESSION_H

#include <stdbool.h>
#include <tracefs.h>

#include "core/notes.h"
#include "trace/tracing_mount.h"

struct tlat_session {
	struct tracefs_instance *inst;
	struct tracing_mount mount;
	const char *tracing_dir;
};

/**
 * session_open - tlat's own tracefs instance, tlat_PID, on the mono clock
 * @session: filled in
 * @err: the error line, on failure
 *
 * Finds or mounts tracefs, and removes the instances of killed tlat runs.
 *
 * Returns 0, or -errno with @err set (nothing is left behind).
 */
int session_open(struct tlat_session *session, char *err);

/**
 * session_close - remove the instance and let go of tracefs
 * @session: from session_open()
 * @notes: where a warning goes if the instance cannot be removed yet (a
 *	file of it is held open): the next run removes it
 */
void session_close(struct tlat_session *session, const struct tlat_notes *notes);

/**
 * session_set_clock - an instance's trace clock
 * @inst: the instance
 * @clock: the clock's name, such as "mono"
 *
 * Returns 0, -ENOENT if the kernel has no such clock, or -EIO.
 */
int session_set_clock(struct tracefs_instance *inst, const char *clock);

/**
 * session_trace_open - the trace action's instance, tlat_PID_trace
 * @session: the session, whose instance names it
 * @err: the error line, on failure
 *
 * A second instance on the mono clock, tracing off, which nothing reads:
 * its "trace" file is the kernel's own text of what the source configures
 * in it. A killed run's is removed with its tlat_PID.
 *
 * Returns it, for session_trace_close(), or NULL with @err set.
 */
struct tracefs_instance *session_trace_open(struct tlat_session *session, char *err);

/**
 * session_trace_close - clear its tracer and remove the trace action's instance
 * @inst: from session_trace_open(), or NULL
 * @notes: where a warning goes if it cannot be removed yet, or NULL
 */
void session_trace_close(struct tracefs_instance *inst, const struct tlat_notes *notes);

#endif
