// SPDX-License-Identifier: GPL-2.0
/*
 * collector.c - one pass over everything the instance's buffers hold. The run
 * loop calls it on a timer, never per event: between passes the kernel keeps
 * filling the buffers while tlat sleeps.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/err.h"
#include "trace/buffer_read.h"
#include "trace/collector.h"
#include "trace/collector_percpu.h"
#include "trace/local_events.h"

/* CPUs read per reader thread, with --readers auto */
#define PERCPU_CPUS_PER_READER	8
#define PERCPU_MAX_AUTO		8

static bool has_system(const char **systems, int nr, const char *system)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(systems[i], system))
			return true;
	return false;
}

int collector_init(struct tlat_collector *c, struct tlat_session *session, int nr_cpus,
		   const struct tlat_decoder_ops *dec, const char *const *extra_systems,
		   bool all_systems, char *err)
{
	const char *const *lists[] = { dec->systems, extra_systems };
	const char **systems;
	int nr = 0, max = 1;

	memset(c, 0, sizeof(*c));
	c->inst = session->inst;
	c->nr_cpus = nr_cpus;
	c->dec = dec;
	for (size_t l = 0; l < ARRAY_SIZE(lists); l++)
		for (int i = 0; lists[l] && lists[l][i]; i++)
			max++;
	systems = calloc(max, sizeof(*systems));
	if (!systems) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	for (size_t l = 0; l < ARRAY_SIZE(lists); l++)
		for (int i = 0; lists[l] && lists[l][i]; i++)
			if (!has_system(systems, nr, lists[l][i]))
				systems[nr++] = lists[l][i];
	/* formats are global: the top-level events directory describes them all */
	c->tep = local_events_load(all_systems ? NULL : systems);
	/* a recording holds the formats of these */
	c->systems = systems;
	if (!c->tep) {
		tlat_err(err, "cannot read the event formats: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}

void collector_init_offline(struct tlat_collector *c, struct tep_handle *tep,
			    const struct tlat_decoder_ops *dec)
{
	memset(c, 0, sizeof(*c));
	c->tep = tep;
	c->tep_borrowed = true;
	c->dec = dec;
}

void collector_read_through(struct tlat_collector *c, const struct record_stream *stream)
{
	c->stream = *stream;
}

int collector_observe(struct tlat_collector *c, const struct tlat_record_observer *observer)
{
	struct tlat_record_observer *o = reallocarray(c->observers, c->nr_observers + 1,
						      sizeof(*o));

	if (!o)
		return -ENOMEM;
	o[c->nr_observers++] = *observer;
	c->observers = o;
	return 0;
}

void collector_attach(struct tlat_collector *c, struct tlat_source *src, struct tlat_sink *sink)
{
	c->src = src;
	c->sink = sink;
}

int collector_record(struct tep_event *event, struct tep_record *record, int cpu, void *ctx)
{
	struct tlat_collector *c = ctx;

	if (record->missed_events) {
		decoder_missed(c->dec, c->src, record, cpu, &c->counts);
		for (int i = 0; i < c->nr_observers; i++)
			if (c->observers[i].lost)
				c->observers[i].lost(c->observers[i].priv, cpu);
	}
	c->counts.processed++;
	c->dec->record(c->src, event, record, c->sink);
	for (int i = 0; i < c->nr_observers; i++)
		c->observers[i].record(c->observers[i].priv, event, record);
	return 0;
}

/* opened at the first pass: the source has set its tracer by then */
static int collector_reader(struct tlat_collector *c, char *err)
{
	if (c->reader)
		return 0;
	return buffer_reader_open(&c->reader, c->inst, c->tep, c->nr_cpus, NULL, NULL, err);
}

static bool percpu_measured(const struct tlat_collector *c, int cpu)
{
	return !c->measured || cpuset_has(c->measured, cpu);
}

static int percpu_nr_measured(const struct tlat_collector *c)
{
	int measured = 0;

	for (int cpu = 0; cpu < c->nr_cpus; cpu++)
		measured += percpu_measured(c, cpu);
	return measured;
}

static const char *percpu_why_not(const struct tlat_collector *c)
{
	if (c->readers < 0)
		return "--readers merged";
	if (c->stream.drain)
		return "the recorder writes the records in time order";
	if (c->nr_observers)
		return "the auto-analysis or the saved trace reads across CPUs";
	if (!c->dec->per_cpu_order)
		return "the source pairs events across CPUs";
	if (!c->sink || !c->sink->first_stop || !c->sink->cpu_order)
		return "the samples go on in time order";
	/*
	 * Below 8 CPUs one merged read keeps up many times over (11 M
	 * records a second on one core): auto keeps the read every other
	 * tool reads in, and time order in the sample log
	 */
	if (!c->readers && percpu_nr_measured(c) < PERCPU_CPUS_PER_READER)
		return "auto reads per CPU from 8 measured CPUs";
	return NULL;
}

/* auto: one per 8 measured CPUs, up to 8 */
static int percpu_nr_readers(const struct tlat_collector *c)
{
	int n = c->readers, measured = percpu_nr_measured(c);

	if (n <= 0)
		n = measured < PERCPU_CPUS_PER_READER ? 1 :
		    (measured + PERCPU_CPUS_PER_READER - 1) / PERCPU_CPUS_PER_READER;
	if (!c->readers && n > PERCPU_MAX_AUTO)
		n = PERCPU_MAX_AUTO;
	return n > c->nr_cpus ? c->nr_cpus : n;
}

int collector_choose_read(struct tlat_collector *c)
{
	struct collector_percpu_cfg cfg = {
		.nr_cpus = c->nr_cpus,
		.measured = c->measured,
		.dec = c->dec,
		.src = c->src,
		.streams = c->streams,
		.streams_ctx = c->streams_ctx,
	};

	c->mode_chosen = true;
	c->merged_why = percpu_why_not(c);
	if (c->merged_why || c->nr_cpus <= 0)
		return 0;
	cfg.nr_readers = percpu_nr_readers(c);
	c->percpu_readers = cfg.nr_readers;
	if (!cfg.streams) {
		buffer_reader_percpu(&cfg.streams);
		cfg.streams_ctx = c->reader;
	}
	return collector_percpu_new(&c->percpu, &cfg);
}

int collector_drain(struct tlat_collector *c, u64 until_ns, char *err)
{
	int ret;

	if (c->stream.drain) {
		ret = c->stream.drain(c->stream.priv, until_ns, collector_record, c);
		if (ret < 0)
			tlat_err(err, "cannot record the trace buffers: %s", strerror(-ret));
		return ret;
	}
	ret = collector_reader(c, err);
	if (ret)
		return ret;
	if (!c->mode_chosen && collector_choose_read(c)) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	if (c->percpu) {
		ret = collector_percpu_drain(c->percpu, until_ns, c->sink, &c->counts);
		if (ret < 0)
			tlat_err(err, "out of memory");
		return ret;
	}
	return buffer_reader_drain(c->reader, until_ns, collector_record, c);
}

static int collector_record_stopped(struct tep_event *event, struct tep_record *record, int cpu,
				    void *ctx)
{
	struct tlat_collector *c = ctx;

	(void)event;
	for (int i = 0; record->missed_events && i < c->nr_observers; i++) {
		const struct tlat_record_observer *o = &c->observers[i];

		if (o->overwritten)
			o->overwritten(o->priv, cpu, record->ts);
		else if (o->lost)
			o->lost(o->priv, cpu);
	}
	c->decoded++;
	/* the samples first, as collector_record(): the analysis pairs them with what follows */
	if (c->stopped_sink)
		c->dec->record(c->src, event, record, c->stopped_sink);
	for (int i = 0; i < c->nr_observers; i++)
		c->observers[i].record(c->observers[i].priv, event, record);
	return 0;
}

int collector_decode_stopped(struct tlat_collector *c, char *err)
{
	int ret;

	ret = collector_reader(c, err);
	if (ret)
		return ret;
	ret = buffer_reader_drain(c->reader, 0, collector_record_stopped, c);
	if (ret < 0)
		tlat_err(err, "cannot read the trace buffers: %s", strerror(-ret));
	return ret < 0 ? ret : 0;
}

const char *collector_read_mode(const struct tlat_collector *c, char *buf, size_t len)
{
	int n = c->percpu_readers;

	if (c->percpu) {
		snprintf(buf, len, "per-CPU, %d reader%s", n, n == 1 ? "" : "s");
	} else {
		snprintf(buf, len, "merged, because %s",
			 c->merged_why ?: percpu_why_not(c) ?: "not chosen yet");
	}
	return buf;
}

void collector_free(struct tlat_collector *c)
{
	collector_percpu_free(c->percpu);
	c->percpu = NULL;
	buffer_reader_free(c->reader);
	c->reader = NULL;
	free(c->observers);
	c->observers = NULL;
	free(c->systems);
	c->systems = NULL;
	c->nr_observers = 0;
	if (!c->tep_borrowed)
		tep_free(c->tep);
	c->tep = NULL;
}
