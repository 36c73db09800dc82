// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - the life cycle of tlat's tracefs instance. Everything tlat sets
 * (clock, events, filters, buffer size) lives in that instance, so removing it
 * restores the system; the one global change, mounting tracefs, is undone too.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libproc2/pids.h>

#include "core/err.h"
#include "trace/session.h"

#define TLAT_INSTANCE_PREFIX	"tlat_"
#define TLAT_TRACE_SUFFIX	"_trace"

/*
 * An instance belongs to a live run only if its pid exists and is a tlat
 * (under either of its names): a recycled pid must not keep garbage alive.
 */
static bool owner_is_alive(unsigned int pid)
{
	enum pids_item items[] = { PIDS_CMD };
	struct pids_info *info = NULL;
	struct pids_fetch *fetch;
	bool alive = false;

	if (procps_pids_new(&info, items, 1) < 0)
		return kill(pid, 0) == 0;	/* cannot tell: err on the safe side */
	fetch = procps_pids_select(info, &pid, 1, PIDS_SELECT_PID);
	if (fetch && fetch->counts->total > 0) {
		const char *cmd = PIDS_VAL(0, str, fetch->stacks[0], info);

		alive = !strcmp(cmd, "tlat") || !strcmp(cmd, "rtla");
	}
	procps_pids_unref(&info);
	return alive;
}

/*
 * tlat_PID, and tlat_PID_trace (the trace action's). Matched here, not with
 * tracefs_instances()'s regex: libtracefs 1.6 never frees the regex it
 * compiles (a leak at every run, which LeakSanitizer reports).
 */
static bool is_tlat_instance(const char *name)
{
	const char *p;

	if (strncmp(name, TLAT_INSTANCE_PREFIX, strlen(TLAT_INSTANCE_PREFIX)))
		return false;
	p = name + strlen(TLAT_INSTANCE_PREFIX);
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return !*p || !strcmp(p, TLAT_TRACE_SUFFIX);
}

static void remove_stale_instances(void)
{
	char **names = tracefs_instances(NULL);

	for (int i = 0; names && names[i]; i++) {
		struct tracefs_instance *stale;
		unsigned int pid;

		if (!is_tlat_instance(names[i]))
			continue;
		pid = strtoul(names[i] + strlen(TLAT_INSTANCE_PREFIX), NULL, 10);
		if (pid == (unsigned int)getpid() || owner_is_alive(pid))
			continue;
		stale = tracefs_instance_alloc(NULL, names[i]);
		if (stale) {
			tracefs_instance_destroy(stale);
			tracefs_instance_free(stale);
		}
	}
	tracefs_list_free(names);
}

static bool other_instances_alive(void)
{
	char **names = tracefs_instances(NULL);
	bool any = false;

	for (int i = 0; names && names[i] && !any; i++)
		any = is_tlat_instance(names[i]);
	tracefs_list_free(names);
	return any;
}

int session_open(struct tlat_session *session, char *err)
{
	char name[32];
	int ret;

	memset(session, 0, sizeof(*session));
	ret = tracing_mount_get(&session->mount, err);
	if (ret)
		return ret;
	session->tracing_dir = session->mount.dir;

	remove_stale_instances();

	snprintf(name, sizeof(name), TLAT_INSTANCE_PREFIX "%d", getpid());
	session->inst = tracefs_instance_create(name);
	if (!session->inst) {
		ret = -errno;
		tlat_err(err, "cannot create tracefs instance %s: %s", name,
			 strerror(errno));
		session_close(session, NULL);
		return ret ? ret : -EIO;
	}
	/*
	 * Sample times are compared with CLOCK_MONOTONIC (warm-up, -d), and
	 * the tracepoint source compares them with hrtimer expiries.
	 */
	ret = session_set_clock(session->inst, "mono");
	if (ret) {
		tlat_err(err, "cannot set the trace clock to mono: %s", strerror(-ret));
		session_close(session, NULL);
		return ret;
	}
	return 0;
}

/*
 * The kernel will not remove an instance while one of its files is open
 * (EBUSY): a reader that looks at it just then (seen: a test polling its
 * tracing_on under QEMU) must not make tlat leave it behind. A reader that
 * keeps it open longer gets the instance; the next run removes it.
 */
#define SESSION_DESTROY_TRIES	200	/* 10 ms apart: 2 s */

static void session_destroy_instance(struct tracefs_instance *inst,
				     const struct tlat_notes *notes)
{
	for (int i = 0; i < SESSION_DESTROY_TRIES; i++) {
		if (!tracefs_instance_destroy(inst) || errno != EBUSY)
			return;
		usleep(10000);
	}
	if (notes)
		tlat_note(notes, TLAT_NOTE_WARNING,
			  "tlat: %s is still in use (a file of it is open): the next run removes it",
			  tracefs_instance_get_name(inst));
}

void session_close(struct tlat_session *session, const struct tlat_notes *notes)
{
	if (session->inst) {
		tracefs_trace_off(session->inst);
		session_destroy_instance(session->inst, notes);
		tracefs_instance_free(session->inst);
		session->inst = NULL;
	}
	/* another tlat run may still be using the mount */
	if (session->mount.ours)
		tracing_mount_put(&session->mount, !other_instances_alive());
}

int session_set_clock(struct tracefs_instance *inst, const char *clock)
{
	char *clocks = tracefs_instance_file_read(inst, "trace_clock", NULL);
	bool found = false;

	/* the list looks like "[local] global counter uptime perf mono ..." */
	for (char *tok = clocks ? strtok(clocks, " []\n") : NULL; tok; tok = strtok(NULL, " []\n"))
		found |= !strcmp(tok, clock);
	free(clocks);
	if (!found)
		return -ENOENT;
	return tracefs_instance_file_write(inst, "trace_clock", clock) < 0 ? -EIO : 0;
}

struct tracefs_instance *session_trace_open(struct tlat_session *session, char *err)
{
	struct tracefs_instance *inst;
	char name[48];
	int ret;

	snprintf(name, sizeof(name), "%s" TLAT_TRACE_SUFFIX,
		 tracefs_instance_get_name(session->inst));
	inst = tracefs_instance_create(name);
	if (!inst) {
		tlat_err(err, "cannot create tracefs instance %s: %s", name, strerror(errno));
		return NULL;
	}
	tracefs_trace_off(inst);
	ret = session_set_clock(inst, "mono");
	if (ret) {
		tlat_err(err, "cannot set the trace clock of %s to mono: %s", name,
			 strerror(-ret));
		session_trace_close(inst, NULL);
		return NULL;
	}
	return inst;
}

void session_trace_close(struct tracefs_instance *inst, const struct tlat_notes *notes)
{
	if (!inst)
		return;
	tracefs_trace_off(inst);
	tracefs_tracer_clear(inst);
	session_destroy_instance(inst, notes);
	tracefs_instance_free(inst);
}
