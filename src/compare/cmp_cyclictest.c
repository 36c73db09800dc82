// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_cyclictest.c - a cyclictest --json document read for tlat compare:
 * its interval, and each thread's histogram (-h) as the thread latency of
 * the thread's CPU.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>

#include "compare/cmp_local.h"
#include "core/err.h"

/* cyclictest's -i/--interval in its recorded command line; 1000 us if not given */
static u64 cyclictest_interval(struct json_object *root)
{
	struct json_object *cmd = cmp_member(root, "cmdline:");
	const char *s = cmd ? json_object_get_string(cmd) : NULL, *p;

	for (p = s; p && *p; p++) {
		if (p != s && p[-1] != ' ')
			continue;
		if (!strncmp(p, "-i", 2) && p[2] != ' ' && p[2])
			return strtoull(p + 2, NULL, 10);
		if (!strncmp(p, "-i ", 3))
			return strtoull(p + 3, NULL, 10);
		if (!strncmp(p, "--interval=", 11))
			return strtoull(p + 11, NULL, 10);
		if (!strncmp(p, "--interval ", 11))
			return strtoull(p + 11, NULL, 10);
	}
	return 1000;
}

/*
 * a thread's histogram {value: count} into d, values in unit ns; a value v
 * is counted at v (cyclictest truncates); sum: the samples it holds
 */
static int histogram_read(struct cmp_dist *d, struct json_object *h, u64 unit, u64 cpu,
			  u64 *sum, const char *file, char *err)
{
	json_object_object_foreach(h, value, count) {
		u64 n, v;
		char *end;
		int ret;

		errno = 0;
		v = strtoull(value, &end, 10);
		if (!cmp_json_u64(count, &n) || *value < '0' || *value > '9' || *end ||
		    errno || v > UINT64_MAX / unit) {
			tlat_err(err, "%s: CPU %llu: a histogram entry that is not \"value\": count",
				 file, (unsigned long long)cpu);
			return -EINVAL;
		}
		ret = cmp_doc_dist_add(d, v * unit, n, file, (int)cpu, TLAT_CTX_THREAD, err);
		if (ret)
			return ret;
		*sum += n;
	}
	return 0;
}

/* one thread: its CPU, its histogram, and its overflows counted at its maximum */
static int thread_read(struct cmp_doc *doc, struct json_object *t, struct cmp_dist *out,
		       u64 unit, const char *file, char *err)
{
	struct json_object *h = cmp_member(t, "histogram");
	u64 cpu, cycles, max, sum = 0;
	struct cmp_dist *d;
	int ret;

	if (!cmp_get_u64(t, "cpu", &cpu) || !cmp_get_u64(t, "cycles", &cycles) ||
	    !cmp_get_u64(t, "max", &max)) {
		tlat_err(err, "%s: a thread without cpu, cycles or max", file);
		return -EINVAL;
	}
	if (cmp_doc_cpu_add(doc, cpu, file, "measured", err))
		return -EINVAL;
	if (!h) {
		tlat_err(err, "%s: no histogram (run cyclictest with -h)", file);
		return -EINVAL;
	}
	if (!json_object_is_type(h, json_type_object) || max > UINT64_MAX / unit) {
		tlat_err(err, "%s: CPU %llu: a histogram that is not {value: count}, or max past the range",
			 file, (unsigned long long)cpu);
		return -EINVAL;
	}
	d = &out[(doc->nr_cpus - 1) * TLAT_NR_CTX + TLAT_CTX_THREAD];
	ret = histogram_read(d, h, unit, cpu, &sum, file, err);
	if (ret)
		return ret;
	if (sum > cycles) {
		tlat_err(err, "%s: CPU %llu: the histogram holds more than its %llu cycles",
			 file, (unsigned long long)cpu, (unsigned long long)cycles);
		return -EINVAL;
	}
	ret = cmp_doc_dist_add(d, max * unit, cycles - sum, file, (int)cpu, TLAT_CTX_THREAD, err);
	if (ret)
		return ret;
	cmp_dist_set_max(d, max * unit);
	return 0;
}

/* each thread's histogram (-h), in us or ns */
int cmp_cyclictest_read(struct cmp_doc *doc, struct json_object *root, struct cmp_dist *out,
			const char *file, char *err)
{
	struct json_object *threads = cmp_member(root, "thread");
	u64 unit = 1000, ns_res;

	if (cmp_get_u64(root, "resolution_in_ns", &ns_res) && ns_res)
		unit = 1;
	if (!threads || !json_object_is_type(threads, json_type_object)) {
		tlat_err(err, "%s: cyclictest document without threads", file);
		return -EINVAL;
	}
	doc->cyclictest = true;
	doc->has_ctx[TLAT_CTX_THREAD] = true;
	doc->period_us = cyclictest_interval(root);
	json_object_object_foreach(threads, key, t) {
		int ret;

		(void)key;
		ret = thread_read(doc, t, out, unit, file, err);
		if (ret)
			return ret;
	}
	return 0;
}
