/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collector.h - drains tlat's instance: reads the per-CPU raw buffers
 * (through the recorder with tlat record), decodes them with
 * libtraceevent, hands each record to the source (and to observers: the
 * auto-analysis adapter, the trace store) and counts processed and missed
 * events. tlat report feeds it a recording's records instead.
 */
#ifndef TLAT_COLLECTOR_H
#define TLAT_COLLECTOR_H

#include "recorder.h"
#include "source.h"

#define COLLECTOR_MAX_OBSERVERS	2

/* sees every record after the source did */
struct tlat_record_observer {
	void (*record)(void *priv, struct tep_event *event, struct tep_record *record);
	void (*lost)(void *priv, int cpu);	/* NULL if it keeps no state */
	void *priv;
};

struct tlat_collector {
	struct tep_handle *tep;
	struct tracefs_instance *inst;
	const struct tlat_source_ops *ops;
	struct tlat_source *src;
	struct tlat_sink *sink;
	struct tlat_record_observer observers[COLLECTOR_MAX_OBSERVERS];
	int nr_observers;
	struct recorder *recorder;	/* tlat record: the buffers are read through it */
	bool tep_borrowed;		/* a recording's: freed with the recording */
	u64 processed;
	u64 missed;
	bool missed_unknown;
};

/*
 * extra_systems: more event systems to decode for observers, or NULL;
 * all_systems: every event, as a recording holds them all
 */
int collector_init(struct tlat_collector *c, struct tlat_session *session,
		   const struct tlat_source_ops *ops, const char *const *extra_systems,
		   bool all_systems, char *err);
/* tlat report: no instance, the records come from a recording with its tep */
void collector_init_offline(struct tlat_collector *c, struct tep_handle *tep,
			    const struct tlat_source_ops *ops);
/* from now on, read the buffers through a recorder, which writes them to path */
int collector_record_to(struct tlat_collector *c, const char *path, int nr_cpus, char *err);
void collector_observe(struct tlat_collector *c, const struct tlat_record_observer *observer);
void collector_attach(struct tlat_collector *c, struct tlat_source *src, struct tlat_sink *sink);
int collector_drain(struct tlat_collector *c);
/* one record, from a drain or from a recording */
int collector_record(struct tep_event *event, struct tep_record *record, int cpu, void *c);
void collector_free(struct tlat_collector *c);

#endif
