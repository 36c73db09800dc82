// SPDX-License-Identifier: GPL-2.0
/*
 * json_rttests.c - the results in the shape of rt-tests' cyclictest
 * --json (rt_write_json() and cyclictest's write_stats()), key for key, so
 * that Linaro's parse_rt_tests_results.py, KernelCI's rt-tests jobs and other
 * readers of that file take tlat's as cyclictest's. Each measured CPU that
 * produced samples is one "thread", fed by the thread latency: the level
 * cyclictest reports. Values are in the display unit (us, or ns with -n, as
 * resolution_in_ns says); the histogram is hist mode's thread column, its
 * keys the text's bucket indexes, overflows left out as cyclictest does.
 */
#include <stdio.h>

#include "core/array.h"
#include "core/cpuset.h"
#include "core/version.h"
#include "output/json_doc.h"
#include "util/json_value.h"
#include "util/sysinfo.h"

/* rt-tests' RFC 2822 local time */
#define RFC_2822	"%a, %d %b %Y %T %z"

/* rt-tests' sysinfo: uname's fields and realtime as 0 or 1, from tlat's "system" */
static struct json_object *sysinfo_json(const struct tlat_report *r)
{
	static const char *const keys[] = { "sysname", "nodename", "release", "version", "machine" };
	struct json_object *sys = json_run_system(r), *obj = json_object_new_object(), *val;

	if (!sys || !obj) {
		json_object_put(sys);
		json_object_put(obj);
		return NULL;
	}
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		json_add(obj, keys[i], json_object_object_get_ex(sys, keys[i], &val) ?
				       json_object_get(val) : NULL);
	json_add(obj, "realtime",
		 json_object_new_int(json_object_object_get_ex(sys, "realtime", &val) &&
				     json_object_get_boolean(val)));
	json_object_put(sys);
	return obj;
}

static struct json_object *histogram_json(const struct tlat_report *r, int cpu)
{
	struct json_object *obj = json_object_new_object();
	char key[24];

	for (unsigned int b = 0; obj && b < agg_entries(r->agg); b++) {
		u64 n = agg_bucket(r->agg, cpu, TLAT_CTX_THREAD, b);

		if (!n)
			continue;
		snprintf(key, sizeof(key), "%llu",
			 (unsigned long long)b * r->params->out.hist.bucket_size);
		json_add(obj, key, json_object_new_uint64(n));
	}
	return obj;
}

static struct json_object *thread_json(const struct tlat_report *r, int cpu)
{
	const struct tlat_stat *st = agg_stat(r->agg, cpu, TLAT_CTX_THREAD);
	struct json_object *obj = json_object_new_object();
	u64 div = report_divisor(r);
	double avg = st->count ? (double)st->sum / st->count / div : 0.0;
	char avg_s[32];

	if (agg_entries(r->agg))
		json_add(obj, "histogram", histogram_json(r, cpu));
	json_add(obj, "cycles", json_object_new_uint64(st->count));
	json_add(obj, "min", json_object_new_uint64(st->count ? st->min / div : 0));
	json_add(obj, "max", json_object_new_uint64(st->max / div));
	/* cyclictest prints "%.2f": keep that text, not json-c's %.17g */
	snprintf(avg_s, sizeof(avg_s), "%.2f", avg);
	json_add(obj, "avg", json_object_new_double_s(avg, avg_s));
	json_add(obj, "cpu", json_object_new_int(cpu));
	json_add(obj, "node", json_object_new_int(sysinfo_cpu_node(cpu)));
	return obj;
}

struct json_object *json_rttests_document(const struct tlat_report *r)
{
	struct json_object *doc = json_object_new_object(), *threads;
	int n = 0;
	char key[16];

	if (!doc)
		return NULL;
	json_add(doc, "file_version", json_object_new_int(1));
	/* rt-tests' key names end in a colon; its readers look them up so */
	json_add(doc, "cmdline:", json_run_cmdline(r));
	json_add(doc, "rt_test_version:", json_object_new_string(TLAT_VERSION));
	json_add(doc, "start_time", json_time(r->start_time, RFC_2822, false));
	json_add(doc, "end_time", json_time(r->end_time, RFC_2822, false));
	json_add(doc, "return_code", json_object_new_int(r->exit_status));
	json_add(doc, "sysinfo", sysinfo_json(r));
	threads = json_object_new_object();
	/* the CPUs the text shows: those that produced samples */
	for (int cpu = 0; threads && cpu < agg_nr_cpus(r->agg); cpu++) {
		if (!report_cpu_shown(r, cpu))
			continue;
		snprintf(key, sizeof(key), "%d", n++);
		json_add(threads, key, thread_json(r, cpu));
	}
	json_add(doc, "num_threads", json_object_new_int(n));
	json_add(doc, "resolution_in_ns", json_object_new_int(r->params->out.nano));
	json_add(doc, "thread", threads);
	return doc;
}
