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
#include "trace/tracefs_mount.h"

struct tlat_session {
	struct tracefs_instance *inst;
	struct tracefs_mount mount;
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
 * session_set_clock - the instance's trace clock
 * @session: the session
 * @clock: the clock's name, such as "mono"
 *
 * Returns 0, -ENOENT if the kernel has no such clock, or -EIO.
 */
int session_set_clock(struct tlat_session *session, const char *clock);

#endif
