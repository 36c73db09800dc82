// SPDX-License-Identifier: GPL-2.0
/*
 * percpu.c - lazily allocated per-CPU blocks (see percpu.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "util/percpu.h"

int percpu_init(struct percpu *pc, int nr_cpus, size_t size)
{
	pc->nr_cpus = nr_cpus;
	pc->size = size;
	pc->blocks = calloc(nr_cpus > 0 ? nr_cpus : 1, sizeof(*pc->blocks));
	return pc->blocks ? 0 : -ENOMEM;
}

void *percpu_get(struct percpu *pc, int cpu)
{
	if (cpu < 0 || cpu >= pc->nr_cpus)
		return NULL;
	if (!pc->blocks[cpu])
		pc->blocks[cpu] = calloc(1, pc->size);
	return pc->blocks[cpu];
}

void *percpu_peek(const struct percpu *pc, int cpu)
{
	return cpu >= 0 && cpu < pc->nr_cpus ? pc->blocks[cpu] : NULL;
}

void percpu_free(struct percpu *pc)
{
	for (int cpu = 0; pc->blocks && cpu < pc->nr_cpus; cpu++)
		free(pc->blocks[cpu]);
	free(pc->blocks);
	pc->blocks = NULL;
}
