// SPDX-License-Identifier: GPL-2.0
/*
 * test_plot.c - the gnuplot script of tlat hist --plot, from synthetic
 * histograms: which curves, which data rows, the units, the over: counts, and
 * the --plot option's file name check. gnuplot itself runs in the live tests.
 * Most cases are data: a command line, samples, and what the script holds.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/plot.h"
#include "unit_report.h"

#define NR_CPUS	UNIT_NR_CPUS

/* a finished "tlat hist <args>" with no samples yet; argv ends with NULL */
static void plot_start(struct unit_report *r, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	unit_report_start(r, TLAT_MODE_HIST, argc, argv);
	r->report.elapsed_s = 61;
}

static const char *script(struct unit_report *r, enum tlat_plot_format format)
{
	FILE *out;

	free(r->text);
	r->text = NULL;
	out = open_memstream(&r->text, &r->len);
	assert_non_null(out);
	assert_int_equal(render_plot_script(out, &r->report, format), 0);
	assert_int_equal(fclose(out), 0);
	return r->text;
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

/* n samples of ns on cpu in ctx; n 0 ends a list */
struct smp {
	int cpu;
	enum tlat_ctx ctx;
	u64 ns;
	int n;
};

/* "tlat hist <args>" with samples, and what its script holds */
struct plot_case {
	const char *args[6];
	struct smp samples[5];			/* up to one of n 0 */
	bool user_data;
	enum tlat_plot_format format;
	const char *has[11];			/* texts the script holds, up to a NULL */
	struct {
		const char *text;
		int n;
	} counts[5];				/* how many times it holds each, up to a NULL */
	const char *data;			/* its data block, if checked */
};

#define IRQ	TLAT_CTX_IRQ
#define THR	TLAT_CTX_THREAD
#define USR	TLAT_CTX_USER

/* CPUs 0 and 2 measured, 1 and 3 produced nothing: four curves, no user context */
static const struct plot_case curves_and_data = {
	{}, { { 0, IRQ, 1500, 3 }, { 0, THR, 3200, 2 }, { 2, IRQ, 200, 1 },
	      { 2, THR, 4900, 1000 } },
	.has = {
		"$tlat using 1:2 with steps lc rgb '#1f77b4' dt 3 lw 2 "
		"title \"CPU 0 IRQ: max 1 us, over: 0\"",
		"$tlat using 1:3 with steps lc rgb '#1f77b4' dt 1 lw 1.5 "
		"title \"CPU 0 thread: max 3 us, over: 0\"",
		"$tlat using 1:4 with steps lc rgb '#d62728' dt 3 lw 2 "
		"title \"CPU 2 IRQ: max 0 us, over: 0\"",
		"$tlat using 1:5 with steps lc rgb '#d62728' dt 1 lw 1.5 "
		"title \"CPU 2 thread: max 4 us, over: 0\"",
		"set logscale y\n",
		"set yrange [0.8:*]\nset xrange [0:*]\n",
		"set xlabel \"Latency (us)\"\n",
		"set ylabel \"Number of latency samples\"\n",
		"set title 'tlat hist: Linux ",
		", period 1000 us, duration 0 00:01:01' noenhanced\n",
	},
	.counts = { { " with steps ", 4 }, { "CPU 1 ", 0 }, { " user:", 0 }, { "set arrow", 0 } },
	/* buckets 0 to 4 (the last with a sample), then one that closes the last step */
	.data = "0 0.5 0.5 1 0.5\n"
		"1 3 0.5 0.5 0.5\n"
		"2 0.5 0.5 0.5 0.5\n"
		"3 0.5 2 0.5 0.5\n"
		"4 0.5 0.5 0.5 1000\n"
		"5 0.5 0.5 0.5 0.5\n",
};

static const struct plot_case user_context_and_no_irq = {
	{ "--no-irq" }, { { 1, IRQ, 1000, 5 }, { 1, THR, 2000, 5 }, { 1, USR, 3000, 5 } },
	.user_data = true,
	.has = {
		"using 1:2 with steps lc rgb '#1f77b4' dt 1 lw 1.5 "
		"title \"CPU 1 thread: max 2 us, over: 0\"",
		"using 1:3 with steps lc rgb '#1f77b4' dt 2 lw 1.5 "
		"title \"CPU 1 user: max 3 us, over: 0\"",
	},
	.counts = { { " with steps ", 2 }, { " IRQ:", 0 } },
};

/* of buckets empty in every curve, only the first of a run has a row */
static const struct plot_case sparse_rows = {
	{ "-E", "1000000" },
	{ { 0, IRQ, 1000, 7 }, { 0, IRQ, 5000, 1 }, { 0, THR, 4000, 2 }, { 1, THR, 999999000, 1 } },
	.has = { "title \"CPU 1 thread: max 999999 us, over: 0\"" },
	.data = "0 0.5 0.5 0.5 0.5\n"
		"1 7 0.5 0.5 0.5\n"
		"2 0.5 0.5 0.5 0.5\n"
		"4 0.5 2 0.5 0.5\n"
		"5 1 0.5 0.5 0.5\n"
		"6 0.5 0.5 0.5 0.5\n"
		"999999 0.5 0.5 0.5 1\n"
		"1000000 0.5 0.5 0.5 0.5\n",
};

/* -n -b 100: the x axis and the data are in nanoseconds, by hundreds */
static const struct plot_case nano_and_bucket_size = {
	{ "-n", "-b", "100" }, { { 0, IRQ, 250, 2 }, { 0, THR, 120, 1 } },
	.has = {
		"set xlabel \"Latency (ns), buckets of 100 ns\"\n",
		"title \"CPU 0 IRQ: max 250 ns, over: 0\"",
	},
	.data = "0 0.5 0.5\n"
		"100 0.5 1\n"
		"200 2 0.5\n"
		"300 0.5 0.5\n",
};

/* what lies beyond the last bucket shows in the key and behind a marked line */
static const struct plot_case over = {
	{ "-E", "20", "-b", "5" },
	{ { 3, IRQ, 7000, 10 }, { 3, THR, 9000, 9 }, { 3, THR, 500000, 1 } },
	.has = {
		"title \"CPU 3 IRQ: max 7 us, over: 0\"",
		"title \"CPU 3 thread: max 500 us, over: 1\"",
		/* 20 buckets of 5 us end at 100 us */
		"set xrange [0:105]\n",
		"set arrow from 100, graph 0 to 100, graph 1 nohead",
		"set label \"over: 100 us and above\" at 100, graph 0.5 center",
	},
};

/* nothing measured: an empty frame that gnuplot can still draw */
static const struct plot_case no_samples = {
	.format = TLAT_PLOT_SVG,
	.has = { "set yrange [0.8:10]\nset xrange [0:256]\n", "plot NaN notitle\n" },
	.counts = { { " with steps ", 0 } },
	.data = "0\n",
};

static void test_plot_case(void **state)
{
	struct unit_report *r = *state;
	const struct plot_case *c = r->c;
	char *argv[8] = { "hist" };
	const char *s;
	int argc = 1;

	for (const char *const *arg = c->args; *arg; arg++)
		argv[argc++] = (char *)*arg;
	plot_start(r, argv);
	r->report.user_data = c->user_data;
	for (const struct smp *smp = c->samples; smp->n; smp++)
		unit_report_add(r, smp->cpu, smp->ctx, smp->ns, smp->n);
	s = script(r, c->format ? c->format : TLAT_PLOT_PNG);
	for (size_t i = 0; i < UNIT_ARRAY_SIZE(c->has) && c->has[i]; i++)
		expect_has(s, c->has[i]);
	for (size_t i = 0; i < UNIT_ARRAY_SIZE(c->counts) && c->counts[i].text; i++)
		if (count(s, c->counts[i].text) != c->counts[i].n)
			fail_msg("'%s' %d times in the script, not %d:\n%s", c->counts[i].text,
				 count(s, c->counts[i].text), c->counts[i].n, s);
	if (c->data) {
		char *data = data_block(s);

		assert_string_equal(data, c->data);
		free(data);
	}
}

static void test_terminals(void **state)
{
	struct unit_report *r = *state;
	const char *s;

	plot_start(r, (char *[]){ "hist", NULL });
	unit_report_add(r, 0, TLAT_CTX_IRQ, 1000, 1);
	s = script(r, TLAT_PLOT_SVG);
	expect_has(s, "set terminal svg ");
	assert_int_equal(count(s, "png"), 0);
	s = script(r, TLAT_PLOT_PNG);
	expect_has(s, "set terminal pngcairo ");
	expect_has(s, "set terminal png ");
	assert_int_equal(count(s, "svg"), 0);
	/* the script is read from standard input: it must not name an output */
	assert_int_equal(count(s, "set output"), 0);
}

#define CASE(name) \
	UNIT_CASE("test_" #name, test_plot_case, unit_report_setup, unit_report_teardown, &name)

UNIT_MAIN("plot",
	cmocka_unit_test(test_format_from_name),
	cmocka_unit_test(test_cli_plot_option),
	CASE(curves_and_data),
	CASE(user_context_and_no_irq),
	CASE(sparse_rows),
	CASE(nano_and_bucket_size),
	CASE(over),
	CASE(no_samples),
	cmocka_unit_test_setup_teardown(test_terminals, unit_report_setup,
					unit_report_teardown),
)
