/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aa_adapter.h - turns the events of tlat's instance into what the
 * auto-analysis engine reads: interference intervals and context switches.
 * Each source names the adapter whose events its kernel side provides; the
 * engine never knows which one ran.
 */
#ifndef TLAT_ANALYSIS_AA_ADAPTER_H
#define TLAT_ANALYSIS_AA_ADAPTER_H

#include <event-parse.h>
#include <tracefs.h>

#include "analysis/aa.h"

struct aa_adapter;

struct aa_adapter_ops {
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

/**
 * aa_switch_event_init - find sched_switch's fields, for aa_switch_add()
 * @se: filled in
 * @event: the sched_switch event of the tep
 *
 * Shared by the adapters. Returns 0, or -ENOENT if a field is missing.
 */
int aa_switch_event_init(struct aa_switch_event *se, struct tep_event *event);
/**
 * aa_switch_add - give a sched_switch record to the engine
 * @se: the event's fields, from aa_switch_event_init()
 * @aa: the engine
 * @record: a record of that event
 */
void aa_switch_add(const struct aa_switch_event *se, struct aa_engine *aa,
		   const struct tep_record *record);
/**
 * aa_softirq_name - a softirq vector's name, as the kernel's __print_symbolic() prints it
 * @vec: the vector
 *
 * Returns a static string, "UNKNOWN" past the last vector.
 */
const char *aa_softirq_name(unsigned long long vec);

/**
 * aa_copy_name - copy an event's string into an AA_NAME_LEN buffer
 * @dst: AA_NAME_LEN bytes, NUL-terminated on return
 * @src: the field's bytes, which need not be NUL-terminated within it
 * @len: the field's length
 *
 * A longer name is cut to AA_NAME_LEN - 1 characters.
 */
void aa_copy_name(char *dst, const void *src, size_t len);
/**
 * aa_field_number - a number field's value in @record
 * @field: the field, or NULL where the event has none: 0
 * @record: a record of the field's event
 */
u64 aa_field_number(struct tep_format_field *field, const struct tep_record *record);
/**
 * aa_field_name - copy a string field of @record into @dst, AA_NAME_LEN bytes
 * @dst: where, NUL-terminated; "" if @event has no field @name
 * @event: the record's event
 * @name: the field's name
 * @record: the record
 */
void aa_field_name(char *dst, struct tep_event *event, const char *name,
		   struct tep_record *record);

#endif
