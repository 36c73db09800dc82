// SPDX-License-Identifier: GPL-2.0
/*
 * test_compare.c - tlat compare on synthetic documents of known
 * distributions: percentiles within the buckets' 0.4% of the exact ones,
 * the order-statistic intervals covering the true percentile about as often
 * as they promise, KS quiet on one distribution and loud on a shift, the
 * verdicts (a shift beyond the thresholds is a regression, exit 2; the same
 * distribution drawn twice, or a shift under the thresholds, is not), runs
 * pooled from a directory and a list, cyclictest --json read, the JSON and
 * JUnit outputs, the plot's axis and rows, and the refusals (another schema, a truncated file,
 * different periods or CPUs) in one line with exit 1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>
#include <json.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>

#include "compare/compare.h"
#include "core/err.h"
#include "output/gnuplot.h"
#include "stats/loglinear.h"

/* erand48 from a fixed seed: the same data on every run */
static unsigned short seed[3] = { 0x1234, 0x5678, 0x9abc };

static double uniform01(void)
{
	return erand48(seed);
}

/* the latencies: a base exponential of mean @mean_ns above @floor_ns */
static u64 draw(double floor_ns, double mean_ns)
{
	return (u64)(floor_ns - mean_ns * log(1.0 - uniform01()));
}

static char dir[] = "/tmp/tlat-test-compare.XXXXXX";

/* a tlat/1.1 document: CPUs 0..ncpu-1, irq and thread of n samples each */
static char *write_doc(const char *name, int ncpu, u64 n, double floor_ns, double mean_ns,
		       u64 period_us, const char *schema)
{
	static u64 buckets[LOGLIN_BUCKETS];
	char *path;
	FILE *f;

	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"schema_version\": \"%s\", \"options\": {\"period_us\": %llu},\n"
		"\"loglinear\": {\"sub_bits\": 7, \"max_bits\": 36}, \"cpus\": [", schema,
		(unsigned long long)period_us);
	for (int cpu = 0; cpu < ncpu; cpu++) {
		fprintf(f, "%s{\"cpu\": %d", cpu ? ", " : "", cpu);
		for (int ctx = 0; ctx < 2; ctx++) {
			u64 max = 0;
			const char *sep = "";

			memset(buckets, 0, sizeof(buckets));
			for (u64 i = 0; i < n; i++) {
				u64 v = draw(floor_ns + ctx * 1000, mean_ns);

				buckets[loglin_index(v)]++;
				if (v > max)
					max = v;
			}
			fprintf(f, ", \"%s\": {\"count\": %llu, \"max\": %llu, \"loglinear\": [",
				tlat_ctx_name[ctx], (unsigned long long)n, (unsigned long long)max);
			for (unsigned int b = 0; b < LOGLIN_BUCKETS; b++)
				if (buckets[b]) {
					fprintf(f, "%s[%llu, %llu]", sep,
						(unsigned long long)loglin_lowest(b),
						(unsigned long long)buckets[b]);
					sep = ", ";
				}
			fputs("]}", f);
		}
		fputc('}', f);
	}
	fputs("]}\n", f);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* write_doc's document with the kernel release and source a run records */
static char *write_doc_on(const char *name, const char *release, const char *source)
{
	char *path = write_doc(name, 2, 20000, 5000, 10000, 1000, "tlat/1.1");
	char doc[1 << 16];
	size_t n;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	n = fread(doc, 1, sizeof(doc) - 1, f);
	assert_true(n > 0 && n < sizeof(doc) - 1);
	doc[n] = '\0';
	fclose(f);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"system\": {\"release\": \"%s\"}, \"source\": \"%s\", %s", release,
		source, doc + 1);
	assert_int_equal(fclose(f), 0);
	return path;
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd;

	(void)state;
	unlink("/tmp/tlat-test-compare.out");
	unlink("/tmp/tlat-test-compare.err");
	if (asprintf(&cmd, "rm -rf %s", dir) < 0)
		return -1;
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
	free(cmd);
	return 0;
}

#define COMPARE(...)							\
	run_compare((int)(sizeof((char *[]){ "compare", __VA_ARGS__ }) / sizeof(char *)), \
		    (char *[]){ "compare", __VA_ARGS__, NULL })

/* tlat compare with its output in a file, read back into out */
static char out[1 << 18], errline[1024];

static int open_out(const char *what)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/tlat-test-compare.%s", what);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	return fd;
}

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

static int run_compare(int argc, char **argv)
{
	int o = open_out("out"), e = open_out("err"), so = dup(1), se = dup(2), rc;

	fflush(stdout);
	dup2(o, 1);
	dup2(e, 2);
	rc = tlat_compare("tlat", argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(o);
	close(e);
	slurp("/tmp/tlat-test-compare.out", out, sizeof(out));
	slurp("/tmp/tlat-test-compare.err", errline, sizeof(errline));
	return rc;
}

/* the percentiles of a read document: within the buckets' 1/256 of the exact */
static void test_percentiles(void **state)
{
	char err[TLAT_ERR_LEN];
	struct cmp_side s;
	char *p;

	(void)state;
	/* exponential, mean 10 us above 5 us: p99 = 5 + 10 ln 100 us */
	p = write_doc("exp.json", 1, 200000, 5000, 10000, 1000, "tlat/1.1");
	assert_int_equal(cmp_side_read(&s, p, err), 0);
	assert_int_equal(s.nr_cpus, 1);
	assert_int_equal(s.nr_runs, 1);
	assert_true(s.has_ctx[TLAT_CTX_IRQ] && s.has_ctx[TLAT_CTX_THREAD]);
	assert_false(s.has_ctx[TLAT_CTX_USER]);
	for (double pct = 50; pct < 99.95; pct = pct < 99 ? pct + 49 : pct + 0.9) {
		double want = 5000 - 10000 * log(1 - pct / 100);
		double got = (double)cmp_percentile(cmp_dist(&s, 1, 0, TLAT_CTX_IRQ), pct);

		/* sampling (n = 200000) and the buckets: a few percent at p99.9 */
		if (fabs(got - want) / want > 0.03)
			fail_msg("p%g: %g, want %g", pct, got, want);
	}
	assert_int_equal(cmp_dist(&s, 1, 1, TLAT_CTX_IRQ)->count, 200000);
	cmp_side_free(&s);
	free(p);
}

/*
 * The intervals' promise: of 400 samples of 2000 from one exponential, the
 * 95% interval of p99 covers the true p99 in about 95% (at least 91%: the
 * normal approximation and the buckets) and not always (then it would be
 * too wide to be of use)
 */
static void test_interval_coverage(void **state)
{
	double truth = 5000 - 10000 * log(0.01);
	struct cmp_dist d = { 0 };
	int covered = 0, trials = 400;
	u64 lo, hi;

	(void)state;
	d.buckets = calloc(LOGLIN_BUCKETS, sizeof(u64));
	assert_non_null(d.buckets);
	for (int t = 0; t < trials; t++) {
		memset(d.buckets, 0, LOGLIN_BUCKETS * sizeof(u64));
		d.count = d.max = 0;
		for (int i = 0; i < 2000; i++) {
			u64 v = draw(5000, 10000);

			d.buckets[loglin_index(v)]++;
			d.count++;
			if (v > d.max)
				d.max = v;
		}
		assert_true(cmp_percentile_ci(&d, 99, 1.96, &lo, &hi));
		assert_true(lo <= cmp_percentile(&d, 99) && cmp_percentile(&d, 99) <= hi);
		covered += lo <= truth * 1.004 && hi >= truth / 1.004;
	}
	free(d.buckets);
	if (covered < trials * 0.91 || covered > trials * 0.995)
		fail_msg("the 95%% interval covered p99 in %d of %d samples", covered, trials);
}

/* one distribution twice: KS quiet; shifted by 3 us: loud, in its direction */
static void test_ks(void **state)
{
	struct cmp_dist a = { 0 }, b = { 0 }, c = { 0 };
	struct cmp_ks ks;

	(void)state;
	a.buckets = calloc(LOGLIN_BUCKETS, sizeof(u64));
	b.buckets = calloc(LOGLIN_BUCKETS, sizeof(u64));
	c.buckets = calloc(LOGLIN_BUCKETS, sizeof(u64));
	for (int i = 0; i < 20000; i++) {
		a.buckets[loglin_index(draw(5000, 10000))]++;
		b.buckets[loglin_index(draw(5000, 10000))]++;
		c.buckets[loglin_index(draw(8000, 10000))]++;
	}
	a.count = b.count = c.count = 20000;
	ks = cmp_ks_test(&a, &b);
	assert_true(ks.p > 0.01);
	assert_true(ks.d < 0.02);
	ks = cmp_ks_test(&a, &c);
	assert_true(ks.p < 1e-6);
	assert_true(ks.p_up < 1e-6);
	assert_true(ks.p_down > 0.5);
	/* D: the shift moves about 1 - exp(-0.3) = 26% of the mass past any point */
	assert_true(ks.d > 0.2 && ks.d < 0.32);
	free(a.buckets);
	free(b.buckets);
	free(c.buckets);
}

static void test_verdicts(void **state)
{
	char *a1 = write_doc("a1.json", 2, 30000, 5000, 10000, 1000, "tlat/1.1");
	char *a2 = write_doc("a2.json", 2, 30000, 5000, 10000, 1000, "tlat/1.1");
	/* +50 us on every sample: p99 rises by 50 us, about 90% */
	char *up = write_doc("up.json", 2, 30000, 55000, 10000, 1000, "tlat/1.1");
	/* +10 us: significant, but under the 30 us threshold */
	char *small = write_doc("small.json", 2, 30000, 15000, 10000, 1000, "tlat/1.1");

	(void)state;
	assert_int_equal(COMPARE(a1, a2), 0);
	assert_non_null(strstr(out, "verdict: no change\n"));
	assert_int_equal(COMPARE(a1, up), 2);
	assert_non_null(strstr(out, "verdict: regression ("));
	assert_non_null(strstr(out, "    0 irq     p99.9"));
	assert_non_null(strstr(out, "verdict on p99:"));
	assert_non_null(strstr(out, "  ALL thread  KS"));
	assert_int_equal(COMPARE(up, a1), 0);
	assert_non_null(strstr(out, "verdict: improvement"));
	assert_int_equal(COMPARE(a1, small), 0);
	assert_non_null(strstr(out, "verdict: no change\n"));
	/* the thresholds are the options' */
	assert_int_equal(COMPARE("--threshold-us", "5", "--threshold-pct", "5", a1, small), 2);
	/* the verdict's percentile: any, p50 here (+10 us of about 12) */
	assert_int_equal(COMPARE("-p", "50", "--threshold-us", "5", a1, small), 2);
	assert_non_null(strstr(out, "verdict on p50"));
	assert_int_equal(COMPARE("-p", "95", a1, up), 2);
	assert_non_null(strstr(out, "p95 "));
	assert_string_equal(errline, "");
	free(a1);
	free(a2);
	free(up);
	free(small);
}

/* a directory and a list of runs pooled: counts add up, the runs kept apart */
/*
 * kernel against kernel: the header and the JSON name each side's kernel and
 * source; a side whose runs differ in them names none
 */
static void test_kernels(void **state)
{
	char *b = write_doc_on("k61.json", "6.1.0-56-rt-amd64", "timerlat");
	char *n = write_doc_on("k612.json", "6.12.117+deb12-rt-amd64", "timerlat");
	char *mixed;
	char err[TLAT_ERR_LEN];
	struct cmp_side s;

	(void)state;
	assert_int_equal(COMPARE(b, n), 0);
	assert_non_null(strstr(out, "(1 run, tlat) kernel 6.1.0-56-rt-amd64, source timerlat\n"));
	assert_non_null(strstr(out, "(1 run, tlat) kernel 6.12.117+deb12-rt-amd64, source timerlat\n"));
	assert_int_equal(COMPARE("--json", "-", b, n), 0);
	assert_non_null(strstr(out, "\"kernel\": \"6.12.117+deb12-rt-amd64\""));
	assert_true(asprintf(&mixed, "%s,%s", b, n) > 0);
	assert_int_equal(cmp_side_read(&s, mixed, err), 0);
	assert_string_equal(s.kernel, "");
	assert_string_equal(s.source, "timerlat");
	cmp_side_free(&s);
	free(mixed);
	free(b);
	free(n);
}

static void test_several_runs(void **state)
{
	char *d, *r1, *r2, *r3, *list;
	char err[TLAT_ERR_LEN];
	struct cmp_side s;

	(void)state;
	assert_true(asprintf(&d, "%s/runs", dir) > 0);
	assert_int_equal(mkdir(d, 0755), 0);
	r1 = write_doc("runs/r1.json", 2, 10000, 5000, 10000, 1000, "tlat/1.1");
	r2 = write_doc("runs/r2.json", 2, 20000, 5000, 10000, 1000, "tlat/1.1");
	r3 = write_doc("runs/r3.json", 2, 30000, 5000, 10000, 1000, "tlat/1.1");
	assert_int_equal(cmp_side_read(&s, d, err), 0);
	assert_int_equal(s.nr_runs, 3);
	assert_int_equal(cmp_dist(&s, 3, 0, TLAT_CTX_IRQ)->count, 60000);
	/* all CPUs of the pool, and of one run */
	assert_int_equal(cmp_dist(&s, 3, 2, TLAT_CTX_THREAD)->count, 120000);
	assert_int_equal(cmp_dist(&s, 1, 2, TLAT_CTX_THREAD)->count, 40000);
	cmp_side_free(&s);
	assert_true(asprintf(&list, "%s,%s", r1, r3) > 0);
	assert_int_equal(cmp_side_read(&s, list, err), 0);
	assert_int_equal(s.nr_runs, 2);
	assert_int_equal(cmp_dist(&s, 2, 1, TLAT_CTX_IRQ)->count, 40000);
	cmp_side_free(&s);
	/* a directory against a list: the same system, no regression */
	assert_int_equal(COMPARE(d, list), 0);
	assert_non_null(strstr(out, "(3 runs, tlat)"));
	assert_non_null(strstr(out, "(2 runs, tlat)"));
	free(d);
	free(r1);
	free(r2);
	free(r3);
	free(list);
}

/* cyclictest --json with -h: the thread latency, in us, overflows at the max */
static void test_cyclictest(void **state)
{
	char *ct, *tl, err[TLAT_ERR_LEN];
	struct cmp_side s;
	FILE *f;

	(void)state;
	assert_true(asprintf(&ct, "%s/cyclictest.json", dir) > 0);
	f = fopen(ct, "w");
	assert_non_null(f);
	fputs("{\"file_version\": 1, \"cmdline:\": \"cyclictest -m -i 1000 -h 100 --json=x\",\n"
	      " \"num_threads\": 2, \"resolution_in_ns\": 0, \"thread\": {\n"
	      "  \"0\": {\"histogram\": {\"5\": 90, \"7\": 9}, \"cycles\": 100, \"min\": 5,"
	      " \"max\": 150, \"avg\": 6.8, \"cpu\": 0, \"node\": 0},\n"
	      "  \"1\": {\"histogram\": {\"6\": 100}, \"cycles\": 100, \"min\": 6,"
	      " \"max\": 6, \"avg\": 6.0, \"cpu\": 1, \"node\": 0}}}\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(cmp_side_read(&s, ct, err), 0);
	assert_true(s.cyclictest);
	assert_int_equal(s.period_us, 1000);
	assert_false(s.has_ctx[TLAT_CTX_IRQ]);
	assert_int_equal(cmp_dist(&s, 1, 0, TLAT_CTX_THREAD)->count, 100);
	/* 5 us and 7 us: their buckets' middles, within 1/256 */
	assert_in_range(cmp_percentile(cmp_dist(&s, 1, 0, TLAT_CTX_THREAD), 50), 4980, 5020);
	assert_in_range(cmp_percentile(cmp_dist(&s, 1, 0, TLAT_CTX_THREAD), 95), 6972, 7028);
	assert_int_equal(cmp_dist(&s, 1, 0, TLAT_CTX_THREAD)->max, 150000);
	assert_int_equal(cmp_percentile(cmp_dist(&s, 1, 0, TLAT_CTX_THREAD), 99.5), 150000);
	cmp_side_free(&s);
	/* against tlat's document: the thread latency alone */
	tl = write_doc("tl.json", 2, 1000, 5000, 1000, 1000, "tlat/1.1");
	assert_int_equal(COMPARE(ct, tl), 0);
	assert_null(strstr(out, "  ALL irq "));
	assert_non_null(strstr(out, "# irq latency: in NEW only, not compared\n"));
	assert_non_null(strstr(out, "  ALL thread  p99.9"));
	free(ct);
	free(tl);
}

/* the number an XPath expression gives in ctx's document */
static int xpath_int(xmlXPathContextPtr ctx, const char *expr)
{
	xmlXPathObjectPtr res = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	int n;

	assert_non_null(res);
	n = (int)res->floatval;
	xmlXPathFreeObject(res);
	return n;
}

/* --json: the document; --junit: a testcase per CPU x context x metric */
static void test_outputs(void **state)
{
	char *a = write_doc("oa.json", 2, 30000, 5000, 10000, 1000, "tlat/1.1");
	char *b = write_doc("ob.json", 2, 30000, 55000, 10000, 1000, "tlat/1.1");
	char *js, *xml;
	struct json_object *doc, *v;
	xmlDocPtr x;
	xmlXPathContextPtr ctx;
	xmlXPathObjectPtr res;

	(void)state;
	assert_true(asprintf(&js, "%s/cmp.json", dir) > 0);
	assert_true(asprintf(&xml, "%s/cmp & <x>.xml", dir) > 0);
	assert_int_equal(COMPARE("--json", js, "--junit", xml, a, b), 2);
	doc = json_object_from_file(js);
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "verdict", &v));
	assert_string_equal(json_object_get_string(v), "regression");
	assert_true(json_object_object_get_ex(doc, "cells", &v));
	/* 2 contexts x (2 CPUs + all) */
	assert_int_equal(json_object_array_length(v), 6);
	v = json_object_array_get_idx(v, 0);
	assert_true(json_object_object_get_ex(v, "metrics", &v));
	assert_true(json_object_object_get_ex(v, "p99.9", &v));
	assert_true(json_object_object_get_ex(v, "interval", &v));
	assert_int_equal(json_object_array_length(v), 2);
	assert_true(json_object_get_int64(json_object_array_get_idx(v, 0)) > 0);
	json_object_put(doc);
	/* --json -: the document alone on standard output */
	assert_int_equal(COMPARE("--json", "-", a, b), 2);
	assert_int_equal(out[0], '{');
	assert_null(strstr(out, "verdict:"));

	x = xmlReadFile(xml, NULL, 0);
	assert_non_null(x);
	ctx = xmlXPathNewContext(x);
	/* 6 cells x (p50 p99 p99.9 p99.99 max + ks) */
	assert_int_equal(xpath_int(ctx, "count(//testcase)"), 36);
	/* the verdict's percentile fails in every cell; nothing else */
	assert_int_equal(xpath_int(ctx, "count(//testcase[failure])"), 6);
	assert_int_equal(xpath_int(ctx, "count(//testcase[@name='p99' and failure])"), 6);
	assert_int_equal(xpath_int(ctx, "sum(//testsuite/@failures)"), 6);
	/* the file names, escaped by libxml2, read back as given */
	res = xmlXPathEvalExpression(BAD_CAST "string(//property[@name='base']/@value)", ctx);
	assert_string_equal((char *)res->stringval, a);
	xmlXPathFreeObject(res);
	xmlXPathFreeContext(ctx);
	xmlFreeDoc(x);
	free(a);
	free(b);
	free(js);
	free(xml);
}

/*
 * the plot's script of two documents: its data rows, whether its x axis is
 * logarithmic, and the samples per run under the first curve (on a linear
 * axis its steps' heights times their widths, the last one 1 us wide)
 */
static int plot_rows(const char *a, const char *b, bool *log_x, double *mass)
{
	struct cmp_settings set = { .percentile = 99.9, .threshold_us = 5, .threshold_pct = 10,
				    .confidence = 0.95, .alpha = 0.05 };
	struct cmp_side base = { 0 }, new = { 0 };
	struct cmp_result r = { 0 };
	char err[TLAT_ERR_LEN], *script = NULL, *line, *save;
	double x_prev = 0, y_prev = 0;
	bool data = false, have_prev = false;
	size_t len = 0;
	int rows = 0;
	FILE *f;

	assert_int_equal(cmp_side_read(&base, a, err), 0);
	assert_int_equal(cmp_side_read(&new, b, err), 0);
	assert_int_equal(cmp_run(&r, &base, &new, &set), 0);
	f = open_memstream(&script, &len);
	assert_non_null(f);
	assert_int_equal(cmp_plot_script(f, &r, TLAT_PLOT_SVG), 0);
	assert_int_equal(fclose(f), 0);
	*log_x = strstr(script, "set logscale x\n") != NULL;
	*mass = 0;
	for (line = strtok_r(script, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		double x, y;
		char y_text[32];

		if (!strcmp(line, "$tlat << EOD")) {
			data = true;
			continue;
		}
		if (!data)
			continue;
		if (!strcmp(line, "EOD"))
			break;
		rows++;
		assert_int_equal(sscanf(line, "%lf %31s", &x, y_text), 2);
		y = strcmp(y_text, GNUPLOT_EMPTY) ? atof(y_text) : 0;
		/* the first step starts at 0.5 on a log axis: it is [0, 1) */
		/* a log axis's steps hold their samples; a linear one's, per 1 us */
		if (have_prev)
			*mass += *log_x ? y_prev :
				 y_prev * ((x == 0.5 ? 0 : x) - (x_prev == 0.5 ? 0 : x_prev));
		x_prev = x;
		y_prev = y;
		have_prev = true;
	}
	*mass += y_prev;
	free(script);
	cmp_result_free(&r);
	cmp_side_free(&base);
	cmp_side_free(&new);
	return rows;
}

/*
 * --plot: a maximum far above the bulk turns the x axis logarithmic, and the
 * script has a row per bucket boundary, not per microsecond; no sample is
 * lost on the way
 */
static void test_plot(void **state)
{
	char *a = write_doc("pa.json", 2, 30000, 5000, 10000, 1000, "tlat/1.1");
	char *b = write_doc("pb.json", 2, 30000, 5000, 2000000, 1000, "tlat/1.1");
	double mass;
	bool log_x;
	int rows;

	(void)state;
	/* maxima near 110 us: linear, as before */
	rows = plot_rows(a, a, &log_x, &mass);
	assert_false(log_x);
	assert_true(rows > 0 && rows < 200);
	assert_true(fabs(mass - 60000) < 1 || fabs(mass - 30000) < 1);
	/* NEW's maximum near 25 ms, BASE's bulk within 100 us: logarithmic */
	rows = plot_rows(a, b, &log_x, &mass);
	assert_true(log_x);
	assert_true(rows > 0 && rows <= 2 * (int)LOGLIN_BUCKETS);
	assert_true(rows < 25000 / 4);
	assert_true(fabs(mass - 60000) < 1 || fabs(mass - 30000) < 1);
	free(a);
	free(b);
}

static char *write_text(const char *name, const char *text)
{
	char *path;
	FILE *f;

	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* documents of either kind with content no tlat or cyclictest writes: one line, exit 1 */
static void test_damaged(void **state)
{
	static const struct {
		const char *doc, *line;
	} cases[] = {
		/* json-c's foreach took a number for an object: a crash */
		{ "{\"file_version\":1,\"thread\":{\"0\":{\"cpu\":0,\"cycles\":1,\"max\":1,"
		  "\"histogram\":5}}}", "a histogram that is not {value: count}" },
		{ "{\"file_version\":1,\"thread\":{\"0\":{\"cpu\":0,\"cycles\":1,\"max\":1,"
		  "\"histogram\":{\"x\":1}}}}", "a histogram entry that is not" },
		{ "{\"file_version\":1,\"thread\":{\"0\":{\"cpu\":0,\"cycles\":1,"
		  "\"max\":1e300,\"histogram\":{}}}}", "a thread without cpu, cycles or max" },
		{ "{\"file_version\":1,\"thread\":{\"0\":{\"cpu\":4294967296,\"cycles\":1,"
		  "\"max\":1,\"histogram\":{}}}}", "CPU 4294967296 measured twice, or past" },
		{ "{\"schema_version\":\"tlat/1.1\",\"options\":{\"period_us\":1000},\"cpus\":"
		  "[{\"cpu\":0,\"thread\":{\"count\":0,\"loglinear\":[[-1,-5],[5,5]]}}]}",
		  "a loglinear bucket is not [ns, count]" },
		{ "{\"schema_version\":\"tlat/1.1\",\"options\":{\"period_us\":1000},\"cpus\":"
		  "[{\"cpu\":0,\"thread\":{\"count\":0,\"loglinear\":[[5,9007199254740992],"
		  "[5,9007199254740992]]}}]}", "more than 9007199254740992 samples" },
		/* a CPU twice: its dists were indexed past their array */
		{ "{\"schema_version\":\"tlat/1.1\",\"options\":{\"period_us\":1000},\"cpus\":"
		  "[{\"cpu\":0},{\"cpu\":0}]}", "CPU 0 listed twice" },
		{ "{\"schema_version\":\"tlat/1.1\",\"options\":{\"period_us\":-1},\"cpus\":[]}",
		  "no options.period_us or cpus" },
	};
	char name[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *path;

		snprintf(name, sizeof(name), "damaged-%zu.json", i);
		path = write_text(name, cases[i].doc);
		assert_int_equal(COMPARE(path, path), 1);
		assert_non_null(strstr(errline, cases[i].line));
		assert_int_equal(strchr(errline, '\n')[1], 0);
		free(path);
	}
}

/* refused in one line, exit 1 */
static void test_refusals(void **state)
{
	char *a = write_doc("ra.json", 2, 1000, 5000, 10000, 1000, "tlat/1.1");
	char *old = write_doc("old.json", 2, 1000, 5000, 10000, 1000, "tlat/1");
	char *p500 = write_doc("p500.json", 2, 1000, 5000, 10000, 500, "tlat/1.1");
	char *cpu3 = write_doc("cpu3.json", 3, 1000, 5000, 10000, 1000, "tlat/1.1");
	char *cut, cmd[512];

	(void)state;
	assert_int_equal(COMPARE(a, old), 1);
	assert_non_null(strstr(errline, "schema tlat/1, not tlat/1.1 or cyclictest --json "
				       "(tlat/1 has no histograms)"));
	assert_int_equal(COMPARE(a, p500), 1);
	assert_non_null(strstr(errline, "different periods:"));
	assert_int_equal(COMPARE("--force", a, p500), 0);
	assert_int_equal(COMPARE(a, cpu3), 1);
	assert_non_null(strstr(errline, "different CPUs:"));
	assert_non_null(strstr(errline, "0,1,2"));
	/* forced: the CPUs in common */
	assert_int_equal(COMPARE("--force", a, cpu3), 0);
	assert_null(strstr(out, "    2 irq"));
	/* truncated: cut in the middle */
	assert_true(asprintf(&cut, "%s/cut.json", dir) > 0);
	snprintf(cmd, sizeof(cmd), "head -c 3000 %s > %s", a, cut);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(COMPARE(a, cut), 1);
	assert_non_null(strstr(errline, "cut.json: truncated or not JSON"));
	assert_int_equal(COMPARE(a, "/nonexistent.json"), 1);
	assert_non_null(strstr(errline, "/nonexistent.json: No such file"));
	assert_int_equal(COMPARE(a), 1);
	assert_int_equal(COMPARE("-p", "100", a, a), 1);
	assert_int_equal(COMPARE("--plot", "x.pdf", a, a), 1);
	assert_int_equal(COMPARE("--bogus", a, a), 1);
	/* each one line */
	assert_non_null(strchr(errline, '\n'));
	assert_int_equal(strchr(errline, '\n')[1], 0);
	free(a);
	free(old);
	free(p500);
	free(cpu3);
	free(cut);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_interval_coverage),
		cmocka_unit_test(test_ks),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_several_runs),
		cmocka_unit_test(test_kernels),
		cmocka_unit_test(test_cyclictest),
		cmocka_unit_test(test_outputs),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_plot),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
