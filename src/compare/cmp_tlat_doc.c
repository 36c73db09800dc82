// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_tlat_doc.c - a tlat/1.1 document read for tlat compare: its period,
 * kernel and source, and each CPU context's log-linear buckets.
 */
#include <errno.h>
#include <string.h>
#include <json.h>

#include "compare/cmp_local.h"
#include "core/err.h"

/* one CPU context's buckets, checked against its count */
static int tlat_ctx_read(struct cmp_dist *d, struct json_object *st, const char *file,
			 int cpu, int ctx, char *err)
{
	struct json_object *ll = cmp_member(st, "loglinear");
	u64 count = 0, max = 0;
	size_t n;

	if (!cmp_get_u64(st, "count", &count) || !ll || !json_object_is_type(ll, json_type_array)) {
		tlat_err(err, "%s: CPU %d %s: no count or loglinear buckets", file, cpu,
			 tlat_ctx_name[ctx]);
		return -EINVAL;
	}
	n = json_object_array_length(ll);
	for (size_t i = 0; i < n; i++) {
		struct json_object *row = json_object_array_get_idx(ll, i);
		u64 ns, nr;
		int ret;

		if (!json_object_is_type(row, json_type_array) ||
		    json_object_array_length(row) != 2 ||
		    !cmp_json_u64(json_object_array_get_idx(row, 0), &ns) ||
		    !cmp_json_u64(json_object_array_get_idx(row, 1), &nr)) {
			tlat_err(err, "%s: CPU %d %s: a loglinear bucket is not [ns, count]",
				 file, cpu, tlat_ctx_name[ctx]);
			return -EINVAL;
		}
		ret = cmp_doc_dist_add(d, ns, nr, file, cpu, ctx, err);
		if (ret)
			return ret;
	}
	if (d->count != count) {
		tlat_err(err, "%s: CPU %d %s: the buckets hold %llu samples, count says %llu (truncated?)",
			 file, cpu, tlat_ctx_name[ctx], (unsigned long long)d->count,
			 (unsigned long long)count);
		return -EINVAL;
	}
	if (cmp_get_u64(st, "max", &max))
		cmp_dist_set_max(d, max);
	return 0;
}

/* a string member's value in @buf, "" if it is not a string (or too long) */
static void get_name(struct json_object *o, const char *key, char *buf, size_t len)
{
	struct json_object *v = cmp_member(o, key);

	buf[0] = '\0';
	if (v && json_object_is_type(v, json_type_string) &&
	    (size_t)json_object_get_string_len(v) < len)
		strcpy(buf, json_object_get_string(v));
}

int cmp_tlat_doc_read(struct cmp_doc *doc, struct json_object *root, struct cmp_dist *out,
		      const char *file, char *err)
{
	struct json_object *cpus = cmp_member(root, "cpus"), *opts = cmp_member(root, "options");
	size_t n;

	get_name(cmp_member(root, "system"), "release", doc->kernel, sizeof(doc->kernel));
	get_name(root, "source", doc->source, sizeof(doc->source));

	if (!cmp_get_u64(opts, "period_us", &doc->period_us) || !cpus ||
	    !json_object_is_type(cpus, json_type_array)) {
		tlat_err(err, "%s: no options.period_us or cpus", file);
		return -EINVAL;
	}
	n = json_object_array_length(cpus);
	for (size_t i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(cpus, i);
		u64 cpu;

		if (!cmp_get_u64(c, "cpu", &cpu)) {
			tlat_err(err, "%s: a CPU without its number", file);
			return -EINVAL;
		}
		if (cmp_doc_cpu_add(doc, cpu, file, "listed", err))
			return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(cpus, i);

		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			struct json_object *st = cmp_member(c, tlat_ctx_name[ctx]);
			int ret;

			if (!st)
				continue;
			doc->has_ctx[ctx] = true;
			ret = tlat_ctx_read(&out[i * TLAT_NR_CTX + ctx], st, file,
					    doc->cpus[i], ctx, err);
			if (ret)
				return ret;
		}
	}
	return 0;
}
