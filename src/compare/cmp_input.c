// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_input.c - one side of tlat compare read: a tlat/1.1 document (each
 * CPU context's log-linear buckets) or cyclictest --json (each thread's
 * histogram, the thread latency), one file, a directory of *.json or a
 * comma-separated list, its runs pooled and kept apart.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json.h>

#include "compare/compare.h"
#include "core/err.h"
#include "stats/loglinear.h"

#define CMP_SCHEMA	"tlat/1.1"
/* the CPUs one document may hold */
#define CPU_SETSIZE_CMP	4096
/* the samples one distribution may hold: exact in a double, centuries of runs */
#define CMP_MAX_COUNT	(1ull << 53)
/* a file larger is no document of either kind (json-c would read it all) */
#define CMP_MAX_BYTES	(256ll << 20)

/* what one file says: its period, CPUs and distributions */
struct cmp_doc {
	bool cyclictest;
	u64 period_us;
	int nr_cpus;
	int cpus[CPU_SETSIZE_CMP];
	bool has_ctx[TLAT_NR_CTX];
	char kernel[CMP_NAME_LEN];	/* "" where the document does not say */
	char source[CMP_NAME_LEN];
};

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* a number that is a count or a time: not negative, not past 2^63 */
static bool json_u64_value(struct json_object *v, u64 *val)
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

static bool get_u64(struct json_object *o, const char *key, u64 *val)
{
	struct json_object *v = member(o, key);

	return v && json_u64_value(v, val);
}

/* a document's next CPU: -EEXIST if it has it already, -EINVAL past the range */
static int cmp_cpu_add(int *cpus, int *nr, u64 cpu)
{
	int i;

	if (*nr >= CPU_SETSIZE_CMP || cpu >= INT_MAX)
		return -EINVAL;
	for (i = 0; i < *nr; i++)
		if (cpus[i] == (int)cpu)
			return -EEXIST;
	cpus[(*nr)++] = cpu;
	return 0;
}

static int int_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* -ERANGE past CMP_MAX_COUNT samples */
static int dist_add(struct cmp_dist *d, u64 ns, u64 n)
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

static void dist_add_err(char *err, int ret, const char *file, int cpu, int ctx)
{
	if (ret == -ERANGE)
		tlat_err(err, "%s: CPU %d %s: more than %llu samples", file, cpu,
			 tlat_ctx_name[ctx], CMP_MAX_COUNT);
	else
		tlat_err(err, "out of memory");
}

/* the maximum is exact in the document, the buckets only its bucket's lowest */
static void dist_set_max(struct cmp_dist *d, u64 max)
{
	if (d->count && max >= loglin_lowest(loglin_index(d->max)))
		d->max = max;
}

/* tlat/1.1: one CPU context's buckets, checked against its count */
static int tlat_ctx_read(struct cmp_dist *d, struct json_object *st, const char *file,
			 int cpu, int ctx, char *err)
{
	struct json_object *ll = member(st, "loglinear");
	u64 count = 0, max = 0;
	size_t n;

	if (!get_u64(st, "count", &count) || !ll || !json_object_is_type(ll, json_type_array)) {
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
		    !json_u64_value(json_object_array_get_idx(row, 0), &ns) ||
		    !json_u64_value(json_object_array_get_idx(row, 1), &nr)) {
			tlat_err(err, "%s: CPU %d %s: a loglinear bucket is not [ns, count]",
				 file, cpu, tlat_ctx_name[ctx]);
			return -EINVAL;
		}
		ret = dist_add(d, ns, nr);
		if (ret) {
			dist_add_err(err, ret, file, cpu, ctx);
			return ret;
		}
	}
	if (d->count != count) {
		tlat_err(err, "%s: CPU %d %s: the buckets hold %llu samples, count says %llu (truncated?)",
			 file, cpu, tlat_ctx_name[ctx], (unsigned long long)d->count,
			 (unsigned long long)count);
		return -EINVAL;
	}
	if (get_u64(st, "max", &max))
		dist_set_max(d, max);
	return 0;
}

/* a string member's value in @buf, "" if it is not a string (or too long) */
static void get_name(struct json_object *o, const char *key, char *buf, size_t len)
{
	struct json_object *v = member(o, key);

	buf[0] = '\0';
	if (v && json_object_is_type(v, json_type_string) &&
	    (size_t)json_object_get_string_len(v) < len)
		strcpy(buf, json_object_get_string(v));
}

static int tlat_doc_read(struct cmp_doc *doc, struct json_object *root, struct cmp_dist *out,
			 const char *file, char *err)
{
	struct json_object *cpus = member(root, "cpus"), *opts = member(root, "options");
	size_t n;

	get_name(member(root, "system"), "release", doc->kernel, sizeof(doc->kernel));
	get_name(root, "source", doc->source, sizeof(doc->source));

	if (!get_u64(opts, "period_us", &doc->period_us) || !cpus ||
	    !json_object_is_type(cpus, json_type_array)) {
		tlat_err(err, "%s: no options.period_us or cpus", file);
		return -EINVAL;
	}
	n = json_object_array_length(cpus);
	for (size_t i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(cpus, i);
		u64 cpu;

		if (!get_u64(c, "cpu", &cpu)) {
			tlat_err(err, "%s: a CPU without its number", file);
			return -EINVAL;
		}
		if (cmp_cpu_add(doc->cpus, &doc->nr_cpus, cpu)) {
			tlat_err(err, "%s: CPU %llu listed twice, or past %d CPUs", file,
				 (unsigned long long)cpu, CPU_SETSIZE_CMP);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(cpus, i);

		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			struct json_object *st = member(c, tlat_ctx_name[ctx]);
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

/* cyclictest's -i/--interval in its recorded command line; 1000 us if not given */
static u64 cyclictest_interval(struct json_object *root)
{
	struct json_object *cmd = member(root, "cmdline:");
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
 * cyclictest --json: each thread's histogram (-h) in us or ns; a value v is
 * counted at v (cyclictest truncates), the overflows at the maximum
 */
static int cyclictest_read(struct cmp_doc *doc, struct json_object *root,
			   struct cmp_dist *out, const char *file, char *err)
{
	struct json_object *threads = member(root, "thread");
	u64 unit = 1000, ns_res;
	int ret = 0;

	if (get_u64(root, "resolution_in_ns", &ns_res) && ns_res)
		unit = 1;
	if (!threads || !json_object_is_type(threads, json_type_object)) {
		tlat_err(err, "%s: cyclictest document without threads", file);
		return -EINVAL;
	}
	doc->cyclictest = true;
	doc->has_ctx[TLAT_CTX_THREAD] = true;
	doc->period_us = cyclictest_interval(root);
	json_object_object_foreach(threads, key, t) {
		struct json_object *h = member(t, "histogram");
		u64 cpu, cycles, max, sum = 0;
		struct cmp_dist *d;

		(void)key;
		if (!get_u64(t, "cpu", &cpu) || !get_u64(t, "cycles", &cycles) ||
		    !get_u64(t, "max", &max)) {
			tlat_err(err, "%s: a thread without cpu, cycles or max", file);
			return -EINVAL;
		}
		if (cmp_cpu_add(doc->cpus, &doc->nr_cpus, cpu)) {
			tlat_err(err, "%s: CPU %llu measured twice, or past %d CPUs", file,
				 (unsigned long long)cpu, CPU_SETSIZE_CMP);
			return -EINVAL;
		}
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
		json_object_object_foreach(h, value, count) {
			u64 n, v;
			char *end;

			errno = 0;
			v = strtoull(value, &end, 10);
			if (!json_u64_value(count, &n) || *value < '0' || *value > '9' || *end ||
			    errno || v > UINT64_MAX / unit) {
				tlat_err(err, "%s: CPU %llu: a histogram entry that is not \"value\": count",
					 file, (unsigned long long)cpu);
				return -EINVAL;
			}
			ret = dist_add(d, v * unit, n);
			if (ret)
				break;
			sum += n;
		}
		if (ret) {
			dist_add_err(err, ret, file, (int)cpu, TLAT_CTX_THREAD);
			return ret;
		}
		if (sum > cycles) {
			tlat_err(err, "%s: CPU %llu: the histogram holds more than its %llu cycles",
				 file, (unsigned long long)cpu, (unsigned long long)cycles);
			return -EINVAL;
		}
		ret = dist_add(d, max * unit, cycles - sum);
		if (ret) {
			dist_add_err(err, ret, file, (int)cpu, TLAT_CTX_THREAD);
			return ret;
		}
		dist_set_max(d, max * unit);
	}
	return 0;
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

/*
 * one file into its own dists: [CPU_SETSIZE_CMP][ctx] by position in
 * doc->cpus, which the caller zeroes; those of doc->nr_cpus are filled
 */
static int doc_read(struct cmp_doc *doc, struct cmp_dist *out, const char *file, char *err)
{
	struct json_object *root = doc_parse(file, err), *v;
	const char *schema;
	int ret;

	if (!root)
		return -EINVAL;
	v = member(root, "schema_version");
	schema = v ? json_object_get_string(v) : NULL;
	if (schema && !strcmp(schema, CMP_SCHEMA)) {
		ret = tlat_doc_read(doc, root, out, file, err);
	} else if (!schema && member(root, "file_version") && member(root, "thread")) {
		ret = cyclictest_read(doc, root, out, file, err);
	} else {
		tlat_err(err, "%s: schema %s, not " CMP_SCHEMA " or cyclictest --json%s", file,
			 schema ? schema : "unknown",
			 schema && !strcmp(schema, "tlat/1") ? " (tlat/1 has no histograms)" : "");
		ret = -EINVAL;
	}
	json_object_put(root);
	return ret;
}

/* the files of a spec: a directory's *.json sorted, a list, or the one file */
static int spec_files(struct cmp_side *s, const char *spec, char *err)
{
	struct dirent **names;
	struct stat st;
	int n;

	if (!stat(spec, &st) && S_ISDIR(st.st_mode)) {
		n = scandir(spec, &names, NULL, alphasort);
		if (n < 0) {
			tlat_err(err, "%s: %s", spec, strerror(errno));
			return -errno;
		}
		s->files = calloc(n + 1, sizeof(char *));
		for (int i = 0; i < n; i++) {
			size_t len = strlen(names[i]->d_name);

			if (s->files && len > 5 && !strcmp(names[i]->d_name + len - 5, ".json") &&
			    asprintf(&s->files[s->nr_runs], "%s/%s", spec, names[i]->d_name) > 0)
				s->nr_runs++;
			free(names[i]);
		}
		free(names);
		if (!s->files)
			goto nomem;
		if (!s->nr_runs) {
			tlat_err(err, "%s: no *.json file in it", spec);
			return -EINVAL;
		}
		return 0;
	}
	n = 1;
	for (const char *c = spec; *c; c++)
		n += *c == ',';
	s->files = calloc(n + 1, sizeof(char *));
	if (!s->files)
		goto nomem;
	for (const char *c = spec; ; ) {
		const char *end = strchrnul(c, ',');

		if (end == c) {
			tlat_err(err, "%s: an empty name in the list", spec);
			return -EINVAL;
		}
		s->files[s->nr_runs] = strndup(c, end - c);
		if (!s->files[s->nr_runs++])
			goto nomem;
		if (!*end)
			break;
		c = end + 1;
	}
	return 0;
nomem:
	tlat_err(err, "out of memory");
	return -ENOMEM;
}

static bool same_cpus(const int *a, int na, const int *b, int nb)
{
	return na == nb && !memcmp(a, b, na * sizeof(int));
}

int cmp_cpu_index(const struct cmp_side *s, int cpu)
{
	for (int i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i] == cpu)
			return i;
	return -1;
}

/*
 * a run's dists, by its document's CPU order, into the side's by CPU number:
 * 0, -ENOMEM or -ERANGE (past CMP_MAX_COUNT pooled)
 */
static int side_add_run(struct cmp_side *s, int run, const struct cmp_doc *doc,
			struct cmp_dist *tmp)
{
	for (int i = 0; i < doc->nr_cpus; i++) {
		int ci = cmp_cpu_index(s, doc->cpus[i]);

		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			struct cmp_dist *d = &tmp[i * TLAT_NR_CTX + ctx];
			struct cmp_dist *targets[] = {
				cmp_dist(s, run, ci, ctx), cmp_dist(s, run, s->nr_cpus, ctx),
				cmp_dist(s, s->nr_runs, ci, ctx),
				cmp_dist(s, s->nr_runs, s->nr_cpus, ctx),
			};

			if (!d->buckets)
				continue;
			for (unsigned int t = 0; t < 4; t++) {
				for (unsigned int b = 0; b < LOGLIN_BUCKETS; b++) {
					int ret = dist_add(targets[t], loglin_lowest(b),
							   d->buckets[b]);

					if (ret)
						return ret;
				}
				if (d->max > targets[t]->max)
					targets[t]->max = d->max;
			}
		}
	}
	return 0;
}

/* the dists of a document's @nr_cpus CPUs, the only ones it fills */
static void tmp_free(struct cmp_dist *tmp, int nr_cpus)
{
	for (int i = 0; i < nr_cpus * TLAT_NR_CTX; i++) {
		free(tmp[i].buckets);
		tmp[i] = (struct cmp_dist){ 0 };
	}
}

int cmp_side_read(struct cmp_side *s, const char *spec, char *err)
{
	struct cmp_dist *tmp = calloc(CPU_SETSIZE_CMP * TLAT_NR_CTX, sizeof(*tmp));
	int sorted[CPU_SETSIZE_CMP];
	struct cmp_doc doc, first;
	int ret;

	memset(s, 0, sizeof(*s));
	s->label = spec;
	if (!tmp) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	ret = spec_files(s, spec, err);
	memset(&doc, 0, sizeof(doc));
	for (int run = 0; !ret && run < s->nr_runs; run++) {
		memset(&doc, 0, sizeof(doc));
		ret = doc_read(&doc, tmp, s->files[run], err);
		if (ret)
			break;
		/* tmp follows the document's CPU order; the side's is ascending */
		memcpy(sorted, doc.cpus, doc.nr_cpus * sizeof(int));
		qsort(sorted, doc.nr_cpus, sizeof(int), int_cmp);
		if (!run) {
			first = doc;
			memcpy(first.cpus, sorted, doc.nr_cpus * sizeof(int));
			s->cyclictest = doc.cyclictest;
			s->period_us = doc.period_us;
			s->nr_cpus = doc.nr_cpus;
			s->cpus = malloc((doc.nr_cpus + 1) * sizeof(int));
			s->dist = calloc((size_t)(s->nr_runs + 1) * (doc.nr_cpus + 1) * TLAT_NR_CTX,
					 sizeof(*s->dist));
			if (!s->cpus || !s->dist) {
				tlat_err(err, "out of memory");
				ret = -ENOMEM;
				break;
			}
			memcpy(s->cpus, sorted, doc.nr_cpus * sizeof(int));
			memcpy(s->has_ctx, doc.has_ctx, sizeof(s->has_ctx));
			strcpy(s->kernel, doc.kernel);
			strcpy(s->source, doc.source);
		} else if (doc.cyclictest != first.cyclictest || doc.period_us != first.period_us ||
			   !same_cpus(sorted, doc.nr_cpus, first.cpus, first.nr_cpus)) {
			tlat_err(err, "%s: not the same kind, period or CPUs as %s", s->files[run],
				 s->files[0]);
			ret = -EINVAL;
			break;
		}
		if (strcmp(s->kernel, doc.kernel))
			s->kernel[0] = '\0';
		if (strcmp(s->source, doc.source))
			s->source[0] = '\0';
		ret = side_add_run(s, run, &doc, tmp);
		if (ret == -ERANGE)
			tlat_err(err, "%s: more than %llu samples pooled", spec, CMP_MAX_COUNT);
		else if (ret)
			tlat_err(err, "out of memory");
		tmp_free(tmp, doc.nr_cpus);
	}
	tmp_free(tmp, doc.nr_cpus);
	free(tmp);
	if (ret)
		cmp_side_free(s);
	return ret;
}

void cmp_side_free(struct cmp_side *s)
{
	if (s->dist)
		for (size_t i = 0; i < (size_t)(s->nr_runs + 1) * (s->nr_cpus + 1) * TLAT_NR_CTX;
		     i++)
			free(s->dist[i].buckets);
	free(s->dist);
	for (int i = 0; s->files && i < s->nr_runs; i++)
		free(s->files[i]);
	free(s->files);
	free(s->cpus);
	memset(s, 0, sizeof(*s));
}
