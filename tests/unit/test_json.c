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
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json.h>

#include "cmd/cli.h"
#include "core/version.h"
#include "output/json.h"
#include "stats/loglinear.h"
#include "trace/dat_meta.h"
#include "unit_helpers.h"

#define NR_CPUS		4

struct fixture {
	enum tlat_command command;	/* of the next start(); measure unless set */
	struct tlat_params params;
	char **argv;
	struct tlat_aggregate *agg;
	struct tlat_sysinfo sys;
	struct tlat_report report;
	struct json_object *doc;	/* the last document, parsed back */
	char *text;			/* and as written */
};

static int setup(void **state)
{
	*state = calloc(1, sizeof(struct fixture));
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->agg)
		cli_params_free(&f->params);
	agg_free(f->agg);
	json_object_put(f->doc);
	free(f->text);
	free(f);
	return 0;
}

#define START(f, mode, ...)						\
	start(f, mode, (int)(sizeof((char *[]){ "tlat", ##__VA_ARGS__ }) / sizeof(char *)), \
	      (char *[]){ "tlat", ##__VA_ARGS__, NULL })

/* a finished run of "tlat top|hist <args>" on a made-up machine, no samples yet */
static void start(struct fixture *f, enum tlat_mode mode, int argc, char **argv)
{
	struct tlat_params *p = &f->params;
	char err[TLAT_ERR_LEN] = "";

	assert_int_equal(cli_params_init(p, mode, NR_CPUS), 0);
	p->command = f->command;
	p->argc = argc;
	p->argv = argv;
	/* as main(): the command name is the parser's argv[0] */
	if (cli_parse(p, argc - 1, argv + 1, err))
		fail_msg("cli_parse: %s", err);
	f->agg = agg_alloc(&(struct tlat_agg_layout){
		.nr_cpus = NR_CPUS,
		.entries = mode == TLAT_MODE_HIST ? p->hist.entries : 0,
		.bucket_ns = (u64)p->hist.bucket_size * (p->nano ? 1 : 1000),
		.loglinear = true,
	});
	assert_non_null(f->agg);
	strcpy(f->sys.uts.sysname, "Linux");
	strcpy(f->sys.uts.nodename, "rig");
	strcpy(f->sys.uts.release, "6.12.57-rt-amd64");
	strcpy(f->sys.uts.version, "#1 SMP PREEMPT_RT Debian 6.12.57-1");
	strcpy(f->sys.uts.machine, "x86_64");
	strcpy(f->sys.cmdline, "BOOT_IMAGE=/vmlinuz isolcpus=1-3");
	f->sys.nr_cpus = NR_CPUS;
	f->sys.nr_online = NR_CPUS;
	f->sys.realtime = true;
	f->report = (struct tlat_report){
		.params = p,
		.agg = f->agg,
		.sys = &f->sys,
		.user_data = true,
		.elapsed_s = 3,
		.processed_events = 1000,
		.source = "tracepoints",
		.start_time = 1700000000,
		.end_time = 1700000003,
	};
}

static void add_n(struct fixture *f, int cpu, enum tlat_ctx ctx, u64 latency_ns, int n)
{
	struct tlat_sample s = { .cpu = cpu, .ctx = ctx, .latency_ns = latency_ns };

	for (int i = 0; i < n; i++) {
		s.seq = i;
		agg_add_stat(f->agg, s.cpu, s.ctx, s.latency_ns);
		agg_add_loglinear(f->agg, s.cpu, s.ctx, s.latency_ns);
		agg_add_linear(f->agg, s.cpu, s.ctx, s.latency_ns);
	}
}

/* CPU 0 and CPU 2 measured; CPU 1 produced nothing; CPU 3 is not measured (-c 0-2) */
static void add_samples(struct fixture *f)
{
	add_n(f, 0, TLAT_CTX_IRQ, 1500, 90);
	add_n(f, 0, TLAT_CTX_IRQ, 7000, 10);
	add_n(f, 0, TLAT_CTX_THREAD, 4200, 99);
	add_n(f, 0, TLAT_CTX_THREAD, 300000, 1);	/* over -E 100 us: overflow */
	add_n(f, 0, TLAT_CTX_USER, 5100, 100);
	add_n(f, 2, TLAT_CTX_IRQ, 2999, 100);
	add_n(f, 2, TLAT_CTX_THREAD, 6001, 100);
	add_n(f, 2, TLAT_CTX_USER, 7000, 100);
	add_n(f, 3, TLAT_CTX_THREAD, 1, 5);		/* never shown */
}

static void dump(const char *name, const char *text)
{
	const char *dir = getenv("TLAT_JSON_DUMP_DIR");
	char path[4096];
	FILE *out;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	out = fopen(path, "w");
	assert_non_null(out);
	fprintf(out, "%s\n", text);
	fclose(out);
}

/* build the document, write it as json_output does, and parse it back */
static void render(struct fixture *f, bool rttests, const char *name)
{
	struct json_object *doc = rttests ? json_rttests_document(&f->report)
					  : json_tlat_document(&f->report);

	assert_non_null(doc);
	free(f->text);
	f->text = strdup(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							JSON_C_TO_STRING_SPACED |
							JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
	json_object_put(f->doc);
	f->doc = json_tokener_parse(f->text);
	if (!f->doc)
		fail_msg("not JSON:\n%s", f->text);
	dump(name, f->text);
}

static struct json_object *at(struct fixture *f, const char *ptr)
{
	struct json_object *obj;

	if (json_pointer_get(f->doc, ptr, &obj))
		fail_msg("no %s in\n%s", ptr, f->text);
	return obj;
}

static u64 num(struct fixture *f, const char *ptr)
{
	struct json_object *obj = at(f, ptr);

	if (!json_object_is_type(obj, json_type_int))
		fail_msg("%s is not an integer", ptr);
	return json_object_get_uint64(obj);
}

static long long snum(struct fixture *f, const char *ptr)
{
	struct json_object *obj = at(f, ptr);

	if (!json_object_is_type(obj, json_type_int))
		fail_msg("%s is not an integer", ptr);
	return json_object_get_int64(obj);
}

static const char *str(struct fixture *f, const char *ptr)
{
	struct json_object *obj = at(f, ptr);

	if (!json_object_is_type(obj, json_type_string))
		fail_msg("%s is not a string", ptr);
	return json_object_get_string(obj);
}

static bool boolean(struct fixture *f, const char *ptr)
{
	struct json_object *obj = at(f, ptr);

	if (!json_object_is_type(obj, json_type_boolean))
		fail_msg("%s is not a boolean", ptr);
	return json_object_get_boolean(obj);
}

/* a percentile: pctl's answer, so within 1/256 of the exact one */
static void expect_pctl(struct fixture *f, const char *ptr, int cpu, enum tlat_ctx ctx, u32 ppm,
			u64 exact)
{
	u64 got = num(f, ptr), want;

	if (cpu < 0)
		assert_true(agg_percentile_merged(f->agg, &f->params.cpus, ctx, ppm, &want));
	else
		assert_true(agg_percentile(f->agg, cpu, ctx, ppm, &want));
	assert_int_equal(got, want);
	if ((got > exact ? got - exact : exact - got) * 256 > exact)
		fail_msg("%s: %llu, exact %llu", ptr, (unsigned long long)got,
			 (unsigned long long)exact);
}

static void expect_null(struct fixture *f, const char *ptr)
{
	if (at(f, ptr))
		fail_msg("%s is not null: %s", ptr, json_object_to_json_string(at(f, ptr)));
}

static void expect_absent(struct fixture *f, const char *ptr)
{
	struct json_object *obj;

	if (!json_pointer_get(f->doc, ptr, &obj))
		fail_msg("%s should not exist", ptr);
}

/* the object's keys, in order, joined by spaces */
static void expect_keys(struct fixture *f, const char *ptr, const char *want)
{
	char got[1024] = "";

	json_object_object_foreach(at(f, ptr), key, val) {
		(void)val;
		if (*got)
			strcat(got, " ");
		strcat(got, key);
	}
	assert_string_equal(got, want);
}

static void test_tlat_top(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "top", "-c", "0-2", "-P", "f:42", "-d", "3", "-q", "--json", "-");
	add_samples(f);
	render(f, false, "unit-tlat-top");

	assert_string_equal(str(f, "/schema_version"), "tlat/1.1");
	assert_string_equal(str(f, "/command"), "top");
	assert_string_equal(str(f, "/argv/0"), "tlat");
	assert_string_equal(str(f, "/argv/10"), "-");
	assert_string_equal(str(f, "/source"), "tracepoints");
	assert_string_equal(str(f, "/start_time"), "2023-11-14T22:13:20Z");
	assert_string_equal(str(f, "/end_time"), "2023-11-14T22:13:23Z");
	assert_string_equal(str(f, "/end"), "duration");
	assert_int_equal(num(f, "/exit_status"), 0);
	assert_string_equal(str(f, "/unit"), "ns");
	assert_string_equal(str(f, "/contexts/2"), "user");
	/* the options as parsed */
	assert_int_equal(num(f, "/options/period_us"), 1000);
	assert_int_equal(num(f, "/options/duration_s"), 3);
	assert_int_equal(num(f, "/options/cpus/2"), 2);
	expect_absent(f, "/options/cpus/3");
	assert_string_equal(str(f, "/options/priority/policy"), "fifo");
	assert_int_equal(num(f, "/options/priority/priority"), 42);
	expect_null(f, "/options/irq_threshold_us");
	expect_null(f, "/options/house_keeping");
	assert_string_equal(str(f, "/options/json"), "-");
	expect_absent(f, "/options/hist");
	/* the machine */
	assert_string_equal(str(f, "/system/release"), "6.12.57-rt-amd64");
	assert_string_equal(str(f, "/system/kernel_cmdline"), "BOOT_IMAGE=/vmlinuz isolcpus=1-3");
	expect_null(f, "/system/cpu_model");
	assert_true(boolean(f, "/system/realtime"));

	/* CPU 0: the text's numbers, in ns */
	assert_int_equal(num(f, "/cpus/0/cpu"), 0);
	assert_int_equal(num(f, "/cpus/0/irq/count"), 100);
	assert_int_equal(num(f, "/cpus/0/irq/min"), 1500);
	assert_int_equal(num(f, "/cpus/0/irq/avg"), (90 * 1500 + 10 * 7000) / 100);
	assert_int_equal(num(f, "/cpus/0/irq/max"), 7000);
	expect_pctl(f, "/cpus/0/irq/percentiles/p50", 0, TLAT_CTX_IRQ, 500000, 1500);
	expect_pctl(f, "/cpus/0/irq/percentiles/p90", 0, TLAT_CTX_IRQ, 900000, 1500);
	expect_pctl(f, "/cpus/0/irq/percentiles/p99", 0, TLAT_CTX_IRQ, 990000, 7000);
	expect_pctl(f, "/cpus/0/thread/percentiles/p99", 0, TLAT_CTX_THREAD, 990000, 4200);
	/* the maximum is exact */
	assert_int_equal(num(f, "/cpus/0/thread/percentiles/p99_9"), 300000);
	assert_int_equal(num(f, "/cpus/0/thread/percentiles/p99_99"), 300000);
	expect_pctl(f, "/cpus/2/user/percentiles/p50", 2, TLAT_CTX_USER, 500000, 7000);
	/* tlat/1.1: the log-linear buckets, [lowest ns, count], non-empty ones */
	assert_int_equal(num(f, "/cpus/0/irq/loglinear/0/0"), loglin_lowest(loglin_index(1500)));
	assert_int_equal(num(f, "/cpus/0/irq/loglinear/0/1"), 90);
	assert_int_equal(num(f, "/cpus/0/irq/loglinear/1/0"), loglin_lowest(loglin_index(7000)));
	assert_int_equal(num(f, "/cpus/0/irq/loglinear/1/1"), 10);
	expect_absent(f, "/cpus/0/irq/loglinear/2");
	expect_absent(f, "/cpus/1/thread/loglinear/0");
	expect_absent(f, "/all/thread/loglinear");
	assert_int_equal(num(f, "/loglinear/sub_bits"), LOGLIN_SUB_BITS);
	assert_int_equal(num(f, "/loglinear/max_bits"), LOGLIN_MAX_BITS);
	/* CPU 1 was measured but produced nothing: there, with nulls */
	assert_int_equal(num(f, "/cpus/1/cpu"), 1);
	assert_int_equal(num(f, "/cpus/1/thread/count"), 0);
	expect_null(f, "/cpus/1/thread/min");
	expect_null(f, "/cpus/1/thread/avg");
	expect_null(f, "/cpus/1/thread/percentiles");
	assert_int_equal(num(f, "/cpus/2/cpu"), 2);
	/* CPU 3 was not measured */
	expect_absent(f, "/cpus/3");
	/* no histogram in top mode */
	expect_absent(f, "/cpus/0/irq/histogram");
	expect_null(f, "/histogram");
	/* ALL: CPUs 0 and 2 together, CPU 3's samples left out */
	assert_int_equal(num(f, "/all/thread/count"), 200);
	assert_int_equal(num(f, "/all/thread/min"), 4200);
	assert_int_equal(num(f, "/all/thread/max"), 300000);
	/* 99 x 4200, 100 x 6001, 1 x 300000: the 100th is the first 6001 */
	expect_pctl(f, "/all/thread/percentiles/p50", -1, TLAT_CTX_THREAD, 500000, 6001);
	expect_pctl(f, "/all/thread/percentiles/p90", -1, TLAT_CTX_THREAD, 900000, 6001);
	expect_pctl(f, "/all/thread/percentiles/p99_99", -1, TLAT_CTX_THREAD, 999900, 300000);
	expect_pctl(f, "/all/irq/percentiles/p50", -1, TLAT_CTX_IRQ, 500000, 2999);

	assert_int_equal(num(f, "/events/processed"), 1000);
	assert_int_equal(num(f, "/events/missed"), 0);
	assert_false(boolean(f, "/threshold/hit"));
	expect_null(f, "/threshold/sample");
	expect_null(f, "/auto_analysis");
}

static void test_tlat_kernel_threads_unknown_missed(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "top", "-k", "--json", "out.json");
	f->report.user_data = false;
	f->report.missed_events = TLAT_MISSED_UNKNOWN;
	f->report.interrupted = true;
	add_samples(f);
	render(f, false, "unit-tlat-kernel");
	/* no user-return context at all, not an empty one */
	expect_absent(f, "/contexts/2");
	expect_absent(f, "/cpus/0/user");
	expect_absent(f, "/all/user");
	expect_null(f, "/events/missed");
	assert_string_equal(str(f, "/end"), "signal");
	assert_string_equal(str(f, "/options/threads"), "kernel");
}

static void test_tlat_hist(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST, "hist", "-c", "0-2", "-b", "2", "-E", "50", "--json", "h.json");
	add_samples(f);
	render(f, false, "unit-tlat-hist");
	assert_string_equal(str(f, "/command"), "hist");
	assert_string_equal(str(f, "/histogram/unit"), "us");
	assert_int_equal(num(f, "/histogram/bucket_size"), 2);
	assert_int_equal(num(f, "/histogram/entries"), 50);
	assert_int_equal(num(f, "/options/hist/bucket_size"), 2);
	/* 1.5 us is in the 0-2 us bucket, 7 us in 6-8: rows [index, count] as the text's */
	assert_int_equal(num(f, "/cpus/0/irq/histogram/buckets/0/0"), 0);
	assert_int_equal(num(f, "/cpus/0/irq/histogram/buckets/0/1"), 90);
	assert_int_equal(num(f, "/cpus/0/irq/histogram/buckets/1/0"), 6);
	assert_int_equal(num(f, "/cpus/0/irq/histogram/buckets/1/1"), 10);
	expect_absent(f, "/cpus/0/irq/histogram/buckets/2");
	assert_int_equal(num(f, "/cpus/0/irq/histogram/over"), 0);
	/* 300 us is over 50 buckets of 2 us */
	assert_int_equal(num(f, "/cpus/0/thread/histogram/buckets/0/0"), 4);
	assert_int_equal(num(f, "/cpus/0/thread/histogram/over"), 1);
	/* a CPU with no sample has an empty histogram */
	expect_absent(f, "/cpus/1/irq/histogram/buckets/0");
	/* ALL has no histogram, as the text has none */
	expect_absent(f, "/all/irq/histogram");
}

/* a fake symbol table: one name per address */
static const struct unit_symbol symbols[] = {
	{ 0xffffffff81234567ull, "hrtimer_interrupt" },
	{ 0xffffffff8100aaaaull, "asm_sysvec_apic_timer_interrupt" },
	{ 0, NULL },
};

static void thread_stop(struct aa_result *r)
{
	memset(r, 0, sizeof(*r));
	r->cpu = 2;
	r->seq = 42;
	r->complete = true;
	r->total_ns = 1234567;
	r->irq_latency_ns = 5000;
	r->thread_latency_ns = 1234567;
	r->irq_delay_ns = 3000;
	r->timer_irq_seen = true;
	r->timer_irq_ns = 2000;
	r->blocking_pid = 4242;
	strcpy(r->blocking_comm, "tlat-hog");
	r->blocking_ns = 1000000;
	r->parts[AA_IRQ] = (struct aa_part){ .sum_ns = 10000, .nr_lines = 1,
		.lines = { { 33, "eth0", 10000 } }, .nr_occs = 2,
		.occs = { { 33, "eth0", 4000 }, { 33, "eth0", 6000 } } };
	r->parts[AA_SOFTIRQ] = (struct aa_part){ .sum_ns = 20000, .nr_lines = 1,
		.lines = { { 3, "NET_RX", 20000 } } };
	r->parts[AA_THREAD] = (struct aa_part){ .sum_ns = 150000, .nr_lines = 2,
		.lines = { { 7, "kworker/2:1", 100000 }, { 8, "ksoftirqd/2", 40000 } },
		.other_ns = 10000 };
	r->unexplained_ns = 1234567 - 3000 - 2000 - 1000000 - 10000 - 20000 - 150000;
	r->nr_frames = 3;
	r->frames[0] = 0xffffffff81234567ull;
	r->frames[1] = 0xffffffffc0de0000ull;
	r->frames[2] = 0xffffffff8100aaaaull;
}

static void irq_stop(struct aa_result *r)
{
	memset(r, 0, sizeof(*r));
	r->cpu = 0;
	r->seq = 7;
	r->irq_stop = true;
	r->total_ns = 80000;
	r->irq_latency_ns = 80000;
	r->irq_delay_ns = 79000;
	r->exit_from_idle = true;
	r->blocking_pid = -1;
	r->parts[AA_NMI] = (struct aa_part){ .sum_ns = 500, .nr_lines = 1,
		.lines = { { 2, "nmi", 500 } } };
}

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
	irq_stop(&results[0]);
	thread_stop(&results[1]);
	f->report.threshold_hit = true;
	f->report.hit = &hit;
	f->report.aa = &aa;
	f->report.exit_status = 2;
	render(f, false, "unit-tlat-analysis");

	assert_string_equal(str(f, "/end"), "threshold");
	assert_int_equal(num(f, "/exit_status"), 2);
	assert_int_equal(num(f, "/options/thread_threshold_us"), 1000);
	assert_int_equal(num(f, "/options/irq_threshold_us"), 50);
	assert_true(boolean(f, "/options/auto_analysis"));
	assert_true(boolean(f, "/threshold/hit"));
	assert_int_equal(num(f, "/threshold/sample/cpu"), 2);
	assert_string_equal(str(f, "/threshold/sample/context"), "thread");
	assert_int_equal(num(f, "/threshold/sample/latency_ns"), 1234567);
	assert_int_equal(num(f, "/threshold/sample/seq"), 42);

	/* the IRQ stop: what follows the IRQ handler is null, as the text omits it */
	assert_int_equal(num(f, "/auto_analysis/cpus/0/cpu"), 0);
	assert_string_equal(str(f, "/auto_analysis/cpus/0/stop"), "irq");
	assert_true(boolean(f, "/auto_analysis/cpus/0/exit_from_idle"));
	assert_int_equal(num(f, "/auto_analysis/cpus/0/irq_handler_delay_ns"), 79000);
	expect_null(f, "/auto_analysis/cpus/0/thread_latency_ns");
	expect_null(f, "/auto_analysis/cpus/0/timer_irq_ns");
	expect_null(f, "/auto_analysis/cpus/0/blocking_thread/pid");
	expect_null(f, "/auto_analysis/cpus/0/blocking_thread/comm");
	expect_null(f, "/auto_analysis/cpus/0/blocking_thread/ns");
	assert_int_equal(num(f, "/auto_analysis/cpus/0/interference/nmi/ns"), 500);
	expect_null(f, "/auto_analysis/cpus/0/interference/irq");
	expect_null(f, "/auto_analysis/cpus/0/unexplained_ns");
	expect_absent(f, "/auto_analysis/cpus/0/stack/0");

	/* the thread stop: every part, its lines, the stack with its symbols */
	assert_string_equal(str(f, "/auto_analysis/cpus/1/stop"), "thread");
	assert_int_equal(num(f, "/auto_analysis/cpus/1/seq"), 42);
	assert_true(boolean(f, "/auto_analysis/cpus/1/complete"));
	assert_int_equal(num(f, "/auto_analysis/cpus/1/latency_ns"), 1234567);
	assert_int_equal(num(f, "/auto_analysis/cpus/1/thread_latency_ns"), 1234567);
	assert_int_equal(num(f, "/auto_analysis/cpus/1/timer_irq_ns"), 2000);
	assert_string_equal(str(f, "/auto_analysis/cpus/1/blocking_thread/comm"), "tlat-hog");
	assert_int_equal(num(f, "/auto_analysis/cpus/1/blocking_thread/pid"), 4242);
	assert_int_equal(num(f, "/auto_analysis/cpus/1/blocking_thread/ns"), 1000000);
	assert_string_equal(str(f, "/auto_analysis/cpus/1/stack/0/address"), "0xffffffff81234567");
	assert_string_equal(str(f, "/auto_analysis/cpus/1/stack/0/symbol"), "hrtimer_interrupt");
	assert_string_equal(str(f, "/auto_analysis/cpus/1/stack/1/address"), "0xffffffffc0de0000");
	expect_null(f, "/auto_analysis/cpus/1/stack/1/symbol");
	assert_string_equal(str(f, "/auto_analysis/cpus/1/stack/2/symbol"),
			    "asm_sysvec_apic_timer_interrupt");
	assert_int_equal(num(f, "/auto_analysis/cpus/1/interference/nmi/ns"), 0);
	assert_int_equal(num(f, "/auto_analysis/cpus/1/interference/irq/lines/0/id"), 33);
	/* rtla's lines: one per occurrence */
	assert_int_equal(num(f, "/auto_analysis/cpus/1/interference/irq/occurrences/1/ns"), 6000);
	assert_int_equal(num(f, "/auto_analysis/cpus/1/interference/irq/other_occurrences"), 0);
	assert_string_equal(str(f, "/auto_analysis/cpus/1/interference/softirq/lines/0/name"),
			    "NET_RX");
	assert_int_equal(num(f, "/auto_analysis/cpus/1/interference/thread/ns"), 150000);
	assert_int_equal(num(f, "/auto_analysis/cpus/1/interference/thread/lines/1/ns"), 40000);
	assert_int_equal(num(f, "/auto_analysis/cpus/1/interference/thread/others_ns"), 10000);
	assert_int_equal(snum(f, "/auto_analysis/cpus/1/unexplained_ns"), 49567);
	assert_int_equal(num(f, "/auto_analysis/max_idle_exit/cpu"), 0);
	assert_int_equal(num(f, "/auto_analysis/max_idle_exit/latency_ns"), 80000);
	assert_string_equal(str(f, "/auto_analysis/tasks/0/comm"), "kworker/1:1");
	assert_string_equal(str(f, "/auto_analysis/tasks/0/kworker/work/address"),
			    "0xffff888003a1c0e8");
	expect_null(f, "/auto_analysis/tasks/0/kworker/work/symbol");
	assert_string_equal(str(f, "/auto_analysis/tasks/0/kworker/function/symbol"),
			    "hrtimer_interrupt");
	expect_null(f, "/auto_analysis/tasks/1/kworker");

	/* without symbols: the addresses alone */
	aa.symbol = NULL;
	render(f, false, "unit-tlat-analysis-nosym");
	expect_null(f, "/auto_analysis/cpus/1/stack/0/symbol");
	assert_string_equal(str(f, "/auto_analysis/tasks/0/kworker/function/address"),
			    "0xffffffff81234567");
	expect_null(f, "/auto_analysis/tasks/0/kworker/function/symbol");
	/* over-explained: a negative unexplained part stays negative */
	results[1].unexplained_ns = -1500;
	render(f, false, "unit-tlat-analysis-over");
	assert_int_equal(snum(f, "/auto_analysis/cpus/1/unexplained_ns"), -1500);
	/* a stop whose sample tlat never got */
	f->report.hit = NULL;
	aa.nr_results = 0;
	aa.idle_exit = false;
	render(f, false, "unit-tlat-analysis-unseen");
	assert_true(boolean(f, "/threshold/hit"));
	expect_null(f, "/threshold/sample");
	expect_absent(f, "/auto_analysis/cpus/0");
	expect_null(f, "/auto_analysis/max_idle_exit");
}

/* cyclictest's keys, in cyclictest's order */
static void expect_rttests_shape(struct fixture *f)
{
	expect_keys(f, "", "file_version cmdline: rt_test_version: start_time end_time "
		    "return_code sysinfo num_threads resolution_in_ns thread");
	expect_keys(f, "/sysinfo", "sysname nodename release version machine realtime");
	assert_int_equal(num(f, "/file_version"), 1);
}

static void test_rttests_top(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "top", "-c", "0-2", "-q", "--json", "ct.json",
	      "--json-format", "rt-tests");
	add_samples(f);
	render(f, true, "unit-rt-tests-top");
	expect_rttests_shape(f);
	assert_string_equal(str(f, "/cmdline:"),
			    "tlat top -c 0-2 -q --json ct.json --json-format rt-tests");
	assert_string_equal(str(f, "/rt_test_version:"), TLAT_VERSION);
	assert_int_equal(num(f, "/return_code"), 0);
	assert_int_equal(num(f, "/sysinfo/realtime"), 1);
	assert_string_equal(str(f, "/sysinfo/release"), "6.12.57-rt-amd64");
	/* CPUs 0 and 2 produced samples: threads "0" and "1"; CPU 1 is left out as in the text */
	assert_int_equal(num(f, "/num_threads"), 2);
	assert_int_equal(num(f, "/resolution_in_ns"), 0);
	expect_keys(f, "/thread", "0 1");
	expect_keys(f, "/thread/0", "cycles min max avg cpu node");
	assert_int_equal(num(f, "/thread/0/cpu"), 0);
	assert_int_equal(num(f, "/thread/1/cpu"), 2);
	/* the thread latency, in us, truncated as the text shows it */
	assert_int_equal(num(f, "/thread/0/cycles"), 100);
	assert_int_equal(num(f, "/thread/0/min"), 4);
	assert_int_equal(num(f, "/thread/0/max"), 300);
	assert_int_equal(num(f, "/thread/1/min"), 6);
	assert_int_equal(num(f, "/thread/1/max"), 6);
	/* avg as cyclictest prints it: %.2f of the mean in us */
	assert_non_null(strstr(f->text, "\"avg\": 7.16,"));	/* (99 * 4.2 + 300) / 100 */
	assert_non_null(strstr(f->text, "\"avg\": 6.00,"));
	assert_int_equal(num(f, "/thread/0/node"), 0);
}

static void test_rttests_hist_nano(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST, "hist", "-c", "0-2", "-n", "-b", "1000", "-E", "100", "--json",
	      "-", "--json-format", "rt-tests");
	add_samples(f);
	f->report.exit_status = 2;
	render(f, true, "unit-rt-tests-hist");
	expect_rttests_shape(f);
	assert_int_equal(num(f, "/return_code"), 2);
	assert_int_equal(num(f, "/resolution_in_ns"), 1);
	expect_keys(f, "/thread/0", "histogram cycles min max avg cpu node");
	/* ns, and the histogram's keys are the text's indexes; the overflow is not in it */
	assert_int_equal(num(f, "/thread/0/min"), 4200);
	assert_int_equal(num(f, "/thread/0/max"), 300000);
	expect_keys(f, "/thread/0/histogram", "4000");
	assert_int_equal(num(f, "/thread/0/histogram/4000"), 99);
	expect_keys(f, "/thread/1/histogram", "6000");
	assert_non_null(strstr(f->text, "\"avg\": 7158.00,"));
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
	f->command = TLAT_CMD_RECORD;
	START(f, TLAT_MODE_HIST, "hist", "-c", "0-2", "-p", "250", "-o", "rec.dat");
	/* as typed: main() parses from the word before the options */
	f->params.argv = (char *[]){ "tlat", "record", "hist", "-c", "0-2", "-p", "250", "-o",
				     "rec.dat", NULL };
	f->params.argc = 9;
	desc = json_run_description(&f->params, &f->sys, 1700000000);
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
	f->report.params = rp;
	f->report.sys = NULL;
	f->report.origin = &origin;
	render(f, false, "unit-tlat-report");
	assert_string_equal(str(f, "/argv/2"), "hist");
	assert_int_equal(num(f, "/options/period_us"), 250);
	assert_string_equal(str(f, "/system/release"), "6.12.57-rt-amd64");
	assert_true(boolean(f, "/system/realtime"));
	assert_string_equal(str(f, "/start_time"), "2023-11-14T22:13:20Z");
	render(f, true, "unit-rt-tests-report");
	assert_string_equal(str(f, "/cmdline:"), "tlat record hist -c 0-2 -p 250 -o rec.dat");
	assert_int_equal(num(f, "/sysinfo/realtime"), 1);

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

	f->command = TLAT_CMD_REPORT;
	START(f, TLAT_MODE_TOP, "tc.dat");
	add_samples(f);
	f->report.sys = NULL;
	f->report.origin = &origin;
	f->report.start_time = (time_t)-1;
	f->report.end_time = (time_t)-1;
	render(f, false, "unit-tlat-report-trace-cmd");
	assert_string_equal(str(f, "/system/sysname"), "Linux");
	assert_string_equal(str(f, "/system/nodename"), "vm");
	assert_string_equal(str(f, "/system/release"), "6.1.0-28-rt-amd64");
	assert_string_equal(str(f, "/system/machine"), "x86_64");
	assert_int_equal(num(f, "/system/nr_cpus"), 2);
	expect_null(f, "/system/version");
	expect_null(f, "/system/realtime");
	expect_null(f, "/start_time");
	expect_null(f, "/end_time");
	render(f, true, "unit-rt-tests-report-trace-cmd");
	expect_null(f, "/start_time");
	assert_int_equal(num(f, "/sysinfo/realtime"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
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
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
