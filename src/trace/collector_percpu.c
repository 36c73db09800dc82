// SPDX-License-Identifier: GPL-2.0
/*
 * collector_percpu.c - the collector's pass read per CPU, with no merge in
 * time order across CPUs, where nothing needs one (collector.c decides):
 * the statistics, hist, the JSON documents and the sample log are per CPU,
 * and so are the kernel sources' records. Readers (threads, one per group
 * of CPUs) decode their CPUs' records into per-CPU batches; the main
 * thread then hands each CPU's samples on, up to the time the pass read
 * every CPU to, and, where one crosses a threshold, only those before it
 * on any CPU, as the merged read would: nothing after the offending sample
 * counts. The rest of the batches waits for the next pass.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "trace/collector_percpu.h"
#include "trace/cpu_batch.h"

/* a reader: its CPUs, and what it counted there */
struct percpu_reader {
	struct collector_percpu *p;
	struct percpu_group group;
	struct batch_sink bs;
	u64 until_ns;
	struct record_counts counts;
	int ret;
};

struct collector_percpu {
	struct collector_percpu_cfg cfg;
	int nr_readers;
	struct percpu_reader *readers;
	struct cpu_batch *batches;	/* by CPU */
	struct percpu_state *state;	/* by CPU */
};

static bool percpu_measured(const struct collector_percpu_cfg *cfg, int cpu)
{
	return !cfg->measured || cpuset_has(cfg->measured, cpu);
}

/*
 * The measured CPUs dealt to the readers in turn, then the others (whose
 * buffers stay empty but for the odd event): each reader gets its share of
 * the records.
 */
static int percpu_deal(struct collector_percpu *p)
{
	const struct collector_percpu_cfg *c = &p->cfg;
	int turn = 0;

	for (int i = 0; i < p->nr_readers; i++) {
		p->readers[i].group.cpus = calloc(c->nr_cpus, sizeof(int));
		if (!p->readers[i].group.cpus)
			return -ENOMEM;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
			struct percpu_group *g = &p->readers[turn].group;

			if (percpu_measured(c, cpu) != !pass)
				continue;
			g->cpus[g->nr++] = cpu;
			turn = (turn + 1) % p->nr_readers;
		}
	}
	return 0;
}

int collector_percpu_new(struct collector_percpu **out, const struct collector_percpu_cfg *cfg)
{
	struct collector_percpu *p = calloc(1, sizeof(*p));
	int n = cfg->nr_readers;

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->cfg = *cfg;
	p->nr_readers = n;
	p->readers = calloc(n, sizeof(*p->readers));
	p->batches = calloc(cfg->nr_cpus, sizeof(*p->batches));
	p->state = calloc(cfg->nr_cpus, sizeof(*p->state));
	if (!p->readers || !p->batches || !p->state || percpu_deal(p)) {
		collector_percpu_free(p);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		p->readers[i].p = p;
		batch_sink_init(&p->readers[i].bs, p->batches, cfg->nr_cpus);
	}
	*out = p;
	return 0;
}

/* collector_record()'s counting, into the reader's own counters */
static int percpu_record(struct tep_event *event, struct tep_record *record, int cpu, void *ctx)
{
	struct percpu_reader *r = ctx;
	const struct collector_percpu_cfg *c = &r->p->cfg;

	if (record->missed_events)
		decoder_missed(c->dec, c->src, record, cpu, &r->counts);
	r->counts.processed++;
	c->dec->record(c->src, event, record, &r->bs.sink);
	return 0;
}

static void *percpu_read(void *arg)
{
	struct percpu_reader *r = arg;
	const struct collector_percpu_cfg *c = &r->p->cfg;

	r->ret = percpu_drain(c->streams, c->streams_ctx, &r->group, r->p->state,
			      r->until_ns, percpu_record, r);
	return NULL;
}

/* every reader's pass, the first on this thread; 1 if any was cut short */
static int percpu_read_all(struct collector_percpu *p, u64 until_ns,
			   struct record_counts *counts)
{
	pthread_t *threads = NULL;
	sigset_t all, old;
	int started = 0, ret = 0;

	for (int i = 0; i < p->nr_readers; i++)
		p->readers[i].until_ns = until_ns;
	if (p->nr_readers > 1)
		threads = calloc(p->nr_readers, sizeof(*threads));
	if (threads) {
		/* the readers take no signal: a stop signal is the main thread's */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		for (started = 1; started < p->nr_readers; started++)
			if (pthread_create(&threads[started], NULL, percpu_read,
					   &p->readers[started]))
				break;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	percpu_read(&p->readers[0]);
	for (int i = 1; i < started; i++)
		pthread_join(threads[i], NULL);
	/* a reader that could not start: its CPUs are read here */
	for (int i = started ? started : 1; i < p->nr_readers; i++)
		percpu_read(&p->readers[i]);
	free(threads);
	for (int i = 0; i < p->nr_readers; i++) {
		struct percpu_reader *r = &p->readers[i];

		counts->processed += r->counts.processed;
		counts->missed += r->counts.missed;
		counts->missed_unknown |= r->counts.missed_unknown;
		r->counts = (struct record_counts){ 0 };
		ret |= r->ret;
	}
	return ret;
}

/* the time up to which every CPU was read: a CPU not emptied may hold more after it */
static struct batch_key percpu_horizon(const struct collector_percpu *p)
{
	const struct percpu_state *state = p->state;
	struct batch_key h = BATCH_KEY_MAX, k;

	for (int cpu = 0; cpu < p->cfg.nr_cpus; cpu++) {
		if (state[cpu].emptied)
			continue;
		k = (struct batch_key){ state[cpu].handed ? state[cpu].last_ts : 0, cpu };
		if (batch_key_le(k, h))
			h = k;
	}
	return h;
}

int collector_percpu_drain(struct collector_percpu *p, u64 until_ns, struct tlat_sink *sink,
			   struct record_counts *counts)
{
	const int nr_cpus = p->cfg.nr_cpus;
	struct batch_key horizon, cut = BATCH_KEY_MAX;
	size_t hit = 0, n, first;
	int ret, hit_cpu = -1;

	ret = percpu_read_all(p, until_ns, counts);
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (p->batches[cpu].nomem)
			return -ENOMEM;
	horizon = ret ? percpu_horizon(p) : BATCH_KEY_MAX;
	/* the pass's first sample that stops the run, across CPUs */
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		struct cpu_batch *b = &p->batches[cpu];

		n = batch_count_until(b, cpu, horizon);
		first = sink->first_stop(sink, b->samples, n);
		if (first < n && batch_key_le((struct batch_key){ b->samples[first].ts_ns, cpu }, cut)) {
			cut = (struct batch_key){ b->samples[first].ts_ns, cpu };
			hit_cpu = cpu;
			hit = first;
		}
	}
	sink->cpu_order(sink, true);
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		struct cpu_batch *b = &p->batches[cpu];

		n = cpu == hit_cpu ? hit : batch_count_until(b, cpu, hit_cpu < 0 ? horizon : cut);
		batch_feed(b, cpu, n, horizon, sink);
	}
	if (hit_cpu >= 0)
		sink->sample(sink, &p->batches[hit_cpu].samples[hit]);
	sink->cpu_order(sink, false);
	/* after the hit, what the pass read counts no more, as in time order */
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		batch_consume(&p->batches[cpu], cpu, horizon);
	return ret;
}

void collector_percpu_free(struct collector_percpu *p)
{
	if (!p)
		return;
	for (int i = 0; p->readers && i < p->nr_readers; i++)
		free(p->readers[i].group.cpus);
	for (int cpu = 0; p->batches && cpu < p->cfg.nr_cpus; cpu++)
		batch_free(&p->batches[cpu]);
	free(p->readers);
	free(p->batches);
	free(p->state);
	free(p);
}
