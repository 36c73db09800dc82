// SPDX-License-Identifier: GPL-2.0
/*
 * test_plot.c - the gnuplot script of tlat hist --plot, from synthetic
 * histograms: which curves, which data rows, the units, the over: counts, and
 * the --plot option's file name check. gnuplot itself runs in the live tests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/cli.h"
#include "output/plot.h"

#define NR_CPUS	4

struct plot {
	struct tlat_params params;
	struct tlat_aggregate *agg;
	struct tlat_report report;
	char *script;
	size_t len;
};

/* a finished "tlat hist <args>" with no samples yet; argv ends with NULL */
static struct plot *plot_new(char **argv)
{
	struct plot *pl = calloc(1, sizeof(*pl));
	char err[TLAT_ERR_LEN] = "";
	int argc = 0;

	assert_non_null(pl);
	while (argv[argc])
		argc++;
	assert_int_equal(cli_params_init(&pl->params, TLAT_MODE_HIST, NR_CPUS), 0);
	if (cli_parse(&pl->params, argc, argv, err))
		fail_msg("cli_parse: %s", err);
	pl->agg = agg_alloc(&(struct tlat_agg_layout){
		.nr_cpus = NR_CPUS,
		.entries = pl->params.out.hist.entries,
		.bucket_ns = (u64)pl->params.out.hist.bucket_size * (pl->params.out.nano ? 1 : 1000),
	});
	assert_non_null(pl->agg);
	pl->report = (struct tlat_report){
		.params = &pl->params,
		.agg = pl->agg,
		.elapsed_s = 61,
	};
	return pl;
}

static void plot_free(struct plot *pl)
{
	cli_params_free(&pl->params);
	agg_free(pl->agg);
	free(pl->script);
	free(pl);
}

static void add_n(struct plot *pl, int cpu, enum tlat_ctx ctx, u64 latency_ns, int n)
{
	struct tlat_sample s = { .cpu = cpu, .ctx = ctx, .latency_ns = latency_ns };

	for (int i = 0; i < n; i++) {
		agg_add_stat(pl->agg, s.cpu, s.ctx, s.latency_ns);
		agg_add_linear(pl->agg, s.cpu, s.ctx, s.latency_ns);
	}
}

static const char *script(struct plot *pl, enum tlat_plot_format format)
{
	FILE *out;

	free(pl->script);
	pl->script = NULL;
	out = open_memstream(&pl->script, &pl->len);
	assert_non_null(out);
	assert_int_equal(render_plot_script(out, &pl->report, format), 0);
	assert_int_equal(fclose(out), 0);
	return pl->script;
}

static int count(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void expect_has(const char *text, const char *what)
{
	if (!strstr(text, what))
		fail_msg("the script lacks '%s':\n%s", what, text);
}

/* the data block between "$tlat << EOD" and "EOD", without them */
static char *data_block(const char *text)
{
	const char *start = strstr(text, "$tlat << EOD\n"), *end;

	assert_non_null(start);
	start += strlen("$tlat << EOD\n");
	end = strstr(start, "EOD\n");
	assert_non_null(end);
	return strndup(start, end - start);
}

static void test_format_from_name(void **state)
{
	(void)state;
	assert_int_equal(render_plot_format("x.png"), TLAT_PLOT_PNG);
	assert_int_equal(render_plot_format("/tmp/a.b/X.PNG"), TLAT_PLOT_PNG);
	assert_int_equal(render_plot_format("x.svg"), TLAT_PLOT_SVG);
	assert_int_equal(render_plot_format("x.Svg"), TLAT_PLOT_SVG);
	assert_int_equal(render_plot_format("x.jpg"), TLAT_PLOT_NONE);
	assert_int_equal(render_plot_format("png"), TLAT_PLOT_NONE);
	assert_int_equal(render_plot_format("x.png.txt"), TLAT_PLOT_NONE);
	assert_int_equal(render_plot_format("dir.png/x"), TLAT_PLOT_NONE);
	assert_int_equal(render_plot_format(""), TLAT_PLOT_NONE);
}

static void test_cli_plot_option(void **state)
{
	struct tlat_params p;
	char err[TLAT_ERR_LEN] = "";

	(void)state;
	assert_int_equal(cli_params_init(&p, TLAT_MODE_HIST, NR_CPUS), 0);
	assert_int_equal(cli_parse(&p, 3, (char *[]){ "hist", "--plot", "a.svg", NULL }, err), 0);
	assert_string_equal(p.out.hist.plot_file, "a.svg");
	assert_int_not_equal(cli_parse(&p, 3, (char *[]){ "hist", "--plot", "a.jpg", NULL }, err),
			     0);
	assert_string_equal(err, "invalid --plot 'a.jpg': the file name must end in .png or .svg");
	assert_int_not_equal(cli_parse(&p, 2, (char *[]){ "hist", "--plot", NULL }, err), 0);
	cli_params_free(&p);
	/* hist only: top has no histogram to draw */
	assert_int_equal(cli_params_init(&p, TLAT_MODE_TOP, NR_CPUS), 0);
	assert_int_not_equal(cli_parse(&p, 3, (char *[]){ "top", "--plot", "a.png", NULL }, err),
			     0);
	cli_params_free(&p);
}

/* CPUs 0 and 2 measured, 1 and 3 produced nothing: four curves, no user context */
static void test_curves_and_data(void **state)
{
	struct plot *pl = plot_new((char *[]){ "hist", NULL });
	const char *s;
	char *data;

	(void)state;
	add_n(pl, 0, TLAT_CTX_IRQ, 1500, 3);
	add_n(pl, 0, TLAT_CTX_THREAD, 3200, 2);
	add_n(pl, 2, TLAT_CTX_IRQ, 200, 1);
	add_n(pl, 2, TLAT_CTX_THREAD, 4900, 1000);
	s = script(pl, TLAT_PLOT_PNG);
	assert_int_equal(count(s, " with steps "), 4);
	expect_has(s, "$tlat using 1:2 with steps lc rgb '#1f77b4' dt 3 lw 2 "
		   "title \"CPU 0 IRQ: max 1 us, over: 0\"");
	expect_has(s, "$tlat using 1:3 with steps lc rgb '#1f77b4' dt 1 lw 1.5 "
		   "title \"CPU 0 thread: max 3 us, over: 0\"");
	expect_has(s, "$tlat using 1:4 with steps lc rgb '#d62728' dt 3 lw 2 "
		   "title \"CPU 2 IRQ: max 0 us, over: 0\"");
	expect_has(s, "$tlat using 1:5 with steps lc rgb '#d62728' dt 1 lw 1.5 "
		   "title \"CPU 2 thread: max 4 us, over: 0\"");
	assert_int_equal(count(s, "CPU 1 "), 0);
	assert_int_equal(count(s, " user:"), 0);
	/* buckets 0 to 4 (the last with a sample), then one that closes the last step */
	data = data_block(s);
	assert_string_equal(data,
			    "0 0.5 0.5 1 0.5\n"
			    "1 3 0.5 0.5 0.5\n"
			    "2 0.5 0.5 0.5 0.5\n"
			    "3 0.5 2 0.5 0.5\n"
			    "4 0.5 0.5 0.5 1000\n"
			    "5 0.5 0.5 0.5 0.5\n");
	free(data);
	expect_has(s, "set logscale y\n");
	expect_has(s, "set yrange [0.8:*]\nset xrange [0:*]\n");
	expect_has(s, "set xlabel \"Latency (us)\"\n");
	expect_has(s, "set ylabel \"Number of latency samples\"\n");
	expect_has(s, "set title 'tlat hist: Linux ");
	expect_has(s, ", period 1000 us, duration 0 00:01:01' noenhanced\n");
	assert_int_equal(count(s, "set arrow"), 0);
	plot_free(pl);
}

static void test_user_context_and_no_irq(void **state)
{
	struct plot *pl = plot_new((char *[]){ "hist", "--no-irq", NULL });
	const char *s;

	(void)state;
	pl->report.user_data = true;
	add_n(pl, 1, TLAT_CTX_IRQ, 1000, 5);
	add_n(pl, 1, TLAT_CTX_THREAD, 2000, 5);
	add_n(pl, 1, TLAT_CTX_USER, 3000, 5);
	s = script(pl, TLAT_PLOT_PNG);
	assert_int_equal(count(s, " with steps "), 2);
	assert_int_equal(count(s, " IRQ:"), 0);
	expect_has(s, "using 1:2 with steps lc rgb '#1f77b4' dt 1 lw 1.5 "
		   "title \"CPU 1 thread: max 2 us, over: 0\"");
	expect_has(s, "using 1:3 with steps lc rgb '#1f77b4' dt 2 lw 1.5 "
		   "title \"CPU 1 user: max 3 us, over: 0\"");
	plot_free(pl);
}

/* of buckets empty in every curve, only the first of a run has a row */
static void test_sparse_rows(void **state)
{
	struct plot *pl = plot_new((char *[]){ "hist", "-E", "1000000", NULL });
	const char *s;
	char *data;

	(void)state;
	add_n(pl, 0, TLAT_CTX_IRQ, 1000, 7);
	add_n(pl, 0, TLAT_CTX_IRQ, 5000, 1);
	add_n(pl, 0, TLAT_CTX_THREAD, 4000, 2);
	add_n(pl, 1, TLAT_CTX_THREAD, 999999000, 1);
	s = script(pl, TLAT_PLOT_PNG);
	data = data_block(s);
	assert_string_equal(data,
			    "0 0.5 0.5 0.5 0.5\n"
			    "1 7 0.5 0.5 0.5\n"
			    "2 0.5 0.5 0.5 0.5\n"
			    "4 0.5 2 0.5 0.5\n"
			    "5 1 0.5 0.5 0.5\n"
			    "6 0.5 0.5 0.5 0.5\n"
			    "999999 0.5 0.5 0.5 1\n"
			    "1000000 0.5 0.5 0.5 0.5\n");
	free(data);
	expect_has(s, "title \"CPU 1 thread: max 999999 us, over: 0\"");
	plot_free(pl);
}

/* -n -b 100: the x axis and the data are in nanoseconds, by hundreds */
static void test_nano_and_bucket_size(void **state)
{
	struct plot *pl = plot_new((char *[]){ "hist", "-n", "-b", "100", NULL });
	const char *s;
	char *data;

	(void)state;
	add_n(pl, 0, TLAT_CTX_IRQ, 250, 2);
	add_n(pl, 0, TLAT_CTX_THREAD, 120, 1);
	s = script(pl, TLAT_PLOT_PNG);
	expect_has(s, "set xlabel \"Latency (ns), buckets of 100 ns\"\n");
	expect_has(s, "title \"CPU 0 IRQ: max 250 ns, over: 0\"");
	data = data_block(s);
	assert_string_equal(data,
			    "0 0.5 0.5\n"
			    "100 0.5 1\n"
			    "200 2 0.5\n"
			    "300 0.5 0.5\n");
	free(data);
	plot_free(pl);
}

/* what lies beyond the last bucket shows in the key and behind a marked line */
static void test_over(void **state)
{
	struct plot *pl = plot_new((char *[]){ "hist", "-E", "20", "-b", "5", NULL });
	const char *s;

	(void)state;
	add_n(pl, 3, TLAT_CTX_IRQ, 7000, 10);
	add_n(pl, 3, TLAT_CTX_THREAD, 9000, 9);
	add_n(pl, 3, TLAT_CTX_THREAD, 500000, 1);
	s = script(pl, TLAT_PLOT_PNG);
	expect_has(s, "title \"CPU 3 IRQ: max 7 us, over: 0\"");
	expect_has(s, "title \"CPU 3 thread: max 500 us, over: 1\"");
	/* 20 buckets of 5 us end at 100 us */
	expect_has(s, "set xrange [0:105]\n");
	expect_has(s, "set arrow from 100, graph 0 to 100, graph 1 nohead");
	expect_has(s, "set label \"over: 100 us and above\" at 100, graph 0.5 center");
	plot_free(pl);
}

/* nothing measured: an empty frame that gnuplot can still draw */
static void test_no_samples(void **state)
{
	struct plot *pl = plot_new((char *[]){ "hist", NULL });
	const char *s;
	char *data;

	(void)state;
	s = script(pl, TLAT_PLOT_SVG);
	expect_has(s, "set yrange [0.8:10]\nset xrange [0:256]\n");
	expect_has(s, "plot NaN notitle\n");
	assert_int_equal(count(s, " with steps "), 0);
	data = data_block(s);
	assert_string_equal(data, "0\n");
	free(data);
	plot_free(pl);
}

static void test_terminals(void **state)
{
	struct plot *pl = plot_new((char *[]){ "hist", NULL });
	const char *s;

	(void)state;
	add_n(pl, 0, TLAT_CTX_IRQ, 1000, 1);
	s = script(pl, TLAT_PLOT_SVG);
	expect_has(s, "set terminal svg ");
	assert_int_equal(count(s, "png"), 0);
	s = script(pl, TLAT_PLOT_PNG);
	expect_has(s, "set terminal pngcairo ");
	expect_has(s, "set terminal png ");
	assert_int_equal(count(s, "svg"), 0);
	/* the script is read from standard input: it must not name an output */
	assert_int_equal(count(s, "set output"), 0);
	plot_free(pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_from_name),
		cmocka_unit_test(test_cli_plot_option),
		cmocka_unit_test(test_curves_and_data),
		cmocka_unit_test(test_user_context_and_no_irq),
		cmocka_unit_test(test_sparse_rows),
		cmocka_unit_test(test_nano_and_bucket_size),
		cmocka_unit_test(test_over),
		cmocka_unit_test(test_no_samples),
		cmocka_unit_test(test_terminals),
	};

	return cmocka_run_group_tests_name("plot", tests, NULL, NULL);
}
