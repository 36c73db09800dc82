// SPDX-License-Identifier: GPL-2.0
/*
 * aa_osnoise.c - the auto-analysis adapter for the kernel's timerlat tracer:
 * its osnoise:* noise events already carry net durations measured by the
 * kernel, which is what rtla's auto-analysis reads too.
 *
 * Their start field is in trace_clock_local, while tlat's instance runs on
 * the mono clock. Each noise event is written as its noise ends, so its
 * record time is the end on tlat's clock and the start is that minus the
 * duration, and minus the noise of higher classes that nested in it (their
 * events came first); the kernel's own start stamp is not used.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aa_adapter.h"
#include "cli.h"

enum osn_kind { OSN_IRQ, OSN_SOFTIRQ, OSN_NMI, OSN_THREAD, OSN_SWITCH, OSN_NR };

static const char *const osn_names[OSN_NR] = {
	[OSN_IRQ] = "irq_noise",
	[OSN_SOFTIRQ] = "softirq_noise",
	[OSN_NMI] = "nmi_noise",
	[OSN_THREAD] = "thread_noise",
	[OSN_SWITCH] = "sched_switch",
};

#define OSN_RECENT	16	/* noise events remembered per CPU, for nesting */

/* a noise that ended: it may have nested in the next, lower-class one */
struct osn_recent {
	u64 end;
	u64 duration;
	enum aa_class cls;
};

struct osn_cpu {
	struct osn_recent recent[OSN_RECENT];
	int next;
};

struct aa_adapter {
	struct aa_engine *aa;
	int nr_cpus;
	struct osn_cpu *cpus;
	int id[OSN_NR];			/* -1: not enabled */
	struct tep_format_field *duration[OSN_NR];
	struct tep_format_field *vector[OSN_NR];
	struct tep_format_field *pid, *comm;
	struct aa_switch_event sw;
};

static const char *const osn_systems[] = { "osnoise", "sched", NULL };

static int osn_open(struct aa_adapter **out, struct tep_handle *tep, struct aa_engine *aa,
		    bool with_switches, char *err)
{
	struct aa_adapter *ad = calloc(1, sizeof(*ad));
	struct tep_event *ev;

	if (!ad)
		return -ENOMEM;
	*out = ad;
	ad->aa = aa;
	for (int k = 0; k < OSN_NR; k++) {
		const char *system = k == OSN_SWITCH ? "sched" : "osnoise";

		ad->id[k] = -1;
		if (k == OSN_SWITCH && !with_switches)
			continue;
		ev = tep_find_event_by_name(tep, system, osn_names[k]);
		if (!ev) {
			snprintf(err, TLAT_ERR_LEN, "there is no %s:%s event", system,
				 osn_names[k]);
			return -ENOENT;
		}
		ad->id[k] = ev->id;
		if (k == OSN_SWITCH) {
			if (aa_switch_event_init(&ad->sw, ev)) {
				snprintf(err, TLAT_ERR_LEN, "unexpected sched_switch format");
				return -ENOENT;
			}
		} else {
			ad->duration[k] = tep_find_field(ev, "duration");
			ad->vector[k] = tep_find_field(ev, "vector");
		}
		if (k == OSN_THREAD) {
			ad->pid = tep_find_field(ev, "pid");
			ad->comm = tep_find_field(ev, "comm");
		}
	}
	if (!ad->pid || !ad->comm) {
		snprintf(err, TLAT_ERR_LEN, "unexpected osnoise:thread_noise format");
		return -ENOENT;
	}
	return 0;
}

static int osn_enable(struct aa_adapter *ad, struct tracefs_instance *inst, char *err)
{
	for (int k = 0; k < OSN_NR; k++) {
		const char *system = k == OSN_SWITCH ? "sched" : "osnoise";

		if (ad->id[k] >= 0 && tracefs_event_enable(inst, system, osn_names[k])) {
			snprintf(err, TLAT_ERR_LEN, "cannot enable %s:%s: %s", system,
				 osn_names[k], strerror(errno));
			return -EIO;
		}
	}
	return 0;
}

static u64 osn_number(struct tep_format_field *field, struct tep_record *record)
{
	unsigned long long val = 0;

	if (field)
		tep_read_number_field(field, record->data, &val);
	return val;
}

static void osn_switch(struct aa_adapter *ad, struct tep_record *record)
{
	struct aa_switch sw;

	aa_switch_decode(&ad->sw, record, &sw);
	aa_add_switch(ad->aa, &sw);
}

/* NMI nests in IRQ nests in softirq nests in thread: lower enum, higher class */
static u64 osn_start(struct aa_adapter *ad, int cpu, enum aa_class cls, u64 end, u64 net)
{
	struct osn_cpu *oc;
	u64 start = end > net ? end - net : 0;
	bool moved = true;
	unsigned int used = 0;

	if (cpu < 0)
		return start;
	if (cpu >= ad->nr_cpus) {
		struct osn_cpu *cpus = realloc(ad->cpus, (cpu + 1) * sizeof(*cpus));

		if (!cpus)
			return start;
		memset(cpus + ad->nr_cpus, 0, (cpu + 1 - ad->nr_cpus) * sizeof(*cpus));
		ad->cpus = cpus;
		ad->nr_cpus = cpu + 1;
	}
	oc = &ad->cpus[cpu];
	/* a nested noise ended inside this one: this one began that much earlier */
	while (moved) {
		moved = false;
		for (int i = 0; i < OSN_RECENT; i++) {
			struct osn_recent *r = &oc->recent[i];

			if (!(used & (1u << i)) && r->cls < cls && r->duration &&
			    r->end > start && r->end <= end) {
				used |= 1u << i;
				start = start > r->duration ? start - r->duration : 0;
				moved = true;
			}
		}
	}
	oc->recent[oc->next] = (struct osn_recent){ end, net, cls };
	oc->next = (oc->next + 1) % OSN_RECENT;
	return start;
}

static void osn_record(struct aa_adapter *ad, struct tep_event *event, struct tep_record *record)
{
	static const enum aa_class cls[OSN_NR] = {
		[OSN_IRQ] = AA_IRQ, [OSN_SOFTIRQ] = AA_SOFTIRQ,
		[OSN_NMI] = AA_NMI, [OSN_THREAD] = AA_THREAD,
	};
	struct aa_interval iv = { .cpu = record->cpu, .end_ns = record->ts };
	const char *desc;
	int k, len;

	for (k = 0; k < OSN_NR; k++)
		if (ad->id[k] == event->id)
			break;
	if (k == OSN_NR)
		return;
	if (k == OSN_SWITCH) {
		osn_switch(ad, record);
		return;
	}
	iv.cls = cls[k];
	iv.net_ns = osn_number(ad->duration[k], record);
	iv.start_ns = osn_start(ad, record->cpu, iv.cls, record->ts, iv.net_ns);
	switch (k) {
	case OSN_IRQ:
		iv.id = (int)osn_number(ad->vector[k], record);
		desc = tep_get_field_raw(NULL, event, "desc", record, &len, 0);
		aa_copy_name(iv.name, desc ? desc : "", desc ? len : 1);
		break;
	case OSN_SOFTIRQ:
		iv.id = (int)osn_number(ad->vector[k], record);
		aa_copy_name(iv.name, aa_softirq_name(iv.id), AA_NAME_LEN);
		break;
	case OSN_THREAD:
		iv.id = (int)osn_number(ad->pid, record);
		aa_copy_name(iv.name, (char *)record->data + ad->comm->offset, ad->comm->size);
		break;
	default:
		break;
	}
	aa_add_interval(ad->aa, &iv);
}

static void osn_close(struct aa_adapter *ad)
{
	if (ad)
		free(ad->cpus);
	free(ad);
}

const struct aa_adapter_ops aa_osnoise_ops = {
	.name = "osnoise",
	.systems = osn_systems,
	.threads_from_switches = false,
	.open = osn_open,
	.enable = osn_enable,
	.record = osn_record,
	/* every noise event stands alone: no lost() to resynchronise */
	.close = osn_close,
};
