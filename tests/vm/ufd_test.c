// SPDX-License-Identifier: GPL-2.0
/*
 * ufd_test - exercise /dev/tlat, the module's user-thread interface.
 *
 *   ufd_test CPU LOOPS [BUSY_US]   measure on CPU: the open() rules, then
 *                                  LOOPS reads with BUSY_US of work after
 *                                  each (it shows as user-ret latency)
 *   ufd_test --busy CPU            only check that open() on CPU is EBUSY
 *   ufd_test --wait CPU            pin, open, read until a read fails;
 *                                  exit 0 then (for CPU hotplug tests)
 *   ufd_test --load PATH CPU LOOPS a user-provided load (tlat -U): pin, open
 *                                  PATH (retrying for 20 s while the tracer
 *                                  is being set up), read it LOOPS times
 *
 * Prints one "ok"/"not ok" line per check (TAP-like, without numbers: the
 * calling script counts them) and exits non-zero if a check failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEV "/dev/tlat"
#define CHECK_PREFIX "ufd: "
#include "vm_test.h"

static void busy_us(long us)
{
	double end = now_s() + us / 1e6;

	while (now_s() < end)
		;
}

struct other {
	int cpu;
	int fd;
	int open_err;
	int read_err;
};

/* A second thread: open on the same CPU, and read the first thread's fd. */
static void *other_thread(void *arg)
{
	struct other *o = arg;
	char c;

	pin(o->cpu);
	o->open_err = open_errno();
	o->read_err = read(o->fd, &c, 1) < 0 ? errno : 0;
	return NULL;
}

static int run(int cpu, int loops, long busy)
{
	struct sched_param sp = { .sched_priority = 95 };
	struct other o = { .cpu = cpu };
	pthread_t th;
	int fd, i, ok = 0;
	char c;

	check(open_errno() == EPERM || sysconf(_SC_NPROCESSORS_ONLN) == 1,
	      "open from an unpinned task fails with EPERM");

	if (pin(cpu)) {
		check(0, "pin to the CPU");
		return 1;
	}
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("sched_setscheduler");

	fd = open(DEV, O_RDONLY);
	check(fd >= 0, "open from a pinned task");
	if (fd < 0) {
		perror(DEV);
		return 1;
	}

	o.fd = fd;
	if (pthread_create(&th, NULL, other_thread, &o) == 0) {
		pthread_join(th, NULL);
		check(o.open_err == EBUSY, "second opener on the CPU gets EBUSY");
		check(o.read_err == EPERM, "read by another task gets EPERM");
	}

	for (i = 0; i < loops; i++) {
		if (read(fd, &c, 1) != 0) {
			perror("read");
			break;
		}
		ok++;
		if (busy)
			busy_us(busy);
	}
	printf("# ufd cpu%d: %d of %d reads returned 0\n", cpu, ok, loops);
	check(ok == loops, "every read returns 0");
	close(fd);

	fd = open(DEV, O_RDONLY);
	check(fd >= 0, "open again after close");
	if (fd >= 0)
		close(fd);
	return failed;
}

int main(int argc, char **argv)
{
	char c;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "--busy")) {
		pin(atoi(argv[2]));
		check(open_errno() == EBUSY,
		      "open where a kernel thread measures gets EBUSY");
		return failed;
	}
	if (argc == 3 && !strcmp(argv[1], "--wait")) {
		pin(atoi(argv[2]));
		fd = open(DEV, O_RDONLY);
		if (fd < 0) {
			perror(DEV);
			return 1;
		}
		while (read(fd, &c, 1) == 0)
			;
		printf("# ufd --wait: read failed: %s\n", strerror(errno));
		close(fd);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "--load")) {
		int loops = atoi(argv[4]);

		pin(atoi(argv[3]));
		for (int tries = 0; (fd = open(argv[2], O_RDONLY)) < 0 && tries < 200; tries++)
			usleep(100000);
		if (fd < 0) {
			perror(argv[2]);
			return 1;
		}
		while (loops-- > 0 && read(fd, &c, 1) >= 0)
			;
		close(fd);
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: %s CPU LOOPS [BUSY_US] | --busy CPU | --wait CPU | --load PATH CPU LOOPS\n",
			argv[0]);
		return 2;
	}
	return run(atoi(argv[1]), atoi(argv[2]), argc > 3 ? atol(argv[3]) : 0);
}
