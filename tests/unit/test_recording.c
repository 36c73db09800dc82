// SPDX-License-Identifier: GPL-2.0
/*
 * test_recording.c - what tlat report needs besides libtracecmd: the line
 * tlat record writes about its run, and the sources' decoders set up from a
 * tep alone, fed with synthetic records in the kernel's formats. The
 * tracepoint decoder knows no thread ids: the markers must name them.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "sources/source.h"
#include "tracedat/dat_read.h"
#include "unit_helpers.h"

#define NR_CPUS		4
#define MAX_SAMPLES	64
#define MARKER_ID	0x746c6174u	/* "tlat", as the tracepoint source writes it */
#define TID		1000
#define TIMER		0xffffc90000001000ull

#define HDR	"format:\n" UNIT_COMMON_FIELDS "\n"

enum { ID_RAW = 19, ID_TIMERLAT = 21, ID_SWITCH = 372, ID_SYSEXIT = 442, ID_EXPIRE = 459,
       ID_START = 460 };

static const struct unit_format formats[] = {
	{ "ftrace", "name: raw_data\nID: 19\n" HDR
	  "\tfield:unsigned int id;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:char buf[];\toffset:12;\tsize:0;\tsigned:0;\n\n"
	  "print fmt: \"# %x buf\", REC->id\n" },
	{ "ftrace", "name: timerlat\nID: 21\n" HDR UNIT_TIMERLAT_FIELDS "\n"
	  "print fmt: \"%10u\", REC->seqnum\n" },
	{ "timer", "name: hrtimer_start\nID: 460\n" HDR
	  "\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
	  "\tfield:s64 expires;\toffset:24;\tsize:8;\tsigned:1;\n"
	  "\tfield:s64 softexpires;\toffset:32;\tsize:8;\tsigned:1;\n"
	  "\tfield:enum hrtimer_mode mode;\toffset:40;\tsize:4;\tsigned:0;\n\n"
	  "print fmt: \"hrtimer=%p\", REC->hrtimer\n" },
	{ "timer", "name: hrtimer_expire_entry\nID: 459\n" HDR
	  "\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:s64 now;\toffset:16;\tsize:8;\tsigned:1;\n"
	  "\tfield:void * function;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	  "print fmt: \"hrtimer=%p\", REC->hrtimer\n" },
	{ "sched", "name: sched_switch\nID: 372\n" HDR UNIT_SCHED_SWITCH_FIELDS "\n"
	  "print fmt: \"next_pid=%d\", REC->next_pid\n" },
	{ "raw_syscalls", "name: sys_exit\nID: 442\n" HDR
	  "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	  "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n\n"
	  "print fmt: \"NR %ld\", REC->id\n" },
	{ NULL, NULL },
};

struct fixture {
	struct tlat_sink sink;		/* first: decoders call back through it */
	struct tlat_params params;
	struct tep_handle *tep;
	struct tlat_source *src;
	const struct tlat_decoder_ops *ops;
	struct tlat_sample s[MAX_SAMPLES];
	int n;
	char err[TLAT_ERR_LEN];
};

static void capture(struct tlat_sink *sink, const struct tlat_sample *sample)
{
	struct fixture *f = (struct fixture *)sink;

	if (f->n >= MAX_SAMPLES)
		fail_msg("too many samples");
	f->s[f->n++] = *sample;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || cli_params_init(&f->params, TLAT_MODE_TOP, NR_CPUS))
		return -1;
	f->sink.sample = capture;
	f->tep = unit_tep(formats);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->src)
		f->ops->close(f->src);
	tep_free(f->tep);
	cli_params_free(&f->params);
	free(f);
	return 0;
}

static void open_decoder(struct fixture *f, const struct tlat_source_ops *ops)
{
	f->ops = ops->decoder;
	assert_non_null(f->ops);
	assert_int_equal(f->ops->open(&f->src, &f->params, f->tep, f->err), 0);
}

/* one record of event id by pid on cpu at ts, its payload after the common header */
static void feed(struct fixture *f, int id, int cpu, int pid, u64 ts, const void *payload,
		 size_t len)
{
	unsigned char data[128] = { 0 };
	uint16_t type = id;
	struct tep_record record = { .ts = ts, .cpu = cpu, .size = 8 + len, .data = data };

	assert_true(8 + len <= sizeof(data));
	memcpy(data, &type, sizeof(type));
	memcpy(data + 4, &pid, sizeof(pid));
	memcpy(data + 8, payload, len);
	f->ops->record(f->src, tep_find_event(f->tep, id), &record, &f->sink);
}

/* what a measuring thread writes to trace_marker_raw: the hello has no times */
static void marker(struct fixture *f, int cpu, u64 ts, u64 requested, u64 now)
{
	struct { uint32_t id, cpu; uint64_t requested, now; } __attribute__((packed)) m = {
		MARKER_ID, cpu, requested, now
	};

	feed(f, ID_RAW, cpu, TID, ts, &m, sizeof(m));
}

/* one activation of the thread on cpu 0: expiry at base + 1000, 10/20/30 ns late */
static void activation(struct fixture *f, u64 base)
{
	u64 expires = base + 1000;
	struct { u64 timer, function; int64_t expires, soft; uint32_t mode; } start = {
		TIMER, 0, expires, expires, 0
	};
	struct { u64 timer; int64_t now; u64 function; } expire = { TIMER, expires + 10, 0 };
	struct { char prev_comm[16]; int32_t prev_pid, prev_prio; int64_t prev_state;
		 char next_comm[16]; int32_t next_pid, next_prio; } sw = {
		"swapper/0", 0, 120, 0, "tlat/0", TID, 4
	};

	feed(f, ID_START, 0, TID, base + 1, &start, sizeof(start));
	feed(f, ID_EXPIRE, 0, 0, expires + 11, &expire, sizeof(expire));
	feed(f, ID_SWITCH, 0, 0, expires + 20, &sw, sizeof(sw));
	marker(f, 0, expires + 31, expires, expires + 30);
}

static void test_meta_round_trip(void **state)
{
	struct dat_meta in = {
		.source = "tracepoints", .start_ns = 13897033961155ull, .end_ns = 13902033961155ull,
		.stop_irq_us = 7, .stop_thread_us = 150, .stack_us = 3, .user_data = true,
	};
	struct dat_meta out;
	char line[256];

	(void)state;
	assert_true(dat_meta_format(line, sizeof(line), &in) < (int)sizeof(line));
	assert_true(dat_meta_parse(line, sizeof(line), &out));
	assert_string_equal(out.source, in.source);
	assert_int_equal(out.start_ns, in.start_ns);
	assert_int_equal(out.end_ns, in.end_ns);
	assert_int_equal(out.stop_irq_us, in.stop_irq_us);
	assert_int_equal(out.stop_thread_us, in.stop_thread_us);
	assert_int_equal(out.stack_us, in.stack_us);
	assert_true(out.user_data);
	/* trace_marker adds a newline; the field may run past the string */
	strcat(line, "\n");
	assert_true(dat_meta_parse(line, strlen(line) + 8, &out));
	assert_int_equal(out.stack_us, 3);
}

static void test_meta_foreign(void **state)
{
	struct dat_meta m;
	const char later[] = DAT_META_PREFIX " source=module color=blue end_ns=5";

	(void)state;
	assert_false(dat_meta_parse("hello world", 11, &m));
	assert_false(dat_meta_parse(DAT_META_PREFIX " start_ns=1", 64, &m));
	/* a later tlat's keys are skipped, the known ones still read */
	assert_true(dat_meta_parse(later, sizeof(later), &m));
	assert_string_equal(m.source, "module");
	assert_int_equal(m.end_ns, 5);
	assert_int_equal(m.start_ns, 0);
	/* cut short by the record's size: no source left */
	assert_false(dat_meta_parse(later, strlen(DAT_META_PREFIX) + 4, &m));
}

static void test_tracepoints_hello_names_thread(void **state)
{
	struct fixture *f = *state;

	open_decoder(f, &tracepoints_source_ops);
	marker(f, 0, 5, 0, 0);
	activation(f, 100);
	activation(f, 2000);
	assert_int_equal(f->n, 6);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(f->s[i].ctx, i);
		assert_int_equal(f->s[i].latency_ns, 10 * (i + 1));
		assert_int_equal(f->s[i].cpu, 0);
		assert_int_equal(f->s[i].seq, 0);
	}
	assert_int_equal(f->s[0].pid, 0);	/* the IRQ interrupted the idle task */
	assert_int_equal(f->s[1].pid, TID);
	assert_int_equal(f->s[5].seq, 1);
}

/* a recording without the hello (or cut): its first activation is not complete */
static void test_tracepoints_learns_from_any_marker(void **state)
{
	struct fixture *f = *state;

	open_decoder(f, &tracepoints_source_ops);
	activation(f, 100);
	assert_int_equal(f->n, 0);
	activation(f, 2000);
	assert_int_equal(f->n, 3);
	assert_int_equal(f->s[2].latency_ns, 30);
}

static void test_timerlat_decoder(void **state)
{
	struct fixture *f = *state;
	struct { uint32_t seq; int32_t ctx; uint64_t latency; } payload = { 9, 2, 4321 };

	open_decoder(f, &timerlat_source_ops);
	feed(f, ID_TIMERLAT, 3, TID, 99, &payload, sizeof(payload));
	assert_int_equal(f->n, 1);
	assert_int_equal(f->s[0].ctx, TLAT_CTX_USER);
	assert_int_equal(f->s[0].latency_ns, 4321);
	assert_int_equal(f->s[0].cpu, 3);
	assert_int_equal(f->s[0].ts_ns, 99);
}

/* the scan skips a source whose events have no format in the recording */
static void test_module_decoder_needs_its_format(void **state)
{
	struct fixture *f = *state;
	struct tlat_source *src = NULL;

	assert_int_not_equal(module_source_ops.decoder->open(&src, &f->params, f->tep, f->err), 0);
	assert_non_null(strstr(f->err, "tlat:tlat_sample"));
	module_source_ops.decoder->close(src);
}

UNIT_MAIN("recording",
	cmocka_unit_test(test_meta_round_trip),
	cmocka_unit_test(test_meta_foreign),
	cmocka_unit_test_setup_teardown(test_tracepoints_hello_names_thread, setup, teardown),
	cmocka_unit_test_setup_teardown(test_tracepoints_learns_from_any_marker, setup,
					teardown),
	cmocka_unit_test_setup_teardown(test_timerlat_decoder, setup, teardown),
	cmocka_unit_test_setup_teardown(test_module_decoder_needs_its_format, setup,
					teardown),
)
