/* SPDX-License-Identifier: GPL-2.0 */
/*
 * extra_events.h - the user's -e events, with their --filter and --trigger,
 * enabled in tlat's one instance: they land in the buffer the collector
 * reads, so the trace -t saves shows them; sources skip what they do not
 * decode. A hist: trigger's histogram is saved to a file at the end.
 */
#ifndef TLAT_TRACE_EXTRA_EVENTS_H
#define TLAT_TRACE_EXTRA_EVENTS_H

#include <stdio.h>
#include <tracefs.h>

#include "core/notes.h"
#include "core/notes.h"
#include "core/params.h"

struct extra_events;

/**
 * extra_events_systems - the systems to decode: base plus those of the -e events
 * @events: the -e events
 * @base: the systems decoded anyway, NULL-terminated
 *
 * Each once, for collector_init(); the strings stay the callers'.
 *
 * Returns a NULL-terminated array, which the caller free()s, or NULL out of
 * memory.
 */
const char **extra_events_systems(const struct tlat_events *events, const char *const *base);
/**
 * extra_events_enable - enable the -e events with their filters and triggers
 * @ev: set even on failure, so that extra_events_free() undoes what was
 *	done; NULL with no -e, and nothing happens
 * @events: the -e events, with their --filter and --trigger; must outlive @ev
 * @inst: the instance they are enabled in
 * @debug: where -D's lines of what is enabled go; NULL: nowhere
 * @err: the error line, on failure
 *
 * Every event is checked to exist before any is enabled.
 *
 * Returns 0, or -errno with @err set.
 */
int extra_events_enable(struct extra_events **ev, const struct tlat_events *events,
			struct tracefs_instance *inst, const struct tlat_notes *debug, char *err);
/**
 * extra_events_save_hists - save each hist: trigger's histogram
 * @ev: the -e events, or NULL
 * @notes: where rtla's line ("  Saving event ...") goes, as an output note
 * @err: the error line, on failure
 *
 * To <sys>_<event>_hist.txt in the current directory.
 *
 * Returns 0, or -errno with @err set.
 */
int extra_events_save_hists(struct extra_events *ev, const struct tlat_notes *notes, char *err);
/**
 * extra_events_free - remove the triggers and filters, disable the events, free
 * @ev: from extra_events_enable(), or NULL
 */
void extra_events_free(struct extra_events *ev);

#endif
