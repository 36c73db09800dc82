// SPDX-License-Identifier: GPL-2.0
/*
 * tlat - per-CPU aggregates of the samples, and /dev/tlat_agg, which reads
 * them (layout in tlat_uapi.h).
 *
 * Each CPU counts its own samples: count, latest, min, max, sum and the
 * log-linear buckets of each context. Only the measuring task of the CPU and
 * its hrtimer callback write them, never at the same time (see
 * tlat_record()), with interrupts off, inside the CPU's seqcount; a reader
 * copies a CPU's aggregates and retries if the CPU wrote meanwhile. Nothing
 * on the measuring path takes a lock.
 *
 * A CPU's aggregates are allocated when it first gets a measuring task, so
 * that CPUs that never measure cost no memory. They come in two sets:
 * writers use the active one, and a reset zeroes the other and makes it the
 * active one, so that a reset never writes what a CPU may be writing.
 * tlat_lock serialises the allocations, the resets and the resumes.
 *
 * Each reset starts a generation, and only samples counted in a generation
 * at or past tlat_agg_stops_from can stop the aggregates or emit
 * tlat_threshold. A warm-up's reset (TLAT_AGG_IOC_RESET_GATED) puts its own
 * generation before that mark: its end arms stop_*_us, then resets, and
 * every sample either went with the warm-up's set, unchecked, or counts in
 * the new one and is checked. No sample between the two is counted
 * unchecked, or checked and dropped.
 *
 * A stop (a sample at or over a stop_*_us threshold) stops the counting on
 * every CPU: the first sample to get there takes the stop
 * (TLAT_AGG_COUNTING -> TLAT_AGG_STOPPING), counts itself, writes what it
 * was, then makes it visible (-> TLAT_AGG_STOPPED); tlat_agg_add() counts
 * other samples only while counting, and one over a threshold only if it
 * took the stop. Only a reset or a resume, under tlat_lock, counts again, and
 * only from TLAT_AGG_STOPPED: the stop's fields change only while they
 * cannot be read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#include "tlat_internal.h"
#include "tlat_uapi.h"

static_assert(TLAT_CTX_USER_RET + 1 == TLAT_AGG_NR_CTX);

struct tlat_agg_set {
	struct tlat_agg_ctx ctx[TLAT_AGG_NR_CTX];
};

struct tlat_agg_pcpu {
	seqcount_t seq;			/* written by the CPU's measuring path */
	struct tlat_agg_set *sets;	/* two of them; NULL until the CPU measures */
};

static DEFINE_PER_CPU(struct tlat_agg_pcpu, tlat_agg_pcpu);
/*
 * The generation writers count in, in sets[gen & 1]: the resets since load.
 * tlat_lock for writing.
 */
static unsigned long tlat_agg_gen;
/* The first generation whose samples can stop; tlat_lock for writing. */
static unsigned long tlat_agg_stops_from;
/* Who gated the stops: they apply again when that file goes. tlat_lock. */
static const struct file *tlat_agg_gated_by;
static u64 tlat_agg_reset_ts;		/* tlat_lock */

enum {
	TLAT_AGG_COUNTING,
	TLAT_AGG_STOPPING,	/* a sample took the stop, writes tlat_agg_stop_at */
	TLAT_AGG_STOPPED,	/* tlat_agg_stop_at is the stop's */
};

static atomic_t tlat_agg_state = ATOMIC_INIT(TLAT_AGG_COUNTING);

/* The latest stop: written by its sample in TLAT_AGG_STOPPING only. */
static struct {
	u64 stops;
	u64 lat;
	u64 ts;
	u32 cpu;
	u32 ctx;
	u32 seqnum;
	s32 pid;
} tlat_agg_stop_at;

static unsigned int tlat_agg_index(u64 ns)
{
	unsigned int shift;

	ns = min_t(u64, ns, (1ULL << TLAT_AGG_MAX_BITS) - 1);
	if (ns < 2U << TLAT_AGG_SUB_BITS)
		return ns;
	shift = fls64(ns) - 1 - TLAT_AGG_SUB_BITS;
	return (shift << TLAT_AGG_SUB_BITS) + (unsigned int)(ns >> shift);
}

static void tlat_agg_count(struct tlat_agg_pcpu *pa, struct tlat_agg_set *set,
			   enum tlat_ctx ctx, u64 lat)
{
	struct tlat_agg_ctx *c = &set->ctx[ctx];

	raw_write_seqcount_begin(&pa->seq);
	if (!c->count || lat < c->min)
		c->min = lat;
	if (lat > c->max)
		c->max = lat;
	c->count++;
	c->cur = lat;
	c->sum += lat;
	c->buckets[tlat_agg_index(lat)]++;
	raw_write_seqcount_end(&pa->seq);
}

/**
 * tlat_agg_add - count a sample in its CPU's aggregates, or stop them at it
 * @cpu:	the CPU that measured it; the caller runs there
 * @ctx:	its context
 * @seqnum:	its activation
 * @lat:	its latency in ns
 * @stop_ns:	its context's stop threshold in ns, 0 for none
 *
 * A sample at or over @stop_ns, outside a warm-up's aggregates, stops the
 * counting on every CPU. It counts only if it is the one that takes the
 * stop: when two CPUs cross at once, the aggregates hold the stop's sample
 * and no other over a threshold. A sample under it counts while counting.
 *
 * Return: whether the sample is over a stop (tlat_threshold is due).
 */
bool tlat_agg_add(unsigned int cpu, enum tlat_ctx ctx, u32 seqnum, u64 lat,
		  u64 stop_ns)
{
	struct tlat_agg_pcpu *pa = per_cpu_ptr(&tlat_agg_pcpu, cpu);
	struct tlat_agg_set *sets = READ_ONCE(pa->sets);
	unsigned long flags, gen;
	bool over;

	/* not preempted between the two states: a reset waits for the second */
	local_irq_save(flags);
	gen = READ_ONCE(tlat_agg_gen);
	/* Pairs with smp_wmb() in tlat_agg_reset(): a new set, its mark. */
	smp_rmb();
	over = stop_ns && lat >= stop_ns && gen >= READ_ONCE(tlat_agg_stops_from);
	if (WARN_ON_ONCE(!sets))
		goto out;
	if (!over) {
		/* stopped: nothing after the stop's sample counts */
		if (atomic_read(&tlat_agg_state) == TLAT_AGG_COUNTING)
			tlat_agg_count(pa, &sets[gen & 1], ctx, lat);
		goto out;
	}
	if (atomic_cmpxchg(&tlat_agg_state, TLAT_AGG_COUNTING,
			   TLAT_AGG_STOPPING) != TLAT_AGG_COUNTING)
		goto out;
	tlat_agg_count(pa, &sets[gen & 1], ctx, lat);
	WRITE_ONCE(tlat_agg_stop_at.stops, tlat_agg_stop_at.stops + 1);
	tlat_agg_stop_at.lat = lat;
	tlat_agg_stop_at.ts = ktime_get_ns();
	tlat_agg_stop_at.cpu = cpu;
	tlat_agg_stop_at.ctx = ctx;
	tlat_agg_stop_at.seqnum = seqnum;
	tlat_agg_stop_at.pid = current->pid;
	/* Pairs with atomic_read_acquire() in tlat_agg_snapshot(). */
	atomic_set_release(&tlat_agg_state, TLAT_AGG_STOPPED);
out:
	local_irq_restore(flags);
	return over;
}

/*
 * Count again after a stop. A stop being taken ends in a few instructions
 * with interrupts off: wait for it, then its fields are the stop's.
 */
static void tlat_agg_resume(void)
{
	lockdep_assert_held(&tlat_lock);
	while (atomic_cmpxchg(&tlat_agg_state, TLAT_AGG_STOPPED,
			      TLAT_AGG_COUNTING) == TLAT_AGG_STOPPING)
		cpu_relax();
}

/**
 * tlat_agg_prepare - allocate a CPU's aggregates before it first measures
 * @cpu:	the CPU
 *
 * Return: 0 or -ENOMEM.
 */
int tlat_agg_prepare(unsigned int cpu)
{
	struct tlat_agg_pcpu *pa = per_cpu_ptr(&tlat_agg_pcpu, cpu);
	struct tlat_agg_set *sets;

	lockdep_assert_held(&tlat_lock);
	if (pa->sets)
		return 0;
	sets = vzalloc(2 * sizeof(*sets));
	if (!sets)
		return -ENOMEM;
	/* Pairs with READ_ONCE() in the writers and the readers. */
	smp_store_release(&pa->sets, sets);
	return 0;
}

/*
 * Start new aggregates: zero the idle set, then make it the active one.
 * @gated: a warm-up's: the new set's samples cannot stop, the next set's can.
 *
 * A stop before the reset goes: the new set counts. One taken while the
 * reset waits for the old set's writers is the new set's, and stays.
 */
static void tlat_agg_reset(const struct file *file, bool gated)
{
	unsigned long next;
	unsigned int cpu;

	mutex_lock(&tlat_lock);
	next = tlat_agg_gen + 1;
	for_each_possible_cpu(cpu) {
		struct tlat_agg_set *sets = per_cpu_ptr(&tlat_agg_pcpu, cpu)->sets;

		if (sets)
			memset(&sets[next & 1], 0, sizeof(sets[next & 1]));
	}
	tlat_agg_resume();
	WRITE_ONCE(tlat_agg_stops_from, gated ? next + 1 : next);
	tlat_agg_gated_by = gated ? file : NULL;
	/* Pairs with smp_rmb() in tlat_agg_add(). */
	smp_wmb();
	WRITE_ONCE(tlat_agg_gen, next);
	tlat_agg_reset_ts = ktime_get_ns();
	/*
	 * Writers run with interrupts off: once this returns, none still
	 * writes the old set, which the next reset zeroes.
	 */
	synchronize_rcu();
	mutex_unlock(&tlat_lock);
}

/* State of one open /dev/tlat_agg: its latest snapshot. */
struct tlat_agg_file {
	struct mutex lock;	/* one read at a time: buf, taken */
	bool taken;		/* buf holds a snapshot */
	size_t len;
	void *buf;
};

static size_t tlat_agg_len(void)
{
	return sizeof(struct tlat_agg_header) +
	       (size_t)nr_cpu_ids * sizeof(struct tlat_agg_cpu);
}

static void tlat_agg_copy_cpu(unsigned int cpu, struct tlat_agg_cpu *out)
{
	struct tlat_agg_pcpu *pa = per_cpu_ptr(&tlat_agg_pcpu, cpu);
	struct tlat_agg_set *sets = READ_ONCE(pa->sets);
	unsigned int seq;

	out->cpu = cpu;
	out->flags = 0;
	if (!sets) {
		memset(out->ctx, 0, sizeof(out->ctx));
		return;
	}
	out->flags = TLAT_AGG_CPU_MEASURED;
	do {
		seq = raw_read_seqcount_begin(&pa->seq);
		memcpy(out->ctx, sets[READ_ONCE(tlat_agg_gen) & 1].ctx,
		       sizeof(out->ctx));
	} while (read_seqcount_retry(&pa->seq, seq));
}

static void tlat_agg_snapshot(struct tlat_agg_file *af)
{
	struct tlat_agg_header *hdr = af->buf;
	struct tlat_agg_cpu *out = af->buf + sizeof(*hdr);
	unsigned int cpu;

	*hdr = (struct tlat_agg_header){
		.magic = TLAT_AGG_MAGIC,
		.version = TLAT_AGG_VERSION,
		.header_size = sizeof(*hdr),
		.nr_cpus = nr_cpu_ids,
		.cpu_size = sizeof(*out),
		.nr_ctx = TLAT_AGG_NR_CTX,
		.nr_buckets = TLAT_AGG_BUCKETS,
		.sub_bits = TLAT_AGG_SUB_BITS,
		.max_bits = TLAT_AGG_MAX_BITS,
	};
	/* tlat_lock: no resume changes the stop's fields meanwhile */
	mutex_lock(&tlat_lock);
	hdr->resets = tlat_agg_gen;
	hdr->reset_ts = tlat_agg_reset_ts;
	if (atomic_read_acquire(&tlat_agg_state) == TLAT_AGG_STOPPED) {
		hdr->stopped = 1;
		hdr->stop_cpu = tlat_agg_stop_at.cpu;
		hdr->stop_ctx = tlat_agg_stop_at.ctx;
		hdr->stop_seqnum = tlat_agg_stop_at.seqnum;
		hdr->stop_pid = tlat_agg_stop_at.pid;
		hdr->stop_lat = tlat_agg_stop_at.lat;
		hdr->stop_ts = tlat_agg_stop_at.ts;
		hdr->stops = tlat_agg_stop_at.stops;
	} else {
		/* maybe one being taken now: only stopped says a stop is there */
		hdr->stops = READ_ONCE(tlat_agg_stop_at.stops);
	}
	mutex_unlock(&tlat_lock);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (cpu_possible(cpu))
			tlat_agg_copy_cpu(cpu, &out[cpu]);
		else
			memset(&out[cpu], 0, sizeof(out[cpu]));
		cond_resched();
	}
}

static int tlat_agg_open(struct inode *inode, struct file *file)
{
	struct tlat_agg_file *af;

	af = kzalloc(sizeof(*af), GFP_KERNEL);
	if (!af)
		return -ENOMEM;
	af->len = tlat_agg_len();
	af->buf = vmalloc(af->len);
	if (!af->buf) {
		kfree(af);
		return -ENOMEM;
	}
	mutex_init(&af->lock);
	file->private_data = af;
	return 0;
}

/*
 * A read from offset 0 takes a new snapshot; so does the first read of a
 * file at any offset, which would otherwise copy out the buffer as vmalloc()
 * left it.
 */
static ssize_t tlat_agg_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct tlat_agg_file *af = file->private_data;
	ssize_t ret;

	mutex_lock(&af->lock);
	if (*ppos == 0 || !af->taken) {
		tlat_agg_snapshot(af);
		af->taken = true;
	}
	ret = simple_read_from_buffer(ubuf, count, ppos, af->buf, af->len);
	mutex_unlock(&af->lock);
	return ret;
}

static long tlat_agg_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	switch (cmd) {
	case TLAT_AGG_IOC_RESET:
	case TLAT_AGG_IOC_RESET_GATED:
		tlat_agg_reset(file, cmd == TLAT_AGG_IOC_RESET_GATED);
		return 0;
	case TLAT_AGG_IOC_RESUME:
		mutex_lock(&tlat_lock);
		tlat_agg_resume();
		mutex_unlock(&tlat_lock);
		return 0;
	default:
		return -ENOTTY;
	}
}

static int tlat_agg_release(struct inode *inode, struct file *file)
{
	struct tlat_agg_file *af = file->private_data;

	/* a warm-up cut short: the stops apply again, as without a reader */
	mutex_lock(&tlat_lock);
	if (tlat_agg_gated_by == file) {
		WRITE_ONCE(tlat_agg_stops_from, tlat_agg_gen);
		tlat_agg_gated_by = NULL;
	}
	mutex_unlock(&tlat_lock);
	mutex_destroy(&af->lock);
	vfree(af->buf);
	kfree(af);
	return 0;
}

static const struct file_operations tlat_agg_fops = {
	.owner = THIS_MODULE,
	.open = tlat_agg_open,
	.read = tlat_agg_read,
	.unlocked_ioctl = tlat_agg_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.release = tlat_agg_release,
	.llseek = noop_llseek,
};

static struct miscdevice tlat_agg_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tlat_agg",
	.fops = &tlat_agg_fops,
	.mode = 0400,
};

int tlat_agg_register(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		seqcount_init(&per_cpu_ptr(&tlat_agg_pcpu, cpu)->seq);
	return misc_register(&tlat_agg_dev);
}

/* After every measuring thread is gone. */
void tlat_agg_unregister(void)
{
	unsigned int cpu;

	misc_deregister(&tlat_agg_dev);
	for_each_possible_cpu(cpu) {
		struct tlat_agg_pcpu *pa = per_cpu_ptr(&tlat_agg_pcpu, cpu);

		vfree(pa->sets);
		pa->sets = NULL;
	}
}
