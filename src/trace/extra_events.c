// SPDX-License-Identifier: GPL-2.0
/*
 * extra_events.c - the -e events (see extra_events.h). Everything is checked
 * before anything is set, and what was set is taken back newest first
 * before the instance goes: some kernels keep an instance whose events
 * still have triggers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "trace/extra_events.h"

#define HIST_PREFIX	"hist:"

struct extra_state {
	bool enabled;
	bool filtered;
	bool triggered;
};

struct extra_events {
	const struct tlat_events *events;
	struct tracefs_instance *inst;
	struct extra_state *state;	/* one per events->list[] */
	const struct tlat_notes *debug;	/* -D's lines; NULL: none */
};

const char **extra_events_systems(const struct tlat_events *events, const char *const *base)
{
	int nr_base = 0, nr = 0;
	const char **systems;

	while (base && base[nr_base])
		nr_base++;
	systems = calloc(nr_base + events->nr + 1, sizeof(*systems));
	if (!systems)
		return NULL;
	for (int i = 0; i < nr_base; i++)
		systems[nr++] = base[i];
	for (int i = 0; i < events->nr; i++) {
		int j = 0;

		while (j < nr && strcmp(systems[j], events->list[i].system))
			j++;
		if (j == nr)
			systems[nr++] = events->list[i].system;
	}
	return systems;
}

static bool event_exists(const struct tlat_event_req *req)
{
	char *path;
	bool found;

	if (req->event)
		return tracefs_event_file_exists(NULL, req->system, req->event, "enable");
	if (asprintf(&path, "events/%s/enable", req->system) < 0)
		return false;
	found = tracefs_file_exists(NULL, path);
	free(path);
	return found;
}

/* the trigger file lists what the kernel has: "# Available triggers:\n# traceon ..." */
static bool trigger_available(struct tracefs_instance *inst, const struct tlat_event_req *req,
			      char *avail, size_t len)
{
	size_t cmd_len = strcspn(req->trigger, ": ");
	char *file = tracefs_event_file_read(inst, req->system, req->event, "trigger", NULL);
	char *list = file ? strstr(file, "# Available triggers:\n# ") : NULL;
	bool found = !list;	/* cannot tell: the kernel will say */

	if (list) {
		list += strlen("# Available triggers:\n# ");
		list[strcspn(list, "\n")] = '\0';
		snprintf(avail, len, "%s", list);
		for (char *tok = strtok(list, " "); tok && !found; tok = strtok(NULL, " "))
			found = strlen(tok) == cmd_len && !strncmp(tok, req->trigger, cmd_len);
	}
	free(file);
	return found;
}

/*
 * What the kernel's error_log says of the last write, or else errno's text.
 * Its entries read "[ts] event filter parse error: error: Invalid value...".
 */
static const char *write_error(struct tracefs_instance *inst, char *buf, size_t len)
{
	int write_errno = errno;
	char *log = tracefs_error_last(inst);
	char *why = NULL;

	if (log) {
		log[strcspn(log, "\n")] = '\0';
		for (char *p = strstr(log, "error: "); p; p = strstr(p + 1, "error: "))
			why = p + strlen("error: ");
	}
	snprintf(buf, len, "%s", why && *why ? why : strerror(write_errno));
	free(log);
	return buf;
}

/* enabled before the -e events are: by the source or the analysis */
static bool already_enabled(struct tracefs_instance *inst, const struct tlat_event_req *req)
{
	return tracefs_event_is_enabled(inst, req->system, req->event) != TRACEFS_ALL_DISABLED;
}

/* every check before the first change: a refused -e changes nothing */
static int extra_events_check(const struct tlat_events *events, struct tracefs_instance *inst,
			      char *err)
{
	char avail[128] = "";

	for (int i = 0; i < events->nr; i++) {
		const struct tlat_event_req *req = &events->list[i];

		if (!event_exists(req)) {
			tlat_err(err, "unknown event %s%s%.100s", req->system,
				 req->event ? ":" : "", req->event ?: "");
			return -ENOENT;
		}
		/* the source or the analysis reads it, and a filter would starve them */
		if (req->filter && already_enabled(inst, req)) {
			tlat_err(err, "--filter on %s:%s: tlat reads that event itself and needs all of it",
				 req->system, req->event);
			return -EBUSY;
		}
		if (req->trigger && !trigger_available(inst, req, avail, sizeof(avail))) {
			tlat_err(err, "--trigger '%.40s': this kernel has no %.*s trigger (it has: %s)",
				 req->trigger, (int)strcspn(req->trigger, ": "), req->trigger, avail);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* --filter and --trigger go to the event's file of the same name */
static int extra_event_write(struct extra_events *ev, const struct tlat_event_req *req,
			     const char *file, const char *value, char *err)
{
	char why[128];

	if (tracefs_event_file_write(ev->inst, req->system, req->event, file, value) >= 0)
		return 0;
	tlat_err(err, "invalid --%s '%.60s' for %s:%s: %s", file, value,
		 req->system, req->event, write_error(ev->inst, why, sizeof(why)));
	return -EINVAL;
}

static int extra_event_set(struct extra_events *ev, int i, char *err)
{
	const struct tlat_event_req *req = &ev->events->list[i];
	struct extra_state *st = &ev->state[i];

	tlat_note(ev->debug, TLAT_NOTE_DEBUG, "tlat: enabling event %s%s%s%s%s%s%s",
			  req->system, req->event ? ":" : "", req->event ?: "",
			  req->filter ? " filter " : "", req->filter ?: "",
			  req->trigger ? " trigger " : "", req->trigger ?: "");
	if (tracefs_event_enable(ev->inst, req->system, req->event)) {
		tlat_err(err, "cannot enable event %s%s%.100s: %s", req->system,
			 req->event ? ":" : "", req->event ?: "", strerror(errno));
		return -EIO;
	}
	st->enabled = true;
	tracefs_error_clear(ev->inst);
	if (req->filter) {
		if (extra_event_write(ev, req, "filter", req->filter, err))
			return -EINVAL;
		st->filtered = true;
	}
	if (req->trigger) {
		if (extra_event_write(ev, req, "trigger", req->trigger, err))
			return -EINVAL;
		st->triggered = true;
	}
	return 0;
}

int extra_events_enable(struct extra_events **out, const struct tlat_events *events,
			struct tracefs_instance *inst, const struct tlat_notes *debug, char *err)
{
	struct extra_events *ev;
	int ret;

	*out = NULL;
	if (!events->nr)
		return 0;
	ret = extra_events_check(events, inst, err);
	if (ret)
		return ret;
	ev = calloc(1, sizeof(*ev));
	if (ev)
		ev->state = calloc(events->nr, sizeof(*ev->state));
	if (!ev || !ev->state) {
		free(ev);
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	ev->events = events;
	ev->inst = inst;
	ev->debug = debug;
	*out = ev;
	for (int i = 0; i < events->nr; i++) {
		ret = extra_event_set(ev, i, err);
		if (ret)
			return ret;
	}
	return 0;
}

static int save_hist(struct extra_events *ev, const struct tlat_event_req *req,
		     const struct tlat_notes *notes, char *err)
{
	char *path = NULL, *hist;
	FILE *f = NULL;
	int ret = 0;

	if (asprintf(&path, "%s_%s_hist.txt", req->system, req->event) < 0) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	tlat_note(notes, TLAT_NOTE_OUTPUT, "  Saving event %s:%s hist to %s", req->system,
		  req->event, path);
	hist = tracefs_event_file_read(ev->inst, req->system, req->event, "hist", NULL);
	if (!hist) {
		ret = -errno ?: -EIO;
		tlat_err(err, "cannot read the hist of %s:%s: %s", req->system,
			 req->event, strerror(-ret));
		goto out;
	}
	f = fopen(path, "w");
	if (!f || fputs(hist, f) == EOF || fflush(f) == EOF) {
		ret = -errno ?: -EIO;
		tlat_err(err, "cannot save the hist of %s:%s to %.80s: %s",
			 req->system, req->event, path, strerror(-ret));
	}
	if (f)
		fclose(f);
	free(hist);
out:
	free(path);
	return ret;
}

int extra_events_save_hists(struct extra_events *ev, const struct tlat_notes *notes, char *err)
{
	for (int i = 0; ev && i < ev->events->nr; i++) {
		const struct tlat_event_req *req = &ev->events->list[i];
		int ret;

		if (!ev->state[i].triggered ||
		    strncmp(req->trigger, HIST_PREFIX, strlen(HIST_PREFIX)))
			continue;
		ret = save_hist(ev, req, notes, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* "!<trigger>" removes it; where the kernel does not match the text back, clear them all */
static void remove_trigger(struct extra_events *ev, const struct tlat_event_req *req)
{
	char *cmd;
	int ret = -1;

	if (asprintf(&cmd, "!%s", req->trigger) >= 0) {
		ret = tracefs_event_file_write(ev->inst, req->system, req->event, "trigger", cmd);
		free(cmd);
	}
	if (ret < 0)
		tracefs_event_file_clear(ev->inst, req->system, req->event, "trigger");
}

void extra_events_free(struct extra_events *ev)
{
	if (!ev)
		return;
	for (int i = ev->events->nr - 1; i >= 0; i--) {
		const struct tlat_event_req *req = &ev->events->list[i];
		const struct extra_state *st = &ev->state[i];

		if (st->triggered)
			remove_trigger(ev, req);
		/* "0" clears a filter */
		if (st->filtered)
			tracefs_event_file_write(ev->inst, req->system, req->event, "filter", "0");
		if (st->enabled)
			tracefs_event_disable(ev->inst, req->system, req->event);
	}
	free(ev->state);
	free(ev);
}
