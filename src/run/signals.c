// SPDX-License-Identifier: GPL-2.0
/*
 * signals.c - the stop signals (see signals.h).
 */
#include <pthread.h>
#include <stddef.h>

#include "core/array.h"
#include "run/signals.h"

volatile sig_atomic_t tlat_stop_requested;

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void on_stop_signal(int sig)
{
	(void)sig;
	tlat_stop_requested = 1;
}

void signals_install(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaction(stop_signals[i], &sa, NULL);
}

void signals_block(bool block)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaddset(&set, stop_signals[i]);
	pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}
