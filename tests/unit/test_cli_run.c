// SPDX-License-Identifier: GPL-2.0
/*
 * test_cli_run.c - the command-line options of what a run does besides
 * measuring: thresholds, the auto-analysis, threshold and end actions, the
 * cgroup and kind of the measuring threads, extra trace events; and the
 * command lines of tlat record and tlat report. The rest: test_cli.c.
 */
#include <string.h>

#include "unit_cli.h"

/* top only, as in rtla */
static const struct unit_lines_case hist_no_aa_only = { .lines = {
	"--aa-only 80 => error --aa-only",
} };

/* -i, -T and -s as parsed */
static void expect_thresholds(struct unit_cli *c, u64 irq_us, u64 thread_us, u64 stack_us)
{
	assert_int_equal(c->p.stop.irq_us, irq_us);
	assert_int_equal(c->p.stop.thread_us, thread_us);
	assert_int_equal(c->p.stop.stack_us, stack_us);
}

static void test_thresholds(void **state)
{
	struct unit_cli *c = *state;

	PARSE_OK(c, "-d", "1");
	expect_thresholds(c, 0, 0, 0);
	PARSE_OK(c, "-i", "30", "-T", "40", "-s", "50");
	expect_thresholds(c, 30, 40, 50);
	PARSE_OK(c, "--irq=7", "--thread", "8", "--stack=9");
	expect_thresholds(c, 7, 8, 9);
	PARSE_OK(c, "-T0");
	assert_int_equal(c->p.stop.thread_us, 0);
	PARSE_ERR(c, "invalid threshold", "-T", "1x");
	PARSE_ERR(c, "invalid threshold", "-i", "-1");
	PARSE_ERR(c, "requires an argument", "-s");
}

/* -t and -a are one trace action at the end of the threshold actions */
static void assert_trace_action(struct unit_cli *c, const char *file)
{
	const struct tlat_actions *a = &c->p.on_threshold;

	assert_int_equal(a->nr, 1);
	assert_int_equal(a->list[0].type, TLAT_ACTION_TRACE);
	assert_string_equal(a->list[0].arg, file);
}

/* -a, -t in rtla's spellings, --no-aa, --dump-tasks, --stack-format */
static void test_auto_analysis(void **state)
{
	struct unit_cli *c = *state;

	PARSE_OK(c, "-d", "1");
	assert_true(c->p.no_aa);	/* nothing to analyse without a stop */
	assert_int_equal(c->p.on_threshold.nr, 0);
	assert_int_equal(c->p.out.stack_format, TLAT_STACK_TRUNCATE);
	PARSE_OK(c, "-T", "100");
	assert_false(c->p.no_aa);
	PARSE_OK(c, "-a", "60");
	expect_thresholds(c, 60, 60, 60);
	assert_trace_action(c, "timerlat_trace.txt");
	assert_false(c->p.out.aa_only);
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
	assert_false(c->p.out.aa_extras);
	assert_int_equal(c->p.out.stack_format, TLAT_STACK_FULL);
	PARSE_OK(c, "-T", "5", "--aa-extras");
	assert_true(c->p.out.aa_extras);
	PARSE_OK(c, "--stack-format=skip");
	assert_int_equal(c->p.out.stack_format, TLAT_STACK_SKIP);
	PARSE_ERR(c, "invalid --stack-format", "--stack-format", "short");
	PARSE_ERR(c, "invalid threshold", "-a", "0");
	PARSE_ERR(c, "requires an argument", "-a");
}

static void test_aa_only(void **state)
{
	struct unit_cli *c = *state;

	PARSE_OK(c, "--aa-only", "80");
	assert_true(c->p.out.aa_only);
	expect_thresholds(c, 80, 80, 80);
	assert_int_equal(c->p.on_threshold.nr, 0);	/* unlike -a */
	PARSE_ERR(c, "mutually exclusive", "--aa-only", "80", "--no-aa");
}

/* --on-threshold and --on-end in getopt's spellings; -t goes last, as rtla's */
static void test_actions(void **state)
{
	struct unit_cli *c = *state;
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

/* line parses, and names -C's cgroup: name, or NULL for tlat's own */
static void expect_cgroup(struct unit_cli *c, const char *line, const char *name)
{
	unit_cli_parse_ok(c, line);
	assert_true(c->p.cgroup_set);
	if (name)
		assert_string_equal(c->p.cgroup, name);
	else
		assert_null(c->p.cgroup);
}

static void test_cgroup(void **state)
{
	struct unit_cli *c = *state;

	PARSE_OK(c, "-d", "1");
	assert_false(c->p.cgroup_set);
	expect_cgroup(c, "-C", NULL);
	expect_cgroup(c, "-C -d 1", NULL);	/* an option after -C is not its name */
	expect_cgroup(c, "-C rt", "rt");
	expect_cgroup(c, "-Crt", "rt");
	expect_cgroup(c, "-C=rt", "rt");
	expect_cgroup(c, "--cgroup=rt/sub", "rt/sub");
	expect_cgroup(c, "--cgroup", NULL);
}

static void test_thread_kind(void **state)
{
	struct unit_cli *c = *state;

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
	struct unit_cli *c = *state;

	PARSE_OK(c, "-e", "sched:sched_wakeup");
	assert_int_equal(c->p.events.nr, 1);
	expect_event(&c->p.events.list[0], "sched", "sched_wakeup", NULL, NULL);
	PARSE_OK(c, "--event", "sched", "-eirq:irq_handler_entry", "--event=timer:hrtimer_start",
		 "--filter", "expires>0", "--trigger=hist:keys=common_pid");
	assert_int_equal(c->p.events.nr, 3);
	expect_event(&c->p.events.list[0], "sched", NULL, NULL, NULL);
	expect_event(&c->p.events.list[1], "irq", "irq_handler_entry", NULL, NULL);
	expect_event(&c->p.events.list[2], "timer", "hrtimer_start", "expires>0",
		     "hist:keys=common_pid");
	/* each applies to its own -e; a second one replaces the first, as in rtla */
	PARSE_OK(c, "-e", "sched:sched_wakeup", "--filter", "prio<100", "--filter", "prio<50",
		 "-e", "sched:sched_switch", "--trigger", "traceoff");
	expect_event(&c->p.events.list[0], "sched", "sched_wakeup", "prio<50", NULL);
	expect_event(&c->p.events.list[1], "sched", "sched_switch", NULL, "traceoff");
	/* a filter with spaces is one argument */
	PARSE_OK(c, "-e", "sched:sched_wakeup", "--filter", "prio < 100 && pid != 1");
	expect_event(&c->p.events.list[0], "sched", "sched_wakeup", "prio < 100 && pid != 1", NULL);
}

static void test_event_errors(void **state)
{
	struct unit_cli *c = *state;

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

/* tlat record: top's or hist's options, and -o, trace.dat by default */
static void test_record(void **state)
{
	struct unit_cli *c = *state;

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
	struct unit_cli *c = *state;

	c->p.command = TLAT_CMD_RECORD;
	PARSE_OK(c, "-b", "10", "-o", "h.dat");
	assert_int_equal(c->p.out.hist.bucket_size, 10);
	assert_string_equal(c->p.recording, "h.dat");
	PARSE_ERR(c, "-q", "-q");
}

/* tlat report: one file, and only what changes how samples are shown or analysed */
static void test_report(void **state)
{
	struct unit_cli *c = *state;

	c->p.command = TLAT_CMD_REPORT;
	PARSE_OK(c, "x.dat");
	assert_string_equal(c->p.recording, "x.dat");
	assert_false(c->p.thresholds_set);
	/* the recording's thresholds may still apply */
	assert_false(c->p.no_aa);
	PARSE_OK(c, "-n");
	assert_string_equal(c->p.recording, "trace.dat");
	assert_true(c->p.out.nano);
	PARSE_OK(c, "x.dat", "-T", "50", "--dump-tasks", "--aa-extras");
	assert_true(c->p.thresholds_set);
	assert_int_equal(c->p.stop.thread_us, 50);
	assert_true(c->p.dump_tasks);
	assert_true(c->p.out.aa_extras);
	PARSE_OK(c, "-T", "0", "x.dat");
	assert_true(c->p.thresholds_set);
	PARSE_OK(c, "--aa-only", "40", "x.dat");
	assert_true(c->p.out.aa_only);
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
	struct unit_cli *c = *state;

	c->p.command = TLAT_CMD_REPORT;
	PARSE_OK(c, "-b", "10", "--no-irq", "x.dat", "-E", "20");
	assert_int_equal(c->p.out.hist.bucket_size, 10);
	assert_int_equal(c->p.out.hist.entries, 20);
	assert_true(c->p.out.hist.no_irq);
	assert_string_equal(c->p.recording, "x.dat");
	PARSE_ERR(c, "--aa-only", "--aa-only", "40", "x.dat");
}

/* the tests named by their function alone */
#define ON_TOP(fn)	{ #fn, fn, unit_cli_setup_top, unit_cli_teardown, NULL }
#define ON_HIST(fn)	{ #fn, fn, unit_cli_setup_hist, unit_cli_teardown, NULL }

UNIT_MAIN("cli_run",
	ON_TOP(test_thresholds),
	ON_HIST(test_thresholds),
	ON_TOP(test_auto_analysis),
	ON_HIST(test_auto_analysis),
	ON_TOP(test_aa_only),
	{ "test_hist_no_aa_only", unit_cli_test_lines, unit_cli_setup_hist,
	  unit_cli_teardown, (void *)&hist_no_aa_only },
	ON_TOP(test_actions),
	ON_HIST(test_actions),
	ON_TOP(test_cgroup),
	ON_HIST(test_cgroup),
	ON_TOP(test_thread_kind),
	ON_HIST(test_thread_kind),
	TOP(test_events),
	HIST(test_events),
	TOP(test_event_errors),
	HIST(test_event_errors),
	TOP(test_record),
	HIST(test_record_hist),
	TOP(test_report),
	HIST(test_report_hist),
)
