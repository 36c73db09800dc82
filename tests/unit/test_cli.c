// SPDX-License-Identifier: GPL-2.0
/*
 * test_cli.c - tlat top's and tlat hist's command lines: defaults, every
 * spelling of every option (short, long, attached, --opt=value), ranges at
 * their bounds, and the one-line errors for what rtla rejects. Thresholds,
 * the analysis, actions and the other commands: test_cli_run.c.
 */
#include <string.h>

#include "unit_cli.h"
#include "core/cpuset.h"

static void check_defaults(const struct tlat_params *p, enum tlat_mode mode)
{
	assert_int_equal(p->out.mode, mode);
	assert_int_equal(p->period_us, 1000);
	assert_int_equal(p->duration_s, 0);
	assert_int_equal(p->warmup_s, 0);
	assert_int_equal(p->cpus.nr_cpus, UNIT_CLI_NR_CPUS);
	assert_int_equal(cpuset_count(&p->cpus), UNIT_CLI_NR_CPUS);
	assert_int_equal(unit_cpu_mask(&p->cpus), 0xf);
	assert_int_equal(p->housekeeping.nr_cpus, UNIT_CLI_NR_CPUS);
	assert_int_equal(cpuset_count(&p->housekeeping), 0);
	assert_false(p->housekeeping_set);
	assert_false(p->sched.set);
	assert_false(p->out.quiet);
	assert_false(p->out.nano);
	assert_false(p->debug);
	assert_int_equal(p->dma_latency_us, -1);
	assert_int_equal(p->buffer_kb, 0);
	assert_string_equal(p->source, "auto");
	assert_null(p->sample_log);
	assert_null(p->out.json_path);
	assert_int_equal(p->out.json_format, TLAT_JSON_TLAT);
	assert_int_equal(p->out.hist.bucket_size, 1);
	assert_int_equal(p->out.hist.entries, 256);
	assert_false(p->out.hist.no_irq);
	assert_false(p->out.hist.no_thread);
	assert_false(p->out.hist.no_header);
	assert_false(p->out.hist.no_summary);
	assert_false(p->out.hist.no_index);
	assert_false(p->out.hist.with_zeros);
	assert_int_equal(p->deepest_idle_state, TLAT_IDLE_UNTOUCHED);
	assert_false(p->aligned);
	assert_int_equal(p->align_us, 0);
	assert_int_equal(p->events.nr, 0);
	assert_null(p->events.list);
}

/* -p: 100 us to 1 s */
static const struct unit_lines_case period = { .field = FIELD(period_us), .lines = {
	"-p 100 => 100",
	"--period 1000000 => 1000000",
	"-p250 => 250",
	"--period=500 => 500",
	"-p 99 => error '99'",
	"--period 1000001 => error '1000001'",
	"-p 1ms => error period",
	"--period= => error period",
} };

static const struct unit_lines_case duration = { .field = FIELD(duration_s), .lines = {
	"-d 10 => 10",
	"--duration 2m => 120",
	"-d1h => 3600",
	"--duration=1d => 86400",
	"-d 0 => error duration",
	"--duration 10x => error '10x'",
} };

static const struct unit_lines_case quiet = { .field = FIELD(out.quiet), .lines = {
	"-q => 1",
	"--quiet => 1",
} };

/* a refused value leaves the default, -1: /dev/cpu_dma_latency untouched */
static const struct unit_lines_case dma_latency = { .field = FIELD(dma_latency_us), .lines = {
	"--dma-latency 0 => 0",
	"--dma-latency 10000 => 10000",
	"--dma-latency=50 => 50",
	"--dma-latency 10001 => error dma-latency",
	"--dma-latency -1 => error dma-latency",
}, .left = { FIELD(dma_latency_us), -1 } };

static const struct unit_lines_case warm_up = { .field = FIELD(warmup_s), .lines = {
	"--warm-up 0 => 0",
	"--warm-up 86400 => 86400",
	"--warm-up=10 => 10",
	"--warm-up 86401 => error warm-up",
	"--warm-up 1s => error warm-up",
} };

static const struct unit_lines_case trace_buffer_size = { .field = FIELD(buffer_kb), .lines = {
	"--trace-buffer-size 1 => 1",
	"--trace-buffer-size 16777216 => 16777216",
	"--trace-buffer-size=1024 => 1024",
	"--trace-buffer-size 0 => error trace-buffer-size",
	"--trace-buffer-size 16777217 => error trace-buffer-size",
} };

static const struct unit_lines_case bucket_size = { .field = FIELD(out.hist.bucket_size), .lines = {
	"-b 1 => 1",
	"-b 999999 => 999999",
	"--bucket-size 10 => 10",
	"-b5 => 5",
	"--bucket-size=7 => 7",
	"-b 0 => error '0'",
	"--bucket-size 1000000 => error '1000000'",
} };

static const struct unit_lines_case entries = { .field = FIELD(out.hist.entries), .lines = {
	"-E 10 => 10",
	"-E 9999999 => 9999999",
	"--entries 100 => 100",
	"-E20 => 20",
	"--entries=30 => 30",
	"-E 9 => error '9'",
	"--entries 10000000 => error '10000000'",
} };

/* -1 is TLAT_IDLE_NONE; a refused value leaves cpuidle untouched */
static const struct unit_lines_case deepest_idle_state = {
	.field = FIELD(deepest_idle_state), .lines = {
	"--deepest-idle-state -1 => -1",
	"--deepest-idle-state 0 => 0",
	"--deepest-idle-state=2147483647 => 2147483647",
	"--deepest-idle-state -2 => error deepest-idle-state",
	"--deepest-idle-state 2147483648 => error deepest-idle-state",
	"--deepest-idle-state 1x => error deepest-idle-state",
	"--deepest-idle-state => error requires an argument",
	}, .left = { FIELD(deepest_idle_state), TLAT_IDLE_UNTOUCHED } };

/* -c: the house-keeping set is not touched */
static const struct unit_lines_case cpus = { .field = CPUS(cpus), .lines = {
	"-c 0,2 => 0x5",
	"--cpus 1-3 => 0xe",
	"-c3 => 0x8",
	"--cpus=0 => 0x1",
	"-c 4 => error '4'",
	"--cpus 1-0 => error '1-0'",
	"-c 0,,1 => error cpu list",
	"--cpus= => error cpu list",
}, .also = { { CPUS(housekeeping), 0 } } };

/* -H: the measured CPUs stay all CPUs */
static const struct unit_lines_case house_keeping = { .field = CPUS(housekeeping), .lines = {
	"-H 0 => 0x1",
	"--house-keeping 1-2 => 0x6",
	"-H3 => 0x8",
	"--house-keeping=0,3 => 0x9",
	"-H 4 => error '4'",
}, .also = { { FIELD(housekeeping_set), true }, { CPUS(cpus), 0xf } },
   .left = { FIELD(housekeeping_set), false } };

/* errors both modes share */
static const struct unit_lines_case common_errors = { .lines = {
	"-x => error -x",
	"--bogus => error --bogus",
	"foo => error 'foo'",
	"-p 100 foo => error 'foo'",
	"foo -p 100 => error 'foo'",
	/* missing arguments */
	"-p => error -p",
	"-d => error -d",
	"-c => error -c",
	"-H => error -H",
	"-P => error -P",
	"--period => error requires an argument",
	"--cpus => error requires an argument",
} };

/* hist-only options */
static const struct unit_lines_case top_errors = { .lines = {
	"-b 10 => error -b",
	"-E 10 => error -E",
	"--no-irq => error --no-irq",
	"--with-zeros => error --with-zeros",
} };

/* top-only options, and what hist cannot do */
static const struct unit_lines_case hist_errors = { .lines = {
	"-q => error -q",
	"--quiet => error --quiet",
	"--no-irq --no-thread => error nothing to do",
	"--no-index => error no-index",
	"-b => error -b",
	"-E => error -E",
} };

/* options that exist only in long form must be named in their errors too */
static const struct unit_lines_case long_only_errors = { .lines = {
	"--dma-latency => error dma-latency",
	"--warm-up => error warm-up",
	"--trace-buffer-size => error trace-buffer-size",
	"--sample-log => error sample-log",
	/* an argument for an option that takes none */
	"--nano=1 => error --nano=1",
	"--debug=1 => error --debug=1",
} };

static const struct unit_lines_case hist_long_only_errors = { .lines = {
	"--no-irq=1 => error --no-irq=1",
	"--with-zeros=1 => error --with-zeros=1",
} };

static void test_defaults(void **state)
{
	struct unit_cli *c = *state;
	enum tlat_mode mode = c->p.out.mode;

	/* straight from cli_params_init() */
	check_defaults(&c->p, mode);
	/* and after parsing an empty command line */
	unit_cli_reset(c);
	assert_int_equal(cli_parse(&c->p, 1, (char *[]){ "tlat", NULL }, c->err), 0);
	check_defaults(&c->p, mode);
}

static void test_priority(void **state)
{
	struct unit_cli *c = *state;

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

/* options both modes share */
static void test_flags(void **state)
{
	struct unit_cli *c = *state;

	PARSE_OK(c, "-n");
	assert_true(c->p.out.nano);
	assert_false(c->p.debug);
	PARSE_OK(c, "--nano");
	assert_true(c->p.out.nano);
	PARSE_OK(c, "-D");
	assert_true(c->p.debug);
	assert_false(c->p.out.nano);
	PARSE_OK(c, "--debug");
	assert_true(c->p.debug);
	/* clustered short options, the last one with an attached argument */
	PARSE_OK(c, "-nDp200");
	assert_true(c->p.out.nano);
	assert_true(c->p.debug);
	assert_int_equal(c->p.period_us, 200);
}

static void test_source_and_sample_log(void **state)
{
	struct unit_cli *c = *state;

	PARSE_OK(c, "--source", "tracepoints", "--sample-log=/tmp/samples");
	assert_string_equal(c->p.source, "tracepoints");
	assert_string_equal(c->p.sample_log, "/tmp/samples");
}

/* --collector: kernel only where nothing but the analysis reads the trace events */
static void test_collector(void **state)
{
	struct unit_cli *c = *state;

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
	struct unit_cli *c = *state;

	PARSE_OK(c, "--json", "-");
	assert_string_equal(c->p.out.json_path, "-");
	assert_int_equal(c->p.out.json_format, TLAT_JSON_TLAT);
	PARSE_OK(c, "--json=out.json", "--json-format", "rt-tests");
	assert_string_equal(c->p.out.json_path, "out.json");
	assert_int_equal(c->p.out.json_format, TLAT_JSON_RT_TESTS);
	PARSE_OK(c, "--json-format=tlat", "--json", "x");
	assert_int_equal(c->p.out.json_format, TLAT_JSON_TLAT);
	PARSE_ERR(c, "invalid --json-format 'xml': expected tlat or rt-tests", "--json", "x",
		  "--json-format", "xml");
	PARSE_ERR(c, "--json-format needs --json", "--json-format", "rt-tests");
	PARSE_ERR(c, "requires an argument", "--json");
}

/* line parses, and sets one flag of hist's (and another, if given), not a third */
static void expect_flags(struct unit_cli *c, const char *line, const bool *on, const bool *also,
			 const bool *off)
{
	unit_cli_parse_ok(c, line);
	assert_true(*on);
	if (also)
		assert_true(*also);
	if (off)
		assert_false(*off);
}

static void test_hist_flags(void **state)
{
	struct unit_cli *c = *state;
	const struct tlat_hist_params *h = &c->p.out.hist;

	expect_flags(c, "--no-irq", &h->no_irq, NULL, &h->no_thread);
	expect_flags(c, "--no-thread", &h->no_thread, NULL, &h->no_irq);
	expect_flags(c, "--no-header", &h->no_header, NULL, &h->no_summary);
	expect_flags(c, "--no-summary", &h->no_summary, NULL, &h->no_header);
	expect_flags(c, "--with-zeros", &h->with_zeros, NULL, &h->no_index);
	expect_flags(c, "--no-index --with-zeros", &h->no_index, &h->with_zeros, NULL);
	/* the order does not matter: the cross check runs after parsing */
	expect_flags(c, "--with-zeros --no-index", &h->no_index, NULL, NULL);
}

static void test_help(void **state)
{
	struct unit_cli *c = *state;

	assert_int_equal(PARSE(c, "-h"), TLAT_CLI_HELP);
	assert_int_equal(PARSE(c, "--help"), TLAT_CLI_HELP);
	assert_int_equal(PARSE(c, "-p", "100", "-h"), TLAT_CLI_HELP);
}

/* every parse starts from scratch, even after one that stopped half-way */
static void test_reparse(void **state)
{
	struct unit_cli *c = *state;

	/* the error leaves getopt inside the cluster, before the 'n' */
	PARSE_ERR(c, "-x", "-xn", "-p", "300");
	PARSE_OK(c, "-p", "200");
	assert_int_equal(c->p.period_us, 200);
	assert_false(c->p.out.nano);
	PARSE_OK(c, "-D");
	assert_int_equal(c->p.period_us, 1000);
	assert_true(c->p.debug);
}

static void test_aligned(void **state)
{
	struct unit_cli *c = *state;

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

UNIT_MAIN("cli",
	TOP(test_defaults),
	HIST(test_defaults),
	TOP_LINES(period),
	HIST_LINES(period),
	TOP_LINES(duration),
	TOP_LINES(cpus),
	HIST_LINES(cpus),
	TOP_LINES(house_keeping),
	TOP(test_priority),
	TOP_LINES(quiet),
	TOP(test_flags),
	HIST(test_flags),
	TOP_LINES(dma_latency),
	HIST_LINES(warm_up),
	TOP_LINES(trace_buffer_size),
	TOP(test_source_and_sample_log),
	TOP(test_collector),
	HIST(test_collector),
	TOP(test_json),
	HIST(test_json),
	HIST_LINES(bucket_size),
	HIST_LINES(entries),
	HIST(test_hist_flags),
	TOP(test_help),
	HIST(test_help),
	TOP_LINES(common_errors),
	HIST_LINES(common_errors),
	TOP_LINES(top_errors),
	HIST_LINES(hist_errors),
	TOP(test_reparse),
	TOP_LINES(long_only_errors),
	HIST_LINES(hist_long_only_errors),
	TOP_LINES(deepest_idle_state),
	HIST_LINES(deepest_idle_state),
	TOP(test_aligned),
	HIST(test_aligned),
)
