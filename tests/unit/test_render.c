// SPDX-License-Identifier: GPL-2.0
/*
 * test_render.c - golden-text tests of tlat top's and tlat hist's final
 * output. The expected texts are written out by hand from upstream rtla's
 * format strings (timerlat_top.c, timerlat_hist.c, osnoise.c of v7.2), so a
 * CI parser written for rtla reads tlat's output unchanged.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "output/text.h"
#include "unit_helpers.h"

#define NR_CPUS		4
#define ELAPSED_S	3725	/* "  0 01:02:05" */

struct fixture {
	struct tlat_params params;
	bool params_set;
	struct tlat_aggregate *agg;
	struct tlat_report report;
	char *text;		/* the last rendered output */
	size_t len;
};

static int setup(void **state)
{
	*state = calloc(1, sizeof(struct fixture));
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->params_set)
		cli_params_free(&f->params);
	agg_free(f->agg);
	free(f->text);
	free(f);
	return 0;
}

/* the report of a run of "tlat top|hist <args>", with no samples yet */
#define START(f, mode, ...)						\
	start(f, mode, (int)(sizeof((char *[]){ "tlat", ##__VA_ARGS__ }) / sizeof(char *)), \
	      (char *[]){ "tlat", ##__VA_ARGS__, NULL })

static void start(struct fixture *f, enum tlat_mode mode, int argc, char **argv)
{
	const struct tlat_params *p = &f->params;
	char err[TLAT_ERR_LEN] = "";

	assert_int_equal(cli_params_init(&f->params, mode, NR_CPUS), 0);
	f->params_set = true;
	if (cli_parse(&f->params, argc, argv, err))
		fail_msg("cli_parse: %s", err);
	/* as the run sizes it: buckets in the display unit, samples in ns */
	f->agg = agg_alloc(&(struct tlat_agg_layout){
		.nr_cpus = NR_CPUS,
		.entries = mode == TLAT_MODE_HIST ? p->hist.entries : 0,
		.bucket_ns = (u64)p->hist.bucket_size * (p->nano ? 1 : 1000),
	});
	assert_non_null(f->agg);
	f->report = (struct tlat_report){
		.params = &f->params,
		.agg = f->agg,
		.elapsed_s = ELAPSED_S,
	};
}

static void add_n(struct fixture *f, int cpu, enum tlat_ctx ctx, u64 latency_ns, int n)
{
	struct tlat_sample s = { .cpu = cpu, .ctx = ctx, .latency_ns = latency_ns };

	for (int i = 0; i < n; i++) {
		s.seq = i;
		agg_add_stat(f->agg, s.cpu, s.ctx, s.latency_ns);
		agg_add_linear(f->agg, s.cpu, s.ctx, s.latency_ns);
	}
}

static void add(struct fixture *f, int cpu, enum tlat_ctx ctx, u64 latency_ns)
{
	add_n(f, cpu, ctx, latency_ns, 1);
}

/* CPU 0 and CPU 2 measured, CPUs 1 and 3 produced nothing */
static void add_top_samples(struct fixture *f)
{
	add(f, 0, TLAT_CTX_IRQ, 1000);
	add(f, 0, TLAT_CTX_IRQ, 3000);
	add(f, 0, TLAT_CTX_THREAD, 5000);
	add(f, 0, TLAT_CTX_THREAD, 9000);
	add(f, 2, TLAT_CTX_IRQ, 2000);
	add(f, 2, TLAT_CTX_THREAD, 4000);
}

/* one IRQ sample of 1 us and one thread sample of 2 us on CPU 0 */
static void add_one_activation(struct fixture *f)
{
	add(f, 0, TLAT_CTX_IRQ, 1000);
	add(f, 0, TLAT_CTX_THREAD, 2000);
}

typedef void (*render_fn)(FILE *out, const struct tlat_report *report);

static const char *render(struct fixture *f, render_fn fn)
{
	FILE *out;

	free(f->text);
	f->text = NULL;
	out = open_memstream(&f->text, &f->len);
	assert_non_null(out);
	fn(out, &f->report);
	assert_int_equal(fclose(out), 0);
	return f->text;
}

/* "got" is "want" followed by exactly the line "tail" */
static void expect_text_and_line(const char *got, const char *want, const char *tail)
{
	size_t n = strlen(want);

	if (strncmp(got, want, n))
		unit_expect_text(got, want);
	unit_expect_text(got + n, tail);
}

/* ---------------------------------------------------------------- tlat top */

static const char top_basic[] =
	"\033c"
	"                                     Timer Latency"
	"                                              \n"
	"  0 01:02:05   |"
	"          IRQ Timer Latency (us)        |"
	"         Thread Timer Latency (us)\n"
	"CPU COUNT      |"
	"      cur       min       avg       max |"
	"      cur       min       avg       max\n"
	"  0 #2         |"
	"        3         1         2         3 |"
	"        9         5         7         9\n"
	"  2 #1         |"
	"        2         2         2         2 |"
	"        4         4         4         4\n"
	"---------------|"
	"----------------------------------------|"
	"---------------------------------------\n"
	"ALL #3      e0 |"
	"                  1         2         3 |"
	"                  4         6         9\n";

static const char top_user[] =
	"                                     Timer Latency"
	"                                              "
	"                                         \n"
	"  0 01:02:05   |"
	"          IRQ Timer Latency (us)        |"
	"         Thread Timer Latency (us)      |"
	"    Ret user Timer Latency (us)\n"
	"CPU COUNT      |"
	"      cur       min       avg       max |"
	"      cur       min       avg       max |"
	"      cur       min       avg       max\n"
	"  0 #2         |"
	"        3         1         2         3 |"
	"        9         5         7         9 |"
	"       12         6         9        12\n"
	"  2 #1         |"
	"        2         2         2         2 |"
	"        4         4         4         4 |"
	"        -         -         -         -\n"
	"---------------|"
	"----------------------------------------|"
	"----------------------------------------|"
	"---------------------------------------\n"
	"ALL #3      e0 |"
	"                  1         2         3 |"
	"                  4         6         9 |"
	"                  6         9        12\n";

static const char top_nano[] =
	"                                     Timer Latency"
	"                                              \n"
	"  0 01:02:05   |"
	"          IRQ Timer Latency (ns)        |"
	"         Thread Timer Latency (ns)\n"
	"CPU COUNT      |"
	"      cur       min       avg       max |"
	"      cur       min       avg       max\n"
	"  1 #2         |"
	"     2345      1234      1789      2345 |"
	"     4567      3456      4011      4567\n"
	"---------------|"
	"----------------------------------------|"
	"---------------------------------------\n"
	"ALL #2      e0 |"
	"               1234      1789      2345 |"
	"               3456      4011      4567\n";

static const char top_debug_days[] =
	"                                     Timer Latency"
	"                                              \n"
	"  1 01:01:01   |"
	"          IRQ Timer Latency (us)        |"
	"         Thread Timer Latency (us)\n"
	"CPU COUNT      |"
	"      cur       min       avg       max |"
	"      cur       min       avg       max\n"
	"  0 #1         |"
	"        1         1         1         1 |"
	"        2         2         2         2\n"
	"---------------|"
	"----------------------------------------|"
	"---------------------------------------\n"
	"ALL #1      e0 |"
	"                  1         1         1 |"
	"                  2         2         2\n";

static const char top_thread_only[] =
	"                                     Timer Latency"
	"                                              \n"
	"  0 01:02:05   |"
	"          IRQ Timer Latency (us)        |"
	"         Thread Timer Latency (us)\n"
	"CPU COUNT      |"
	"      cur       min       avg       max |"
	"      cur       min       avg       max\n"
	"  3 #0         |"
	"        -         -         -         - |"
	"        7         7         7         7\n"
	"---------------|"
	"----------------------------------------|"
	"---------------------------------------\n"
	"ALL #0      e0 |"
	"                  -         -         - |"
	"                  7         7         7\n";

static const char top_no_data[] =
	"                                     Timer Latency"
	"                                              \n"
	"  0 01:02:05   |"
	"          IRQ Timer Latency (us)        |"
	"         Thread Timer Latency (us)\n"
	"CPU COUNT      |"
	"      cur       min       avg       max |"
	"      cur       min       avg       max\n";

static const char top_monitored[] =
	"                                     Timer Latency"
	"                                              \n"
	"  0 01:02:05   |"
	"          IRQ Timer Latency (us)        |"
	"         Thread Timer Latency (us)\n"
	"CPU COUNT      |"
	"      cur       min       avg       max |"
	"      cur       min       avg       max\n"
	"  1 #1         |"
	"        1         1         1         1 |"
	"        2         2         2         2\n"
	"---------------|"
	"----------------------------------------|"
	"---------------------------------------\n"
	"ALL #1      e0 |"
	"                  1         1         1 |"
	"                  2         2         2\n";

static const char top_small[] =
	"                                     Timer Latency"
	"                                              \n"
	"  0 01:02:05   |"
	"          IRQ Timer Latency (us)        |"
	"         Thread Timer Latency (us)\n"
	"CPU COUNT      |"
	"      cur       min       avg       max |"
	"      cur       min       avg       max\n"
	"  0 #1         |"
	"        1         1         1         1 |"
	"        2         2         2         2\n"
	"---------------|"
	"----------------------------------------|"
	"---------------------------------------\n"
	"ALL #1      e0 |"
	"                  1         1         1 |"
	"                  2         2         2\n";

static const char top_e1[] =
	"                                     Timer Latency"
	"                                              \n"
	"  0 01:02:05   |"
	"          IRQ Timer Latency (us)        |"
	"         Thread Timer Latency (us)\n"
	"CPU COUNT      |"
	"      cur       min       avg       max |"
	"      cur       min       avg       max\n"
	"  0 #1000000   |"
	"        1         1         1         1 |"
	"        2         2         2         2\n"
	"---------------|"
	"----------------------------------------|"
	"---------------------------------------\n"
	"ALL #100000 e1 |"
	"                  1         1         1 |"
	"                  2         2         2\n";

static void test_duration_stamp(void **state)
{
	static const struct { u64 s; const char *text; } cases[] = {
		{ 0, "  0 00:00:00" },
		{ 59, "  0 00:00:59" },
		{ 3725, "  0 01:02:05" },
		{ 86399, "  0 23:59:59" },
		{ 86400, "  1 00:00:00" },
		{ 90061, "  1 01:01:01" },
		{ 100 * 86400 + 1, "100 00:00:01" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		report_duration(buf, sizeof(buf), cases[i].s);
		assert_string_equal(buf, cases[i].text);
	}
}

static void test_top_basic(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP);
	add_top_samples(f);
	/* not quiet: the final screen clears the terminal like every refresh */
	unit_expect_text(render(f, text_top_renderer.final), top_basic);
}

static void test_top_frame(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP);
	add_top_samples(f);
	assert_non_null(text_top_renderer.frame);
	unit_expect_text(render(f, text_top_renderer.frame), top_basic);
}

static void hit_frame_before(FILE *out, const struct tlat_report *r)
{
	text_top_renderer.hit_frame(out, r, false);
}

static void hit_frame_after(FILE *out, const struct tlat_report *r)
{
	text_top_renderer.hit_frame(out, r, true);
}

/*
 * At a threshold, as rtla: the refresh down to the ALL row's separator before
 * the actions, the ALL row after them (rtla's "1ALL" after "echo -n 1")
 */
static void test_top_hit_frame(void **state)
{
	struct fixture *f = *state;
	const char *all = strstr(top_basic, "ALL #");
	char *before;

	START(f, TLAT_MODE_TOP);
	add_top_samples(f);
	assert_non_null(text_top_renderer.hit_frame);
	assert_non_null(all);
	before = strndup(top_basic, all - top_basic);
	assert_non_null(before);
	unit_expect_text(render(f, hit_frame_before), before);
	free(before);
	unit_expect_text(render(f, hit_frame_after), all);
}

/* -q: no refreshes, and the final screen does not clear the terminal */
static void test_top_quiet(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "-q");
	add_top_samples(f);
	unit_expect_text(render(f, text_top_renderer.frame), "");
	/* nor around a threshold's actions */
	unit_expect_text(render(f, hit_frame_before), "");
	unit_expect_text(render(f, hit_frame_after), "");
	/* top_basic without its leading "\033c" */
	unit_expect_text(render(f, text_top_renderer.final), top_basic + 2);
}

static void test_top_user_data(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "--quiet");
	f->report.user_data = true;
	add_top_samples(f);
	add(f, 0, TLAT_CTX_USER, 6000);
	add(f, 0, TLAT_CTX_USER, 12000);
	unit_expect_text(render(f, text_top_renderer.final), top_user);
}

static void test_top_nano(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "-q", "-n");
	add(f, 1, TLAT_CTX_IRQ, 1234);
	add(f, 1, TLAT_CTX_IRQ, 2345);
	add(f, 1, TLAT_CTX_THREAD, 3456);
	add(f, 1, TLAT_CTX_THREAD, 4567);
	unit_expect_text(render(f, text_top_renderer.final), top_nano);
}

/* -D keeps the output scrollable: no terminal reset; and a run of over a day */
static void test_top_debug_days(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "-D");
	f->report.elapsed_s = 90061;
	add_one_activation(f);
	unit_expect_text(render(f, text_top_renderer.final), top_debug_days);
	unit_expect_text(render(f, text_top_renderer.frame), top_debug_days);
}

/* a CPU with thread samples only still has a row, with "-" for the IRQ */
static void test_top_thread_only(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "-q");
	add(f, 3, TLAT_CTX_THREAD, 7000);
	unit_expect_text(render(f, text_top_renderer.final), top_thread_only);
}

/* no data at all: no CPU rows and no ALL summary */
static void test_top_no_data(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "-q");
	add(f, 1, TLAT_CTX_USER, 1000);	/* user samples alone do not make a row */
	unit_expect_text(render(f, text_top_renderer.final), top_no_data);
}

/* only the CPUs of -c are shown and summed */
static void test_top_monitored_cpus(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "-q", "-c", "1-3");
	add(f, 0, TLAT_CTX_IRQ, 50000);
	add(f, 0, TLAT_CTX_THREAD, 60000);
	add(f, 1, TLAT_CTX_IRQ, 1000);
	add(f, 1, TLAT_CTX_THREAD, 2000);
	unit_expect_text(render(f, text_top_renderer.final), top_monitored);
}

static void test_top_pretty(void **state)
{
	struct fixture *f = *state;
	static const char want[] =
		"\033[2;37;40m"
		"                                     Timer Latency"
		"                                              "
		"\033[0;0;0m\n"
		"  0 01:02:05   |"
		"          IRQ Timer Latency (us)        |"
		"         Thread Timer Latency (us)\n"
		"\033[2;30;47m"
		"CPU COUNT      |"
		"      cur       min       avg       max |"
		"      cur       min       avg       max"
		"\033[0;0;0m\n";

	START(f, TLAT_MODE_TOP, "-D");
	f->report.pretty = true;
	unit_expect_text(render(f, text_top_renderer.final), want);
}

static void test_top_missed_events(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "-q");
	add_one_activation(f);
	unit_expect_text(render(f, text_top_renderer.final), top_small);

	f->report.processed_events = 300;
	f->report.missed_events = 100;
	expect_text_and_line(render(f, text_top_renderer.final), top_small,
			     "100 (25.00%) events missed, results might not be accurate\n");
	f->report.processed_events = 2;
	f->report.missed_events = 1;
	expect_text_and_line(render(f, text_top_renderer.final), top_small,
			     "1 (33.33%) events missed, results might not be accurate\n");
	f->report.processed_events = 0;
	expect_text_and_line(render(f, text_top_renderer.final), top_small,
			     "1 (100.00%) events missed, results might not be accurate\n");
	f->report.missed_events = TLAT_MISSED_UNKNOWN;
	expect_text_and_line(render(f, text_top_renderer.final), top_small,
			     "unknown number of events missed, results might not be accurate\n");
}

/* the ALL count has 6 digits at most: above, it is divided by 10 and e counts the divisions */
static void test_top_count_exponent(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "-q");
	add_n(f, 0, TLAT_CTX_IRQ, 1000, 1000000);
	add_n(f, 0, TLAT_CTX_THREAD, 2000, 1000000);
	unit_expect_text(render(f, text_top_renderer.final), top_e1);
}

static void expect_all_count(int samples, const char *all)
{
	struct fixture *f = calloc(1, sizeof(*f));
	void *state = f;

	assert_non_null(f);
	START(f, TLAT_MODE_TOP, "-q");
	add_n(f, 1, TLAT_CTX_IRQ, 1000, samples);
	add_n(f, 1, TLAT_CTX_THREAD, 1000, samples);
	render(f, text_top_renderer.final);
	if (!strstr(f->text, all))
		fail_msg("%d samples: no '%s' in\n%s", samples, all, f->text);
	teardown(&state);
}

static void test_top_count_exponent_bounds(void **state)
{
	(void)state;
	expect_all_count(999999, "\nALL #999999 e0 |");
	expect_all_count(1000000, "\nALL #100000 e1 |");
	expect_all_count(1234567, "\nALL #123456 e1 |");	/* truncated, not rounded */
	expect_all_count(9999999, "\nALL #999999 e1 |");
	expect_all_count(10000000, "\nALL #100000 e2 |");
}

/*
 * rtla divides each sample by 1000 before summing, so its average is the mean
 * of truncated values: 1.5 us and 2.5 us average to 1 us, 0.999 and 1.001 to 0.
 */
/*
 * Deliberately not rtla's average: rtla truncates every sample to us before
 * summing (1.5 and 2.5 us average to 1 there), tlat averages nanoseconds.
 */
static const char top_avg[] =
	"                                     Timer Latency"
	"                                              \n"
	"  0 01:02:05   |"
	"          IRQ Timer Latency (us)        |"
	"         Thread Timer Latency (us)\n"
	"CPU COUNT      |"
	"      cur       min       avg       max |"
	"      cur       min       avg       max\n"
	"  0 #2         |"
	"        2         1         2         2 |"
	"        1         0         1         1\n"
	"---------------|"
	"----------------------------------------|"
	"---------------------------------------\n"
	"ALL #2      e0 |"
	"                  1         2         2 |"
	"                  0         1         1\n";

static void test_top_avg_exact(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_TOP, "-q");
	add(f, 0, TLAT_CTX_IRQ, 1500);
	add(f, 0, TLAT_CTX_IRQ, 2500);
	add(f, 0, TLAT_CTX_THREAD, 999);
	add(f, 0, TLAT_CTX_THREAD, 1001);
	unit_expect_text(render(f, text_top_renderer.final), top_avg);
}

/* --------------------------------------------------------------- tlat hist */

static const char hist_basic[] =
	"# RTLA timerlat histogram\n"
	"# Time unit is microseconds (us)\n"
	"# Duration:   0 01:02:05\n"
	"Index   IRQ-000   Thr-000   IRQ-002   Thr-002\n"
	"1             1         0         0         0 \n"
	"2             0         0         1         0 \n"
	"3             2         0         0         0 \n"
	"4             0         0         0         1 \n"
	"5             0         1         0         0 \n"
	"9             0         1         0         0 \n"
	"over:         0         1         0         0 \n"
	"count:        3         3         1         1 \n"
	"min:          1         5         2         4 \n"
	"avg:          2       104         2         4 \n"
	"max:          3       300         2         4 \n"
	"ALL:        IRQ       Thr\n"
	"count:        4         4 \n"
	"min:          1         4 \n"
	"avg:          2        79 \n"
	"max:          3       300 \n";

static const char hist_small[] =
	"# RTLA timerlat histogram\n"
	"# Time unit is microseconds (us)\n"
	"# Duration:   0 01:02:05\n"
	"Index   IRQ-000   Thr-000\n"
	"1             1         0 \n"
	"2             0         1 \n"
	"over:         0         0 \n"
	"count:        1         1 \n"
	"min:          1         2 \n"
	"avg:          1         2 \n"
	"max:          1         2 \n"
	"ALL:        IRQ       Thr\n"
	"count:        1         1 \n"
	"min:          1         2 \n"
	"avg:          1         2 \n"
	"max:          1         2 \n";

static const char hist_nano[] =
	"# RTLA timerlat histogram\n"
	"# Time unit is nanoseconds (ns)\n"
	"# Duration:   0 01:02:05\n"
	"Index   IRQ-000   Thr-000\n"
	"100           1         0 \n"
	"200           0         1 \n"
	"900           1         0 \n"
	"over:         1         1 \n"
	"count:        3         2 \n"
	"min:        150       250 \n"
	"avg:        716      2625 \n"
	"max:       1000      5000 \n"
	"ALL:        IRQ       Thr\n"
	"count:        3         2 \n"
	"min:        150       250 \n"
	"avg:        716      2625 \n"
	"max:       1000      5000 \n";

static const char hist_no_irq[] =
	"# RTLA timerlat histogram\n"
	"# Time unit is microseconds (us)\n"
	"# Duration:   0 01:02:05\n"
	"Index   Thr-000   Thr-001\n"
	"5             1         0 \n"
	"over:         0         0 \n"
	"count:        1         0 \n"
	"min:          5         - \n"
	"avg:          5         - \n"
	"max:          5         - \n"
	"ALL:         Thr\n"
	"count:        1 \n"
	"min:          5 \n"
	"avg:          5 \n"
	"max:          5 \n";

static const char hist_no_thread[] =
	"# RTLA timerlat histogram\n"
	"# Time unit is microseconds (us)\n"
	"# Duration:   0 01:02:05\n"
	"Index   IRQ-000   IRQ-001\n"
	"1             1         0 \n"
	"3             0         1 \n"
	"over:         0         0 \n"
	"count:        1         1 \n"
	"min:          1         3 \n"
	"avg:          1         3 \n"
	"max:          1         3 \n"
	"ALL:        IRQ\n"
	"count:        2 \n"
	"min:          1 \n"
	"avg:          2 \n"
	"max:          3 \n";

static const char hist_no_header[] =
	"1             1         0 \n"
	"2             0         1 \n"
	"over:         0         0 \n"
	"count:        1         1 \n"
	"min:          1         2 \n"
	"avg:          1         2 \n"
	"max:          1         2 \n"
	"ALL:        IRQ       Thr\n"
	"count:        1         1 \n"
	"min:          1         2 \n"
	"avg:          1         2 \n"
	"max:          1         2 \n";

static const char hist_no_summary[] =
	"# RTLA timerlat histogram\n"
	"# Time unit is microseconds (us)\n"
	"# Duration:   0 01:02:05\n"
	"Index   IRQ-000   Thr-000\n"
	"1             1         0 \n"
	"2             0         1 \n"
	"over:         0         0 \n"
	"1 (33.33%) events missed, results might not be accurate\n";

static const char hist_no_index[] =
	"# RTLA timerlat histogram\n"
	"# Time unit is microseconds (us)\n"
	"# Duration:   0 01:02:05\n"
	"   IRQ-000   Thr-000   IRQ-001   Thr-001\n"
	"        0         0         0         0 \n"
	"        1         0         0         0 \n"
	"        0         1         0         0 \n"
	"        0         0         0         0 \n"
	"        0         0         0         0 \n"
	"        0         0         0         0 \n"
	"        0         0         0         0 \n"
	"        0         0         0         0 \n"
	"        0         0         0         0 \n"
	"        0         0         1         0 \n"
	"        0         0         0         1 \n"
	"        1         1         1         1 \n"
	"        1         2         9        10 \n"
	"        1         2         9        10 \n"
	"        1         2         9        10 \n"
	"      IRQ       Thr\n"
	"        2         2 \n"
	"        1         2 \n"
	"        5         6 \n"
	"        9        10 \n";

static const char hist_with_zeros[] =
	"# RTLA timerlat histogram\n"
	"# Time unit is microseconds (us)\n"
	"# Duration:   0 01:02:05\n"
	"Index   IRQ-000   Thr-000\n"
	"0             0         0 \n"
	"10            1         0 \n"
	"20            0         0 \n"
	"30            0         0 \n"
	"40            0         0 \n"
	"50            0         0 \n"
	"60            0         0 \n"
	"70            0         0 \n"
	"80            0         0 \n"
	"90            0         1 \n"
	"over:         0         1 \n"
	"count:        1         2 \n"
	"min:         15        95 \n"
	"avg:         15        97 \n"
	"max:         15       100 \n"
	"ALL:        IRQ       Thr\n"
	"count:        1         2 \n"
	"min:         15        95 \n"
	"avg:         15        97 \n"
	"max:         15       100 \n";

static const char hist_user[] =
	"# RTLA timerlat histogram\n"
	"# Time unit is microseconds (us)\n"
	"# Duration:   0 01:02:05\n"
	"Index   IRQ-000   Thr-000   Usr-000   IRQ-002   Thr-002   Usr-002\n"
	"1             1         0         0         1         0         0 \n"
	"2             0         1         0         0         1         0 \n"
	"3             0         0         1         0         0         0 \n"
	"over:         0         0         0         0         0         0 \n"
	"count:        1         1         1         1         1         0 \n"
	"min:          1         2         3         1         2         - \n"
	"avg:          1         2         3         1         2         - \n"
	"max:          1         2         3         1         2         - \n"
	"ALL:        IRQ       Thr       Usr\n"
	"count:        2         2         1 \n"
	"min:          1         2         3 \n"
	"avg:          1         2         3 \n"
	"max:          1         2         3 \n";

static const char hist_no_data[] =
	"# RTLA timerlat histogram\n"
	"# Time unit is microseconds (us)\n"
	"# Duration:   0 01:02:05\n"
	"Index\n"
	"over: \n"
	"count:\n"
	"min:  \n"
	"avg:  \n"
	"max:  \n"
	"ALL:        IRQ       Thr\n"
	"count:        0         0 \n"
	"min:          -         - \n"
	"avg:          -         - \n"
	"max:          -         - \n";

/* 1000 ns is bucket 1, 3999 ns bucket 3, 300 us is over the 256 buckets; CPUs 1, 3 are idle */
static void add_hist_samples(struct fixture *f)
{
	add(f, 0, TLAT_CTX_IRQ, 1000);
	add(f, 0, TLAT_CTX_IRQ, 3000);
	add(f, 0, TLAT_CTX_IRQ, 3999);
	add(f, 0, TLAT_CTX_THREAD, 5000);
	add(f, 0, TLAT_CTX_THREAD, 9000);
	add(f, 0, TLAT_CTX_THREAD, 300000);
	add(f, 2, TLAT_CTX_IRQ, 2000);
	add(f, 2, TLAT_CTX_THREAD, 4000);
}

static void test_hist_basic(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST);
	add_hist_samples(f);
	unit_expect_text(render(f, text_hist_renderer.final), hist_basic);
	/* hist prints only at the end */
	assert_null(text_hist_renderer.frame);
}

static void test_hist_nano(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST, "-n", "-E", "10", "-b", "100");
	add(f, 0, TLAT_CTX_IRQ, 150);
	add(f, 0, TLAT_CTX_IRQ, 999);
	add(f, 0, TLAT_CTX_IRQ, 1000);	/* 10 buckets of 100 ns: over */
	add(f, 0, TLAT_CTX_THREAD, 250);
	add(f, 0, TLAT_CTX_THREAD, 5000);
	unit_expect_text(render(f, text_hist_renderer.final), hist_nano);
}

/* CPU 0 has both contexts, CPU 1 only an IRQ sample */
static void add_irq_thread_mix(struct fixture *f)
{
	add(f, 0, TLAT_CTX_IRQ, 1000);
	add(f, 0, TLAT_CTX_THREAD, 5000);
	add(f, 1, TLAT_CTX_IRQ, 3000);
}

/*
 * --no-irq hides the IRQ columns, but a CPU with IRQ samples only is still
 * shown, and rows whose only counts are IRQ ones are empty, so omitted
 */
static void test_hist_no_irq(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST, "--no-irq");
	add_irq_thread_mix(f);
	unit_expect_text(render(f, text_hist_renderer.final), hist_no_irq);
}

static void test_hist_no_thread(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST, "--no-thread");
	add_irq_thread_mix(f);
	unit_expect_text(render(f, text_hist_renderer.final), hist_no_thread);
}

static void test_hist_no_header(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST, "--no-header");
	add_one_activation(f);
	unit_expect_text(render(f, text_hist_renderer.final), hist_no_header);
}

/* --no-summary drops both summaries, not the over: row nor the missed events */
static void test_hist_no_summary(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST, "--no-summary");
	f->report.processed_events = 2;
	f->report.missed_events = 1;
	add_one_activation(f);
	unit_expect_text(render(f, text_hist_renderer.final), hist_no_summary);
}

/* every row, none labelled; 9999 ns is the last bucket, 10000 ns is over */
static void test_hist_no_index_with_zeros(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST, "-E", "10", "--no-index", "--with-zeros");
	add_one_activation(f);
	add(f, 1, TLAT_CTX_IRQ, 9999);
	add(f, 1, TLAT_CTX_THREAD, 10000);
	unit_expect_text(render(f, text_hist_renderer.final), hist_no_index);
}

/* the index is the bucket's lower bound in the display unit */
static void test_hist_with_zeros_bucket_size(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST, "-E", "10", "-b", "10", "--with-zeros");
	add(f, 0, TLAT_CTX_IRQ, 15000);
	add(f, 0, TLAT_CTX_THREAD, 95000);
	add(f, 0, TLAT_CTX_THREAD, 100000);
	unit_expect_text(render(f, text_hist_renderer.final), hist_with_zeros);
}

/*
 * With user data: "-" for CPU 2, which has no user sample; CPU 3 has user
 * samples only, so it is neither shown nor summed
 */
static void test_hist_user_data(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST);
	f->report.user_data = true;
	add(f, 0, TLAT_CTX_IRQ, 1000);
	add(f, 0, TLAT_CTX_THREAD, 2000);
	add(f, 0, TLAT_CTX_USER, 3000);
	add(f, 2, TLAT_CTX_IRQ, 1000);
	add(f, 2, TLAT_CTX_THREAD, 2000);
	add(f, 3, TLAT_CTX_USER, 4000);
	unit_expect_text(render(f, text_hist_renderer.final), hist_user);
}

static void test_hist_no_data(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST);
	unit_expect_text(render(f, text_hist_renderer.final), hist_no_data);
}

/* CPU 3 is not in -c: neither shown nor in the ALL block */
static void test_hist_monitored_cpus(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST, "-c", "0,1");
	add_one_activation(f);
	add(f, 3, TLAT_CTX_IRQ, 5000);
	add(f, 3, TLAT_CTX_THREAD, 6000);
	unit_expect_text(render(f, text_hist_renderer.final), hist_small);
}

static void test_hist_missed_events(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST);
	add_one_activation(f);
	f->report.processed_events = 10;
	f->report.missed_events = TLAT_MISSED_UNKNOWN;
	expect_text_and_line(render(f, text_hist_renderer.final), hist_small,
			     "unknown number of events missed, results might not be accurate\n");
	f->report.missed_events = 30;
	expect_text_and_line(render(f, text_hist_renderer.final), hist_small,
			     "30 (75.00%) events missed, results might not be accurate\n");
}

static const char hist_avg[] =
	"# RTLA timerlat histogram\n"
	"# Time unit is microseconds (us)\n"
	"# Duration:   0 01:02:05\n"
	"Index   IRQ-000   Thr-000\n"
	"0             0         1 \n"
	"1             1         1 \n"
	"2             1         0 \n"
	"over:         0         0 \n"
	"count:        2         2 \n"
	"min:          1         0 \n"
	"avg:          2         1 \n"
	"max:          2         1 \n"
	"ALL:        IRQ       Thr\n"
	"count:        2         2 \n"
	"min:          1         0 \n"
	"avg:          2         1 \n"
	"max:          2         1 \n";

static void test_hist_avg_exact(void **state)
{
	struct fixture *f = *state;

	START(f, TLAT_MODE_HIST);
	add(f, 0, TLAT_CTX_IRQ, 1500);
	add(f, 0, TLAT_CTX_IRQ, 2500);
	add(f, 0, TLAT_CTX_THREAD, 999);
	add(f, 0, TLAT_CTX_THREAD, 1001);
	unit_expect_text(render(f, text_hist_renderer.final), hist_avg);
}

#define RENDER_TEST(fn)	cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration_stamp),
		RENDER_TEST(test_top_basic),
		RENDER_TEST(test_top_frame),
		RENDER_TEST(test_top_hit_frame),
		RENDER_TEST(test_top_quiet),
		RENDER_TEST(test_top_user_data),
		RENDER_TEST(test_top_nano),
		RENDER_TEST(test_top_debug_days),
		RENDER_TEST(test_top_thread_only),
		RENDER_TEST(test_top_no_data),
		RENDER_TEST(test_top_monitored_cpus),
		RENDER_TEST(test_top_pretty),
		RENDER_TEST(test_top_missed_events),
		RENDER_TEST(test_top_count_exponent),
		cmocka_unit_test(test_top_count_exponent_bounds),
		RENDER_TEST(test_top_avg_exact),
		RENDER_TEST(test_hist_basic),
		RENDER_TEST(test_hist_nano),
		RENDER_TEST(test_hist_no_irq),
		RENDER_TEST(test_hist_no_thread),
		RENDER_TEST(test_hist_no_header),
		RENDER_TEST(test_hist_no_summary),
		RENDER_TEST(test_hist_no_index_with_zeros),
		RENDER_TEST(test_hist_with_zeros_bucket_size),
		RENDER_TEST(test_hist_user_data),
		RENDER_TEST(test_hist_no_data),
		RENDER_TEST(test_hist_monitored_cpus),
		RENDER_TEST(test_hist_missed_events),
		RENDER_TEST(test_hist_avg_exact),
	};

	return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}
