// SPDX-License-Identifier: GPL-2.0
/*
 * test_collector.c - a pass of a kernel-side collector (collect_drain(),
 * sources/source.h's kernel collector's drain()): what the source hands
 * over is counted, and a source that cannot read the kernel's samples ends
 * the drain with its error line instead of a run that silently counts
 * nothing (tlat.ko's /dev/tlat_agg, read at each drain).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>

#include "core/err.h"
#include "sources/collect.h"
#include "unit_helpers.h"

/* the source's own state: what its next drain does */
struct tlat_source {
	int ret;
	u64 samples;
};

static int fake_drain(struct tlat_source *src, struct tlat_sink *sink, u64 *processed,
		      u64 *lost, char *err)
{
	(void)sink;
	(void)lost;
	if (src->ret < 0) {
		tlat_err(err, "cannot read /dev/tlat_agg: %s", strerror(-src->ret));
		return src->ret;
	}
	*processed += src->samples;
	return src->ret;
}

static const struct tlat_decoder_ops fake_decoder;
static const struct tlat_kernel_collector_ops fake_kernel = { .drain = fake_drain };
static const struct tlat_source_ops fake_ops = {
	.name = "fake",
	.decoder = &fake_decoder,
	.kernel = &fake_kernel,
};

static void test_drain_counts_the_kernels_samples(void **state)
{
	struct tlat_source src = { .ret = 0, .samples = 3 };
	struct tlat_collector c;
	char err[TLAT_ERR_LEN] = "";

	(void)state;
	collector_init_offline(&c, NULL, fake_ops.decoder);
	collector_attach(&c, &src, NULL);
	assert_int_equal(collect_drain(&fake_ops, &src, &c, 0, err), 0);
	assert_int_equal(collect_drain(&fake_ops, &src, &c, 0, err), 0);
	assert_int_equal(c.counts.processed, 6);
	assert_string_equal(err, "");
}

static void test_drain_error_ends_the_drain_with_its_line(void **state)
{
	struct tlat_source src = { .ret = -EIO };
	struct tlat_collector c;
	char err[TLAT_ERR_LEN] = "";

	(void)state;
	collector_init_offline(&c, NULL, fake_ops.decoder);
	collector_attach(&c, &src, NULL);
	assert_int_equal(collect_drain(&fake_ops, &src, &c, 0, err), -EIO);
	assert_string_equal(err, "cannot read /dev/tlat_agg: Input/output error");
	assert_int_equal(c.counts.processed, 0);
}

UNIT_MAIN("collector",
	cmocka_unit_test(test_drain_counts_the_kernels_samples),
	cmocka_unit_test(test_drain_error_ends_the_drain_with_its_line),
)
