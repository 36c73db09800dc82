/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collector.h - drains tlat's instance: reads the per-CPU raw buffers,
 * decodes them with libtraceevent, hands each record to the source and
 * counts processed and missed events.
 */
#ifndef TLAT_COLLECTOR_H
#define TLAT_COLLECTOR_H

#include "source.h"

struct tlat_collector {
	struct tep_handle *tep;
	struct tracefs_instance *inst;
	const struct tlat_source_ops *ops;
	struct tlat_source *src;
	struct tlat_sink *sink;
	u64 processed;
	u64 missed;
	bool missed_unknown;
};

int collector_init(struct tlat_collector *c, struct tlat_session *session,
		   const struct tlat_source_ops *ops, char *err);
void collector_attach(struct tlat_collector *c, struct tlat_source *src, struct tlat_sink *sink);
int collector_drain(struct tlat_collector *c);
void collector_free(struct tlat_collector *c);

#endif
