/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tool_common.h - what the live tests' C tools share: the flag SIGTERM and
 * SIGINT set, the monotonic clock, pinning to one CPU, and options parsed
 * into whole numbers within bounds, with one-line errors. Header only, so
 * that each tool still builds from its one .c file (scripts/vm/run.sh builds
 * tlat-hog so); the tool defines TOOL_NAME and TOOL_USAGE before it.
 */
#ifndef TLAT_TOOL_COMMON_H
#define TLAT_TOOL_COMMON_H

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC	1000000000LL

/* an option that takes a whole number in [min, max] */
struct tool_num {
	char opt;		/* 0 ends a table */
	long *value;
	long min;
	long max;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/**
 * catch_stop_signals - have SIGTERM and SIGINT set stop rather than end the tool
 */
static void catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

/**
 * now_ns - CLOCK_MONOTONIC in nanoseconds
 *
 * Return: the time.
 */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/**
 * usage - the usage line on stderr (getopt's own message is turned off), and exit 1
 */
static void usage(void)
{
	fprintf(stderr, "usage: %s\n", TOOL_USAGE);
	exit(1);
}

/**
 * parse_num - a whole number in [min, max], or a one-line error and exit 1
 * @s: the option's argument
 * @opt: the option, for the error
 * @min: the least value taken
 * @max: the greatest
 *
 * Return: the number.
 */
static long parse_num(const char *s, char opt, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, TOOL_NAME ": -%c: '%s' is not a number in [%ld, %ld]\n",
			opt, s, min, max);
		exit(1);
	}
	return v;
}

/**
 * tool_getopt - getopt() that sets the number options of nums itself
 * @argc: main()'s
 * @argv: main()'s
 * @optstring: every option, as getopt() takes them
 * @nums: the number options, up to one with a 0 opt
 *
 * A bad number, or an operand after the options, is the usage and exit 1.
 *
 * Return: the next option that is not a number option, for the caller
 * (optarg is its argument), or -1 after the last.
 */
static int tool_getopt(int argc, char **argv, const char *optstring, const struct tool_num *nums)
{
	int opt;

	opterr = 0;
	while ((opt = getopt(argc, argv, optstring)) != -1) {
		const struct tool_num *n = nums;

		while (n->opt && n->opt != opt)
			n++;
		if (!n->opt)
			return opt;
		*n->value = parse_num(optarg, opt, n->min, n->max);
	}
	if (optind != argc)
		usage();
	return -1;
}

/**
 * pin_to_cpu - run on one CPU only, or a one-line error and exit 1
 * @cpu: the CPU
 */
static void pin_to_cpu(long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, TOOL_NAME ": cannot pin to CPU %ld: %s\n", cpu, strerror(errno));
		exit(1);
	}
}

#endif
