// SPDX-License-Identifier: GPL-2.0
/*
 * collector_percpu.c - the collector's pass read per CPU, with no merge in
 * time order across CPUs, where nothing needs one: the statistics, hist,
 * the JSON documents and the sample log are per CPU, and so are the kernel
 * sources' records. Readers (threads, one per group of CPUs) decode their
 * CPUs' records into per-CPU batches; the main thread then hands each CPU's
 * samples on, up to the time the pass read every CPU to, and, where one
 * crosses a threshold, only those before it on any CPU, as the merged read
 * would: nothing after the offending sample counts. The rest of the
 * batches waits for the next pass.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "trace/buffer_percpu.h"
#include "trace/collector.h"
#include "trace/cpu_batch.h"
#include "util/cpuset.h"

/* CPUs read per reader thread, with --readers auto */
#define PERCPU_CPUS_PER_READER	8
#define PERCPU_MAX_AUTO		8

/* a reader: its CPUs, and what it counted there */
struct percpu_reader {
	struct tlat_collector *c;
	struct percpu_group group;
	struct batch_sink bs;
	u64 until_ns;
	u64 processed;
	u64 missed;
	bool missed_unknown;
	int ret;
};

struct collector_percpu {
	int nr_readers;
	struct percpu_reader *readers;
	struct cpu_batch *batches;	/* by CPU */
	struct percpu_state *state;	/* by CPU */
};

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
	if (c->recorder)
		return "the recorder writes the records in time order";
	if (c->nr_observers)
		return "the auto-analysis or the saved trace reads across CPUs";
	if (!c->ops->per_cpu_order)
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

/*
 * The measured CPUs dealt to the readers in turn, then the others (whose
 * buffers stay empty but for the odd event): each reader gets its share of
 * the records.
 */
static int percpu_deal(struct collector_percpu *p, const struct tlat_collector *c)
{
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

int collector_percpu_choose(struct tlat_collector *c)
{
	struct collector_percpu *p;
	int n;

	c->mode_chosen = true;
	c->merged_why = percpu_why_not(c);
	if (c->merged_why || c->nr_cpus <= 0)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	c->percpu = p;
	n = percpu_nr_readers(c);
	p->nr_readers = n;
	p->readers = calloc(n, sizeof(*p->readers));
	p->batches = calloc(c->nr_cpus, sizeof(*p->batches));
	p->state = calloc(c->nr_cpus, sizeof(*p->state));
	if (!p->readers || !p->batches || !p->state)
		goto nomem;
	if (!c->streams) {
		buffer_reader_percpu(&c->streams);
		c->streams_ctx = c->reader;
	}
	if (percpu_deal(p, c))
		goto nomem;
	for (int i = 0; i < n; i++) {
		p->readers[i].c = c;
		batch_sink_init(&p->readers[i].bs, p->batches, c->nr_cpus);
	}
	return 0;
nomem:
	collector_percpu_free(c);
	return -ENOMEM;
}

/* collector_record()'s counting, into the reader's own counters */
static int percpu_record(struct tep_event *event, struct tep_record *record, int cpu, void *ctx)
{
	struct percpu_reader *r = ctx;
	const struct tlat_collector *c = r->c;

	if (record->missed_events)
		collector_missed(c, record, cpu, &r->missed, &r->missed_unknown);
	r->processed++;
	c->ops->record(c->src, event, record, &r->bs.sink);
	return 0;
}

static void *percpu_read(void *arg)
{
	struct percpu_reader *r = arg;
	const struct tlat_collector *c = r->c;

	r->ret = percpu_drain(c->streams, c->streams_ctx, &r->group, c->percpu->state,
			      r->until_ns, percpu_record, r);
	return NULL;
}

/* every reader's pass, the first on this thread; 1 if any was cut short */
static int percpu_read_all(struct tlat_collector *c, u64 until_ns)
{
	struct collector_percpu *p = c->percpu;
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

		c->processed += r->processed;
		c->missed += r->missed;
		c->missed_unknown |= r->missed_unknown;
		r->processed = r->missed = 0;
		r->missed_unknown = false;
		ret |= r->ret;
	}
	return ret;
}

/* the time up to which every CPU was read: a CPU not emptied may hold more after it */
static struct batch_key percpu_horizon(const struct tlat_collector *c)
{
	const struct percpu_state *state = c->percpu->state;
	struct batch_key h = BATCH_KEY_MAX, k;

	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
		if (state[cpu].emptied)
			continue;
		k = (struct batch_key){ state[cpu].handed ? state[cpu].last_ts : 0, cpu };
		if (batch_key_le(k, h))
			h = k;
	}
	return h;
}

int collector_percpu_drain(struct tlat_collector *c, u64 until_ns)
{
	struct collector_percpu *p = c->percpu;
	struct tlat_sink *sink = c->sink;
	struct batch_key horizon, cut = BATCH_KEY_MAX;
	size_t hit = 0, n, first;
	int ret, hit_cpu = -1;

	ret = percpu_read_all(c, until_ns);
	for (int cpu = 0; cpu < c->nr_cpus; cpu++)
		if (p->batches[cpu].nomem)
			return -ENOMEM;
	horizon = ret ? percpu_horizon(c) : BATCH_KEY_MAX;
	/* the pass's first sample that stops the run, across CPUs */
	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
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
	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
		struct cpu_batch *b = &p->batches[cpu];

		n = cpu == hit_cpu ? hit : batch_count_until(b, cpu, hit_cpu < 0 ? horizon : cut);
		batch_feed(b, cpu, n, horizon, sink);
	}
	if (hit_cpu >= 0)
		sink->sample(sink, &p->batches[hit_cpu].samples[hit]);
	sink->cpu_order(sink, false);
	/* after the hit, what the pass read counts no more, as in time order */
	for (int cpu = 0; cpu < c->nr_cpus; cpu++)
		batch_consume(&p->batches[cpu], cpu, horizon);
	return ret;
}

const char *collector_read_mode(const struct tlat_collector *c, char *buf, size_t len)
{
	if (c->percpu)
		snprintf(buf, len, "per-CPU, %d reader%s", c->percpu->nr_readers,
			 c->percpu->nr_readers == 1 ? "" : "s");
	else
		snprintf(buf, len, "merged, because %s",
			 c->merged_why ?: percpu_why_not(c) ?: "not chosen yet");
	return buf;
}

void collector_percpu_free(struct tlat_collector *c)
{
	struct collector_percpu *p = c->percpu;

	if (!p)
		return;
	for (int i = 0; p->readers && i < p->nr_readers; i++)
		free(p->readers[i].group.cpus);
	for (int cpu = 0; p->batches && cpu < c->nr_cpus; cpu++)
		batch_free(&p->batches[cpu]);
	free(p->readers);
	free(p->batches);
	free(p->state);
	free(p);
	c->percpu = NULL;
}
