// SPDX-License-Identifier: GPL-2.0
/*
 * render_rttests.c - the results in the shape of rt-tests' cyclictest
 * --json (rt_write_json() and cyclictest's write_stats()), key for key, so
 * that Linaro's parse_rt_tests_results.py, KernelCI's rt-tests jobs and other
 * readers of that file take tlat's as cyclictest's. Each measured CPU that
 * produced samples is one "thread", fed by the thread latency: the level
 * cyclictest reports. Values are in the display unit (us, or ns with -n, as
 * resolution_in_ns says); the histogram is hist mode's thread column, its
 * keys the text's bucket indexes, overflows left out as cyclictest does.
 */
#include <stdio.h>

#include "cpuset.h"
#include "render_json.h"
#include "sysinfo.h"
#include "version.h"

static void add(struct json_object *obj, const char *key, struct json_object *val)
{
	json_object_object_add(obj, key, val);
}

/* rt-tests' RFC 2822 local time */
#define RFC_2822	"%a, %d %b %Y %T %z"

static struct json_object *sysinfo_json(const struct tlat_sysinfo *sys)
{
	struct json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	render_json_uname(obj, sys);
	add(obj, "realtime", json_object_new_int(sys->realtime));
	return obj;
}

static struct json_object *histogram_json(const struct tlat_report *r, int cpu)
{
	struct json_object *obj = json_object_new_object();
	char key[24];

	for (unsigned int b = 0; obj && b < hist_entries(r->hist); b++) {
		u64 n = hist_bucket(r->hist, cpu, TLAT_CTX_THREAD, b);

		if (!n)
			continue;
		snprintf(key, sizeof(key), "%llu",
			 (unsigned long long)b * r->params->hist.bucket_size);
		add(obj, key, json_object_new_uint64(n));
	}
	return obj;
}

static struct json_object *thread_json(const struct tlat_report *r, int cpu)
{
	const struct tlat_stat *st = stats_get(r->stats, cpu, TLAT_CTX_THREAD);
	struct json_object *obj = json_object_new_object();
	u64 div = render_divisor(r);
	double avg = st->count ? (double)st->sum / st->count / div : 0.0;
	char avg_s[32];

	if (!obj)
		return NULL;
	if (r->hist)
		add(obj, "histogram", histogram_json(r, cpu));
	add(obj, "cycles", json_object_new_uint64(st->count));
	add(obj, "min", json_object_new_uint64(st->count ? st->min / div : 0));
	add(obj, "max", json_object_new_uint64(st->max / div));
	/* cyclictest prints "%.2f": keep that text, not json-c's %.17g */
	snprintf(avg_s, sizeof(avg_s), "%.2f", avg);
	add(obj, "avg", json_object_new_double_s(avg, avg_s));
	add(obj, "cpu", json_object_new_int(cpu));
	add(obj, "node", json_object_new_int(sysinfo_cpu_node(cpu)));
	return obj;
}

struct json_object *render_json_rttests(const struct tlat_report *r)
{
	struct json_object *doc = json_object_new_object(), *threads;
	int n = 0;
	char key[16];

	if (!doc)
		return NULL;
	add(doc, "file_version", json_object_new_int(1));
	/* rt-tests' key names end in a colon; its readers look them up so */
	add(doc, "cmdline:", render_json_cmdline(r->params));
	add(doc, "rt_test_version:", json_object_new_string(TLAT_VERSION));
	add(doc, "start_time", render_json_time(r->start_time, RFC_2822, false));
	add(doc, "end_time", render_json_time(r->end_time, RFC_2822, false));
	add(doc, "return_code", json_object_new_int(r->exit_status));
	add(doc, "sysinfo", sysinfo_json(r->sys));
	threads = json_object_new_object();
	/* the CPUs the text shows: those that produced samples */
	for (int cpu = 0; threads && cpu < stats_nr_cpus(r->stats); cpu++) {
		if (!cpuset_has(&r->params->cpus, cpu) || !stats_cpu_has_data(r->stats, cpu))
			continue;
		snprintf(key, sizeof(key), "%d", n++);
		add(threads, key, thread_json(r, cpu));
	}
	add(doc, "num_threads", json_object_new_int(n));
	add(doc, "resolution_in_ns", json_object_new_int(r->params->nano));
	add(doc, "thread", threads);
	return doc;
}
