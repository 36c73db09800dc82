/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - tlat compare BASE NEW: two systems' latency distributions,
 * each read from one or more runs' JSON documents (tlat/1.1's log-linear
 * buckets, or cyclictest --json's histogram for the thread latency), their
 * percentiles side by side with confidence intervals, a Kolmogorov-Smirnov
 * test of the whole distribution, and a verdict.
 */
#ifndef TLAT_COMPARE_COMPARE_H
#define TLAT_COMPARE_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/sample.h"

/* one CPU's context (or all CPUs'): its samples in loglinear.h's buckets */
struct cmp_dist {
	u64 count;
	u64 max;
	u64 *buckets;		/* LOGLIN_BUCKETS counts; NULL: no sample */
};

/* one side: the runs of one system, pooled */
/* the longest kernel release or source name a side keeps */
#define CMP_NAME_LEN	128

struct cmp_side {
	const char *label;	/* BASE or NEW as given */
	int nr_runs;
	char **files;		/* [nr_runs] */
	bool cyclictest;	/* read from cyclictest --json: thread latency only */
	u64 period_us;
	int nr_cpus;
	int *cpus;		/* [nr_cpus], ascending */
	bool has_ctx[TLAT_NR_CTX];
	/* the runs' kernel (system.release) and source: "" if unknown or not all the same */
	char kernel[CMP_NAME_LEN];
	char source[CMP_NAME_LEN];
	/* [run][cpu index, nr_cpus: all CPUs][ctx]; run nr_runs: the pool */
	struct cmp_dist *dist;
};

/**
 * cmp_dist - one distribution of a side
 * @s: the side
 * @run: the run; nr_runs: all runs pooled
 * @ci: the CPU's index in s->cpus; nr_cpus: all CPUs
 * @ctx: the context
 *
 * Returns it; count 0 (buckets NULL) if it has no sample.
 */
static inline struct cmp_dist *cmp_dist(const struct cmp_side *s, int run, int ci, int ctx)
{
	return &s->dist[((size_t)run * (s->nr_cpus + 1) + ci) * TLAT_NR_CTX + ctx];
}

/* cmp_input.c */

/**
 * cmp_side_read - read one side: a file, a directory of *.json, or a
 * comma-separated list of files
 * @s: filled; free with cmp_side_free()
 * @spec: what was given
 * @err: one line on failure
 *
 * Refuses another schema than tlat/1.1 or cyclictest's, a truncated file,
 * and runs of one side that differ in period or CPUs.
 * Returns 0 or a negative errno.
 */
int cmp_side_read(struct cmp_side *s, const char *spec, char *err);

/**
 * cmp_side_free - what cmp_side_read() allocated
 * @s: the side
 */
void cmp_side_free(struct cmp_side *s);

/**
 * cmp_cpu_index - where a CPU is in a side
 * @s: the side
 * @cpu: the CPU
 *
 * Returns its index, or -1 if the side did not measure it.
 */
int cmp_cpu_index(const struct cmp_side *s, int cpu);

/* cmp_stats.c */

/**
 * cmp_at_rank - the latency of the rank-th smallest sample (1-based): its
 * bucket's middle, the maximum exact
 * @d: the distribution, with samples
 * @rank: 1 to count; clamped
 *
 * Returns it in ns.
 */
u64 cmp_at_rank(const struct cmp_dist *d, u64 rank);

/**
 * cmp_percentile - the nearest-rank percentile
 * @d: the distribution, with samples
 * @pct: the percentile, 0 < pct < 100
 *
 * Returns it in ns.
 */
u64 cmp_percentile(const struct cmp_dist *d, double pct);

/**
 * cmp_percentile_ci - a distribution-free confidence interval of a
 * percentile from the order statistics: the ranks that the binomial
 * number of samples below the true percentile reaches with probability
 * @conf, by its normal approximation
 * @d: the distribution, with samples
 * @pct: the percentile
 * @z: the normal quantile of the confidence (1.96: 95%)
 * @lo: set to the lower bound, ns
 * @hi: set to the upper bound, ns
 *
 * Returns false when the upper rank is past the last sample: the upper
 * bound is then the maximum, and the interval open above.
 */
bool cmp_percentile_ci(const struct cmp_dist *d, double pct, double z, u64 *lo, u64 *hi);

/* a two-sample Kolmogorov-Smirnov test of BASE against NEW */
struct cmp_ks {
	double d;		/* sup |F_base - F_new| */
	double p;		/* its two-sided asymptotic p-value */
	double d_up;		/* sup (F_base - F_new): NEW larger */
	double p_up;		/* one-sided p-values */
	double d_down;
	double p_down;
};

/**
 * cmp_ks_test - KS on the buckets: the CDFs compared at every bucket's
 * upper end, which can only understate D (ties within a bucket)
 * @base: one distribution, with samples
 * @new: the other, with samples
 *
 * Returns the statistics and their asymptotic p-values.
 */
struct cmp_ks cmp_ks_test(const struct cmp_dist *base, const struct cmp_dist *new);

/* cmp_verdict.c */

enum cmp_metric_id {
	CMP_P50,
	CMP_P99,
	CMP_P99_9,
	CMP_P99_99,
	CMP_MAX,
	CMP_CHOSEN,		/* the verdict's percentile, if none of the above */
	CMP_NR_METRICS,
};

enum cmp_verdict {
	CMP_NO_CHANGE,
	CMP_IMPROVEMENT,
	CMP_REGRESSION,
	CMP_SKIPPED,		/* a side without samples */
};

struct cmp_settings {
	double percentile;	/* the verdict's, e.g. 99.9 */
	double threshold_us;	/* a change must pass both thresholds */
	double threshold_pct;
	double confidence;	/* of the change's interval, e.g. 0.95 */
	double alpha;		/* of the KS test */
	bool force;		/* compare different CPU sets */
};

struct cmp_metric {
	bool used;		/* CMP_CHOSEN: only when not one of the others */
	double pct;		/* 100: the maximum */
	u64 base, new;		/* ns */
	int64_t change;		/* new - base */
	int64_t lo, hi;		/* the change's interval (none for max: lo = hi = change) */
	bool open;		/* an upper bound at a maximum: the interval open */
	enum cmp_verdict verdict;
};

struct cmp_cell {
	int cpu;		/* -1: all CPUs */
	int ctx;
	u64 base_count, new_count;
	struct cmp_metric m[CMP_NR_METRICS];
	struct cmp_ks ks;
	enum cmp_verdict verdict;	/* the chosen percentile's */
};

struct cmp_result {
	const struct cmp_settings *set;
	const struct cmp_side *base, *new;
	int nr_cells;
	struct cmp_cell *cells;
	int chosen;		/* the metric the verdict reads */
	enum cmp_verdict verdict;
	const struct cmp_cell *worst;	/* the largest regression (or improvement) */
};

/**
 * cmp_metric_name - a metric's name: "p99.9", "max"
 * @r: the result (for CMP_CHOSEN's percentile)
 * @m: the metric
 * @buf: where a percentile's name is written
 * @len: its size
 *
 * Returns the name, in @buf or constant.
 */
const char *cmp_metric_name(const struct cmp_result *r, int m, char *buf, size_t len);

/**
 * cmp_verdict_name - "regression", "improvement", "no change" or "skipped"
 * @v: the verdict
 *
 * Returns the name.
 */
const char *cmp_verdict_name(enum cmp_verdict v);

/**
 * cmp_check - the sides can be compared: the same period and CPUs (or
 * @set->force), and a context in common
 * @base: one side
 * @new: the other
 * @set: the settings
 * @err: one line otherwise
 *
 * Returns 0 or -EINVAL.
 */
int cmp_check(const struct cmp_side *base, const struct cmp_side *new,
	      const struct cmp_settings *set, char *err);

/**
 * cmp_run - every cell's metrics, tests and verdict, and the whole verdict
 * @r: filled; free with cmp_result_free()
 * @base: one side
 * @new: the other
 * @set: the settings
 *
 * Returns 0 or -ENOMEM.
 */
int cmp_run(struct cmp_result *r, const struct cmp_side *base, const struct cmp_side *new,
	    const struct cmp_settings *set);

/**
 * cmp_result_free - what cmp_run() allocated
 * @r: the result
 */
void cmp_result_free(struct cmp_result *r);

/* the renderers: cmp_text.c, cmp_json.c, cmp_junit.c, cmp_plot.c */

/**
 * cmp_render_text - the table
 * @out: where
 * @r: the result
 */
void cmp_render_text(FILE *out, const struct cmp_result *r);

/**
 * cmp_render_json - the result as one JSON document
 * @path: the file, "-" standard output
 * @r: the result
 * @err: one line on failure
 *
 * Returns 0 or a negative errno.
 */
int cmp_render_json(const char *path, const struct cmp_result *r, char *err);

/**
 * cmp_render_junit - a JUnit XML report: a testcase per CPU x context x metric
 * @path: the file
 * @r: the result
 * @err: one line on failure
 *
 * Returns 0 or a negative errno.
 */
int cmp_render_junit(const char *path, const struct cmp_result *r, char *err);

/**
 * cmp_plot_script - the gnuplot script of both sides' distributions
 * @out: the script
 * @r: the result
 * @format: PNG or SVG
 *
 * Returns 0 or -EIO.
 */
int cmp_plot_script(FILE *out, const struct cmp_result *r, int format);

/**
 * cmp_render_plot - both sides' distributions overlaid, drawn by gnuplot
 * @path: FILE.png or FILE.svg
 * @r: the result
 * @err: one line on failure
 *
 * Returns 0 or a negative errno.
 */
int cmp_render_plot(const char *path, const struct cmp_result *r, char *err);

/**
 * tlat_compare - the tlat compare command
 * @prog: the program's name, for messages
 * @argc: the arguments after "compare"
 * @argv: argv[0] is "compare"
 *
 * Returns the exit status: 0 no regression, 2 regression, 1 error.
 */
int tlat_compare(const char *prog, int argc, char **argv);

#endif
