// SPDX-License-Identifier: GPL-2.0
/*
 * collector.c - one pass over everything the instance's buffers hold. The run
 * loop calls it on a timer, never per event: between passes the kernel keeps
 * filling the buffers while tlat sleeps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/err.h"
#include "trace/buffer_read.h"
#include "trace/collector.h"
#include "trace/local_events.h"

static bool has_system(const char **systems, int nr, const char *system)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(systems[i], system))
			return true;
	return false;
}

int collector_init(struct tlat_collector *c, struct tlat_session *session, int nr_cpus,
		   const struct tlat_source_ops *ops, const char *const *extra_systems,
		   bool all_systems, char *err)
{
	const char *const *lists[] = { ops->systems, extra_systems };
	const char **systems;
	int nr = 0, max = 1;

	memset(c, 0, sizeof(*c));
	c->inst = session->inst;
	c->nr_cpus = nr_cpus;
	c->ops = ops;
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
			    const struct tlat_source_ops *ops)
{
	memset(c, 0, sizeof(*c));
	c->tep = tep;
	c->tep_borrowed = true;
	c->ops = ops;
}

int collector_record_to(struct tlat_collector *c, const char *path, char *err)
{
	return dat_writer_open(&c->recorder, c->inst, c->tep, c->systems, c->nr_cpus, path, err);
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
		collector_missed(c, record, cpu, &c->missed, &c->missed_unknown);
		for (int i = 0; i < c->nr_observers; i++)
			if (c->observers[i].lost)
				c->observers[i].lost(c->observers[i].priv, cpu);
	}
	c->processed++;
	c->ops->record(c->src, event, record, c->sink);
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

int collector_drain(struct tlat_collector *c, u64 until_ns, char *err)
{
	int ret;

	/* no event of the samples' in the buffers: nothing there to read */
	if (c->src && c->ops->drain) {
		ret = c->ops->drain(c->src, c->sink, &c->processed, &c->missed, err);
		if (ret <= 0)
			return ret;
	}
	if (c->recorder) {
		ret = dat_writer_drain(c->recorder, until_ns, collector_record, c);
		if (ret < 0)
			tlat_err(err, "cannot record the trace buffers: %s", strerror(-ret));
		return ret;
	}
	ret = collector_reader(c, err);
	if (ret)
		return ret;
	if (!c->mode_chosen && collector_percpu_choose(c)) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	if (c->percpu) {
		ret = collector_percpu_drain(c, until_ns);
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
	if (c->ops->deferred_records && c->stopped_sink)
		c->ops->record(c->src, event, record, c->stopped_sink);
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

void collector_free(struct tlat_collector *c)
{
	collector_percpu_free(c);
	buffer_reader_free(c->reader);
	c->reader = NULL;
	dat_writer_free(c->recorder);
	c->recorder = NULL;
	free(c->observers);
	c->observers = NULL;
	free(c->systems);
	c->systems = NULL;
	c->nr_observers = 0;
	if (!c->tep_borrowed)
		tep_free(c->tep);
	c->tep = NULL;
}
