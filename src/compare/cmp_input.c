// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_input.c - one side of tlat compare read: its files (one file, a
 * directory of *.json or a comma-separated list), each read as a document
 * (cmp_doc.c), and their runs pooled and kept apart, by CPU number.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/cmp_local.h"
#include "core/err.h"
#include "stats/loglinear.h"

static int int_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* a directory's *.json, sorted */
static int dir_files(struct cmp_side *s, const char *dir, char *err)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	if (n < 0) {
		tlat_err(err, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	s->files = calloc(n + 1, sizeof(char *));
	for (int i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (s->files && len > 5 && !strcmp(names[i]->d_name + len - 5, ".json") &&
		    asprintf(&s->files[s->nr_runs], "%s/%s", dir, names[i]->d_name) > 0)
			s->nr_runs++;
		free(names[i]);
	}
	free(names);
	if (!s->files) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	if (!s->nr_runs) {
		tlat_err(err, "%s: no *.json file in it", dir);
		return -EINVAL;
	}
	return 0;
}

/* a comma-separated list of files, or the one file */
static int list_files(struct cmp_side *s, const char *list, char *err)
{
	int n = 1;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	s->files = calloc(n + 1, sizeof(char *));
	if (!s->files)
		goto nomem;
	for (const char *c = list; ; ) {
		const char *end = strchrnul(c, ',');

		if (end == c) {
			tlat_err(err, "%s: an empty name in the list", list);
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

/* the files of a spec: a directory's *.json sorted, a list, or the one file */
static int spec_files(struct cmp_side *s, const char *spec, char *err)
{
	struct stat st;

	if (!stat(spec, &st) && S_ISDIR(st.st_mode))
		return dir_files(s, spec, err);
	return list_files(s, spec, err);
}

int cmp_cpu_index(const struct cmp_side *s, int cpu)
{
	for (int i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i] == cpu)
			return i;
	return -1;
}

/* the first run says what the side is: its kind, period, CPUs (@sorted), contexts and names */
static int side_init(struct cmp_side *s, const struct cmp_doc *doc, const int *sorted,
		     char *err)
{
	s->cyclictest = doc->cyclictest;
	s->period_us = doc->period_us;
	s->nr_cpus = doc->nr_cpus;
	s->cpus = malloc((doc->nr_cpus + 1) * sizeof(int));
	s->dist = calloc((size_t)(s->nr_runs + 1) * (doc->nr_cpus + 1) * TLAT_NR_CTX,
			 sizeof(*s->dist));
	if (!s->cpus || !s->dist) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	memcpy(s->cpus, sorted, doc->nr_cpus * sizeof(int));
	memcpy(s->has_ctx, doc->has_ctx, sizeof(s->has_ctx));
	strcpy(s->kernel, doc->kernel);
	strcpy(s->source, doc->source);
	return 0;
}

/* a later run is of the same kind, period and CPUs; kernel or source may differ */
static int side_check(struct cmp_side *s, int run, const struct cmp_doc *doc,
		      const int *sorted, char *err)
{
	if (doc->cyclictest != s->cyclictest || doc->period_us != s->period_us ||
	    doc->nr_cpus != s->nr_cpus || memcmp(sorted, s->cpus, doc->nr_cpus * sizeof(int))) {
		tlat_err(err, "%s: not the same kind, period or CPUs as %s", s->files[run],
			 s->files[0]);
		return -EINVAL;
	}
	if (strcmp(s->kernel, doc->kernel))
		s->kernel[0] = '\0';
	if (strcmp(s->source, doc->source))
		s->source[0] = '\0';
	return 0;
}

/*
 * a run's dists, by its document's CPU order, into the side's by CPU number:
 * 0, -ENOMEM or -ERANGE (past CMP_MAX_COUNT pooled)
 */
static int side_pool(struct cmp_side *s, int run, const struct cmp_doc *doc,
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
					int ret = cmp_dist_add(targets[t], loglin_lowest(b),
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

/* one run read into tmp, by its document's CPU order, added to the side */
static int side_add_run(struct cmp_side *s, int run, const struct cmp_doc *doc,
			struct cmp_dist *tmp, char *err)
{
	/* tmp follows the document's CPU order; the side's is ascending */
	int sorted[CPU_SETSIZE_CMP];
	int ret;

	memcpy(sorted, doc->cpus, doc->nr_cpus * sizeof(int));
	qsort(sorted, doc->nr_cpus, sizeof(int), int_cmp);
	ret = run ? side_check(s, run, doc, sorted, err) : side_init(s, doc, sorted, err);
	if (ret)
		return ret;
	ret = side_pool(s, run, doc, tmp);
	if (ret == -ERANGE)
		tlat_err(err, "%s: more than %llu samples pooled", s->label, CMP_MAX_COUNT);
	else if (ret)
		tlat_err(err, "out of memory");
	return ret;
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
	struct cmp_doc doc;
	int ret;

	memset(s, 0, sizeof(*s));
	s->label = spec;
	if (!tmp) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	ret = spec_files(s, spec, err);
	for (int run = 0; !ret && run < s->nr_runs; run++) {
		memset(&doc, 0, sizeof(doc));
		ret = cmp_doc_read(&doc, tmp, s->files[run], err);
		if (!ret)
			ret = side_add_run(s, run, &doc, tmp, err);
		tmp_free(tmp, doc.nr_cpus);
	}
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
