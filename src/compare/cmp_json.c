// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_json.c - tlat compare --json: the comparison as one document,
 * "schema_version": "tlat-compare/1" (docs/tlat-compare.schema.json),
 * every latency in ns.
 */
#include <errno.h>
#include <string.h>
#include <json.h>

#include "compare/compare.h"
#include "core/err.h"
#include "util/json_value.h"

static struct json_object *side_json(const struct cmp_side *s)
{
	struct json_object *obj = json_object_new_object(), *files = json_object_new_array();
	struct json_object *cpus = json_object_new_array();

	for (int i = 0; files && i < s->nr_runs; i++)
		json_object_array_add(files, json_object_new_string(s->files[i]));
	for (int i = 0; cpus && i < s->nr_cpus; i++)
		json_object_array_add(cpus, json_object_new_int(s->cpus[i]));
	json_add(obj, "label", json_object_new_string(s->label));
	json_add(obj, "format", json_object_new_string(s->cyclictest ? "cyclictest" : "tlat"));
	json_add(obj, "runs", json_object_new_int(s->nr_runs));
	json_add(obj, "files", files);
	json_add(obj, "period_us", json_u64(s->period_us));
	json_add(obj, "cpus", cpus);
	json_add(obj, "kernel", s->kernel[0] ? json_object_new_string(s->kernel) : NULL);
	json_add(obj, "source", s->source[0] ? json_object_new_string(s->source) : NULL);
	return obj;
}

static struct json_object *settings_json(const struct cmp_result *r)
{
	struct json_object *obj = json_object_new_object();
	char name[32];

	json_add(obj, "metric", json_object_new_string(cmp_metric_name(r, r->chosen, name,
								       sizeof(name))));
	json_add(obj, "percentile", json_object_new_double(r->set->percentile));
	json_add(obj, "threshold_us", json_object_new_double(r->set->threshold_us));
	json_add(obj, "threshold_pct", json_object_new_double(r->set->threshold_pct));
	json_add(obj, "confidence", json_object_new_double(r->set->confidence));
	json_add(obj, "alpha", json_object_new_double(r->set->alpha));
	json_add(obj, "force", json_object_new_boolean(r->set->force));
	return obj;
}

static struct json_object *metric_json(const struct cmp_metric *m)
{
	struct json_object *obj = json_object_new_object(), *ci = NULL;

	json_add(obj, "base", json_u64(m->base));
	json_add(obj, "new", json_u64(m->new));
	json_add(obj, "change", json_object_new_int64(m->change));
	json_add(obj, "change_pct", m->base ? json_object_new_double(
			 100.0 * (double)m->change / (double)m->base) : NULL);
	if (m->pct < 100) {
		ci = json_object_new_array_ext(2);
		json_object_array_add(ci, json_object_new_int64(m->lo));
		json_object_array_add(ci, m->open ? NULL : json_object_new_int64(m->hi));
	}
	json_add(obj, "interval", ci);
	json_add(obj, "verdict", m->pct < 100 ? json_object_new_string(
			 cmp_verdict_name(m->verdict)) : NULL);
	return obj;
}

static struct json_object *cell_json(const struct cmp_result *r, const struct cmp_cell *c)
{
	struct json_object *obj = json_object_new_object(), *metrics = NULL, *ks = NULL;
	char name[32];

	json_add(obj, "cpu", c->cpu < 0 ? NULL : json_object_new_int(c->cpu));
	json_add(obj, "context", json_object_new_string(tlat_ctx_name[c->ctx]));
	json_add(obj, "count_base", json_u64(c->base_count));
	json_add(obj, "count_new", json_u64(c->new_count));
	if (c->verdict != CMP_SKIPPED) {
		metrics = json_object_new_object();
		for (int i = 0; i < CMP_NR_METRICS; i++)
			if (c->m[i].used)
				json_add(metrics, cmp_metric_name(r, i, name, sizeof(name)),
					 metric_json(&c->m[i]));
		ks = json_object_new_object();
		json_add(ks, "d", json_object_new_double(c->ks.d));
		json_add(ks, "p", json_object_new_double(c->ks.p));
		json_add(ks, "d_larger", json_object_new_double(c->ks.d_up));
		json_add(ks, "p_larger", json_object_new_double(c->ks.p_up));
		json_add(ks, "d_smaller", json_object_new_double(c->ks.d_down));
		json_add(ks, "p_smaller", json_object_new_double(c->ks.p_down));
	}
	json_add(obj, "metrics", metrics);
	json_add(obj, "ks", ks);
	json_add(obj, "verdict", json_object_new_string(cmp_verdict_name(c->verdict)));
	return obj;
}

int cmp_render_json(const char *path, const struct cmp_result *r, char *err)
{
	struct json_object *doc = json_object_new_object(), *cells = json_object_new_array();
	int flags = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED, ret = 0;

	for (int i = 0; cells && i < r->nr_cells; i++)
		json_object_array_add(cells, cell_json(r, &r->cells[i]));
	json_add(doc, "schema_version", json_object_new_string("tlat-compare/1"));
	json_add(doc, "unit", json_object_new_string("ns"));
	json_add(doc, "base", side_json(r->base));
	json_add(doc, "new", side_json(r->new));
	json_add(doc, "settings", settings_json(r));
	json_add(doc, "cells", cells);
	json_add(doc, "verdict", json_object_new_string(cmp_verdict_name(r->verdict)));
	if (!doc) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	if (!strcmp(path, "-")) {
		if (puts(json_object_to_json_string_ext(doc, flags)) < 0)
			ret = -EIO;
	} else if (json_object_to_file_ext(path, doc, flags)) {
		ret = errno ? -errno : -EIO;
	}
	if (ret)
		tlat_err(err, "cannot write %s: %s", path, strerror(-ret));
	json_object_put(doc);
	return ret;
}
