// SPDX-License-Identifier: GPL-2.0
/*
 * buffer_percpu.c - a pass over a group of CPUs, CPU by CPU (see
 * buffer_percpu.h).
 */
#include "trace/buffer_percpu.h"
#include "util/clock.h"

/* records handed on between two looks at the clock, as buffer_read.c */
#define PERCPU_CLOCK_EVERY	64

int percpu_drain(const struct percpu_stream_ops *ops, void *sctx, struct percpu_group *g,
		 struct percpu_state *state, u64 until_ns, buffer_record_fn fn, void *ctx)
{
	struct tep_record *record;
	struct tep_event *event;
	unsigned int handed = 0;
	int left = g->nr;

	for (int i = 0; i < g->nr; i++)
		state[g->cpus[i]].emptied = false;
	while (left) {
		int cpu = g->cpus[g->next];
		struct percpu_state *st = &state[cpu];

		for (int n = 0; !st->emptied && n < PERCPU_TURN; n++) {
			if (!ops->peek(sctx, cpu, &event, &record)) {
				st->emptied = true;
				left--;
				break;
			}
			/* the record stays pending: the next pass hands it on first */
			/* and the next CPU's turn comes first: each gets read */
			if (until_ns && ++handed % PERCPU_CLOCK_EVERY == 0 &&
			    mono_now_ns() >= until_ns) {
				g->next = (g->next + 1) % g->nr;
				return 1;
			}
			fn(event, record, cpu, ctx);
			st->handed = true;
			st->last_ts = record->ts;
			ops->take(sctx, cpu);
		}
		g->next = (g->next + 1) % g->nr;
	}
	return 0;
}
