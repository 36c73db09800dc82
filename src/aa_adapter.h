/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aa_adapter.h - turns the events of tlat's instance into what the
 * auto-analysis engine reads: interference intervals and context switches.
 * Each source names the adapter whose events its kernel side provides; the
 * engine never knows which one ran.
 */
#ifndef TLAT_AA_ADAPTER_H
#define TLAT_AA_ADAPTER_H

#include <event-parse.h>
#include <tracefs.h>

#include "aa.h"

struct aa_adapter;

struct aa_adapter_ops {
	const char *name;
	/* event systems it decodes, NULL-terminated, for tep loading */
	const char *const *systems;
	/* thread interference comes as switches (see struct aa_config) */
	bool threads_from_switches;
	/* find its events in the tep; with_switches for --dump-tasks */
	int (*open)(struct aa_adapter **ad, struct tep_handle *tep, struct aa_engine *aa,
		    bool with_switches, char *err);
	/* enable them in the instance (apart from open, so tests can skip it) */
	int (*enable)(struct aa_adapter *ad, struct tracefs_instance *inst, char *err);
	void (*record)(struct aa_adapter *ad, struct tep_event *event, struct tep_record *record);
	void (*lost)(struct aa_adapter *ad, int cpu);
	void (*close)(struct aa_adapter *ad);
};

/* the kernel's osnoise:* noise events, already net, for the timerlat tracer */
extern const struct aa_adapter_ops aa_osnoise_ops;
/* stock irq, softirq, NMI and sched events, for every other source */
extern const struct aa_adapter_ops aa_stock_ops;

/* sched:sched_switch, as both adapters read it */
struct aa_switch_event {
	int id;
	struct tep_format_field *prev_pid, *prev_comm, *next_pid, *next_comm;
};

/* shared by the adapters */
int aa_switch_event_init(struct aa_switch_event *se, struct tep_event *event);
void aa_switch_decode(const struct aa_switch_event *se, const struct tep_record *record,
		      struct aa_switch *sw);
const char *aa_softirq_name(unsigned long long vec);
void aa_copy_name(char *dst, const void *src, size_t len);

#endif
