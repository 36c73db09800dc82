/* SPDX-License-Identifier: GPL-2.0 */
/*
 * extra_events.h - the user's -e events, with their --filter and --trigger,
 * enabled in tlat's one instance: they land in the buffer the collector
 * reads, so the trace -t saves shows them; sources skip what they do not
 * decode. A hist: trigger's histogram is saved to a file at the end.
 */
#ifndef TLAT_EXTRA_EVENTS_H
#define TLAT_EXTRA_EVENTS_H

#include <stdio.h>
#include <tracefs.h>

#include "params.h"

struct extra_events;

/*
 * base plus the systems of the -e events, each once, NULL-terminated, for
 * collector_init(); the strings stay the callers'. Free the array with free().
 */
const char **extra_events_systems(const struct tlat_params *params, const char *const *base);
/*
 * Check that every -e event exists, then enable each with its filter and
 * trigger. *ev is set even on failure: extra_events_free() undoes what was
 * done. With no -e, *ev is NULL and nothing happens.
 */
int extra_events_enable(struct extra_events **ev, const struct tlat_params *params,
			struct tracefs_instance *inst, char *err);
/* save each hist: trigger's histogram to <sys>_<event>_hist.txt, as rtla */
int extra_events_save_hists(struct extra_events *ev, FILE *out, char *err);
/* remove the triggers and filters, disable the events, free; NULL is fine */
void extra_events_free(struct extra_events *ev);

#endif
