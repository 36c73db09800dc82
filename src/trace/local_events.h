/* SPDX-License-Identifier: GPL-2.0 */
/*
 * local_events.h - this machine's event formats in a tep, for a live run.
 */
#ifndef TLAT_TRACE_LOCAL_EVENTS_H
#define TLAT_TRACE_LOCAL_EVENTS_H

#include <event-parse.h>

/**
 * local_events_load - a tep with the formats of this machine's events
 * @systems: the event systems to parse, NULL-terminated; NULL for all
 *
 * What libtracefs's tracefs_local_events_system() gives (the page header,
 * the systems' formats, the printk formats, the saved comms), without the
 * kernel's symbols: the caller loads those where it prints them
 * (ksyms_load(), once per tep). An event whose format libtraceevent cannot
 * parse is left out, as libtracefs leaves it.
 *
 * Returns the tep, for tep_free(); or NULL with errno set.
 */
struct tep_handle *local_events_load(const char *const *systems);

#endif
