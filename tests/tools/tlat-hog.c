// SPDX-License-Identifier: GPL-2.0
/*
 * tlat-hog - a SCHED_FIFO busy task that delays the latency tool's measuring
 * thread on purpose, for the auto-analysis tests: pinned to one CPU, every
 * EVERY_MS it wakes on an absolute CLOCK_MONOTONIC grid and spins for
 * SPIN_US, logging "start_ns end_ns" (CLOCK_MONOTONIC, first and last clock
 * reading of the spin) per spin, so that a test can tell which latency
 * samples it caused and check that the analysis blames "tlat-hog" and its pid.
 *
 * It is single-threaded, so its pid is the pid of the spinning task, and its
 * comm is "tlat-hog" (binary name and PR_SET_NAME).
 *
 * It sleeps at SCHED_FIFO 1 and raises itself to PRIO only once it runs.
 * When its timer and the measuring thread's expire in one interrupt (a late
 * interrupt, as under QEMU, makes that common), the thread then still runs
 * first and the hog delays only the activations due during its spin, which
 * is what the tests want: the hog blocking, not merely preempting.
 *
 * RT throttling: the default sched_rt_runtime_us (950000 of 1000000 us, i.e.
 * 950 ms per second) is far above the default load of 3 ms every 200 ms, so
 * throttling never cuts a spin short and nothing is said about it.
 *
 * -r: each spin starts at a random point of its EVERY_MS slot (uniform, the
 * spin kept inside the slot), instead of the slot's start: a grid whose
 * period is a multiple of the measurement's would otherwise meet the same
 * activations every time, or never (tlat compare's calibration wants the
 * duty cycle's share of the activations delayed, by up to SPIN_US).
 *
 * Usage: tlat-hog [-c CPU] [-p PRIO] [-s SPIN_US] [-e EVERY_MS] [-d SECONDS]
 *                 [-l LOGFILE] [-r]
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* CPU_SET, sched_setaffinity, sendmmsg */
#endif
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_USEC	1000LL

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* one line: getopt's own message is turned off */
static void usage(void)
{
	fprintf(stderr, "usage: tlat-hog [-c CPU] [-p PRIO] [-s SPIN_US] [-e EVERY_MS] [-d SECONDS] [-l LOGFILE] [-r]\n");
	exit(1);
}

/* a whole number in [min, max], or a one-line error and exit 1 */
static long parse_num(const char *s, char opt, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "tlat-hog: -%c: '%s' is not a number in [%ld, %ld]\n",
			opt, s, min, max);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	long cpu = 1, prio = 99, spin_us = 3000, every_ms = 200, duration = 0;
	const char *logname = NULL;
	struct sched_param sp = { 0 };
	struct sigaction sa = { 0 };
	long long start, next, period, deadline;
	struct timespec ts;
	unsigned short seed[3] = { 0 };
	long long slot, offset;
	bool random_phase = false;
	FILE *log = NULL;
	cpu_set_t set;
	int opt;

	opterr = 0;
	while ((opt = getopt(argc, argv, "c:p:s:e:d:l:rh")) != -1) {
		switch (opt) {
		case 'c':
			cpu = parse_num(optarg, 'c', 0, CPU_SETSIZE - 1);
			break;
		case 'p':
			prio = parse_num(optarg, 'p', 1, 99);
			break;
		case 's':
			spin_us = parse_num(optarg, 's', 1, 10000000);
			break;
		case 'e':
			every_ms = parse_num(optarg, 'e', 1, 3600000);
			break;
		case 'd':
			duration = parse_num(optarg, 'd', 0, INT_MAX);
			break;
		case 'l':
			logname = optarg;
			break;
		case 'r':
			random_phase = true;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	prctl(PR_SET_NAME, "tlat-hog", 0, 0, 0);

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	if (logname) {
		log = fopen(logname, "w");
		if (!log) {
			fprintf(stderr, "tlat-hog: %s: %s\n", logname, strerror(errno));
			return 1;
		}
		/* a day of spins at the default rate fits */
		setvbuf(log, NULL, _IOFBF, 1 << 22);
	}

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "tlat-hog: cannot pin to CPU %ld: %s\n", cpu, strerror(errno));
		return 1;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		fprintf(stderr, "tlat-hog: mlockall: %s\n", strerror(errno));
		return 1;
	}
	sp.sched_priority = prio;
	/* the priority of the spin, checked once here */
	if (sched_setscheduler(0, SCHED_FIFO, &sp) ||
	    sched_setscheduler(0, SCHED_FIFO, &(struct sched_param){ .sched_priority = 1 })) {
		fprintf(stderr, "tlat-hog: sched_setscheduler(SCHED_FIFO, %ld): %s\n",
			prio, strerror(errno));
		return 1;
	}

	period = every_ms * NSEC_PER_MSEC;
	start = now_ns();
	deadline = duration ? start + duration * NSEC_PER_SEC : 0;
	slot = start;
	memcpy(seed, &start, sizeof(seed));
	/* the spin stays in its slot: a random start in [0, period - spin) */
	offset = period - spin_us * NSEC_PER_USEC;

	while (!stop) {
		long long t0, t;

		slot += period;
		next = slot;
		if (random_phase && offset > 0)
			next += (long long)(erand48(seed) * (double)offset);
		if (deadline && next > deadline)
			break;
		ts.tv_sec = next / NSEC_PER_SEC;
		ts.tv_nsec = next % NSEC_PER_SEC;
		/* EINTR: a signal; sleep on to the same deadline unless it stops us */
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) && !stop)
			;
		if (stop)
			break;

		sched_setscheduler(0, SCHED_FIFO, &sp);
		t0 = now_ns();
		do
			t = now_ns();
		while (t - t0 < spin_us * NSEC_PER_USEC);

		/*
		 * Buffered, written at exit: a write() here would keep the CPU
		 * past the logged end and make the real overlap look shorter.
		 */
		if (log)
			fprintf(log, "%lld %lld\n", t0, t);
		sched_setscheduler(0, SCHED_FIFO, &(struct sched_param){ .sched_priority = 1 });
	}

	if (log && fclose(log)) {
		fprintf(stderr, "tlat-hog: %s: %s\n", logname, strerror(errno));
		return 1;
	}
	return 0;
}
