// SPDX-License-Identifier: GPL-2.0
/*
 * test_render.c - golden-text tests of tlat top's and tlat hist's final
 * output. The expected texts are written out by hand from upstream rtla's
 * format strings (timerlat_top.c, timerlat_hist.c, osnoise.c of v7.2), so a
 * CI parser written for rtla reads tlat's output unchanged (render_golden.h).
 * Most cases are data: a command line, samples, the report's flags and the
 * text expected.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/text.h"
#include "render_golden.h"
#include "unit_report.h"

#define ELAPSED_S	3725	/* DURATION */

/* ------------------------------------------------------------------ cases */

/* a sample of ns on cpu in ctx; a cpu of -1 ends a list */
struct smp {
	int cpu;
	enum tlat_ctx ctx;
	u64 ns;
};

#define IRQ	TLAT_CTX_IRQ
#define THR	TLAT_CTX_THREAD
#define USR	TLAT_CTX_USER
#define END	{ -1, 0, 0 }
#define SAMPLES(...)	((const struct smp[]){ __VA_ARGS__, END })

/* CPU 0 and CPU 2 measured, CPUs 1 and 3 produced nothing */
static const struct smp top_samples[] = {
	{ 0, IRQ, 1000 }, { 0, IRQ, 3000 }, { 0, THR, 5000 }, { 0, THR, 9000 },
	{ 2, IRQ, 2000 }, { 2, THR, 4000 }, END
};

/* one IRQ sample of 1 us and one thread sample of 2 us on CPU 0 */
static const struct smp one_activation[] = { { 0, IRQ, 1000 }, { 0, THR, 2000 }, END };

/* 1500 and 2500 ns average to 2 us, 999 and 1001 ns to 1 */
static const struct smp avg_samples[] = {
	{ 0, IRQ, 1500 }, { 0, IRQ, 2500 }, { 0, THR, 999 }, { 0, THR, 1001 }, END
};

/* which of the mode's screens must be the expected text */
enum screens { FINAL_ONLY, FRAME_TOO, FRAME_ONLY };

/* a run of "tlat <args>", its samples and report, and what it prints */
struct render_case {
	enum tlat_mode mode;
	const char *args[8];
	const struct smp *samples[2];
	int repeat;			/* each sample counted so many times, if not once */
	struct tlat_report flags;	/* the report's, but for its params and aggregate */
	const char *want;
	enum screens screens;
};

#define TOP	TLAT_MODE_TOP
#define HIST	TLAT_MODE_HIST

static const struct render_case case_top_basic = { TOP, {}, { top_samples }, .want = top_basic };
static const struct render_case case_top_frame = {
	TOP, {}, { top_samples }, .want = top_basic, .screens = FRAME_ONLY
};
static const struct render_case case_top_user_data = {
	TOP, { "--quiet" }, { top_samples, SAMPLES({ 0, USR, 6000 }, { 0, USR, 12000 }) },
	.flags.user_data = true, .want = top_user
};
static const struct render_case case_top_nano = {
	TOP, { "-q", "-n" },
	{ SAMPLES({ 1, IRQ, 1234 }, { 1, IRQ, 2345 }, { 1, THR, 3456 }, { 1, THR, 4567 }) },
	.want = top_nano
};
/* -D keeps the output scrollable: no terminal reset; and a run of over a day */
static const struct render_case case_top_debug_days = {
	TOP, { "-D" }, { one_activation }, .flags.elapsed_s = 90061, .want = top_debug_days,
	.screens = FRAME_TOO
};
/* a CPU with thread samples only still has a row, with "-" for the IRQ */
static const struct render_case case_top_thread_only = {
	TOP, { "-q" }, { SAMPLES({ 3, THR, 7000 }) }, .want = top_thread_only
};
/* no data at all: no CPU rows and no ALL summary; user samples alone do not make a row */
static const struct render_case case_top_no_data = {
	TOP, { "-q" }, { SAMPLES({ 1, USR, 1000 }) }, .want = top_no_data
};
/* only the CPUs of -c are shown and summed */
static const struct render_case case_top_monitored_cpus = {
	TOP, { "-q", "-c", "1-3" },
	{ SAMPLES({ 0, IRQ, 50000 }, { 0, THR, 60000 }, { 1, IRQ, 1000 }, { 1, THR, 2000 }) },
	.want = top_monitored
};
static const struct render_case case_top_pretty = {
	TOP, { "-D" }, {}, .flags.pretty = true, .want = top_pretty
};
/* the ALL count has 6 digits at most: above, it is divided by 10 and e counts the divisions */
static const struct render_case case_top_count_exponent = {
	TOP, { "-q" }, { SAMPLES({ 0, IRQ, 1000 }, { 0, THR, 2000 }) }, .repeat = 1000000,
	.want = top_e1
};
static const struct render_case case_top_avg_exact = {
	TOP, { "-q" }, { avg_samples }, .want = top_avg
};

/* 1000 ns is bucket 1, 3999 ns bucket 3, 300 us is over the 256 buckets; CPUs 1, 3 are idle */
static const struct render_case case_hist_basic = {
	HIST, {}, { top_samples, SAMPLES({ 0, IRQ, 3999 }, { 0, THR, 300000 }) },
	.want = hist_basic
};
/* 10 buckets of 100 ns: 1000 ns is over */
static const struct render_case case_hist_nano = {
	HIST, { "-n", "-E", "10", "-b", "100" },
	{ SAMPLES({ 0, IRQ, 150 }, { 0, IRQ, 999 }, { 0, IRQ, 1000 }, { 0, THR, 250 },
		  { 0, THR, 5000 }) },
	.want = hist_nano
};
/* CPU 0 has both contexts, CPU 1 only an IRQ sample */
#define IRQ_THREAD_MIX	SAMPLES({ 0, IRQ, 1000 }, { 0, THR, 5000 }, { 1, IRQ, 3000 })
/*
 * --no-irq hides the IRQ columns, but a CPU with IRQ samples only is still
 * shown, and rows whose only counts are IRQ ones are empty, so omitted
 */
static const struct render_case case_hist_no_irq = {
	HIST, { "--no-irq" }, { IRQ_THREAD_MIX }, .want = hist_no_irq
};
static const struct render_case case_hist_no_thread = {
	HIST, { "--no-thread" }, { IRQ_THREAD_MIX }, .want = hist_no_thread
};
static const struct render_case case_hist_no_header = {
	HIST, { "--no-header" }, { one_activation }, .want = hist_no_header
};
/* --no-summary drops both summaries, not the over: row nor the missed events */
static const struct render_case case_hist_no_summary = {
	HIST, { "--no-summary" }, { one_activation },
	.flags = { .processed_events = 2, .missed_events = 1 }, .want = hist_no_summary
};
/* every row, none labelled; 9999 ns is the last bucket, 10000 ns is over */
static const struct render_case case_hist_no_index_with_zeros = {
	HIST, { "-E", "10", "--no-index", "--with-zeros" },
	{ one_activation, SAMPLES({ 1, IRQ, 9999 }, { 1, THR, 10000 }) }, .want = hist_no_index
};
/* the index is the bucket's lower bound in the display unit */
static const struct render_case case_hist_with_zeros_bucket_size = {
	HIST, { "-E", "10", "-b", "10", "--with-zeros" },
	{ SAMPLES({ 0, IRQ, 15000 }, { 0, THR, 95000 }, { 0, THR, 100000 }) },
	.want = hist_with_zeros
};
/*
 * With user data: "-" for CPU 2, which has no user sample; CPU 3 has user
 * samples only, so it is neither shown nor summed
 */
static const struct render_case case_hist_user_data = {
	HIST, {},
	{ SAMPLES({ 0, IRQ, 1000 }, { 0, THR, 2000 }, { 0, USR, 3000 }, { 2, IRQ, 1000 },
		  { 2, THR, 2000 }, { 3, USR, 4000 }) },
	.flags.user_data = true, .want = hist_user
};
static const struct render_case case_hist_no_data = { HIST, {}, {}, .want = hist_no_data };
/* CPU 3 is not in -c: neither shown nor in the ALL block */
static const struct render_case case_hist_monitored_cpus = {
	HIST, { "-c", "0,1" }, { one_activation, SAMPLES({ 3, IRQ, 5000 }, { 3, THR, 6000 }) },
	.want = hist_small
};
static const struct render_case case_hist_avg_exact = {
	HIST, {}, { avg_samples }, .want = hist_avg
};

/* ------------------------------------------------------------------- runs */

/* the report of the case's run: "tlat <args>" and its samples */
static void start(struct unit_report *r, const struct render_case *c)
{
	char *argv[10] = { "tlat" };
	int argc = 1;

	for (const char *const *arg = c->args; *arg; arg++)
		argv[argc++] = (char *)*arg;
	unit_report_start(r, c->mode, argc, argv);
	for (int i = 0; i < 2 && c->samples[i]; i++)
		for (const struct smp *s = c->samples[i]; s->cpu >= 0; s++)
			unit_report_add(r, s->cpu, s->ctx, s->ns, c->repeat ? c->repeat : 1);
	r->report.user_data = c->flags.user_data;
	r->report.pretty = c->flags.pretty;
	r->report.elapsed_s = c->flags.elapsed_s ? c->flags.elapsed_s : ELAPSED_S;
	r->report.processed_events = c->flags.processed_events;
	r->report.missed_events = c->flags.missed_events;
}

static void test_render_case(void **state)
{
	struct unit_report *r = *state;
	const struct render_case *c = r->c;
	const struct text_renderer *out = c->mode == TOP ? &text_top_renderer : &text_hist_renderer;

	start(r, c);
	/* top refreshes its screen, hist prints only at the end */
	if (c->mode == TOP)
		assert_non_null(out->frame);
	else
		assert_null(out->frame);
	if (c->screens != FRAME_ONLY)
		unit_expect_text(unit_report_render(r, out->final), c->want);
	if (c->screens != FINAL_ONLY)
		unit_expect_text(unit_report_render(r, out->frame), c->want);
}

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
	for (size_t i = 0; i < UNIT_ARRAY_SIZE(cases); i++) {
		report_duration(buf, sizeof(buf), cases[i].s);
		assert_string_equal(buf, cases[i].text);
	}
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
	struct unit_report *r = *state;
	const char *all = strstr(top_basic, "ALL #");
	char *before;

	start(r, &case_top_basic);
	assert_non_null(text_top_renderer.hit_frame);
	assert_non_null(all);
	before = strndup(top_basic, all - top_basic);
	assert_non_null(before);
	unit_expect_text(unit_report_render(r, hit_frame_before), before);
	free(before);
	unit_expect_text(unit_report_render(r, hit_frame_after), all);
}

/* -q: no refreshes, and the final screen does not clear the terminal */
static void test_top_quiet(void **state)
{
	struct unit_report *r = *state;

	start(r, &(struct render_case){
		.mode = TOP, .args = { "-q" }, .samples = { top_samples }
	});
	unit_expect_text(unit_report_render(r, text_top_renderer.frame), "");
	/* nor around a threshold's actions */
	unit_expect_text(unit_report_render(r, hit_frame_before), "");
	unit_expect_text(unit_report_render(r, hit_frame_after), "");
	/* top_basic without its leading "\033c" */
	unit_expect_text(unit_report_render(r, text_top_renderer.final), top_basic + 2);
}

/* after each count of events processed and missed, the line the final screen ends with */
struct missed {
	u64 processed;
	u64 missed;
	const char *line;
};

/* the report's final screen is want and then the case's line, for each case in turn */
static void expect_missed(struct unit_report *r, const struct text_renderer *out,
			  const char *want, const struct missed *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *got;

		r->report.processed_events = m[i].processed;
		r->report.missed_events = m[i].missed;
		got = unit_report_render(r, out->final);
		if (strncmp(got, want, strlen(want)))
			unit_expect_text(got, want);
		unit_expect_text(got + strlen(want), m[i].line);
	}
}

#define MISSED(n)	n " events missed, results might not be accurate\n"

static void test_top_missed_events(void **state)
{
	static const struct missed missed[] = {
		{ 0, 0, "" },
		{ 300, 100, MISSED("100 (25.00%)") },
		{ 2, 1, MISSED("1 (33.33%)") },
		{ 0, 1, MISSED("1 (100.00%)") },
		{ 0, TLAT_MISSED_UNKNOWN, MISSED("unknown number of") },
	};
	struct unit_report *r = *state;

	start(r, &(struct render_case){
		.mode = TOP, .args = { "-q" }, .samples = { one_activation }
	});
	expect_missed(r, &text_top_renderer, top_small, missed, UNIT_ARRAY_SIZE(missed));
}

static void test_hist_missed_events(void **state)
{
	static const struct missed missed[] = {
		{ 10, TLAT_MISSED_UNKNOWN, MISSED("unknown number of") },
		{ 10, 30, MISSED("30 (75.00%)") },
	};
	struct unit_report *r = *state;

	start(r, &(struct render_case){ .mode = HIST, .samples = { one_activation } });
	expect_missed(r, &text_hist_renderer, hist_small, missed, UNIT_ARRAY_SIZE(missed));
}

/* samples on CPU 1, IRQ and thread alike: the ALL row's count */
static void expect_all_count(int samples, const char *all)
{
	void *state = NULL;
	struct unit_report *r;

	assert_int_equal(unit_report_setup(&state), 0);
	r = state;
	start(r, &(struct render_case){
		.mode = TOP, .args = { "-q" },
		.samples = { SAMPLES({ 1, IRQ, 1000 }, { 1, THR, 1000 }) }, .repeat = samples
	});
	unit_report_render(r, text_top_renderer.final);
	if (!strstr(r->text, all))
		fail_msg("%d samples: no '%s' in\n%s", samples, all, r->text);
	unit_report_teardown(&state);
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

#define RENDER_TEST(fn) \
	cmocka_unit_test_setup_teardown(fn, unit_report_setup, unit_report_teardown)
#define CASE(name) \
	UNIT_CASE("test_" #name, test_render_case, unit_report_setup, unit_report_teardown, \
		  &case_##name)

UNIT_MAIN("render",
	cmocka_unit_test(test_duration_stamp),
	CASE(top_basic),
	CASE(top_frame),
	RENDER_TEST(test_top_hit_frame),
	RENDER_TEST(test_top_quiet),
	CASE(top_user_data),
	CASE(top_nano),
	CASE(top_debug_days),
	CASE(top_thread_only),
	CASE(top_no_data),
	CASE(top_monitored_cpus),
	CASE(top_pretty),
	RENDER_TEST(test_top_missed_events),
	CASE(top_count_exponent),
	cmocka_unit_test(test_top_count_exponent_bounds),
	CASE(top_avg_exact),
	CASE(hist_basic),
	CASE(hist_nano),
	CASE(hist_no_irq),
	CASE(hist_no_thread),
	CASE(hist_no_header),
	CASE(hist_no_summary),
	CASE(hist_no_index_with_zeros),
	CASE(hist_with_zeros_bucket_size),
	CASE(hist_user_data),
	CASE(hist_no_data),
	CASE(hist_monitored_cpus),
	RENDER_TEST(test_hist_missed_events),
	CASE(hist_avg_exact),
)
