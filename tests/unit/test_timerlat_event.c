// SPDX-License-Identifier: GPL-2.0
/*
 * test_timerlat_event.c - decoding of timerlat-style samples from the
 * format files of both target kernels: Debian's 6.1-RT, whose extra common
 * field shifts the payload, and 6.12-RT (kernel.md section 2.1).
 */
#include <string.h>
#include <event-parse.h>

#include "sources/sample_event.h"
#include "unit_helpers.h"

static const char format_612[] =
	"name: tlat_sample\n"
	"ID: 1500\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	UNIT_TIMERLAT_FIELDS
	"\n"
	"print fmt: \"seq:%u\", REC->seqnum\n";

/* one more common field, and the payload moves */
static const char format_61rt[] =
	"name: tlat_sample\n"
	"ID: 1500\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\tfield:unsigned char common_preempt_lazy_count;\toffset:8;\tsize:1;\tsigned:0;\n"
	"\n"
	"\tfield:unsigned int seqnum;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:int context;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 timer_latency;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"seq:%u\", REC->seqnum\n";

static void decode_with(const char *format, int seq_off, int ctx_off, int lat_off)
{
	struct tep_handle *tep = unit_tep((const struct unit_format[]){ { "tlat", format }, {} });
	unsigned char data[32] = { 0 };
	struct tep_record record = { .data = data, .size = sizeof(data), .cpu = 3, .ts = 777 };
	struct timerlat_event ev;
	struct tlat_sample s;
	uint32_t seq = 42;
	int32_t ctx = 1;
	uint64_t lat = 123456;

	assert_int_equal(timerlat_event_init(&ev, tep, "tlat", "tlat_sample"), 0);
	assert_int_equal(ev.id, 1500);

	memcpy(data + seq_off, &seq, sizeof(seq));
	memcpy(data + ctx_off, &ctx, sizeof(ctx));
	memcpy(data + lat_off, &lat, sizeof(lat));
	assert_true(timerlat_event_decode(&ev, &record, &s));
	assert_int_equal(s.seq, 42);
	assert_int_equal(s.ctx, TLAT_CTX_THREAD);
	assert_int_equal(s.latency_ns, 123456);
	assert_int_equal(s.cpu, 3);
	assert_int_equal(s.ts_ns, 777);

	/* a context this decoder does not know is refused, not misfiled */
	ctx = 7;
	memcpy(data + ctx_off, &ctx, sizeof(ctx));
	assert_false(timerlat_event_decode(&ev, &record, &s));
	tep_free(tep);
}

static void test_decode_612(void **state)
{
	(void)state;
	decode_with(format_612, 8, 12, 16);
}

static void test_decode_61rt(void **state)
{
	(void)state;
	decode_with(format_61rt, 12, 16, 24);
}

static void test_missing_event(void **state)
{
	struct tep_handle *tep = tep_alloc();
	struct timerlat_event ev;

	(void)state;
	assert_int_not_equal(timerlat_event_init(&ev, tep, "tlat", "tlat_sample"), 0);
	tep_free(tep);
}

UNIT_MAIN("timerlat_event",
	cmocka_unit_test(test_decode_612),
	cmocka_unit_test(test_decode_61rt),
	cmocka_unit_test(test_missing_event),
)
