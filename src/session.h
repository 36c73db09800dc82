/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - tlat's own tracefs instance: mounted if needed, named after the
 * tlat process that owns it, destroyed at exit, and reaped at the next start
 * if its owner was killed.
 */
#ifndef TLAT_SESSION_H
#define TLAT_SESSION_H

#include <stdbool.h>
#include <tracefs.h>

#include "tracefs_mount.h"

struct tlat_session {
	struct tracefs_instance *inst;
	struct tracefs_mount mount;
	const char *tracing_dir;
};

int session_open(struct tlat_session *session, char *err);
void session_close(struct tlat_session *session);
int session_set_clock(struct tlat_session *session, const char *clock);

#endif
