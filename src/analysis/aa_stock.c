// SPDX-License-Identifier: GPL-2.0
/*
 * aa_stock.c - the auto-analysis adapter for kernels or sources without the
 * osnoise tracer: interference is rebuilt from stock events, the x86 system
 * vectors (irq_vectors:*_entry/_exit), device IRQs (irq:irq_handler_*),
 * softirqs, NMIs (nmi:nmi_handler) and sched_switch.
 *
 * Durations are made net the way osnoise makes them: when an interference
 * ends, its gross time is charged to the one it interrupted, so that each
 * interval counts only its own time and the sum over a nest is the nest's
 * wall time. Nested events written with equal timestamps (older kernels, see
 * the ring-buffer notes) give zero or short durations, never negative ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aa_adapter.h"
#include "core/err.h"
#include "util/percpu.h"

/*
 * task < softirq < IRQ < NMI, with room to spare: deeper means exits were
 * lost, and the nest starts again (see stock_enter()).
 */
#define STOCK_MAX_NEST	8

enum stock_kind {
	STOCK_VECTOR_ENTRY,
	STOCK_VECTOR_EXIT,
	STOCK_IRQ_ENTRY,
	STOCK_IRQ_EXIT,
	STOCK_SOFTIRQ_ENTRY,
	STOCK_SOFTIRQ_EXIT,
	STOCK_NMI,
	STOCK_SWITCH,
};

struct stock_event {
	int id;
	enum stock_kind kind;
	struct tep_format_field *field;		/* vector, irq, vec or delta_ns */
	char name[AA_NAME_LEN];			/* a system vector's name */
	const char *system;			/* the tep's strings */
	const char *event;
};

struct stock_frame {
	enum aa_class cls;
	u64 start;
	u64 nested;		/* gross time of what interrupted it */
	long long id;
	char name[AA_NAME_LEN];
};

struct stock_cpu {
	int depth;
	struct stock_frame frames[STOCK_MAX_NEST];
};

struct aa_adapter {
	struct aa_engine *aa;
	/* as many as the kernel has: an entry and an exit per system vector */
	int nr_events;
	struct stock_event *events;
	/* event id -> its entry, built once: every record of the instance asks */
	struct stock_event **by_id;
	int max_id;
	struct tep_format_field *irq_name;
	struct aa_switch_event sw;
	struct percpu cpus;			/* struct stock_cpu */
};

static const char *const stock_systems[] = { "irq_vectors", "irq", "nmi", "sched", NULL };

static bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls > lx && !strcmp(s + ls - lx, suffix);
}

static int stock_add(struct aa_adapter *ad, struct tep_event *event, enum stock_kind kind,
		     const char *field)
{
	struct stock_event *se;

	se = reallocarray(ad->events, ad->nr_events + 1, sizeof(*se));
	if (!se)
		return -ENOMEM;
	ad->events = se;
	se = &ad->events[ad->nr_events];
	memset(se, 0, sizeof(*se));
	se->id = event->id;
	se->kind = kind;
	se->field = field ? tep_find_field(event, field) : NULL;
	if (field && !se->field)
		return -ENOENT;
	if (kind == STOCK_VECTOR_ENTRY || kind == STOCK_VECTOR_EXIT)
		snprintf(se->name, sizeof(se->name), "%.*s", (int)(strlen(event->name) -
			 (kind == STOCK_VECTOR_ENTRY ? 6 : 5)), event->name);
	se->system = event->system;
	se->event = event->name;
	ad->nr_events++;
	return 0;
}

static int stock_add_named(struct aa_adapter *ad, struct tep_handle *tep, const char *system,
			   const char *name, enum stock_kind kind, const char *field)
{
	struct tep_event *event = tep_find_event_by_name(tep, system, name);

	return event ? stock_add(ad, event, kind, field) : 0;
}

static int stock_open(struct aa_adapter **out, struct tep_handle *tep, struct aa_engine *aa,
		      bool with_switches, char *err)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	struct tep_event *sw = tep_find_event_by_name(tep, "sched", "sched_switch");
	struct tep_event *irq = tep_find_event_by_name(tep, "irq", "irq_handler_entry");
	struct aa_adapter *ad;
	int ret = 0;

	(void)with_switches;	/* the thread analysis needs them anyway */
	ad = calloc(1, sizeof(*ad));
	if (!ad) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	*out = ad;
	ad->aa = aa;
	if (percpu_init(&ad->cpus, aa_nr_cpus(aa), sizeof(struct stock_cpu))) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	if (!sw || !irq || !events) {
		tlat_err(err, "auto-analysis needs the sched_switch and irq events");
		return -ENOENT;
	}
	for (int i = 0; !ret && events[i]; i++) {
		struct tep_event *e = events[i];

		if (strcmp(e->system, "irq_vectors"))
			continue;
		if (ends_with(e->name, "_entry"))
			ret = stock_add(ad, e, STOCK_VECTOR_ENTRY, "vector");
		else if (ends_with(e->name, "_exit"))
			ret = stock_add(ad, e, STOCK_VECTOR_EXIT, "vector");
	}
	if (!ret)
		ret = stock_add_named(ad, tep, "irq", "irq_handler_entry", STOCK_IRQ_ENTRY, "irq");
	if (!ret)
		ret = stock_add_named(ad, tep, "irq", "irq_handler_exit", STOCK_IRQ_EXIT, "irq");
	if (!ret)
		ret = stock_add_named(ad, tep, "irq", "softirq_entry", STOCK_SOFTIRQ_ENTRY, "vec");
	if (!ret)
		ret = stock_add_named(ad, tep, "irq", "softirq_exit", STOCK_SOFTIRQ_EXIT, "vec");
	if (!ret)
		ret = stock_add_named(ad, tep, "nmi", "nmi_handler", STOCK_NMI, "delta_ns");
	if (!ret)
		ret = stock_add(ad, sw, STOCK_SWITCH, NULL);
	if (ret) {
		tlat_err(err, ret == -ENOMEM ? "out of memory" :
			 "unexpected format of an irq or nmi event");
		return ret;
	}
	ad->irq_name = tep_find_field(irq, "name");
	if (!ad->irq_name || aa_switch_event_init(&ad->sw, sw)) {
		tlat_err(err, "unexpected sched_switch or irq_handler_entry format");
		return -ENOENT;
	}
	for (int i = 0; i < ad->nr_events; i++)
		if (ad->events[i].id > ad->max_id)
			ad->max_id = ad->events[i].id;
	ad->by_id = calloc(ad->max_id + 1, sizeof(*ad->by_id));
	if (!ad->by_id) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < ad->nr_events; i++)
		ad->by_id[ad->events[i].id] = &ad->events[i];
	return 0;
}

static int stock_enable(struct aa_adapter *ad, struct tracefs_instance *inst, char *err)
{
	for (int i = 0; i < ad->nr_events; i++) {
		if (tracefs_event_enable(inst, ad->events[i].system, ad->events[i].event))
			goto fail;
	}
	/* every switch counts here, whatever a source filtered for itself */
	if (tracefs_event_file_write(inst, "sched", "sched_switch", "filter", "0") < 0)
		goto fail;
	return 0;
fail:
	tlat_err(err, "cannot enable the auto-analysis events: %s", strerror(errno));
	return -EIO;
}

static void stock_enter(struct stock_cpu *sc, enum aa_class cls, u64 ts, long long id,
			const char *name)
{
	struct stock_frame *f;

	if (sc->depth == STOCK_MAX_NEST) {
		sc->depth = 0;	/* out of sync: start again from here */
		return;
	}
	f = &sc->frames[sc->depth++];
	f->cls = cls;
	f->start = ts;
	f->nested = 0;
	f->id = id;
	aa_copy_name(f->name, name, AA_NAME_LEN);
}

/* charge a finished interference to the one it interrupted */
static void stock_charge_parent(struct stock_cpu *sc, u64 gross)
{
	if (sc->depth)
		sc->frames[sc->depth - 1].nested += gross;
}

static void stock_exit(struct aa_adapter *ad, struct stock_cpu *sc, int cpu, enum aa_class cls,
		       u64 ts)
{
	struct aa_interval iv = { .cls = cls, .cpu = cpu };
	struct stock_frame *f;
	u64 gross;

	if (!sc->depth)
		return;		/* it began before tracing did */
	f = &sc->frames[sc->depth - 1];
	if (f->cls != cls) {
		sc->depth = 0;	/* an entry or exit was lost */
		return;
	}
	sc->depth--;
	gross = ts > f->start ? ts - f->start : 0;
	iv.start_ns = f->start;
	iv.end_ns = f->start + gross;
	iv.net_ns = gross > f->nested ? gross - f->nested : 0;
	iv.id = f->id;
	memcpy(iv.name, f->name, AA_NAME_LEN);
	stock_charge_parent(sc, gross);
	aa_add_interval(ad->aa, &iv);
}

static void stock_nmi(struct aa_adapter *ad, struct stock_cpu *sc, int cpu, u64 ts,
		      long long delta)
{
	struct aa_interval iv = { .cls = AA_NMI, .cpu = cpu, .end_ns = ts };
	u64 gross = delta > 0 ? (u64)delta : 0;

	/* nmi_handler comes at the end, with the handler's own duration */
	iv.start_ns = ts > gross ? ts - gross : 0;
	iv.net_ns = gross;
	stock_charge_parent(sc, gross);
	aa_add_interval(ad->aa, &iv);
}

static void stock_record(struct aa_adapter *ad, struct tep_event *event, struct tep_record *record)
{
	struct stock_event *se = NULL;
	struct stock_cpu *sc;
	char name[AA_NAME_LEN];
	u64 val;

	if (event->id < 0 || event->id > ad->max_id)
		return;
	se = ad->by_id[event->id];
	if (!se)
		return;
	if (se->kind == STOCK_SWITCH) {
		aa_switch_add(&ad->sw, ad->aa, record);
		return;
	}
	/* NULL for a CPU the engine does not analyse, or out of memory */
	sc = percpu_get(&ad->cpus, record->cpu);
	if (!sc)
		return;
	val = aa_field_number(se->field, record);
	switch (se->kind) {
	case STOCK_VECTOR_ENTRY:
		stock_enter(sc, AA_IRQ, record->ts, (int)val, se->name);
		break;
	case STOCK_IRQ_ENTRY:
		aa_field_name(name, event, "name", record);
		stock_enter(sc, AA_IRQ, record->ts, (int)val, name);
		break;
	case STOCK_SOFTIRQ_ENTRY:
		stock_enter(sc, AA_SOFTIRQ, record->ts, val, aa_softirq_name(val));
		break;
	case STOCK_VECTOR_EXIT:
	case STOCK_IRQ_EXIT:
		stock_exit(ad, sc, record->cpu, AA_IRQ, record->ts);
		break;
	case STOCK_SOFTIRQ_EXIT:
		stock_exit(ad, sc, record->cpu, AA_SOFTIRQ, record->ts);
		break;
	case STOCK_NMI:
		stock_nmi(ad, sc, record->cpu, record->ts, (long long)val);
		break;
	case STOCK_SWITCH:
		break;
	}
}

static void stock_lost(struct aa_adapter *ad, int cpu)
{
	/* a CPU never seen has nothing in flight */
	struct stock_cpu *sc = percpu_peek(&ad->cpus, cpu);

	if (sc)
		sc->depth = 0;
}

static void stock_close(struct aa_adapter *ad)
{
	if (!ad)
		return;
	free(ad->by_id);
	free(ad->events);
	percpu_free(&ad->cpus);
	free(ad);
}

const struct aa_adapter_ops aa_stock_ops = {
	.systems = stock_systems,
	.threads_from_switches = true,
	.open = stock_open,
	.enable = stock_enable,
	.record = stock_record,
	.lost = stock_lost,
	.close = stock_close,
};
