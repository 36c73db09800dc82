// SPDX-License-Identifier: GPL-2.0
/*
 * json_tlat.c - tlat's own JSON document, schema "tlat/1.1"
 * (docs/tlat-json.schema.json): everything the text shows and what it
 * cannot, as data, so that CI reads results instead of scraping rtla's
 * text. Every latency is in nanoseconds, whatever -n says; only the
 * histogram keeps the text's buckets and unit. A field that has no value
 * (a context with no sample, an unknown count) is null, never left out.
 */
#include "core/array.h"
#include "core/cpuset.h"
#include "core/version.h"
#include "output/json_doc.h"
#include "stats/loglinear.h"
#include "util/json_value.h"

#define ISO_8601	"%Y-%m-%dT%H:%M:%SZ"

static const struct {
	const char *key;
	u32 ppm;
} percentiles[] = {
	{ "p50", 500000 }, { "p90", 900000 }, { "p99", 990000 }, { "p99_9", 999000 },
	{ "p99_99", 999900 },
};

/* hist mode: the text's buckets are kept */
static bool has_hist(const struct tlat_report *r)
{
	return agg_entries(r->agg) > 0;
}

/* one CPU's percentiles, or (cpu < 0) those of every measured CPU together */
static struct json_object *percentiles_json(const struct tlat_report *r, int cpu,
					    enum tlat_ctx ctx)
{
	struct json_object *obj;
	u64 ns;

	if (!agg_layout(r->agg)->loglinear)
		return NULL;
	obj = json_object_new_object();
	for (size_t i = 0; obj && i < ARRAY_SIZE(percentiles); i++) {
		bool ok = cpu < 0 ? agg_percentile_merged(r->agg, &r->params->cpus, ctx,
							  percentiles[i].ppm, &ns)
				  : agg_percentile(r->agg, cpu, ctx, percentiles[i].ppm, &ns);

		if (!ok) {
			json_object_put(obj);
			return NULL;
		}
		json_add(obj, percentiles[i].key, json_u64(ns));
	}
	return obj;
}

/* the histogram of one CPU's context: the text's non-empty rows and its over: */
static struct json_object *hist_json(const struct tlat_report *r, int cpu, enum tlat_ctx ctx)
{
	struct json_object *obj = json_object_new_object(), *buckets = json_object_new_array();
	unsigned int entries = agg_entries(r->agg);

	if (!obj || !buckets) {
		json_object_put(obj);
		json_object_put(buckets);
		return NULL;
	}
	for (unsigned int b = 0; b < entries; b++) {
		u64 n = agg_bucket(r->agg, cpu, ctx, b);
		struct json_object *row;

		if (!n)
			continue;
		row = json_object_new_array_ext(2);
		if (!row)
			break;
		json_object_array_add(row, json_u64((u64)b * r->params->out.hist.bucket_size));
		json_object_array_add(row, json_u64(n));
		json_object_array_add(buckets, row);
	}
	json_add(obj, "buckets", buckets);
	json_add(obj, "over", json_u64(agg_bucket(r->agg, cpu, ctx, entries)));
	return obj;
}

/*
 * the log-linear buckets of one CPU's context (tlat/1.1): the non-empty ones,
 * [lowest latency, count], from which any percentile can be recomputed and
 * two runs' distributions compared (tlat compare)
 */
static struct json_object *loglinear_json(const struct tlat_report *r, int cpu,
					  enum tlat_ctx ctx)
{
	struct json_object *arr, *row;

	if (!agg_layout(r->agg)->loglinear)
		return NULL;
	arr = json_object_new_array();
	for (unsigned int i = 0; arr && i < LOGLIN_BUCKETS; i++) {
		u64 n = agg_loglinear(r->agg, cpu, ctx, i);

		if (!n)
			continue;
		row = json_object_new_array_ext(2);
		if (!row)
			break;
		json_object_array_add(row, json_u64(loglin_lowest(i)));
		json_object_array_add(row, json_u64(n));
		json_object_array_add(arr, row);
	}
	return arr;
}

static struct json_object *ctx_json(const struct tlat_report *r, const struct tlat_stat *st,
				    int cpu, enum tlat_ctx ctx)
{
	struct json_object *obj = json_object_new_object();

	json_add(obj, "count", json_u64(st->count));
	json_add(obj, "min", st->count ? json_u64(st->min) : NULL);
	json_add(obj, "avg", st->count ? json_u64(st->sum / st->count) : NULL);
	json_add(obj, "max", st->count ? json_u64(st->max) : NULL);
	json_add(obj, "percentiles", percentiles_json(r, cpu, ctx));
	if (cpu >= 0)
		json_add(obj, "loglinear", loglinear_json(r, cpu, ctx));
	if (has_hist(r) && cpu >= 0)
		json_add(obj, "histogram", hist_json(r, cpu, ctx));
	return obj;
}

static int nr_ctx(const struct tlat_report *r)
{
	return r->user_data ? TLAT_NR_CTX : TLAT_CTX_USER;
}

static struct json_object *contexts_json(const struct tlat_report *r)
{
	struct json_object *arr = json_object_new_array();

	for (int ctx = 0; arr && ctx < nr_ctx(r); ctx++)
		json_object_array_add(arr, json_object_new_string(tlat_ctx_name[ctx]));
	return arr;
}

/* every measured CPU, also one that produced nothing: CI wants to see that */
static struct json_object *per_cpu_json(const struct tlat_report *r)
{
	struct json_object *arr = json_object_new_array(), *obj;

	for (int cpu = 0; arr && cpu < agg_nr_cpus(r->agg); cpu++) {
		if (!cpuset_has(&r->params->cpus, cpu))
			continue;
		obj = json_object_new_object();
		json_add(obj, "cpu", json_object_new_int(cpu));
		for (int ctx = 0; ctx < nr_ctx(r); ctx++)
			json_add(obj, tlat_ctx_name[ctx],
				 ctx_json(r, agg_stat(r->agg, cpu, ctx), cpu, ctx));
		json_object_array_add(arr, obj);
	}
	return arr;
}

/* the text's ALL row, and the percentiles of all samples together */
static struct json_object *all_json(const struct tlat_report *r)
{
	struct json_object *obj = json_object_new_object();
	struct tlat_stat all;

	for (int ctx = 0; obj && ctx < nr_ctx(r); ctx++) {
		all = agg_stat_merged(r->agg, &r->params->cpus, ctx);
		json_add(obj, tlat_ctx_name[ctx], ctx_json(r, &all, -1, ctx));
	}
	return obj;
}

static struct json_object *hist_desc_json(const struct tlat_report *r)
{
	struct json_object *obj = json_object_new_object();

	json_add(obj, "unit", json_object_new_string(r->params->out.nano ? "ns" : "us"));
	json_add(obj, "bucket_size", json_u64(r->params->out.hist.bucket_size));
	json_add(obj, "entries", json_u64(agg_entries(r->agg)));
	return obj;
}

/* how to read the per-CPU "loglinear" buckets: loglinear.h's layout */
static struct json_object *loglinear_desc_json(void)
{
	struct json_object *obj = json_object_new_object();

	json_add(obj, "sub_bits", json_object_new_int(LOGLIN_SUB_BITS));
	json_add(obj, "max_bits", json_object_new_int(LOGLIN_MAX_BITS));
	return obj;
}

static struct json_object *events_json(const struct tlat_report *r)
{
	struct json_object *obj = json_object_new_object();

	json_add(obj, "processed", json_u64(r->processed_events));
	json_add(obj, "missed", r->missed_events == TLAT_MISSED_UNKNOWN ? NULL
				: json_u64(r->missed_events));
	return obj;
}

static struct json_object *threshold_json(const struct tlat_report *r)
{
	struct json_object *obj = json_object_new_object(), *s = NULL;

	json_add(obj, "hit", json_object_new_boolean(r->threshold_hit));
	json_add(obj, "hits", json_u64(r->hits));
	if (r->threshold_hit && r->hit) {
		s = json_object_new_object();
		json_add(s, "cpu", json_object_new_int(r->hit->cpu));
		json_add(s, "context", json_object_new_string(tlat_ctx_name[r->hit->ctx]));
		json_add(s, "latency_ns", json_u64(r->hit->latency_ns));
		json_add(s, "seq", json_u64(r->hit->seq));
	}
	json_add(obj, "sample", s);
	return obj;
}

/* one interference class: its sum and a line per source, as the text lists them */
static const char *end_reason(const struct tlat_report *r)
{
	if (r->threshold_hit)
		return "threshold";
	return r->interrupted ? "signal" : "duration";
}

struct json_object *json_tlat_document(const struct tlat_report *r)
{
	const struct tlat_params *p = r->params;
	struct json_object *doc = json_object_new_object(), *tool;

	if (!doc)
		return NULL;
	json_add(doc, "schema_version", json_object_new_string(TLAT_JSON_SCHEMA_VERSION));
	tool = json_object_new_object();
	json_add(tool, "name", json_object_new_string("tlat"));
	json_add(tool, "version", json_object_new_string(TLAT_VERSION));
	json_add(doc, "tool", tool);
	json_add(doc, "command", json_object_new_string(p->out.mode == TLAT_MODE_HIST ? "hist" : "top"));
	json_add(doc, "argv", json_run_argv(r));
	json_add(doc, "options", json_run_options(r));
	json_add(doc, "system", json_run_system(r));
	json_add(doc, "source", json_string_or_null(r->source));
	json_add(doc, "start_time", json_time(r->start_time, ISO_8601, true));
	json_add(doc, "end_time", json_time(r->end_time, ISO_8601, true));
	json_add(doc, "duration_s", json_u64(r->elapsed_s));
	json_add(doc, "end", json_object_new_string(end_reason(r)));
	json_add(doc, "exit_status", json_object_new_int(r->exit_status));
	json_add(doc, "unit", json_object_new_string("ns"));
	json_add(doc, "contexts", contexts_json(r));
	json_add(doc, "cpus", per_cpu_json(r));
	json_add(doc, "all", all_json(r));
	json_add(doc, "histogram", has_hist(r) ? hist_desc_json(r) : NULL);
	json_add(doc, "loglinear", loglinear_desc_json());
	json_add(doc, "events", events_json(r));
	json_add(doc, "threshold", threshold_json(r));
	json_add(doc, "auto_analysis", r->aa ? json_tlat_aa(r->aa) : NULL);
	return doc;
}
