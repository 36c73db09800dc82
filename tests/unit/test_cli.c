// SPDX-License-Identifier: GPL-2.0
/*
 * test_cli.c - tlat top's and tlat hist's command lines: defaults, every
 * spelling of every option (short, long, attached, --opt=value), ranges at
 * their bounds, and the one-line errors for what rtla rejects.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "unit_helpers.h"
#include "util/cpuset.h"

#define NR_CPUS	4

struct cli {
	struct tlat_params p;
	char err[TLAT_ERR_LEN];
};

/* argv and argc of "tlat <args...>"; getopt may permute the pointers, not the strings */
#define ARGV(...)	((char *[]){ "tlat", __VA_ARGS__, NULL })
#define ARGC(...)	((int)(sizeof((char *[]){ "tlat", __VA_ARGS__ }) / sizeof(char *)))

/* parse a command line into freshly initialised params */
#define PARSE(c, ...)							\
	(cli_reset(c), cli_parse(&(c)->p, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), (c)->err))

#define PARSE_OK(c, ...)	assert_int_equal(PARSE(c, __VA_ARGS__), 0)

/* the command line must fail with a one-line error that mentions needle */
#define PARSE_ERR(c, needle, ...)	expect_error(c, PARSE(c, __VA_ARGS__), needle)

static int setup(void **state, enum tlat_mode mode)
{
	struct cli *c = calloc(1, sizeof(*c));

	if (!c || cli_params_init(&c->p, mode, NR_CPUS)) {
		free(c);
		return -1;
	}
	*state = c;
	return 0;
}

static int setup_top(void **state)
{
	return setup(state, TLAT_MODE_TOP);
}

static int setup_hist(void **state)
{
	return setup(state, TLAT_MODE_HIST);
}

static int teardown(void **state)
{
	struct cli *c = *state;

	cli_params_free(&c->p);
	free(c);
	return 0;
}

static void cli_reset(struct cli *c)
{
	enum tlat_command command = c->p.command;
	enum tlat_mode mode = c->p.mode;

	cli_params_free(&c->p);
	assert_int_equal(cli_params_init(&c->p, mode, NR_CPUS), 0);
	c->p.command = command;
	memset(c->err, 0, sizeof(c->err));
}

static void expect_error(struct cli *c, int ret, const char *needle)
{
	if (ret != -EINVAL)
		fail_msg("expected -EINVAL, got %d (err '%s')", ret, c->err);
	if (!c->err[0])
		fail_msg("no error message");
	for (const char *s = c->err; *s; s++)
		if (!isprint((unsigned char)*s))
			fail_msg("error message has a non-printable byte %#x: '%s'",
				 (unsigned char)*s, c->err);
	if (!strstr(c->err, needle))
		fail_msg("error '%s' does not mention '%s'", c->err, needle);
}

static void check_defaults(const struct tlat_params *p, enum tlat_mode mode)
{
	assert_int_equal(p->mode, mode);
	assert_int_equal(p->period_us, 1000);
	assert_int_equal(p->duration_s, 0);
	assert_int_equal(p->warmup_s, 0);
	assert_int_equal(p->cpus.nr_cpus, NR_CPUS);
	assert_int_equal(cpuset_count(&p->cpus), NR_CPUS);
	assert_int_equal(unit_cpu_mask(&p->cpus), 0xf);
	assert_int_equal(p->housekeeping.nr_cpus, NR_CPUS);
	assert_int_equal(cpuset_count(&p->housekeeping), 0);
	assert_false(p->housekeeping_set);
	assert_false(p->sched.set);
	assert_false(p->quiet);
	assert_false(p->nano);
	assert_false(p->debug);
	assert_int_equal(p->dma_latency_us, -1);
	assert_int_equal(p->buffer_kb, 0);
	assert_string_equal(p->source, "auto");
	assert_null(p->sample_log);
	assert_null(p->json_path);
	assert_int_equal(p->json_format, TLAT_JSON_TLAT);
	assert_int_equal(p->hist.bucket_size, 1);
	assert_int_equal(p->hist.entries, 256);
	assert_false(p->hist.no_irq);
	assert_false(p->hist.no_thread);
	assert_false(p->hist.no_header);
	assert_false(p->hist.no_summary);
	assert_false(p->hist.no_index);
	assert_false(p->hist.with_zeros);
	assert_int_equal(p->deepest_idle_state, TLAT_IDLE_UNTOUCHED);
	assert_false(p->aligned);
	assert_int_equal(p->align_us, 0);
	assert_int_equal(p->nr_events, 0);
	assert_null(p->events);
}

static void test_defaults(void **state)
{
	struct cli *c = *state;
	enum tlat_mode mode = c->p.mode;

	/* straight from cli_params_init() */
	check_defaults(&c->p, mode);
	/* and after parsing an empty command line */
	cli_reset(c);
	assert_int_equal(cli_parse(&c->p, 1, (char *[]){ "tlat", NULL }, c->err), 0);
	check_defaults(&c->p, mode);
}

static void test_period(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-p", "100");
	assert_int_equal(c->p.period_us, 100);
	PARSE_OK(c, "--period", "1000000");
	assert_int_equal(c->p.period_us, 1000000);
	PARSE_OK(c, "-p250");
	assert_int_equal(c->p.period_us, 250);
	PARSE_OK(c, "--period=500");
	assert_int_equal(c->p.period_us, 500);
	PARSE_ERR(c, "'99'", "-p", "99");
	PARSE_ERR(c, "'1000001'", "--period", "1000001");
	PARSE_ERR(c, "period", "-p", "1ms");
	PARSE_ERR(c, "period", "--period=");
}

static void test_duration(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-d", "10");
	assert_int_equal(c->p.duration_s, 10);
	PARSE_OK(c, "--duration", "2m");
	assert_int_equal(c->p.duration_s, 120);
	PARSE_OK(c, "-d1h");
	assert_int_equal(c->p.duration_s, 3600);
	PARSE_OK(c, "--duration=1d");
	assert_int_equal(c->p.duration_s, 86400);
	PARSE_ERR(c, "duration", "-d", "0");
	PARSE_ERR(c, "'10x'", "--duration", "10x");
}

static void test_cpus(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-c", "0,2");
	assert_int_equal(unit_cpu_mask(&c->p.cpus), 0x5);
	PARSE_OK(c, "--cpus", "1-3");
	assert_int_equal(unit_cpu_mask(&c->p.cpus), 0xe);
	PARSE_OK(c, "-c3");
	assert_int_equal(unit_cpu_mask(&c->p.cpus), 0x8);
	PARSE_OK(c, "--cpus=0");
	assert_int_equal(unit_cpu_mask(&c->p.cpus), 0x1);
	/* the house-keeping set is not touched by -c */
	assert_int_equal(cpuset_count(&c->p.housekeeping), 0);
	PARSE_ERR(c, "'4'", "-c", "4");
	PARSE_ERR(c, "'1-0'", "--cpus", "1-0");
	PARSE_ERR(c, "cpu list", "-c", "0,,1");
	PARSE_ERR(c, "cpu list", "--cpus=");
}

static void test_house_keeping(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-H", "0");
	assert_true(c->p.housekeeping_set);
	assert_int_equal(unit_cpu_mask(&c->p.housekeeping), 0x1);
	/* the measured CPUs stay all CPUs */
	assert_int_equal(unit_cpu_mask(&c->p.cpus), 0xf);
	PARSE_OK(c, "--house-keeping", "1-2");
	assert_int_equal(unit_cpu_mask(&c->p.housekeeping), 0x6);
	PARSE_OK(c, "-H3");
	assert_int_equal(unit_cpu_mask(&c->p.housekeeping), 0x8);
	PARSE_OK(c, "--house-keeping=0,3");
	assert_int_equal(unit_cpu_mask(&c->p.housekeeping), 0x9);
	PARSE_ERR(c, "'4'", "-H", "4");
	assert_false(c->p.housekeeping_set);
}

static void test_priority(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-P", "f:95");
	assert_true(c->p.sched.set);
	assert_int_equal(c->p.sched.policy, SCHED_FIFO);
	assert_int_equal(c->p.sched.prio, 95);
	PARSE_OK(c, "--priority", "r:10");
	assert_int_equal(c->p.sched.policy, SCHED_RR);
	assert_int_equal(c->p.sched.prio, 10);
	PARSE_OK(c, "-Po:-5");
	assert_int_equal(c->p.sched.policy, SCHED_OTHER);
	assert_int_equal(c->p.sched.prio, -5);
	PARSE_OK(c, "--priority=d:100us:1ms");
	assert_int_equal(c->p.sched.runtime_ns, 100000);
	assert_int_equal(c->p.sched.period_ns, 1000000);
	PARSE_ERR(c, "'f:100'", "-P", "f:100");
	PARSE_ERR(c, "priority", "--priority", "f95");
	assert_false(c->p.sched.set);
}

static void test_quiet(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-q");
	assert_true(c->p.quiet);
	PARSE_OK(c, "--quiet");
	assert_true(c->p.quiet);
}

/* options both modes share */
static void test_flags(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-n");
	assert_true(c->p.nano);
	assert_false(c->p.debug);
	PARSE_OK(c, "--nano");
	assert_true(c->p.nano);
	PARSE_OK(c, "-D");
	assert_true(c->p.debug);
	assert_false(c->p.nano);
	PARSE_OK(c, "--debug");
	assert_true(c->p.debug);
	/* clustered short options, the last one with an attached argument */
	PARSE_OK(c, "-nDp200");
	assert_true(c->p.nano);
	assert_true(c->p.debug);
	assert_int_equal(c->p.period_us, 200);
}

static void test_dma_latency(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "--dma-latency", "0");
	assert_int_equal(c->p.dma_latency_us, 0);
	PARSE_OK(c, "--dma-latency", "10000");
	assert_int_equal(c->p.dma_latency_us, 10000);
	PARSE_OK(c, "--dma-latency=50");
	assert_int_equal(c->p.dma_latency_us, 50);
	PARSE_ERR(c, "dma-latency", "--dma-latency", "10001");
	PARSE_ERR(c, "dma-latency", "--dma-latency", "-1");
	assert_int_equal(c->p.dma_latency_us, -1);
}

static void test_warm_up(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "--warm-up", "0");
	assert_int_equal(c->p.warmup_s, 0);
	PARSE_OK(c, "--warm-up", "86400");
	assert_int_equal(c->p.warmup_s, 86400);
	PARSE_OK(c, "--warm-up=10");
	assert_int_equal(c->p.warmup_s, 10);
	PARSE_ERR(c, "warm-up", "--warm-up", "86401");
	PARSE_ERR(c, "warm-up", "--warm-up", "1s");
}

static void test_trace_buffer_size(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "--trace-buffer-size", "1");
	assert_int_equal(c->p.buffer_kb, 1);
	PARSE_OK(c, "--trace-buffer-size", "16777216");
	assert_int_equal(c->p.buffer_kb, 16777216);
	PARSE_OK(c, "--trace-buffer-size=1024");
	assert_int_equal(c->p.buffer_kb, 1024);
	PARSE_ERR(c, "trace-buffer-size", "--trace-buffer-size", "0");
	PARSE_ERR(c, "trace-buffer-size", "--trace-buffer-size", "16777217");
}

static void test_source_and_sample_log(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "--source", "tracepoints", "--sample-log=/tmp/samples");
	assert_string_equal(c->p.source, "tracepoints");
	assert_string_equal(c->p.sample_log, "/tmp/samples");
}

/* --collector: kernel only where nothing but the analysis reads the trace events */
static void test_collector(void **state)
{
	struct cli *c = *state;

	assert_int_equal(c->p.collect, TLAT_COLLECT_AUTO);
	PARSE_OK(c, "--collector", "trace");
	assert_int_equal(c->p.collect, TLAT_COLLECT_TRACE);
	PARSE_OK(c, "--collector=kernel", "-T", "50", "--no-aa", "--sample-log", "s.txt");
	assert_int_equal(c->p.collect, TLAT_COLLECT_KERNEL);
	PARSE_OK(c, "--collector", "auto", "-T", "50");
	assert_int_equal(c->p.collect, TLAT_COLLECT_AUTO);
	/* both: the trace collector's run, the kernel's counts beside it */
	PARSE_OK(c, "--collector", "both", "-T", "50", "-t");
	assert_int_equal(c->p.collect, TLAT_COLLECT_BOTH);
	PARSE_ERR(c, "'bpf': auto, kernel, trace or both", "--collector", "bpf");
	PARSE_ERR(c, "--collector", "--collector");
	/* the analysis alone: the source decodes its events at a hit, or refuses */
	PARSE_OK(c, "--collector", "kernel", "-T", "50");
	assert_int_equal(c->p.collect, TLAT_COLLECT_KERNEL);
	assert_false(c->p.no_aa);
	PARSE_ERR(c, "a saved trace", "--collector", "kernel", "-T", "50", "--no-aa", "-t");
	PARSE_ERR(c, "-e events", "--collector", "kernel", "-e", "sched");
	PARSE_ERR(c, "-s stacks", "--collector", "kernel", "-s", "10", "--no-aa");
	c->p.command = TLAT_CMD_RECORD;
	PARSE_ERR(c, "tlat record needs", "--collector", "kernel");
}

static void test_json(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "--json", "-");
	assert_string_equal(c->p.json_path, "-");
	assert_int_equal(c->p.json_format, TLAT_JSON_TLAT);
	PARSE_OK(c, "--json=out.json", "--json-format", "rt-tests");
	assert_string_equal(c->p.json_path, "out.json");
	assert_int_equal(c->p.json_format, TLAT_JSON_RT_TESTS);
	PARSE_OK(c, "--json-format=tlat", "--json", "x");
	assert_int_equal(c->p.json_format, TLAT_JSON_TLAT);
	PARSE_ERR(c, "invalid --json-format 'xml': expected tlat or rt-tests", "--json", "x",
		  "--json-format", "xml");
	PARSE_ERR(c, "--json-format needs --json", "--json-format", "rt-tests");
	PARSE_ERR(c, "requires an argument", "--json");
}

static void test_bucket_size(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-b", "1");
	assert_int_equal(c->p.hist.bucket_size, 1);
	PARSE_OK(c, "-b", "999999");
	assert_int_equal(c->p.hist.bucket_size, 999999);
	PARSE_OK(c, "--bucket-size", "10");
	assert_int_equal(c->p.hist.bucket_size, 10);
	PARSE_OK(c, "-b5");
	assert_int_equal(c->p.hist.bucket_size, 5);
	PARSE_OK(c, "--bucket-size=7");
	assert_int_equal(c->p.hist.bucket_size, 7);
	PARSE_ERR(c, "'0'", "-b", "0");
	PARSE_ERR(c, "'1000000'", "--bucket-size", "1000000");
}

static void test_entries(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-E", "10");
	assert_int_equal(c->p.hist.entries, 10);
	PARSE_OK(c, "-E", "9999999");
	assert_int_equal(c->p.hist.entries, 9999999);
	PARSE_OK(c, "--entries", "100");
	assert_int_equal(c->p.hist.entries, 100);
	PARSE_OK(c, "-E20");
	assert_int_equal(c->p.hist.entries, 20);
	PARSE_OK(c, "--entries=30");
	assert_int_equal(c->p.hist.entries, 30);
	PARSE_ERR(c, "'9'", "-E", "9");
	PARSE_ERR(c, "'10000000'", "--entries", "10000000");
}

static void test_hist_flags(void **state)
{
	struct cli *c = *state;
	const struct tlat_hist_params *h = &c->p.hist;

	PARSE_OK(c, "--no-irq");
	assert_true(h->no_irq);
	assert_false(h->no_thread);
	PARSE_OK(c, "--no-thread");
	assert_true(h->no_thread);
	assert_false(h->no_irq);
	PARSE_OK(c, "--no-header");
	assert_true(h->no_header);
	assert_false(h->no_summary);
	PARSE_OK(c, "--no-summary");
	assert_true(h->no_summary);
	assert_false(h->no_header);
	PARSE_OK(c, "--with-zeros");
	assert_true(h->with_zeros);
	assert_false(h->no_index);
	PARSE_OK(c, "--no-index", "--with-zeros");
	assert_true(h->no_index);
	assert_true(h->with_zeros);
	/* the order does not matter: the cross check runs after parsing */
	PARSE_OK(c, "--with-zeros", "--no-index");
	assert_true(h->no_index);
}

static void test_help(void **state)
{
	struct cli *c = *state;

	assert_int_equal(PARSE(c, "-h"), TLAT_CLI_HELP);
	assert_int_equal(PARSE(c, "--help"), TLAT_CLI_HELP);
	assert_int_equal(PARSE(c, "-p", "100", "-h"), TLAT_CLI_HELP);
}

/* errors both modes share */
static void test_common_errors(void **state)
{
	struct cli *c = *state;

	PARSE_ERR(c, "-x", "-x");
	PARSE_ERR(c, "--bogus", "--bogus");
	PARSE_ERR(c, "'foo'", "foo");
	PARSE_ERR(c, "'foo'", "-p", "100", "foo");
	PARSE_ERR(c, "'foo'", "foo", "-p", "100");
	/* missing arguments */
	PARSE_ERR(c, "-p", "-p");
	PARSE_ERR(c, "-d", "-d");
	PARSE_ERR(c, "-c", "-c");
	PARSE_ERR(c, "-H", "-H");
	PARSE_ERR(c, "-P", "-P");
	PARSE_ERR(c, "requires an argument", "--period");
	PARSE_ERR(c, "requires an argument", "--cpus");
}

static void test_top_errors(void **state)
{
	struct cli *c = *state;

	/* hist-only options */
	PARSE_ERR(c, "-b", "-b", "10");
	PARSE_ERR(c, "-E", "-E", "10");
	PARSE_ERR(c, "--no-irq", "--no-irq");
	PARSE_ERR(c, "--with-zeros", "--with-zeros");
}

/* top only, as in rtla */
static void test_hist_no_aa_only(void **state)
{
	struct cli *c = *state;

	PARSE_ERR(c, "--aa-only", "--aa-only", "80");
}

static void test_hist_errors(void **state)
{
	struct cli *c = *state;

	/* top-only option */
	PARSE_ERR(c, "-q", "-q");
	PARSE_ERR(c, "--quiet", "--quiet");
	PARSE_ERR(c, "nothing to do", "--no-irq", "--no-thread");
	PARSE_ERR(c, "no-index", "--no-index");
	PARSE_ERR(c, "-b", "-b");
	PARSE_ERR(c, "-E", "-E");
}

/* every parse starts from scratch, even after one that stopped half-way */
static void test_reparse(void **state)
{
	struct cli *c = *state;

	/* the error leaves getopt inside the cluster, before the 'n' */
	PARSE_ERR(c, "-x", "-xn", "-p", "300");
	PARSE_OK(c, "-p", "200");
	assert_int_equal(c->p.period_us, 200);
	assert_false(c->p.nano);
	PARSE_OK(c, "-D");
	assert_int_equal(c->p.period_us, 1000);
	assert_true(c->p.debug);
}

/* options that exist only in long form must be named in their errors too */
static void test_long_only_errors(void **state)
{
	struct cli *c = *state;

	PARSE_ERR(c, "dma-latency", "--dma-latency");
	PARSE_ERR(c, "warm-up", "--warm-up");
	PARSE_ERR(c, "trace-buffer-size", "--trace-buffer-size");
	PARSE_ERR(c, "sample-log", "--sample-log");
	/* an argument for an option that takes none */
	PARSE_ERR(c, "--nano=1", "--nano=1");
	PARSE_ERR(c, "--debug=1", "--debug=1");
}

static void test_hist_long_only_errors(void **state)
{
	struct cli *c = *state;

	PARSE_ERR(c, "--no-irq=1", "--no-irq=1");
	PARSE_ERR(c, "--with-zeros=1", "--with-zeros=1");
}

#define TOP(fn)		{ "top: " #fn, fn, setup_top, teardown, NULL }
#define HIST(fn)	{ "hist: " #fn, fn, setup_hist, teardown, NULL }

static void test_thresholds(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-d", "1");
	assert_int_equal(c->p.stop_irq_us, 0);
	assert_int_equal(c->p.stop_thread_us, 0);
	assert_int_equal(c->p.stack_us, 0);
	PARSE_OK(c, "-i", "30", "-T", "40", "-s", "50");
	assert_int_equal(c->p.stop_irq_us, 30);
	assert_int_equal(c->p.stop_thread_us, 40);
	assert_int_equal(c->p.stack_us, 50);
	PARSE_OK(c, "--irq=7", "--thread", "8", "--stack=9");
	assert_int_equal(c->p.stop_irq_us, 7);
	assert_int_equal(c->p.stop_thread_us, 8);
	assert_int_equal(c->p.stack_us, 9);
	PARSE_OK(c, "-T0");
	assert_int_equal(c->p.stop_thread_us, 0);
	PARSE_ERR(c, "invalid threshold", "-T", "1x");
	PARSE_ERR(c, "invalid threshold", "-i", "-1");
	PARSE_ERR(c, "requires an argument", "-s");
}

/* -t and -a are one trace action at the end of the threshold actions */
static void assert_trace_action(struct cli *c, const char *file)
{
	const struct tlat_actions *a = &c->p.on_threshold;

	assert_int_equal(a->nr, 1);
	assert_int_equal(a->list[0].type, TLAT_ACTION_TRACE);
	assert_string_equal(a->list[0].arg, file);
}

/* -a, -t in rtla's spellings, --no-aa, --dump-tasks, --stack-format */
static void test_auto_analysis(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-d", "1");
	assert_true(c->p.no_aa);	/* nothing to analyse without a stop */
	assert_int_equal(c->p.on_threshold.nr, 0);
	assert_int_equal(c->p.stack_format, TLAT_STACK_TRUNCATE);
	PARSE_OK(c, "-T", "100");
	assert_false(c->p.no_aa);
	PARSE_OK(c, "-a", "60");
	assert_int_equal(c->p.stop_irq_us, 60);
	assert_int_equal(c->p.stop_thread_us, 60);
	assert_int_equal(c->p.stack_us, 60);
	assert_trace_action(c, "timerlat_trace.txt");
	assert_false(c->p.aa_only);
	PARSE_OK(c, "-t", "mine.txt", "--auto=70");	/* -a keeps an earlier -t */
	assert_trace_action(c, "mine.txt");
	PARSE_OK(c, "-t=a.txt", "-T", "5");
	assert_trace_action(c, "a.txt");
	PARSE_OK(c, "-tb.txt", "-T", "5");
	assert_trace_action(c, "b.txt");
	PARSE_OK(c, "--trace=c.txt", "-T", "5");
	assert_trace_action(c, "c.txt");
	PARSE_OK(c, "-t", "-T", "5");
	assert_trace_action(c, "timerlat_trace.txt");
	PARSE_OK(c, "-T", "5", "--no-aa", "--dump-tasks", "--stack-format", "full");
	assert_true(c->p.no_aa);
	assert_true(c->p.dump_tasks);
	assert_false(c->p.aa_extras);
	assert_int_equal(c->p.stack_format, TLAT_STACK_FULL);
	PARSE_OK(c, "-T", "5", "--aa-extras");
	assert_true(c->p.aa_extras);
	PARSE_OK(c, "--stack-format=skip");
	assert_int_equal(c->p.stack_format, TLAT_STACK_SKIP);
	PARSE_ERR(c, "invalid --stack-format", "--stack-format", "short");
	PARSE_ERR(c, "invalid threshold", "-a", "0");
	PARSE_ERR(c, "requires an argument", "-a");
}

static void test_aa_only(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "--aa-only", "80");
	assert_true(c->p.aa_only);
	assert_int_equal(c->p.stop_irq_us, 80);
	assert_int_equal(c->p.stop_thread_us, 80);
	assert_int_equal(c->p.stack_us, 80);
	assert_int_equal(c->p.on_threshold.nr, 0);	/* unlike -a */
	PARSE_ERR(c, "mutually exclusive", "--aa-only", "80", "--no-aa");
}

/* --on-threshold and --on-end in getopt's spellings; -t goes last, as rtla's */
static void test_actions(void **state)
{
	struct cli *c = *state;
	const struct tlat_actions *t = &c->p.on_threshold, *e = &c->p.on_end;

	PARSE_OK(c, "-T", "5", "--on-threshold", "shell,command=true", "--on-threshold=continue",
		 "--on-end", "trace,file=end.txt", "--on-end=signal,num=10,pid=parent");
	assert_int_equal(t->nr, 2);
	assert_int_equal(t->list[0].type, TLAT_ACTION_SHELL);
	assert_string_equal(t->list[0].arg, "true");
	assert_int_equal(t->list[1].type, TLAT_ACTION_CONTINUE);
	assert_int_equal(e->nr, 2);
	assert_int_equal(e->list[0].type, TLAT_ACTION_TRACE);
	assert_string_equal(e->list[0].arg, "end.txt");
	assert_int_equal(e->list[1].type, TLAT_ACTION_SIGNAL);
	assert_int_equal(e->list[1].pid, TLAT_ACTION_PARENT);
	assert_false(c->p.report_hits);	/* as rtla: a continue run exits 0 */
	PARSE_OK(c, "-T", "5", "--on-threshold", "continue", "--report-hits");
	assert_true(c->p.report_hits);

	PARSE_OK(c, "-t", "x.txt", "--on-threshold", "trace", "-a", "9");
	assert_int_equal(t->nr, 2);
	assert_string_equal(t->list[0].arg, "timerlat_trace.txt");
	assert_string_equal(t->list[1].arg, "x.txt");
	PARSE_OK(c, "--on-threshold", "trace");
	assert_int_equal(t->nr, 1);	/* no -t: nothing added */

	PARSE_ERR(c, "invalid --on-threshold action 'frob'", "--on-threshold", "frob");
	PARSE_ERR(c, "invalid --on-end action 'signal,num=10'", "--on-end", "signal,num=10");
	PARSE_ERR(c, "requires an argument", "--on-end");
}

static void test_cgroup(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-d", "1");
	assert_false(c->p.cgroup_set);
	PARSE_OK(c, "-C");
	assert_true(c->p.cgroup_set);
	assert_null(c->p.cgroup);
	PARSE_OK(c, "-C", "-d", "1");	/* an option after -C is not its name */
	assert_null(c->p.cgroup);
	PARSE_OK(c, "-C", "rt");
	assert_string_equal(c->p.cgroup, "rt");
	PARSE_OK(c, "-Crt");
	assert_string_equal(c->p.cgroup, "rt");
	PARSE_OK(c, "-C=rt");
	assert_string_equal(c->p.cgroup, "rt");
	PARSE_OK(c, "--cgroup=rt/sub");
	assert_string_equal(c->p.cgroup, "rt/sub");
	PARSE_OK(c, "--cgroup");
	assert_null(c->p.cgroup);
}

static void test_thread_kind(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-d", "1");
	assert_int_equal(c->p.threads, TLAT_THREADS_AUTO);
	PARSE_OK(c, "-k");
	assert_int_equal(c->p.threads, TLAT_THREADS_KERNEL);
	PARSE_OK(c, "--kernel-threads");
	assert_int_equal(c->p.threads, TLAT_THREADS_KERNEL);
	PARSE_OK(c, "-u");
	assert_int_equal(c->p.threads, TLAT_THREADS_USER);
	PARSE_OK(c, "--user-threads", "-u");
	assert_int_equal(c->p.threads, TLAT_THREADS_USER);
	PARSE_ERR(c, "mutually exclusive", "-k", "-u");
	PARSE_OK(c, "-U");
	assert_int_equal(c->p.threads, TLAT_THREADS_USER);
	assert_true(c->p.user_load);
	PARSE_OK(c, "--user-load", "-u");
	assert_true(c->p.user_load);
	PARSE_ERR(c, "mutually exclusive", "-U", "-k");
	PARSE_ERR(c, "mutually exclusive", "--user-threads", "--kernel-threads");
}

static void expect_event(const struct tlat_event_req *ev, const char *system, const char *event,
			 const char *filter, const char *trigger)
{
	assert_string_equal(ev->system, system);
	if (event)
		assert_string_equal(ev->event, event);
	else
		assert_null(ev->event);
	if (filter)
		assert_string_equal(ev->filter, filter);
	else
		assert_null(ev->filter);
	if (trigger)
		assert_string_equal(ev->trigger, trigger);
	else
		assert_null(ev->trigger);
}

/* -e, and --filter and --trigger for the -e before them */
static void test_events(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-e", "sched:sched_wakeup");
	assert_int_equal(c->p.nr_events, 1);
	expect_event(&c->p.events[0], "sched", "sched_wakeup", NULL, NULL);
	PARSE_OK(c, "--event", "sched", "-eirq:irq_handler_entry", "--event=timer:hrtimer_start",
		 "--filter", "expires>0", "--trigger=hist:keys=common_pid");
	assert_int_equal(c->p.nr_events, 3);
	expect_event(&c->p.events[0], "sched", NULL, NULL, NULL);
	expect_event(&c->p.events[1], "irq", "irq_handler_entry", NULL, NULL);
	expect_event(&c->p.events[2], "timer", "hrtimer_start", "expires>0",
		     "hist:keys=common_pid");
	/* each applies to its own -e; a second one replaces the first, as in rtla */
	PARSE_OK(c, "-e", "sched:sched_wakeup", "--filter", "prio<100", "--filter", "prio<50",
		 "-e", "sched:sched_switch", "--trigger", "traceoff");
	expect_event(&c->p.events[0], "sched", "sched_wakeup", "prio<50", NULL);
	expect_event(&c->p.events[1], "sched", "sched_switch", NULL, "traceoff");
	/* a filter with spaces is one argument */
	PARSE_OK(c, "-e", "sched:sched_wakeup", "--filter", "prio < 100 && pid != 1");
	expect_event(&c->p.events[0], "sched", "sched_wakeup", "prio < 100 && pid != 1", NULL);
}

static void test_event_errors(void **state)
{
	struct cli *c = *state;

	PARSE_ERR(c, "no previous -e", "--filter", "prio<100");
	PARSE_ERR(c, "no previous -e", "--trigger", "traceoff", "-e", "sched:sched_wakeup");
	PARSE_ERR(c, "not to all sched events", "-e", "sched", "--filter", "prio<100");
	PARSE_ERR(c, "not to all sched events", "-e", "sched", "--trigger", "traceoff");
	PARSE_ERR(c, "empty", "-e", "sched:sched_wakeup", "--filter", "");
	PARSE_ERR(c, "'sched:'", "-e", "sched:");
	PARSE_ERR(c, "':sched_wakeup'", "-e", ":sched_wakeup");
	PARSE_ERR(c, "invalid event", "-e", "");
	/* the names become tracefs paths */
	PARSE_ERR(c, "invalid event", "-e", "../../x");
	PARSE_ERR(c, "invalid event", "-e", "sched:..");
	PARSE_ERR(c, "invalid event", "-e", "sched:a/b");
	PARSE_ERR(c, "-e", "-e");
	PARSE_ERR(c, "requires an argument", "--filter");
	PARSE_ERR(c, "requires an argument", "--trigger");
}

static void test_deepest_idle_state(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "--deepest-idle-state", "-1");
	assert_int_equal(c->p.deepest_idle_state, TLAT_IDLE_NONE);
	PARSE_OK(c, "--deepest-idle-state", "0");
	assert_int_equal(c->p.deepest_idle_state, 0);
	PARSE_OK(c, "--deepest-idle-state=2147483647");
	assert_int_equal(c->p.deepest_idle_state, 2147483647);
	PARSE_ERR(c, "deepest-idle-state", "--deepest-idle-state", "-2");
	PARSE_ERR(c, "deepest-idle-state", "--deepest-idle-state", "2147483648");
	PARSE_ERR(c, "deepest-idle-state", "--deepest-idle-state", "1x");
	PARSE_ERR(c, "requires an argument", "--deepest-idle-state");
	assert_int_equal(c->p.deepest_idle_state, TLAT_IDLE_UNTOUCHED);
}

static void test_aligned(void **state)
{
	struct cli *c = *state;

	PARSE_OK(c, "-A", "0");
	assert_true(c->p.aligned);
	assert_int_equal(c->p.align_us, 0);
	PARSE_OK(c, "--aligned", "200");
	assert_true(c->p.aligned);
	assert_int_equal(c->p.align_us, 200);
	PARSE_OK(c, "-A50");
	assert_int_equal(c->p.align_us, 50);
	PARSE_OK(c, "--aligned=1000000000");
	assert_int_equal(c->p.align_us, 1000000000);
	PARSE_ERR(c, "aligned", "-A", "1000000001");
	PARSE_ERR(c, "aligned", "-A", "-1");
	PARSE_ERR(c, "aligned", "--aligned", "1us");
	PARSE_ERR(c, "-A", "-A");
	assert_false(c->p.aligned);
}

/* tlat record: top's or hist's options, and -o, trace.dat by default */
static void test_record(void **state)
{
	struct cli *c = *state;

	PARSE_ERR(c, "-o", "-o", "x.dat");
	c->p.command = TLAT_CMD_RECORD;
	PARSE_OK(c, "-d", "1");
	assert_string_equal(c->p.recording, "trace.dat");
	assert_true(c->p.no_aa);
	PARSE_OK(c, "-o", "x.dat", "-d", "2", "-T", "50");
	assert_string_equal(c->p.recording, "x.dat");
	assert_int_equal(c->p.duration_s, 2);
	assert_false(c->p.no_aa);
	PARSE_OK(c, "--output=y.dat");
	assert_string_equal(c->p.recording, "y.dat");
	PARSE_ERR(c, "'x.dat'", "x.dat");
	PARSE_ERR(c, "requires an argument", "-o");
}

static void test_record_hist(void **state)
{
	struct cli *c = *state;

	c->p.command = TLAT_CMD_RECORD;
	PARSE_OK(c, "-b", "10", "-o", "h.dat");
	assert_int_equal(c->p.hist.bucket_size, 10);
	assert_string_equal(c->p.recording, "h.dat");
	PARSE_ERR(c, "-q", "-q");
}

/* tlat report: one file, and only what changes how samples are shown or analysed */
static void test_report(void **state)
{
	struct cli *c = *state;

	c->p.command = TLAT_CMD_REPORT;
	PARSE_OK(c, "x.dat");
	assert_string_equal(c->p.recording, "x.dat");
	assert_false(c->p.thresholds_set);
	/* the recording's thresholds may still apply */
	assert_false(c->p.no_aa);
	PARSE_OK(c, "-n");
	assert_string_equal(c->p.recording, "trace.dat");
	assert_true(c->p.nano);
	PARSE_OK(c, "x.dat", "-T", "50", "--dump-tasks", "--aa-extras");
	assert_true(c->p.thresholds_set);
	assert_int_equal(c->p.stop_thread_us, 50);
	assert_true(c->p.dump_tasks);
	assert_true(c->p.aa_extras);
	PARSE_OK(c, "-T", "0", "x.dat");
	assert_true(c->p.thresholds_set);
	PARSE_OK(c, "--aa-only", "40", "x.dat");
	assert_true(c->p.aa_only);
	PARSE_OK(c, "--sample-log", "s.txt", "--no-aa", "--stack-format=full", "-D", "x.dat");
	assert_string_equal(c->p.sample_log, "s.txt");
	PARSE_ERR(c, "'y.dat'", "x.dat", "y.dat");
	PARSE_ERR(c, "-p", "-p", "100", "x.dat");
	PARSE_ERR(c, "-d", "-d", "1", "x.dat");
	PARSE_ERR(c, "-c", "-c", "0", "x.dat");
	PARSE_ERR(c, "-q", "-q", "x.dat");
	PARSE_ERR(c, "--source", "--source", "tracepoints", "x.dat");
	PARSE_ERR(c, "-o", "-o", "x.dat");
	PARSE_ERR(c, "-b", "-b", "10", "x.dat");
}

static void test_report_hist(void **state)
{
	struct cli *c = *state;

	c->p.command = TLAT_CMD_REPORT;
	PARSE_OK(c, "-b", "10", "--no-irq", "x.dat", "-E", "20");
	assert_int_equal(c->p.hist.bucket_size, 10);
	assert_int_equal(c->p.hist.entries, 20);
	assert_true(c->p.hist.no_irq);
	assert_string_equal(c->p.recording, "x.dat");
	PARSE_ERR(c, "--aa-only", "--aa-only", "40", "x.dat");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_thresholds, setup_top, teardown),
		cmocka_unit_test_setup_teardown(test_thresholds, setup_hist, teardown),
		cmocka_unit_test_setup_teardown(test_auto_analysis, setup_top, teardown),
		cmocka_unit_test_setup_teardown(test_auto_analysis, setup_hist, teardown),
		cmocka_unit_test_setup_teardown(test_aa_only, setup_top, teardown),
		cmocka_unit_test_setup_teardown(test_hist_no_aa_only, setup_hist, teardown),
		cmocka_unit_test_setup_teardown(test_actions, setup_top, teardown),
		cmocka_unit_test_setup_teardown(test_actions, setup_hist, teardown),
		cmocka_unit_test_setup_teardown(test_cgroup, setup_top, teardown),
		cmocka_unit_test_setup_teardown(test_cgroup, setup_hist, teardown),
		cmocka_unit_test_setup_teardown(test_thread_kind, setup_top, teardown),
		cmocka_unit_test_setup_teardown(test_thread_kind, setup_hist, teardown),
		TOP(test_defaults),
		HIST(test_defaults),
		TOP(test_period),
		HIST(test_period),
		TOP(test_duration),
		TOP(test_cpus),
		HIST(test_cpus),
		TOP(test_house_keeping),
		TOP(test_priority),
		TOP(test_quiet),
		TOP(test_flags),
		HIST(test_flags),
		TOP(test_dma_latency),
		HIST(test_warm_up),
		TOP(test_trace_buffer_size),
		TOP(test_source_and_sample_log),
		TOP(test_collector),
		HIST(test_collector),
		TOP(test_json),
		HIST(test_json),
		HIST(test_bucket_size),
		HIST(test_entries),
		HIST(test_hist_flags),
		TOP(test_help),
		HIST(test_help),
		TOP(test_common_errors),
		HIST(test_common_errors),
		TOP(test_top_errors),
		HIST(test_hist_errors),
		TOP(test_reparse),
		TOP(test_long_only_errors),
		HIST(test_hist_long_only_errors),
		TOP(test_events),
		HIST(test_events),
		TOP(test_event_errors),
		HIST(test_event_errors),
		TOP(test_deepest_idle_state),
		HIST(test_deepest_idle_state),
		TOP(test_aligned),
		HIST(test_aligned),
		TOP(test_record),
		HIST(test_record_hist),
		TOP(test_report),
		HIST(test_report_hist),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
