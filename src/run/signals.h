/* SPDX-License-Identifier: GPL-2.0 */
/*
 * signals.h - SIGINT, SIGTERM and SIGHUP end a run the way -d does: they only
 * set a flag, so that every way out passes through the restore of what the
 * run changed. The flag is tlat's one mutable global.
 */
#ifndef TLAT_RUN_SIGNALS_H
#define TLAT_RUN_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

extern volatile sig_atomic_t tlat_stop_requested;

/**
 * signals_install - from now on, a stop signal sets tlat_stop_requested
 */
void signals_install(void);
/**
 * signals_block - block or unblock the stop signals in this thread
 * @block: true to block them, false to unblock
 *
 * Threads created in between inherit the mask, so that the signals reach
 * the main thread.
 */
void signals_block(bool block);

#endif
