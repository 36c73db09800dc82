// SPDX-License-Identifier: GPL-2.0
/*
 * aa_osnoise.c - the auto-analysis adapter for the kernel's timerlat tracer:
 * its osnoise:* noise events already carry net durations measured by the
 * kernel, which is what rtla's auto-analysis reads too.
 *
 * Their start field is the kernel's own stamp of when the noise began, on
 * the CPU's trace_clock_local, and rtla finds the timer IRQ by it. tlat's
 * instance runs on the mono clock: each noise event is written as its noise
 * ends, so its record time is at least its start plus its net duration on
 * the instance's clock, equal where nothing nested in it. The smallest
 * such difference over a CPU's recent events is the offset from its local
 * clock to the instance's (0 where the instance itself runs on local).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aa_adapter.h"
#include "core/err.h"
#include "util/percpu.h"

enum osn_kind { OSN_IRQ, OSN_SOFTIRQ, OSN_NMI, OSN_THREAD, OSN_SWITCH, OSN_NR };

static const char *const osn_names[OSN_NR] = {
	[OSN_IRQ] = "irq_noise",
	[OSN_SOFTIRQ] = "softirq_noise",
	[OSN_NMI] = "nmi_noise",
	[OSN_THREAD] = "thread_noise",
	[OSN_SWITCH] = "sched_switch",
};

/*
 * The offset of a CPU's local clock is the smallest (record time - start -
 * net duration) over its recent noise events: those of the last
 * OSN_SPAN_NS, at most OSN_RECENT, and the newest before them. Short,
 * because the clocks can drift apart (over the span, a drift of 1000 ppm
 * is 5 us); long enough to hold an event with nothing nested in it and
 * written on time.
 */
#define OSN_RECENT	32
#define OSN_SPAN_NS	5000000ULL

struct osn_offset {
	u64 ts;
	long long offset;
};

struct osn_cpu {
	struct osn_offset recent[OSN_RECENT];
	int next;
	int nr;
	/* an IRQ sample was written and no irq_noise since: the next is its IRQ's */
	bool await_timer;
	u64 irq_sample_ts;
};

struct aa_adapter {
	struct aa_engine *aa;
	struct percpu cpus;		/* struct osn_cpu */
	int id[OSN_NR];			/* -1: not enabled */
	struct tep_format_field *start[OSN_NR];
	struct tep_format_field *duration[OSN_NR];
	struct tep_format_field *vector[OSN_NR];
	struct tep_format_field *pid, *comm;
	struct aa_switch_event sw;
	/* ftrace:timerlat, where the tep has it: -1 and NULL if not */
	int sample_id;
	struct tep_format_field *context;
};

static const char *const osn_systems[] = { "osnoise", "sched", NULL };

static const char *osn_system(int k)
{
	return k == OSN_SWITCH ? "sched" : "osnoise";
}

static int osn_open(struct aa_adapter **out, struct tep_handle *tep, struct aa_engine *aa,
		    bool with_switches, char *err)
{
	struct aa_adapter *ad = calloc(1, sizeof(*ad));
	struct tep_event *ev;

	if (!ad) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	*out = ad;
	ad->aa = aa;
	if (percpu_init(&ad->cpus, aa_nr_cpus(aa), sizeof(struct osn_cpu))) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	for (int k = 0; k < OSN_NR; k++) {
		const char *system = osn_system(k);

		ad->id[k] = -1;
		if (k == OSN_SWITCH && !with_switches)
			continue;
		ev = tep_find_event_by_name(tep, system, osn_names[k]);
		if (!ev) {
			tlat_err(err, "there is no %s:%s event", system,
				 osn_names[k]);
			return -ENOENT;
		}
		ad->id[k] = ev->id;
		if (k == OSN_SWITCH) {
			if (aa_switch_event_init(&ad->sw, ev)) {
				tlat_err(err, "unexpected sched_switch format");
				return -ENOENT;
			}
		} else {
			ad->start[k] = tep_find_field(ev, "start");
			ad->duration[k] = tep_find_field(ev, "duration");
			ad->vector[k] = tep_find_field(ev, "vector");
		}
		if (k == OSN_THREAD) {
			ad->pid = tep_find_field(ev, "pid");
			ad->comm = tep_find_field(ev, "comm");
		}
	}
	for (int k = 0; k < OSN_NR; k++) {
		if (k != OSN_SWITCH && ad->id[k] >= 0 && (!ad->start[k] || !ad->duration[k])) {
			tlat_err(err, "unexpected osnoise:%s format", osn_names[k]);
			return -ENOENT;
		}
	}
	/* the samples: which irq_noise is the timer's, as rtla tells it */
	ev = tep_find_event_by_name(tep, "ftrace", "timerlat");
	ad->sample_id = ev ? ev->id : -1;
	ad->context = ev ? tep_find_field(ev, "context") : NULL;
	if (!ad->pid || !ad->comm) {
		tlat_err(err, "unexpected osnoise:thread_noise format");
		return -ENOENT;
	}
	return 0;
}

static int osn_enable(struct aa_adapter *ad, struct tracefs_instance *inst, char *err)
{
	for (int k = 0; k < OSN_NR; k++) {
		const char *system = osn_system(k);

		if (ad->id[k] >= 0 && tracefs_event_enable(inst, system, osn_names[k])) {
			tlat_err(err, "cannot enable %s:%s: %s", system,
				 osn_names[k], strerror(errno));
			return -EIO;
		}
	}
	return 0;
}

/* the noise's start on the instance's clock, from its start on the CPU's */
static u64 osn_start(struct aa_adapter *ad, int cpu, u64 ts, u64 local_start, u64 net)
{
	struct osn_cpu *oc = percpu_get(&ad->cpus, cpu);
	long long offset = (long long)(ts - local_start - net);
	u64 start;

	if (!oc)	/* a CPU the engine does not analyse, or out of memory */
		return ts > net ? ts - net : 0;
	/* newest first: the one before this event counts whatever its age */
	for (int i = 1; i <= oc->nr; i++) {
		const struct osn_offset *r = &oc->recent[(oc->next + OSN_RECENT - i) % OSN_RECENT];

		if (i > 1 && r->ts + OSN_SPAN_NS < ts)
			break;
		if (r->offset < offset)
			offset = r->offset;
	}
	oc->recent[oc->next] = (struct osn_offset){ ts, (long long)(ts - local_start - net) };
	oc->next = (oc->next + 1) % OSN_RECENT;
	if (oc->nr < OSN_RECENT)
		oc->nr++;
	start = local_start + (u64)offset;
	/* never after the record that ends it */
	return start > ts ? ts : start;
}

/*
 * The kernel writes the IRQ sample inside the timer IRQ, and that IRQ's
 * irq_noise as it ends: the first irq_noise after the sample on its CPU is
 * the timer's (rtla's rule), whatever the clocks say. Its start is no
 * later than the sample, where the offset, drifting, would put it after.
 */
static void osn_sample(struct aa_adapter *ad, struct tep_record *record)
{
	struct osn_cpu *oc = percpu_get(&ad->cpus, record->cpu);

	if (!oc)
		return;
	oc->await_timer = aa_field_number(ad->context, record) == 0;
	oc->irq_sample_ts = record->ts;
}

static u64 osn_timer_start(struct aa_adapter *ad, int cpu, u64 start)
{
	struct osn_cpu *oc = percpu_get(&ad->cpus, cpu);

	if (!oc || !oc->await_timer)
		return start;
	oc->await_timer = false;
	return start > oc->irq_sample_ts ? oc->irq_sample_ts : start;
}

static void osn_record(struct aa_adapter *ad, struct tep_event *event, struct tep_record *record)
{
	static const enum aa_class cls[OSN_NR] = {
		[OSN_IRQ] = AA_IRQ, [OSN_SOFTIRQ] = AA_SOFTIRQ,
		[OSN_NMI] = AA_NMI, [OSN_THREAD] = AA_THREAD,
	};
	struct aa_interval iv = { .cpu = record->cpu, .end_ns = record->ts };
	int k;

	if (event->id == ad->sample_id && ad->context) {
		osn_sample(ad, record);
		return;
	}
	for (k = 0; k < OSN_NR; k++)
		if (ad->id[k] == event->id)
			break;
	if (k == OSN_NR)
		return;
	if (k == OSN_SWITCH) {
		aa_switch_add(&ad->sw, ad->aa, record);
		return;
	}
	iv.cls = cls[k];
	iv.net_ns = aa_field_number(ad->duration[k], record);
	iv.start_ns = osn_start(ad, record->cpu, record->ts,
				aa_field_number(ad->start[k], record), iv.net_ns);
	switch (k) {
	case OSN_IRQ:
		iv.start_ns = osn_timer_start(ad, record->cpu, iv.start_ns);
		iv.id = (int)aa_field_number(ad->vector[k], record);
		aa_field_name(iv.name, event, "desc", record);
		break;
	case OSN_SOFTIRQ:
		iv.id = (int)aa_field_number(ad->vector[k], record);
		aa_copy_name(iv.name, aa_softirq_name(iv.id), AA_NAME_LEN);
		break;
	case OSN_THREAD:
		iv.id = (int)aa_field_number(ad->pid, record);
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
		percpu_free(&ad->cpus);
	free(ad);
}

const struct aa_adapter_ops aa_osnoise_ops = {
	.systems = osn_systems,
	.open = osn_open,
	.enable = osn_enable,
	.record = osn_record,
	/* every noise event stands alone: no lost() to resynchronise */
	.close = osn_close,
};
