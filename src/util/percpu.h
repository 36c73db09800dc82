/* SPDX-License-Identifier: GPL-2.0 */
/*
 * percpu.h - one block of memory per CPU, allocated (zeroed) on the CPU's
 * first use: on a machine of many CPUs, only the measured ones cost memory.
 */
#ifndef TLAT_UTIL_PERCPU_H
#define TLAT_UTIL_PERCPU_H

#include <stddef.h>

struct percpu {
	int nr_cpus;
	size_t size;		/* of each CPU's block */
	void **blocks;		/* [cpu], NULL until first used */
};

/**
 * percpu_init - room for a block of @size bytes on each of @nr_cpus CPUs
 *
 * Nothing is allocated per CPU yet. Returns 0, or -ENOMEM.
 */
int percpu_init(struct percpu *pc, int nr_cpus, size_t size);

/**
 * percpu_get - @cpu's block, allocated and zeroed the first time
 *
 * Returns NULL if @cpu is out of range or the allocation failed.
 */
void *percpu_get(struct percpu *pc, int cpu);

/**
 * percpu_peek - @cpu's block if it was ever used
 * @pc: the blocks
 * @cpu: the CPU
 *
 * A reader allocates nothing. Returns the block, or NULL if @cpu never used
 * one or is out of range.
 */
void *percpu_peek(const struct percpu *pc, int cpu);

/**
 * percpu_free - free every block
 * @pc: the blocks; a zeroed one, never initialised, is fine
 */
void percpu_free(struct percpu *pc);

#endif
