// SPDX-License-Identifier: GPL-2.0
/*
 * loop.c - the measurement loop (see loop.h). It polls on a timer, never
 * per event: between passes the kernel keeps filling the buffers while tlat
 * sleeps.
 */
#include <errno.h>

#include "run/loop.h"

/*
 * A stop tlat saw before the kernel did: let the kernel finish the
 * activation first. With timerlat_fd it saves the stack only at the
 * thread's return to read(), which stopping the threads would prevent.
 */
static int loop_let_kernel_stop(const struct loop_env *env, char *err)
{
	int ret;

	if (!env->tracing_on(env->ctx))
		return 0;
	env->sleep_ns(env->ctx, LOOP_POLL_NS);
	ret = env->drain(env->ctx, env->now_ns(env->ctx) + LOOP_POLL_NS, err);
	return ret < 0 ? ret : 0;
}

int run_loop(const struct loop_env *env, struct pipeline *pl, const struct loop_window *w,
	     char *err)
{
	u64 next_frame_ns = w->start_ns + LOOP_FRAME_NS;
	bool armed = w->armed;
	bool backlog = false;
	bool stop_pending = false;
	bool kernel_stopped;
	u64 now, wait_ns;
	int ret;

	while (!env->stop_requested(env->ctx)) {
		/*
		 * The kernel's stops are armed as the warm-up ends, not up to a
		 * poll later: a hit in between would have neither the kernel's
		 * stop nor its stack.
		 */
		wait_ns = backlog ? 0 : LOOP_POLL_NS;
		now = env->now_ns(env->ctx);
		if (!armed && w->start_ns > now && w->start_ns - now < wait_ns)
			wait_ns = w->start_ns - now;
		/* and the run ends at -d, not up to a poll later: a kernel collector counts on */
		if (w->end_ns && w->end_ns > now && w->end_ns - now < wait_ns)
			wait_ns = w->end_ns - now;
		if (wait_ns)
			env->sleep_ns(env->ctx, wait_ns);
		now = env->now_ns(env->ctx);
		/* until the kernel's stops are armed, the pipeline's check stops alone */
		if (!armed && now >= w->start_ns) {
			armed = true;
			if (env->arm && env->arm(env->ctx, err))
				return -EIO;
		}
		/* the kernel stopped the buffer: what it wrote before still counts */
		kernel_stopped = !stop_pending && !env->tracing_on(env->ctx);
		/* bounded: -d, the signals and top's screen are seen a poll later at most */
		ret = env->drain(env->ctx, now + LOOP_POLL_NS, err);
		if (ret < 0)
			return ret;
		backlog = ret > 0;
		now = env->now_ns(env->ctx);
		/*
		 * A kernel stop tlat's own check did not see is a hit whose
		 * sample was lost, unless it came past -d's end: not a hit then.
		 * The records the kernel wrote before it may not all be read
		 * yet, the stop's sample among them: the hit waits for them.
		 */
		if (kernel_stopped && !(w->end_ns && now >= w->end_ns))
			stop_pending = true;
		if (stop_pending && !backlog) {
			stop_pending = false;
			pipeline_stop(pl);
		}
		if (pl->stopped) {
			stop_pending = false;
			ret = w->kernel_stops ? loop_let_kernel_stop(env, err) : 0;
			if (!ret)
				ret = env->hit(env->ctx, err);
			if (ret <= 0)
				return ret;
			now = env->now_ns(env->ctx);
		}
		if (w->end_ns && now >= w->end_ns && !stop_pending)
			break;
		if (env->frame && now >= next_frame_ns) {
			env->frame(env->ctx, now);
			next_frame_ns += LOOP_FRAME_NS;
		}
	}
	return 0;
}
