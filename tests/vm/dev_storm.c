// SPDX-License-Identifier: GPL-2.0
/*
 * dev_storm - the /dev/tlat and /dev/tlat_agg storms of tests/vm/storm-dev.sh.
 *
 *   dev_storm wrong-cpu CPU_IN CPU_OUT  tlat.ko loaded with kthreads=N and
 *                                       cpus=CPU_IN: opens from the wrong
 *                                       CPU, reads after moving to another
 *   dev_storm opens SECONDS             per online CPU, 4 threads pinned to it
 *                                       open, read and close /dev/tlat as
 *                                       fast as they can: one holder a CPU
 *                                       at a time, only EBUSY refused; and
 *                                       a forked child's reads of the
 *                                       parent's file are refused
 *   dev_storm short SECONDS             reads of /dev/tlat of 0 and 1 bytes,
 *                                       a NULL and a bad buffer, readv,
 *                                       pread; /dev/tlat_agg read in pieces
 *                                       of odd sizes, at offsets, into bad
 *                                       buffers, racing with resets
 *   dev_storm signals SECONDS PERIOD_US signals during blocking reads: each
 *                                       read returns 0 at once; SIGSTOP,
 *                                       SIGCONT and SIGKILL of a reader
 *   dev_storm gate                      tlat.ko measuring in kernel threads:
 *                                       a warm-up's reset gates stop_*_us,
 *                                       the next reset lifts the gate, and
 *                                       so does closing the gating file
 *
 * Prints one "ok - ..." or "not ok - ..." line a check and "# ..." figures
 * (the calling script numbers them); exits non-zero if a check failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tlat_uapi.h"

#define DEV "/dev/tlat"
#define AGG "/dev/tlat_agg"
#define MAX_CPUS 64
#define OPENERS 4

#include "vm_test.h"

/* ---- wrong CPU */
static int wrong_cpu(int in, int out)
{
	cpu_set_t all;
	ssize_t n;
	char c;
	int fd;

	CPU_ZERO(&all);
	for (int i = 0; i < sysconf(_SC_NPROCESSORS_ONLN) && i < CPU_SETSIZE; i++)
		CPU_SET(i, &all);
	sched_setaffinity(0, sizeof(all), &all);
	check(open_errno() == EPERM, "wrong CPU: open unpinned: EPERM");
	pin(out);
	check(open_errno() == EINVAL, "wrong CPU: open on a CPU not in cpus: EINVAL");
	pin(in);
	fd = open(DEV, O_RDONLY);
	check(fd >= 0, "wrong CPU: open on a CPU in cpus");
	if (fd < 0)
		return 1;
	check(read(fd, &c, 1) == 0, "wrong CPU: a read on its CPU returns 0");
	check(open_errno() == EBUSY, "wrong CPU: the same task opens it again: EBUSY");
	pin(out);
	errno = 0;
	check(read(fd, &c, 1) < 0 && errno == EINVAL,
	      "wrong CPU: a read after moving to another CPU: EINVAL");
	sched_setaffinity(0, sizeof(all), &all);
	errno = 0;
	n = read(fd, &c, 1);
	check(n == 0 || (n < 0 && errno == EINVAL),
	      "wrong CPU: a read after unpinning: EINVAL, or 0 if it ran on its CPU");
	pin(in);
	check(read(fd, &c, 1) == 0 && read(fd, &c, 1) == 0,
	      "wrong CPU: back on its CPU, reads return 0 again");
	close(fd);
	check(open_errno() == 0, "wrong CPU: open again after close");
	return failed;
}

/* ---- concurrent opens */
struct opener {
	int cpu;
	double end;
	long opened, busy, other;
	int other_errno;
};

static atomic_int holders[MAX_CPUS];
static atomic_int overlaps;

static void *opener_fn(void *arg)
{
	struct opener *o = arg;
	char c;
	int fd;

	pin(o->cpu);
	while (now_s() < o->end) {
		fd = open(DEV, O_RDONLY);
		if (fd < 0) {
			if (errno == EBUSY) {
				o->busy++;
			} else {
				o->other++;
				o->other_errno = errno;
			}
			continue;
		}
		if (atomic_fetch_add(&holders[o->cpu], 1) != 0)
			atomic_fetch_add(&overlaps, 1);
		o->opened++;
		if (read(fd, &c, 1) != 0 && errno != EINTR) {
			o->other++;
			o->other_errno = errno;
		}
		atomic_fetch_sub(&holders[o->cpu], 1);
		close(fd);
	}
	return NULL;
}

static int forked_reader(int cpu)
{
	int fd, st, child_ok;
	pid_t pid;
	char c;

	pin(cpu);
	fd = open(DEV, O_RDONLY);
	if (fd < 0)
		return 0;
	pid = fork();
	if (pid == 0) {
		errno = 0;
		_exit(read(fd, &c, 1) < 0 && errno == EPERM ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	child_ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	check(child_ok, "opens: a forked child's read of its parent's file: EPERM");
	check(read(fd, &c, 1) == 0, "opens: the parent still reads after the child closed its copy");
	/* the child holds the last reference: the release runs in it */
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		close(fd);
		_exit(0);
	}
	close(fd);
	waitpid(pid, &st, 0);
	for (int i = 0; i < 50 && open_errno() == EBUSY; i++)
		usleep(20000);
	check(open_errno() == 0, "opens: the CPU free again after a child closed the last copy");
	return 1;
}

static int opens(int seconds)
{
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct opener o[MAX_CPUS][OPENERS];
	pthread_t th[MAX_CPUS][OPENERS];
	long opened = 0, busy = 0, other = 0;
	double end = now_s() + seconds;
	char what[160];
	int e = 0;

	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	for (int c = 0; c < ncpu; c++)
		for (int t = 0; t < OPENERS; t++) {
			o[c][t] = (struct opener){ .cpu = c, .end = end };
			pthread_create(&th[c][t], NULL, opener_fn, &o[c][t]);
		}
	for (int c = 0; c < ncpu; c++)
		for (int t = 0; t < OPENERS; t++) {
			pthread_join(th[c][t], NULL);
			opened += o[c][t].opened;
			busy += o[c][t].busy;
			other += o[c][t].other;
			if (o[c][t].other)
				e = o[c][t].other_errno;
		}
	printf("# storm-figures dev opens: %d threads on %d CPUs, %d s: %ld opens, %ld EBUSY, %ld other errors (%s)\n",
	       ncpu * OPENERS, ncpu, seconds, opened, busy, other, other ? strerror(e) : "none");
	check(opened >= ncpu, "opens: every CPU opened at least once");
	check(busy > 0, "opens: the racing openers got EBUSY");
	snprintf(what, sizeof(what), "opens: no error but EBUSY (%ld others)", other);
	check(other == 0, what);
	check(atomic_load(&overlaps) == 0, "opens: never two holders of one CPU");
	forked_reader(0);
	return failed;
}

/* ---- short reads */
static int agg_read_all(int fd, size_t chunk, char *out, size_t max, size_t *len)
{
	ssize_t n;

	/* no lseek(): noop_llseek does not move; pread at 0 takes a snapshot */
	*len = 0;
	for (;;) {
		/* pieces for the first 16 KiB (the header and into a record), then the rest */
		size_t piece = *len < 16384 ? chunk : max;
		size_t want = piece < max - *len ? piece : max - *len;

		n = pread(fd, out + *len, want, *len);
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		*len += n;
		if (*len == max)
			return 0;
	}
}

static atomic_int stop_resets;

static void *resetter(void *arg)
{
	int fd = open(AGG, O_RDONLY);

	(void)arg;
	while (fd >= 0 && !atomic_load(&stop_resets)) {
		ioctl(fd, TLAT_AGG_IOC_RESET, 0);
		usleep(1000);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int header_ok(const struct tlat_agg_header *h, size_t len)
{
	return h->magic == TLAT_AGG_MAGIC && h->version == TLAT_AGG_VERSION &&
	       h->header_size == sizeof(*h) && h->cpu_size == sizeof(struct tlat_agg_cpu) &&
	       len == h->header_size + (size_t)h->nr_cpus * h->cpu_size;
}

static int short_reads(int seconds)
{
	static const size_t chunks[] = { 1, 3, 7, 8, 63, 4095, 4097, 65536, 1 << 20 };
	size_t max = sizeof(struct tlat_agg_header) + MAX_CPUS * sizeof(struct tlat_agg_cpu);
	struct tlat_agg_header h0;
	char *buf = malloc(max), *bad;
	void *volatile nullp = NULL;	/* a NULL buffer the compiler does not see */
	long rounds = 0, badhdr = 0, errs = 0;
	struct iovec iov[2];
	double end;
	size_t len;
	pthread_t th;
	int fd, afd, ok;
	char c[16];

	if (!buf)
		return 1;
	bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	/* /dev/tlat, pinned to CPU 0 (the script loads kthreads=N) */
	pin(0);
	fd = open(DEV, O_RDONLY);
	check(fd >= 0, "short reads: open /dev/tlat");
	if (fd >= 0) {
		check(read(fd, c, 0) == 0, "short reads: /dev/tlat, 0 bytes: 0");
		check(read(fd, c, 1) == 0, "short reads: /dev/tlat, 1 byte: 0");
		check(read(fd, nullp, 16) == 0, "short reads: /dev/tlat, NULL buffer: 0 (nothing is copied)");
		check(read(fd, bad, 16) == 0, "short reads: /dev/tlat, unmapped buffer: 0 (nothing is copied)");
		iov[0] = (struct iovec){ c, 1 };
		iov[1] = (struct iovec){ c + 1, 1 };
		check(readv(fd, iov, 2) == 0, "short reads: /dev/tlat, readv: 0");
		check(pread(fd, c, 1, 12345) == 0, "short reads: /dev/tlat, pread at an offset: 0");
		close(fd);
	}

	/* /dev/tlat_agg: a fresh file read at an offset first */
	afd = open(AGG, O_RDONLY);
	check(afd >= 0, "short reads: open /dev/tlat_agg");
	if (afd < 0)
		return 1;
	memset(buf, 0x5a, max);
	ok = pread(afd, buf, sizeof(h0), 0) == sizeof(h0);
	memcpy(&h0, buf, sizeof(h0));
	ok = ok && header_ok(&h0, sizeof(h0) + (size_t)h0.nr_cpus * h0.cpu_size);
	check(ok, "short reads: /dev/tlat_agg's header, read alone");
	close(afd);
	/*
	 * A new file read first past offset 0: bytes of a snapshot, not of
	 * the buffer as vmalloc() left it (the header's version, its size).
	 */
	afd = open(AGG, O_RDONLY);
	memset(buf, 0, max);
	ok = pread(afd, buf, 4, 4) == 4;
	{
		uint16_t v[2];

		memcpy(v, buf, sizeof(v));
		ok = ok && v[0] == TLAT_AGG_VERSION && v[1] == sizeof(h0);
		printf("# /dev/tlat_agg, 4 bytes at offset 4 of a new file: version %u, header size %u\n",
		       v[0], v[1]);
	}
	check(ok, "short reads: /dev/tlat_agg read first at an offset gives a snapshot's bytes");
	errno = 0;
	check(read(afd, bad, 64) < 0 && errno == EFAULT, "short reads: /dev/tlat_agg into an unmapped buffer: EFAULT");
	check(pread(afd, buf, 64, 1 << 30) == 0, "short reads: /dev/tlat_agg past its end: 0");
	check(ioctl(afd, 0x1234, 0) < 0 && errno == ENOTTY, "short reads: /dev/tlat_agg, an unknown ioctl: ENOTTY");
	check(ioctl(afd, TLAT_AGG_IOC_RESET, (unsigned long)bad) == 0, "short reads: the reset ioctl ignores its argument");

	/* whole snapshots in pieces of odd sizes, racing with resets */
	pthread_create(&th, NULL, resetter, NULL);
	end = now_s() + seconds;
	while (now_s() < end) {
		size_t chunk = chunks[rounds % (sizeof(chunks) / sizeof(chunks[0]))];

		if (agg_read_all(afd, chunk, buf, max, &len)) {
			errs++;
		} else {
			memcpy(&h0, buf, sizeof(h0));
			if (!header_ok(&h0, len))
				badhdr++;
		}
		rounds++;
	}
	atomic_store(&stop_resets, 1);
	pthread_join(th, NULL);
	close(afd);
	printf("# storm-figures dev short reads: %ld snapshots of /dev/tlat_agg in pieces of 1 B to 1 MiB in %d s, racing with resets: %ld errors, %ld bad\n",
	       rounds, seconds, errs, badhdr);
	check(rounds > 0 && errs == 0 && badhdr == 0,
	      "short reads: every snapshot read in pieces whole, with its header");
	return failed;
}

/* ---- signals */
/* ---- the warm-up's gate (TLAT_AGG_IOC_RESET_GATED) */
static int set_param(const char *name, const char *val)
{
	char path[128];
	int fd, ok;

	snprintf(path, sizeof(path), "/sys/module/tlat/parameters/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

/* a whole snapshot into @buf: its header checked, or NULL */
static const struct tlat_agg_header *gate_snapshot(int fd, char *buf, size_t max)
{
	size_t len;

	if (agg_read_all(fd, max, buf, max, &len) ||
	    !header_ok((const struct tlat_agg_header *)buf, len))
		return NULL;
	return (const struct tlat_agg_header *)buf;
}

static uint64_t gate_count(const struct tlat_agg_header *h)
{
	const struct tlat_agg_cpu *rec = (const void *)(h + 1);
	uint64_t n = 0;

	for (uint32_t i = 0; i < h->nr_cpus; i++)
		for (int c = 0; c < TLAT_AGG_NR_CTX; c++)
			n += rec[i].ctx[c].count;
	return n;
}

/* the stop's sample is in the aggregates: its CPU and context counted it */
static int gate_stop_held(const struct tlat_agg_header *h)
{
	const struct tlat_agg_cpu *rec = (const void *)(h + 1);
	const struct tlat_agg_ctx *c = &rec[h->stop_cpu].ctx[h->stop_ctx];

	return c->count >= 1 && c->max >= h->stop_lat;
}

/*
 * Every sample is over a 1 us stop here. After a warm-up's reset none stops
 * the aggregates; after the next reset the first does, and it is counted;
 * a gated file closed, the stops apply again.
 */
static int gate(void)
{
	size_t max = sizeof(struct tlat_agg_header) + MAX_CPUS * sizeof(struct tlat_agg_cpu);
	const struct tlat_agg_header *h;
	char *buf = malloc(max);
	uint64_t before;
	int fd;

	fd = open(AGG, O_RDONLY);
	check(buf && fd >= 0, "gate: open /dev/tlat_agg");
	if (!buf || fd < 0)
		return 1;
	check(ioctl(fd, TLAT_AGG_IOC_RESET_GATED) == 0, "gate: a warm-up's reset");
	check(!set_param("stop_irq_us", "1") && !set_param("stop_thread_us", "1"),
	      "gate: stop_irq_us and stop_thread_us set to 1 us");
	usleep(300000);
	h = gate_snapshot(fd, buf, max);
	check(h && !h->stopped && gate_count(h) > 0,
	      "gate: in a warm-up's aggregates, samples over stop_*_us count and stop nothing");
	before = now_ns();
	check(ioctl(fd, TLAT_AGG_IOC_RESET) == 0, "gate: the warm-up's end, a reset");
	usleep(300000);
	h = gate_snapshot(fd, buf, max);
	check(h && h->stopped && h->reset_ts >= before && h->stop_ts >= h->reset_ts,
	      "gate: after the next reset, a sample stops them, after the reset's time");
	check(h && h->stopped && gate_stop_held(h), "gate: the stop's sample is counted");
	if (h)
		printf("# gate: reset at %llu ns, stopped at %llu ns by CPU %u ctx %u, %llu ns\n",
		       (unsigned long long)h->reset_ts, (unsigned long long)h->stop_ts,
		       h->stop_cpu, h->stop_ctx, (unsigned long long)h->stop_lat);
	check(ioctl(fd, TLAT_AGG_IOC_RESET_GATED) == 0, "gate: a second warm-up's reset");
	usleep(200000);
	h = gate_snapshot(fd, buf, max);
	check(h && !h->stopped && gate_count(h) > 0,
	      "gate: the reset counts again, the stop gone, and nothing stops");
	close(fd);
	usleep(300000);
	fd = open(AGG, O_RDONLY);
	h = fd >= 0 ? gate_snapshot(fd, buf, max) : NULL;
	check(h && h->stopped, "gate: the gating file closed, the stops apply again");
	check(!set_param("stop_irq_us", "0") && !set_param("stop_thread_us", "0") &&
	      fd >= 0 && ioctl(fd, TLAT_AGG_IOC_RESET) == 0,
	      "gate: stop_*_us back to 0, a reset");
	if (fd >= 0)
		close(fd);
	free(buf);
	return failed;
}

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	(void)sig;
	got_signal = 1;
}

struct sigctl {
	pthread_t target;
	double end;
	long sent;
	_Atomic double sent_at;	/* when the latest signal was sent */
};

static void *signaller(void *arg)
{
	struct sigctl *s = arg;

	while (now_s() < s->end) {
		usleep(1000 + rand() % 50000);
		atomic_store(&s->sent_at, now_s());
		pthread_kill(s->target, SIGUSR1);
		s->sent++;
	}
	return NULL;
}

static int signals(int seconds, long period_us)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	struct sigctl s;
	long reads = 0, interrupted = 0, errors = 0;
	double t, t0, slow = 0, worst = 0, at;
	pthread_t th;
	int fd, st;
	pid_t pid;
	char c;

	sigaction(SIGUSR1, &sa, NULL);
	pin(0);
	fd = open(DEV, O_RDONLY);
	check(fd >= 0, "signals: open /dev/tlat");
	if (fd < 0)
		return 1;
	s = (struct sigctl){ .target = pthread_self(), .end = now_s() + seconds };
	pthread_create(&th, NULL, signaller, &s);
	while (now_s() < s.end) {
		got_signal = 0;
		t0 = now_s();
		if (read(fd, &c, 1) != 0)
			errors++;
		t = now_s() - t0;
		reads++;
		at = atomic_load(&s.sent_at);
		if (got_signal && at > t0) {
			/* from the signal to the read's end */
			interrupted++;
			if (now_s() - at > worst)
				worst = now_s() - at;
		}
		if (t > slow)
			slow = t;
	}
	pthread_join(th, NULL);
	printf("# storm-figures dev signals: %ld signals in %d s at a %ld us period: %ld reads, %ld with a signal, %ld errors; longest read %.0f ms; at most %.0f ms from a signal to its read's end\n",
	       s.sent, seconds, period_us, reads, interrupted, errors, slow * 1e3, worst * 1e3);
	check(errors == 0, "signals: every read returns 0");
	check(interrupted > 0, "signals: reads were interrupted");
	/* a read with a signal ends at the signal, not at the period */
	check(worst < 0.2, "signals: a read ends within 200 ms of its signal");
	close(fd);

	/* a reader stopped, continued and killed while it blocks */
	pid = fork();
	if (pid == 0) {
		int cfd = open(DEV, O_RDONLY);

		while (cfd >= 0 && read(cfd, &c, 1) == 0)
			;
		_exit(1);
	}
	usleep(300000);
	for (int i = 0; i < 10; i++) {
		kill(pid, SIGSTOP);
		usleep(20000 + rand() % 50000);
		kill(pid, SIGCONT);
		usleep(20000 + rand() % 50000);
	}
	check(waitpid(pid, &st, WNOHANG) == 0, "signals: a reader stopped and continued 10 times reads on");
	t = now_s();
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	t = now_s() - t;
	printf("# storm-figures dev signals: SIGKILL of a blocked reader took %.0f ms to reap\n", t * 1e3);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL && t < 2.0 + period_us / 1e6,
	      "signals: SIGKILL ends a blocked reader at once");
	check(open_errno() == 0, "signals: its CPU free again");
	return failed;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	srand(getpid());
	if (argc == 4 && !strcmp(argv[1], "wrong-cpu"))
		return wrong_cpu(atoi(argv[2]), atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "opens"))
		return opens(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "short"))
		return short_reads(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "signals"))
		return signals(atoi(argv[2]), atol(argv[3]));
	if (argc == 2 && !strcmp(argv[1], "gate"))
		return gate();
	fprintf(stderr, "usage: %s wrong-cpu CPU_IN CPU_OUT | opens SECONDS | short SECONDS | signals SECONDS PERIOD_US | gate\n",
		argv[0]);
	return 2;
}
