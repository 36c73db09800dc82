// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_cli.c - tlat compare's command line: the options, the two sides read
 * and checked, the outputs written, and the exit status (0 no regression,
 * 2 regression, 1 error, said in one line).
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "core/err.h"
#include "output/gnuplot.h"

/*
 * the defaults, calibrated on A/A runs of 30 s (bench/results-compare-calibration-*.txt):
 * p99.9 moved by hundreds of us between runs of one busy host, p99 did not
 */
#define CMP_DEFAULT_PCT		99.0
#define CMP_DEFAULT_US		30.0
#define CMP_DEFAULT_REL		20.0

enum {
	OPT_JSON = 256,
	OPT_JUNIT,
	OPT_PLOT,
	OPT_US,
	OPT_PCT,
	OPT_FORCE,
	OPT_CONF,
	OPT_ALPHA,
};

struct cmp_opts {
	struct cmp_settings set;
	const char *json, *junit, *plot;
};

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"  usage: %s compare [options] BASE NEW\n\n"
		"  Compares two systems' latencies: BASE and NEW are each a tlat --json\n"
		"  file (schema tlat/1.1) or cyclictest --json file (with -h), a directory\n"
		"  of such files or a comma-separated list of them (several runs of one\n"
		"  system, pooled; their spread widens the intervals).\n\n"
		"  -p, --percentile P       the percentile the verdict reads (default %g)\n"
		"      --threshold-us N     a regression rises by more than N us (default %g)\n"
		"      --threshold-pct N    and by more than N%% (default %g); 0 turns one off\n"
		"      --confidence C       of the change's interval, 0.5 to 0.999 (default 0.95)\n"
		"      --alpha A            of the Kolmogorov-Smirnov test (default 0.05)\n"
		"      --force              compare different periods, or the CPUs in common\n"
		"      --json FILE          the comparison as JSON (- : standard output, alone)\n"
		"      --junit FILE         a JUnit XML report, a testcase per CPU x context x metric\n"
		"      --plot FILE.png|svg  both distributions overlaid, drawn by gnuplot\n"
		"  -h, --help               this text\n\n"
		"  Exit status: 0 no regression, 2 regression, 1 error.\n",
		prog, CMP_DEFAULT_PCT, CMP_DEFAULT_US, CMP_DEFAULT_REL);
}

static int number(const char *arg, const char *opt, double min, double max, double *val,
		  char *err)
{
	char *end;

	errno = 0;
	*val = strtod(arg, &end);
	if (errno || end == arg || *end || *val < min || *val > max) {
		tlat_err(err, "%s: '%s' is not a number from %g to %g", opt, arg, min, max);
		return -EINVAL;
	}
	return 0;
}

/* the options that take a number: its name in errors, its range, its setting (a double) */
#define NUMBER(val, name, min, max, setting)	\
	{ val, name, min, max, offsetof(struct cmp_settings, setting) }

static const struct cmp_number {
	int val;
	const char *name;
	double min, max;
	size_t offset;
} cmp_numbers[] = {
	NUMBER('p',		"--percentile",		1,	99.9999,	percentile),
	NUMBER(OPT_US,		"--threshold-us",	0,	1e9,		threshold_us),
	NUMBER(OPT_PCT,		"--threshold-pct",	0,	1e6,		threshold_pct),
	NUMBER(OPT_CONF,	"--confidence",		0.5,	0.999,		confidence),
	NUMBER(OPT_ALPHA,	"--alpha",		1e-9,	1,		alpha),
};

#undef NUMBER

/* a number option into its setting: 0, -EINVAL, or 1 if c is no number option */
static int number_opt(struct cmp_settings *set, int c, const char *arg, char *err)
{
	for (size_t i = 0; i < sizeof(cmp_numbers) / sizeof(cmp_numbers[0]); i++) {
		const struct cmp_number *n = &cmp_numbers[i];

		if (n->val == c)
			return number(arg, n->name, n->min, n->max,
				      (double *)((char *)set + n->offset), err);
	}
	return 1;
}

static int parse(struct cmp_opts *o, int argc, char **argv, char *err)
{
	static const struct option longopts[] = {
		{ "percentile",		required_argument,	NULL, 'p' },
		{ "threshold-us",	required_argument,	NULL, OPT_US },
		{ "threshold-pct",	required_argument,	NULL, OPT_PCT },
		{ "confidence",		required_argument,	NULL, OPT_CONF },
		{ "alpha",		required_argument,	NULL, OPT_ALPHA },
		{ "force",		no_argument,		NULL, OPT_FORCE },
		{ "json",		required_argument,	NULL, OPT_JSON },
		{ "junit",		required_argument,	NULL, OPT_JUNIT },
		{ "plot",		required_argument,	NULL, OPT_PLOT },
		{ "help",		no_argument,		NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret = 0;

	opterr = 0;
	optind = 0;
	while (!ret && (c = getopt_long(argc, argv, ":p:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FORCE:
			o->set.force = true;
			break;
		case OPT_JSON:
			o->json = optarg;
			break;
		case OPT_JUNIT:
			o->junit = optarg;
			break;
		case OPT_PLOT:
			o->plot = optarg;
			if (render_plot_format(optarg) == TLAT_PLOT_NONE) {
				tlat_err(err, "--plot %s: the name must end in .png or .svg", optarg);
				ret = -EINVAL;
			}
			break;
		case 'h':
			return 1;
		case ':':
			tlat_err(err, "%s needs a value", argv[optind - 1]);
			return -EINVAL;
		default:
			ret = number_opt(&o->set, c, optarg, err);
			if (ret <= 0)
				break;
			tlat_err(err, "unknown option '%s' (try: tlat compare --help)",
				 argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (!ret && argc - optind != 2) {
		tlat_err(err, "compare takes two arguments, BASE and NEW (try: tlat compare --help)");
		ret = -EINVAL;
	}
	return ret;
}

/* the outputs asked for, once the comparison is made */
static int outputs(const struct cmp_opts *o, const struct cmp_result *r, char *err)
{
	int ret = 0;

	if (!o->json || strcmp(o->json, "-"))
		cmp_render_text(stdout, r);
	if (o->json)
		ret = cmp_render_json(o->json, r, err);
	if (!ret && o->junit)
		ret = cmp_render_junit(o->junit, r, err);
	if (!ret && o->plot)
		ret = cmp_render_plot(o->plot, r, err);
	return ret;
}

int tlat_compare(const char *prog, int argc, char **argv)
{
	struct cmp_opts o = {
		.set = {
			.percentile = CMP_DEFAULT_PCT,
			.threshold_us = CMP_DEFAULT_US,
			.threshold_pct = CMP_DEFAULT_REL,
			.confidence = 0.95,
			.alpha = 0.05,
		},
	};
	struct cmp_side base = { 0 }, new = { 0 };
	struct cmp_result r = { 0 };
	char err[TLAT_ERR_LEN] = "";
	int ret;

	ret = parse(&o, argc, argv, err);
	if (ret > 0) {
		usage(stdout, prog);
		return 0;
	}
	if (!ret && o.plot)
		ret = gnuplot_check(o.plot, err);
	if (!ret)
		ret = cmp_side_read(&base, argv[optind], err);
	if (!ret)
		ret = cmp_side_read(&new, argv[optind + 1], err);
	if (!ret)
		ret = cmp_check(&base, &new, &o.set, err);
	if (!ret && cmp_run(&r, &base, &new, &o.set)) {
		tlat_err(err, "out of memory");
		ret = -ENOMEM;
	}
	if (!ret)
		ret = outputs(&o, &r, err);
	fflush(stdout);
	if (ret)
		fprintf(stderr, "%s: %s\n", prog, err);
	cmp_result_free(&r);
	cmp_side_free(&base);
	cmp_side_free(&new);
	if (ret)
		return 1;
	return r.verdict == CMP_REGRESSION ? 2 : 0;
}
