// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_doc.c - one document of tlat compare read: parsed, told a tlat/1.1
 * document from cyclictest --json, and the JSON numbers, CPUs and
 * distributions both kinds are made of.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json.h>

#include "compare/cmp_local.h"
#include "core/err.h"
#include "stats/loglinear.h"

#define CMP_SCHEMA	"tlat/1.1"
/* a file larger is no document of either kind (json-c would read it all) */
#define CMP_MAX_BYTES	(256ll << 20)

struct json_object *cmp_member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

bool cmp_json_u64(struct json_object *v, u64 *val)
{
	double d;

	if (json_object_is_type(v, json_type_int)) {
		if (json_object_get_int64(v) < 0)
			return false;
		*val = json_object_get_int64(v);
		return true;
	}
	if (!json_object_is_type(v, json_type_double))
		return false;
	d = json_object_get_double(v);
	if (!isfinite(d) || d < 0 || d >= 0x1p63)
		return false;
	*val = (u64)d;
	return true;
}

bool cmp_get_u64(struct json_object *o, const char *key, u64 *val)
{
	struct json_object *v = cmp_member(o, key);

	return v && cmp_json_u64(v, val);
}

int cmp_doc_cpu_add(struct cmp_doc *doc, u64 cpu, const char *file, const char *twice,
		    char *err)
{
	int i;

	if (doc->nr_cpus >= CPU_SETSIZE_CMP || cpu >= INT_MAX)
		goto fail;
	for (i = 0; i < doc->nr_cpus; i++)
		if (doc->cpus[i] == (int)cpu)
			goto fail;
	doc->cpus[doc->nr_cpus++] = cpu;
	return 0;
fail:
	tlat_err(err, "%s: CPU %llu %s twice, or past %d CPUs", file, (unsigned long long)cpu,
		 twice, CPU_SETSIZE_CMP);
	return -EINVAL;
}

int cmp_dist_add(struct cmp_dist *d, u64 ns, u64 n)
{
	if (!n)
		return 0;
	if (n > CMP_MAX_COUNT || d->count + n > CMP_MAX_COUNT)
		return -ERANGE;
	if (!d->buckets) {
		d->buckets = calloc(LOGLIN_BUCKETS, sizeof(u64));
		if (!d->buckets)
			return -ENOMEM;
	}
	d->buckets[loglin_index(ns)] += n;
	d->count += n;
	if (ns > d->max)
		d->max = ns;
	return 0;
}

int cmp_doc_dist_add(struct cmp_dist *d, u64 ns, u64 n, const char *file, int cpu, int ctx,
		     char *err)
{
	int ret = cmp_dist_add(d, ns, n);

	if (ret == -ERANGE)
		tlat_err(err, "%s: CPU %d %s: more than %llu samples", file, cpu,
			 tlat_ctx_name[ctx], CMP_MAX_COUNT);
	else if (ret)
		tlat_err(err, "out of memory");
	return ret;
}

void cmp_dist_set_max(struct cmp_dist *d, u64 max)
{
	if (d->count && max >= loglin_lowest(loglin_index(d->max)))
		d->max = max;
}

/* a document whose end is missing does not parse: said as truncated */
static struct json_object *doc_parse(const char *file, char *err)
{
	struct json_object *root;
	struct stat st;

	if (!stat(file, &st) && S_ISREG(st.st_mode) && st.st_size > CMP_MAX_BYTES) {
		tlat_err(err, "%s: %lld MiB, too large for a tlat or cyclictest document",
			 file, (long long)(st.st_size >> 20));
		return NULL;
	}
	root = json_object_from_file(file);
	if (!root) {
		if (access(file, R_OK))
			tlat_err(err, "%s: %s", file, strerror(errno));
		else
			tlat_err(err, "%s: truncated or not JSON", file);
	}
	return root;
}

int cmp_doc_read(struct cmp_doc *doc, struct cmp_dist *out, const char *file, char *err)
{
	struct json_object *root = doc_parse(file, err), *v;
	const char *schema;
	int ret;

	if (!root)
		return -EINVAL;
	v = cmp_member(root, "schema_version");
	schema = v ? json_object_get_string(v) : NULL;
	if (schema && !strcmp(schema, CMP_SCHEMA)) {
		ret = cmp_tlat_doc_read(doc, root, out, file, err);
	} else if (!schema && cmp_member(root, "file_version") && cmp_member(root, "thread")) {
		ret = cmp_cyclictest_read(doc, root, out, file, err);
	} else {
		tlat_err(err, "%s: schema %s, not " CMP_SCHEMA " or cyclictest --json%s", file,
			 schema ? schema : "unknown",
			 schema && !strcmp(schema, "tlat/1") ? " (tlat/1 has no histograms)" : "");
		ret = -EINVAL;
	}
	json_object_put(root);
	return ret;
}
