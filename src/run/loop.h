/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loop.h - the measurement loop: every poll, hand what the kernel has to
 * the pipeline, notice a threshold (tlat's own check or the kernel's stop),
 * refresh top's screen, and end at -d or on a stop signal. The time, the
 * sleep and the buffers come through struct loop_env, so that the unit
 * tests drive the loop with a synthetic source and a clock of their own.
 */
#ifndef TLAT_RUN_LOOP_H
#define TLAT_RUN_LOOP_H

#include <stdbool.h>

#include "run/pipeline.h"

/* how often the buffers are drained: each pass has a fixed cost of ~0.2 ms */
#define LOOP_POLL_NS	(250 * 1000000ull)
#define LOOP_FRAME_NS	(1000 * 1000000ull)	/* top's refresh, as rtla's */

struct loop_env {
	u64 (*now_ns)(void *ctx);
	/* a stop signal cuts it short */
	void (*sleep_ns)(void *ctx, u64 ns);
	bool (*stop_requested)(void *ctx);
	/* whether tracing is on: off is the kernel's stop at a threshold of its own */
	bool (*tracing_on)(void *ctx);
	/*
	 * Read the buffers, every sample to the pipeline, until they are empty
	 * or until_ns passes: 0 (emptied), 1 (records left: the writers
	 * outpace tlat, so the loop reads on without sleeping), or -errno,
	 * err set.
	 */
	int (*drain)(void *ctx, u64 until_ns, char *err);
	/* arm the kernel's stop thresholds once the warm-up is over; NULL: it has none */
	int (*arm)(void *ctx, char *err);
	/* top's refresh; NULL: none */
	void (*frame)(void *ctx, u64 now_ns);
	/*
	 * A threshold was hit (the pipeline is stopped): run the --on-threshold
	 * actions. 1 when the run measures on (a continue action: the hit is
	 * reported, and the pipeline and tracing resumed), 0 when the run
	 * ends, or -errno with err set.
	 */
	int (*hit)(void *ctx, char *err);
	void *ctx;
};

struct loop_window {
	u64 start_ns;		/* the warm-up ends: the kernel's stops are armed */
	/*
	 * -d: the loop ends (0: not before a signal), or once it has read what
	 * the kernel wrote before a stop it saw earlier: that stop is a hit
	 */
	u64 end_ns;
	bool armed;		/* no warm-up: the kernel's stops are armed from the start */
	bool kernel_stops;	/* the source's kernel side stops tracing at a threshold too */
};

/**
 * run_loop - measure until -d, a stop signal, or a threshold that ends the run
 *
 * Returns 0 (the pipeline says whether a threshold stopped it), or -errno
 * with err set.
 */
int run_loop(const struct loop_env *env, struct pipeline *pl, const struct loop_window *w,
	     char *err);

#endif
