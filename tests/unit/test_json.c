// SPDX-License-Identifier: GPL-2.0
/*
 * test_json.c - the two --json documents built from synthetic statistics,
 * histograms, percentiles and auto-analysis results, read back through
 * json-c's parser: each value must be the one the text would show (in ns
 * for tlat's schema, in the display unit for the rt-tests shape), nulls
 * where there is nothing, and the rt-tests shape exactly cyclictest's keys
 * in cyclictest's order. With TLAT_JSON_DUMP_DIR set, the documents are
 * also written there, so that the live tests validate them against the
 * schemas: these are the only documents with every auto-analysis field set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>

#include "core/version.h"
#include "output/json_doc.h"
#include "stats/loglinear.h"
#include "tracedat/dat_meta.h"
#include "unit_json.h"

#define NR_CPUS		UNIT_NR_CPUS

struct fixture {
	struct unit_report r;
	struct tlat_sysinfo sys;
	struct json_object *doc;	/* the last document, parsed back; r.text as written */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->r.loglinear = true;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unit_report_clear(&f->r);
	json_object_put(f->doc);
	free(f);
	return 0;
}

#define START(f, mode, ...)	start(f, mode, UNIT_ARGC("tlat", __VA_ARGS__), \
				      UNIT_ARGV("tlat", __VA_ARGS__))

/* a finished run of "tlat top|hist <args>" on a made-up machine, no samples yet */
static void start(struct fixture *f, enum tlat_mode mode, int argc, char **argv)
{
	/* as main(): the command name is the parser's argv[0] */
	unit_report_start(&f->r, mode, argc - 1, argv + 1);
	f->r.params.argc = argc;
	f->r.params.argv = argv;
	strcpy(f->sys.uts.sysname, "Linux");
	strcpy(f->sys.uts.nodename, "rig");
	strcpy(f->sys.uts.release, "6.12.57-rt-amd64");
	strcpy(f->sys.uts.version, "#1 SMP PREEMPT_RT Debian 6.12.57-1");
	strcpy(f->sys.uts.machine, "x86_64");
	strcpy(f->sys.cmdline, "BOOT_IMAGE=/vmlinuz isolcpus=1-3");
	f->sys.nr_cpus = NR_CPUS;
	f->sys.nr_online = NR_CPUS;
	f->sys.realtime = true;
	f->r.report = (struct tlat_report){
		.params = &f->r.params,
		.agg = f->r.agg,
		.sys = &f->sys,
		.user_data = true,
		.elapsed_s = 3,
		.processed_events = 1000,
		.source = "tracepoints",
		.start_time = 1700000000,
		.end_time = 1700000003,
	};
}

/* CPU 0 and CPU 2 measured; CPU 1 produced nothing; CPU 3 is not measured (-c 0-2) */
static void add_samples(struct fixture *f)
{
	unit_report_add(&f->r, 0, TLAT_CTX_IRQ, 1500, 90);
	unit_report_add(&f->r, 0, TLAT_CTX_IRQ, 7000, 10);
	unit_report_add(&f->r, 0, TLAT_CTX_THREAD, 4200, 99);
	unit_report_add(&f->r, 0, TLAT_CTX_THREAD, 300000, 1);	/* over -E 100 us: overflow */
	unit_report_add(&f->r, 0, TLAT_CTX_USER, 5100, 100);
	unit_report_add(&f->r, 2, TLAT_CTX_IRQ, 2999, 100);
	unit_report_add(&f->r, 2, TLAT_CTX_THREAD, 6001, 100);
	unit_report_add(&f->r, 2, TLAT_CTX_USER, 7000, 100);
	unit_report_add(&f->r, 3, TLAT_CTX_THREAD, 1, 5);		/* never shown */
}

/* the document, written as json_output does, parsed back and dumped */
static void render(struct fixture *f, bool rttests, const char *name)
{
	json_object_put(f->doc);
	f->doc = unit_json_document(&f->r, rttests, name);
}

/* a percentile: pctl's answer, so within 1/256 of the exact one */
static void expect_pctl(struct fixture *f, const char *ptr, int cpu, enum tlat_ctx ctx, u32 ppm,
			u64 exact)
{
	u64 got = unit_json_num(f->doc, ptr), want;

	if (cpu < 0)
		assert_true(agg_percentile_merged(f->r.agg, &f->r.params.cpus, ctx, ppm, &want));
	else
		assert_true(agg_percentile(f->r.agg, cpu, ctx, ppm, &want));
	assert_int_equal(got, want);
	if ((got > exact ? got - exact : exact - got) * 256 > exact)
		fail_msg("%s: %llu, exact %llu", ptr, (unsigned long long)got,
			 (unsigned long long)exact);
}

#define EXPECT_DOC(f, ...)	UNIT_EXPECT_DOC((f)->doc, __VA_ARGS__)

/* what tlat top -c 0-2 -P f:42 -d 3 -q --json - says of itself and of the machine */
static const struct unit_want top_wants[] = {
	IS_STR("/schema_version", "tlat/1.1"),
	IS_STR("/command", "top"),
	IS_STR("/argv/0", "tlat"),
	IS_STR("/argv/10", "-"),
	IS_STR("/source", "tracepoints"),
	IS_STR("/start_time", "2023-11-14T22:13:20Z"),
	IS_STR("/end_time", "2023-11-14T22:13:23Z"),
	IS_STR("/end", "duration"),
	IS_NUM("/exit_status", 0),
	IS_STR("/unit", "ns"),
	IS_STR("/contexts/2", "user"),
	/* the options as parsed */
	IS_NUM("/options/period_us", 1000),
	IS_NUM("/options/duration_s", 3),
	IS_NUM("/options/cpus/2", 2),
	IS_ABSENT("/options/cpus/3"),
	IS_STR("/options/priority/policy", "fifo"),
	IS_NUM("/options/priority/priority", 42),
	IS_NULL("/options/irq_threshold_us"),
	IS_NULL("/options/house_keeping"),
	IS_STR("/options/json", "-"),
	IS_ABSENT("/options/hist"),
	/* the machine */
	IS_STR("/system/release", "6.12.57-rt-amd64"),
	IS_STR("/system/kernel_cmdline", "BOOT_IMAGE=/vmlinuz isolcpus=1-3"),
	IS_NULL("/system/cpu_model"),
	IS_TRUE("/system/realtime"),
};

static void test_tlat_top(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "top", "-c", "0-2", "-P", "f:42", "-d", "3", "-q", "--json", "-");
	add_samples(f);
	render(f, false, "unit-tlat-top");

	unit_json_expect(f->doc, top_wants, UNIT_ARRAY_SIZE(top_wants));

	/* CPU 0: the text's numbers, in ns */
	EXPECT_DOC(f,
		IS_NUM("/cpus/0/cpu", 0),
		IS_NUM("/cpus/0/irq/count", 100),
		IS_NUM("/cpus/0/irq/min", 1500),
		IS_NUM("/cpus/0/irq/avg", (90 * 1500 + 10 * 7000) / 100),
		IS_NUM("/cpus/0/irq/max", 7000));
	expect_pctl(f, "/cpus/0/irq/percentiles/p50", 0, TLAT_CTX_IRQ, 500000, 1500);
	expect_pctl(f, "/cpus/0/irq/percentiles/p90", 0, TLAT_CTX_IRQ, 900000, 1500);
	expect_pctl(f, "/cpus/0/irq/percentiles/p99", 0, TLAT_CTX_IRQ, 990000, 7000);
	expect_pctl(f, "/cpus/0/thread/percentiles/p99", 0, TLAT_CTX_THREAD, 990000, 4200);
	/* the maximum is exact */
	EXPECT_DOC(f,
		IS_NUM("/cpus/0/thread/percentiles/p99_9", 300000),
		IS_NUM("/cpus/0/thread/percentiles/p99_99", 300000));
	expect_pctl(f, "/cpus/2/user/percentiles/p50", 2, TLAT_CTX_USER, 500000, 7000);
	/* tlat/1.1: the log-linear buckets, [lowest ns, count], non-empty ones */
	EXPECT_DOC(f,
		IS_NUM("/cpus/0/irq/loglinear/0/0", loglin_lowest(loglin_index(1500))),
		IS_NUM("/cpus/0/irq/loglinear/0/1", 90),
		IS_NUM("/cpus/0/irq/loglinear/1/0", loglin_lowest(loglin_index(7000))),
		IS_NUM("/cpus/0/irq/loglinear/1/1", 10),
		IS_ABSENT("/cpus/0/irq/loglinear/2"),
		IS_ABSENT("/cpus/1/thread/loglinear/0"),
		IS_ABSENT("/all/thread/loglinear"),
		IS_NUM("/loglinear/sub_bits", LOGLIN_SUB_BITS),
		IS_NUM("/loglinear/max_bits", LOGLIN_MAX_BITS),
		/* CPU 1 was measured but produced nothing: there, with nulls */
		IS_NUM("/cpus/1/cpu", 1),
		IS_NUM("/cpus/1/thread/count", 0),
		IS_NULL("/cpus/1/thread/min"),
		IS_NULL("/cpus/1/thread/avg"),
		IS_NULL("/cpus/1/thread/percentiles"),
		IS_NUM("/cpus/2/cpu", 2),
		/* CPU 3 was not measured */
		IS_ABSENT("/cpus/3"),
		/* no histogram in top mode */
		IS_ABSENT("/cpus/0/irq/histogram"),
		IS_NULL("/histogram"),
		/* ALL: CPUs 0 and 2 together, CPU 3's samples left out */
		IS_NUM("/all/thread/count", 200),
		IS_NUM("/all/thread/min", 4200),
		IS_NUM("/all/thread/max", 300000));
	/* 99 x 4200, 100 x 6001, 1 x 300000: the 100th is the first 6001 */
	expect_pctl(f, "/all/thread/percentiles/p50", -1, TLAT_CTX_THREAD, 500000, 6001);
	expect_pctl(f, "/all/thread/percentiles/p90", -1, TLAT_CTX_THREAD, 900000, 6001);
	expect_pctl(f, "/all/thread/percentiles/p99_99", -1, TLAT_CTX_THREAD, 999900, 300000);
	expect_pctl(f, "/all/irq/percentiles/p50", -1, TLAT_CTX_IRQ, 500000, 2999);

	EXPECT_DOC(f,
		IS_NUM("/events/processed", 1000),
		IS_NUM("/events/missed", 0),
		IS_FALSE("/threshold/hit"),
		IS_NULL("/threshold/sample"),
		IS_NULL("/auto_analysis"));
}

static void test_tlat_kernel_threads_unknown_missed(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "top", "-k", "--json", "out.json");
	f->r.report.user_data = false;
	f->r.report.missed_events = TLAT_MISSED_UNKNOWN;
	f->r.report.interrupted = true;
	add_samples(f);
	render(f, false, "unit-tlat-kernel");
	/* no user-return context at all, not an empty one */
	EXPECT_DOC(f,
		IS_ABSENT("/contexts/2"),
		IS_ABSENT("/cpus/0/user"),
		IS_ABSENT("/all/user"),
		IS_NULL("/events/missed"),
		IS_STR("/end", "signal"),
		IS_STR("/options/threads", "kernel"));
}

static void test_tlat_hist(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST, "hist", "-c", "0-2", "-b", "2", "-E", "50", "--json", "h.json");
	add_samples(f);
	render(f, false, "unit-tlat-hist");
	EXPECT_DOC(f,
		IS_STR("/command", "hist"),
		IS_STR("/histogram/unit", "us"),
		IS_NUM("/histogram/bucket_size", 2),
		IS_NUM("/histogram/entries", 50),
		IS_NUM("/options/hist/bucket_size", 2),
		/* 1.5 us is in the 0-2 us bucket, 7 us in 6-8: rows [index, count] as the text's */
		IS_NUM("/cpus/0/irq/histogram/buckets/0/0", 0),
		IS_NUM("/cpus/0/irq/histogram/buckets/0/1", 90),
		IS_NUM("/cpus/0/irq/histogram/buckets/1/0", 6),
		IS_NUM("/cpus/0/irq/histogram/buckets/1/1", 10),
		IS_ABSENT("/cpus/0/irq/histogram/buckets/2"),
		IS_NUM("/cpus/0/irq/histogram/over", 0),
		/* 300 us is over 50 buckets of 2 us */
		IS_NUM("/cpus/0/thread/histogram/buckets/0/0", 4),
		IS_NUM("/cpus/0/thread/histogram/over", 1),
		/* a CPU with no sample has an empty histogram */
		IS_ABSENT("/cpus/1/irq/histogram/buckets/0"),
		/* ALL has no histogram, as the text has none */
		IS_ABSENT("/all/irq/histogram"));
}

/* a fake symbol table: one name per address */
static const struct unit_symbol symbols[] = {
	{ 0xffffffff81234567ull, "hrtimer_interrupt" },
	{ 0xffffffff8100aaaaull, "asm_sysvec_apic_timer_interrupt" },
	{ 0, NULL },
};

/* a thread stop on CPU 2: every part of the analysis, and a stack */
static const struct aa_result thread_stop = {
	.cpu = 2, .seq = 42, .complete = true, .total_ns = 1234567,
	.irq_latency_ns = 5000, .thread_latency_ns = 1234567, .irq_delay_ns = 3000,
	.timer_irq_seen = true, .timer_irq_ns = 2000,
	.blocking_pid = 4242, .blocking_comm = "tlat-hog", .blocking_ns = 1000000,
	.parts = {
		[AA_IRQ] = { .sum_ns = 10000, .nr_lines = 1, .lines = { { 33, "eth0", 10000 } },
			     .nr_occs = 2,
			     .occs = { { 33, "eth0", 4000 }, { 33, "eth0", 6000 } } },
		[AA_SOFTIRQ] = { .sum_ns = 20000, .nr_lines = 1,
				 .lines = { { 3, "NET_RX", 20000 } } },
		[AA_THREAD] = { .sum_ns = 150000, .nr_lines = 2,
				.lines = { { 7, "kworker/2:1", 100000 },
					   { 8, "ksoftirqd/2", 40000 } },
				.other_ns = 10000 },
	},
	.unexplained_ns = 1234567 - 3000 - 2000 - 1000000 - 10000 - 20000 - 150000,
	.nr_frames = 3,
	.frames = { 0xffffffff81234567ull, 0xffffffffc0de0000ull, 0xffffffff8100aaaaull },
};

/* an IRQ stop on CPU 0, out of idle, with an NMI */
static const struct aa_result irq_stop = {
	.cpu = 0, .seq = 7, .irq_stop = true, .total_ns = 80000, .irq_latency_ns = 80000,
	.irq_delay_ns = 79000, .exit_from_idle = true, .blocking_pid = -1,
	.parts = { [AA_NMI] = { .sum_ns = 500, .nr_lines = 1, .lines = { { 2, "nmi", 500 } } } },
};

/* the IRQ stop: what follows the IRQ handler is null, as the text omits it */
static const struct unit_want irq_stop_wants[] = {
	IS_NUM("/auto_analysis/cpus/0/cpu", 0),
	IS_STR("/auto_analysis/cpus/0/stop", "irq"),
	IS_TRUE("/auto_analysis/cpus/0/exit_from_idle"),
	IS_NUM("/auto_analysis/cpus/0/irq_handler_delay_ns", 79000),
	IS_NULL("/auto_analysis/cpus/0/thread_latency_ns"),
	IS_NULL("/auto_analysis/cpus/0/timer_irq_ns"),
	IS_NULL("/auto_analysis/cpus/0/blocking_thread/pid"),
	IS_NULL("/auto_analysis/cpus/0/blocking_thread/comm"),
	IS_NULL("/auto_analysis/cpus/0/blocking_thread/ns"),
	IS_NUM("/auto_analysis/cpus/0/interference/nmi/ns", 500),
	IS_NULL("/auto_analysis/cpus/0/interference/irq"),
	IS_NULL("/auto_analysis/cpus/0/unexplained_ns"),
	IS_ABSENT("/auto_analysis/cpus/0/stack/0"),
};

/* the thread stop: every part, its lines, the stack with its symbols */
static const struct unit_want thread_stop_wants[] = {
	IS_STR("/auto_analysis/cpus/1/stop", "thread"),
	IS_NUM("/auto_analysis/cpus/1/seq", 42),
	IS_TRUE("/auto_analysis/cpus/1/complete"),
	IS_NUM("/auto_analysis/cpus/1/latency_ns", 1234567),
	IS_NUM("/auto_analysis/cpus/1/thread_latency_ns", 1234567),
	IS_NUM("/auto_analysis/cpus/1/timer_irq_ns", 2000),
	IS_STR("/auto_analysis/cpus/1/blocking_thread/comm", "tlat-hog"),
	IS_NUM("/auto_analysis/cpus/1/blocking_thread/pid", 4242),
	IS_NUM("/auto_analysis/cpus/1/blocking_thread/ns", 1000000),
	IS_STR("/auto_analysis/cpus/1/stack/0/address", "0xffffffff81234567"),
	IS_STR("/auto_analysis/cpus/1/stack/0/symbol", "hrtimer_interrupt"),
	IS_STR("/auto_analysis/cpus/1/stack/1/address", "0xffffffffc0de0000"),
	IS_NULL("/auto_analysis/cpus/1/stack/1/symbol"),
	IS_STR("/auto_analysis/cpus/1/stack/2/symbol", "asm_sysvec_apic_timer_interrupt"),
	IS_NUM("/auto_analysis/cpus/1/interference/nmi/ns", 0),
	IS_NUM("/auto_analysis/cpus/1/interference/irq/lines/0/id", 33),
	/* rtla's lines: one per occurrence */
	IS_NUM("/auto_analysis/cpus/1/interference/irq/occurrences/1/ns", 6000),
	IS_NUM("/auto_analysis/cpus/1/interference/irq/other_occurrences", 0),
	IS_STR("/auto_analysis/cpus/1/interference/softirq/lines/0/name", "NET_RX"),
	IS_NUM("/auto_analysis/cpus/1/interference/thread/ns", 150000),
	IS_NUM("/auto_analysis/cpus/1/interference/thread/lines/1/ns", 40000),
	IS_NUM("/auto_analysis/cpus/1/interference/thread/others_ns", 10000),
	IS_SNUM("/auto_analysis/cpus/1/unexplained_ns", 49567),
	IS_NUM("/auto_analysis/max_idle_exit/cpu", 0),
	IS_NUM("/auto_analysis/max_idle_exit/latency_ns", 80000),
	IS_STR("/auto_analysis/tasks/0/comm", "kworker/1:1"),
	IS_STR("/auto_analysis/tasks/0/kworker/work/address", "0xffff888003a1c0e8"),
	IS_NULL("/auto_analysis/tasks/0/kworker/work/symbol"),
	IS_STR("/auto_analysis/tasks/0/kworker/function/symbol", "hrtimer_interrupt"),
	IS_NULL("/auto_analysis/tasks/1/kworker"),
};

static void test_tlat_threshold_and_analysis(void **state)
{
	struct fixture *f = *state;
	struct tlat_sample hit = { .cpu = 2, .ctx = TLAT_CTX_THREAD, .latency_ns = 1234567,
				   .seq = 42 };
	struct aa_result results[2];
	/* --dump-tasks: a kworker doing a work item, and an idle CPU */
	struct aa_cpu_task tasks[2] = {
		{ 1, { .pid = 7, .comm = "kworker/1:1", .work = 0xffff888003a1c0e8ull,
		       .work_func = 0xffffffff81234567ull } },
		{ 2, { .pid = 0, .comm = "swapper/2" } },
	};
	struct tlat_report_aa aa = {
		.results = results, .nr_results = 2, .idle_exit = true, .idle_exit_ns = 80000,
		.idle_exit_cpu = 0, .symbol = unit_symbol, .symbol_ctx = (void *)symbols,
		.tasks = tasks, .nr_tasks = 2,
	};

	START(f, TLAT_MODE_TOP, "top", "-T", "1000", "-i", "50", "-s", "1000", "--json", "t.json");
	add_samples(f);
	results[0] = irq_stop;
	results[1] = thread_stop;
	f->r.report.threshold_hit = true;
	f->r.report.hit = &hit;
	f->r.report.aa = &aa;
	f->r.report.exit_status = 2;
	render(f, false, "unit-tlat-analysis");

	EXPECT_DOC(f,
		IS_STR("/end", "threshold"),
		IS_NUM("/exit_status", 2),
		IS_NUM("/options/thread_threshold_us", 1000),
		IS_NUM("/options/irq_threshold_us", 50),
		IS_TRUE("/options/auto_analysis"),
		IS_TRUE("/threshold/hit"),
		IS_NUM("/threshold/sample/cpu", 2),
		IS_STR("/threshold/sample/context", "thread"),
		IS_NUM("/threshold/sample/latency_ns", 1234567),
		IS_NUM("/threshold/sample/seq", 42));

	unit_json_expect(f->doc, irq_stop_wants, UNIT_ARRAY_SIZE(irq_stop_wants));
	unit_json_expect(f->doc, thread_stop_wants, UNIT_ARRAY_SIZE(thread_stop_wants));

	/* without symbols: the addresses alone */
	aa.symbol = NULL;
	render(f, false, "unit-tlat-analysis-nosym");
	EXPECT_DOC(f,
		IS_NULL("/auto_analysis/cpus/1/stack/0/symbol"),
		IS_STR("/auto_analysis/tasks/0/kworker/function/address", "0xffffffff81234567"),
		IS_NULL("/auto_analysis/tasks/0/kworker/function/symbol"));
	/* over-explained: a negative unexplained part stays negative */
	results[1].unexplained_ns = -1500;
	render(f, false, "unit-tlat-analysis-over");
	EXPECT_DOC(f, IS_SNUM("/auto_analysis/cpus/1/unexplained_ns", -1500));
	/* a stop whose sample tlat never got */
	f->r.report.hit = NULL;
	aa.nr_results = 0;
	aa.idle_exit = false;
	render(f, false, "unit-tlat-analysis-unseen");
	EXPECT_DOC(f,
		IS_TRUE("/threshold/hit"),
		IS_NULL("/threshold/sample"),
		IS_ABSENT("/auto_analysis/cpus/0"),
		IS_NULL("/auto_analysis/max_idle_exit"));
}

/* cyclictest's keys, in cyclictest's order */
static void expect_rttests_shape(struct fixture *f)
{
	unit_json_keys(f->doc, "", "file_version cmdline: rt_test_version: start_time end_time "
		       "return_code sysinfo num_threads resolution_in_ns thread");
	unit_json_keys(f->doc, "/sysinfo", "sysname nodename release version machine realtime");
	EXPECT_DOC(f, IS_NUM("/file_version", 1));
}

static void test_rttests_top(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "top", "-c", "0-2", "-q", "--json", "ct.json",
	      "--json-format", "rt-tests");
	add_samples(f);
	render(f, true, "unit-rt-tests-top");
	expect_rttests_shape(f);
	EXPECT_DOC(f,
		IS_STR("/cmdline:", "tlat top -c 0-2 -q --json ct.json --json-format rt-tests"),
		IS_STR("/rt_test_version:", TLAT_VERSION),
		IS_NUM("/return_code", 0),
		IS_NUM("/sysinfo/realtime", 1),
		IS_STR("/sysinfo/release", "6.12.57-rt-amd64"),
		/* CPUs 0 and 2 produced samples: threads "0" and "1"; CPU 1 is left out */
		IS_NUM("/num_threads", 2),
		IS_NUM("/resolution_in_ns", 0));
	unit_json_keys(f->doc, "/thread", "0 1");
	unit_json_keys(f->doc, "/thread/0", "cycles min max avg cpu node");
	EXPECT_DOC(f,
		IS_NUM("/thread/0/cpu", 0),
		IS_NUM("/thread/1/cpu", 2),
		/* the thread latency, in us, truncated as the text shows it */
		IS_NUM("/thread/0/cycles", 100),
		IS_NUM("/thread/0/min", 4),
		IS_NUM("/thread/0/max", 300),
		IS_NUM("/thread/1/min", 6),
		IS_NUM("/thread/1/max", 6));
	/* avg as cyclictest prints it: %.2f of the mean in us */
	assert_non_null(strstr(f->r.text, "\"avg\": 7.16,"));	/* (99 * 4.2 + 300) / 100 */
	assert_non_null(strstr(f->r.text, "\"avg\": 6.00,"));
	EXPECT_DOC(f, IS_NUM("/thread/0/node", 0));
}

static void test_rttests_hist_nano(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST, "hist", "-c", "0-2", "-n", "-b", "1000", "-E", "100", "--json",
	      "-", "--json-format", "rt-tests");
	add_samples(f);
	f->r.report.exit_status = 2;
	render(f, true, "unit-rt-tests-hist");
	expect_rttests_shape(f);
	EXPECT_DOC(f,
		IS_NUM("/return_code", 2),
		IS_NUM("/resolution_in_ns", 1));
	unit_json_keys(f->doc, "/thread/0", "histogram cycles min max avg cpu node");
	/* ns, and the histogram's keys are the text's indexes; the overflow is not in it */
	EXPECT_DOC(f,
		IS_NUM("/thread/0/min", 4200),
		IS_NUM("/thread/0/max", 300000));
	unit_json_keys(f->doc, "/thread/0/histogram", "4000");
	EXPECT_DOC(f, IS_NUM("/thread/0/histogram/4000", 99));
	unit_json_keys(f->doc, "/thread/1/histogram", "6000");
	assert_non_null(strstr(f->r.text, "\"avg\": 7158.00,"));
}

/*
 * tlat report of a tlat record recording: argv, options and system are the
 * recorded run's description, which round-trips through the marker lines
 * that carry it; the times are the recorded run's
 */
static int collect_line(void *ctx, const char *line)
{
	struct dat_run *run = ctx;

	assert_true(strlen(line) < DAT_RUN_CHUNK + 64);
	dat_run_line(run, line, strlen(line));
	return 0;
}

static void test_tlat_report_of_tlat_record(void **state)
{
	struct fixture *f = *state;
	struct dat_run info = { .json = NULL };
	struct tlat_report_origin origin = { .nr_cpus = NR_CPUS };
	struct tlat_params *rp = calloc(1, sizeof(*rp));
	struct json_object *desc;
	char err[TLAT_ERR_LEN];
	char **rargv = (char *[]){ "tlat", "hist", "-b", "2", "rec.dat", NULL };

	/* the run that recorded: its description, as tlat record writes it */
	f->r.command = TLAT_CMD_RECORD;
	START(f, TLAT_MODE_HIST, "hist", "-c", "0-2", "-p", "250", "-o", "rec.dat");
	/* as typed: main() parses from the word before the options */
	f->r.params.argv = (char *[]){ "tlat", "record", "hist", "-c", "0-2", "-p", "250", "-o",
				     "rec.dat", NULL };
	f->r.params.argc = 9;
	desc = json_run_description(&f->r.params, &f->sys, 1700000000);
	assert_non_null(desc);
	assert_int_equal(dat_run_write(json_object_to_json_string_ext(desc,
			 JSON_C_TO_STRING_PLAIN), collect_line, &info), 0);
	json_object_put(desc);
	assert_true(dat_run_complete(&info));
	assert_true(info.total > 1);	/* the description needs several lines */
	origin.run = json_tokener_parse(info.json);
	assert_non_null(origin.run);

	/* tlat report hist -b 2 rec.dat: its own histogram, the recorded run's rest */
	assert_int_equal(cli_params_init(rp, TLAT_MODE_HIST, NR_CPUS), 0);
	rp->command = TLAT_CMD_REPORT;
	rp->argc = 5;
	rp->argv = rargv;
	assert_int_equal(cli_parse(rp, 4, rargv + 1, err), 0);
	add_samples(f);
	f->r.report.params = rp;
	f->r.report.sys = NULL;
	f->r.report.origin = &origin;
	render(f, false, "unit-tlat-report");
	EXPECT_DOC(f,
		IS_STR("/argv/2", "hist"),
		IS_NUM("/options/period_us", 250),
		IS_STR("/system/release", "6.12.57-rt-amd64"),
		IS_TRUE("/system/realtime"),
		IS_STR("/start_time", "2023-11-14T22:13:20Z"));
	render(f, true, "unit-rt-tests-report");
	EXPECT_DOC(f,
		IS_STR("/cmdline:", "tlat record hist -c 0-2 -p 250 -o rec.dat"),
		IS_NUM("/sysinfo/realtime", 1));

	/* a recording cut short: the description is dropped, not half read */
	dat_run_free(&info);
	dat_run_line(&info, "tlat-run: 2/3 {}", 16);
	assert_false(dat_run_complete(&info));

	json_object_put(origin.run);
	dat_run_free(&info);
	cli_params_free(rp);
	free(rp);
}

/* tlat report of trace-cmd's recording: what trace-cmd keeps, nulls for the rest */
static void test_tlat_report_of_trace_cmd_record(void **state)
{
	struct fixture *f = *state;
	struct tlat_report_origin origin = { .uname = "Linux vm 6.1.0-28-rt-amd64 x86_64",
					     .nr_cpus = 2 };

	f->r.command = TLAT_CMD_REPORT;
	START(f, TLAT_MODE_TOP, "tc.dat");
	add_samples(f);
	f->r.report.sys = NULL;
	f->r.report.origin = &origin;
	f->r.report.start_time = (time_t)-1;
	f->r.report.end_time = (time_t)-1;
	render(f, false, "unit-tlat-report-trace-cmd");
	EXPECT_DOC(f,
		IS_STR("/system/sysname", "Linux"),
		IS_STR("/system/nodename", "vm"),
		IS_STR("/system/release", "6.1.0-28-rt-amd64"),
		IS_STR("/system/machine", "x86_64"),
		IS_NUM("/system/nr_cpus", 2),
		IS_NULL("/system/version"),
		IS_NULL("/system/realtime"),
		IS_NULL("/start_time"),
		IS_NULL("/end_time"));
	render(f, true, "unit-rt-tests-report-trace-cmd");
	EXPECT_DOC(f,
		IS_NULL("/start_time"),
		IS_NUM("/sysinfo/realtime", 0));
}

UNIT_MAIN("json",
	cmocka_unit_test_setup_teardown(test_tlat_top, setup, teardown),
	cmocka_unit_test_setup_teardown(test_tlat_kernel_threads_unknown_missed, setup,
					teardown),
	cmocka_unit_test_setup_teardown(test_tlat_hist, setup, teardown),
	cmocka_unit_test_setup_teardown(test_tlat_threshold_and_analysis, setup, teardown),
	cmocka_unit_test_setup_teardown(test_rttests_top, setup, teardown),
	cmocka_unit_test_setup_teardown(test_rttests_hist_nano, setup, teardown),
	cmocka_unit_test_setup_teardown(test_tlat_report_of_tlat_record, setup, teardown),
	cmocka_unit_test_setup_teardown(test_tlat_report_of_trace_cmd_record, setup,
					teardown),
)
