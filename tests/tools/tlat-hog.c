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
#define _GNU_SOURCE	/* CPU_SET, sched_setaffinity */
#endif
#include <limits.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#define TOOL_NAME	"tlat-hog"
#define TOOL_USAGE \
	"tlat-hog [-c CPU] [-p PRIO] [-s SPIN_US] [-e EVERY_MS] [-d SECONDS] [-l LOGFILE] [-r]"
#include "tool_common.h"

#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_USEC	1000LL

int main(int argc, char **argv)
{
	long cpu = 1, prio = 99, spin_us = 3000, every_ms = 200, duration = 0;
	const struct tool_num nums[] = {
		{ 'c', &cpu, 0, CPU_SETSIZE - 1 },
		{ 'p', &prio, 1, 99 },
		{ 's', &spin_us, 1, 10000000 },
		{ 'e', &every_ms, 1, 3600000 },
		{ 'd', &duration, 0, INT_MAX },
		{ 0 },
	};
	const char *logname = NULL;
	struct sched_param sp = { 0 };
	long long start, next, period, deadline;
	struct timespec ts;
	unsigned short seed[3] = { 0 };
	long long slot, offset;
	bool random_phase = false;
	FILE *log = NULL;
	int opt;

	while ((opt = tool_getopt(argc, argv, "c:p:s:e:d:l:rh", nums)) != -1) {
		if (opt == 'l')
			logname = optarg;
		else if (opt == 'r')
			random_phase = true;
		else
			usage();
	}

	prctl(PR_SET_NAME, "tlat-hog", 0, 0, 0);
	catch_stop_signals();

	if (logname) {
		log = fopen(logname, "w");
		if (!log) {
			fprintf(stderr, "tlat-hog: %s: %s\n", logname, strerror(errno));
			return 1;
		}
		/* a day of spins at the default rate fits */
		setvbuf(log, NULL, _IOFBF, 1 << 22);
	}

	pin_to_cpu(cpu);
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
