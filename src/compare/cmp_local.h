/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmp_local.h - what reading a side of tlat compare (cmp_input.c) and
 * reading one of its documents (cmp_doc.c, cmp_tlat_doc.c,
 * cmp_cyclictest.c) share. Private to compare/.
 */
#ifndef TLAT_COMPARE_CMP_LOCAL_H
#define TLAT_COMPARE_CMP_LOCAL_H

#include <stdbool.h>

#include "compare/compare.h"

struct json_object;

/* the CPUs one document may hold */
#define CPU_SETSIZE_CMP	4096
/* the samples one distribution may hold: exact in a double, centuries of runs */
#define CMP_MAX_COUNT	(1ull << 53)

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

/* cmp_doc.c */

/*
 * one file into its own dists: [CPU_SETSIZE_CMP][ctx] by position in
 * doc->cpus, which the caller zeroes; those of doc->nr_cpus are filled.
 * 0, or -errno with one line in err.
 */
int cmp_doc_read(struct cmp_doc *doc, struct cmp_dist *out, const char *file, char *err);

/* o's member key, NULL if o is NULL or has none */
struct json_object *cmp_member(struct json_object *o, const char *key);

/* a number that is a count or a time: not negative, not past 2^63 */
bool cmp_json_u64(struct json_object *v, u64 *val);

/* o's member key, if it is such a number */
bool cmp_get_u64(struct json_object *o, const char *key, u64 *val);

/*
 * a document's next CPU: an error line if it has it already ("CPU n @twice
 * twice": listed, measured) or is past CPU_SETSIZE_CMP CPUs
 */
int cmp_doc_cpu_add(struct cmp_doc *doc, u64 cpu, const char *file, const char *twice,
		    char *err);

/* n samples of ns ns into d: 0, -ENOMEM, or -ERANGE past CMP_MAX_COUNT samples */
int cmp_dist_add(struct cmp_dist *d, u64 ns, u64 n);

/* cmp_dist_add() into a document's CPU context, the error line said */
int cmp_doc_dist_add(struct cmp_dist *d, u64 ns, u64 n, const char *file, int cpu, int ctx,
		     char *err);

/* the maximum is exact in the document, the buckets only its bucket's lowest */
void cmp_dist_set_max(struct cmp_dist *d, u64 max);

/* cmp_tlat_doc.c: a tlat/1.1 document, as cmp_doc_read() */
int cmp_tlat_doc_read(struct cmp_doc *doc, struct json_object *root, struct cmp_dist *out,
		      const char *file, char *err);

/* cmp_cyclictest.c: a cyclictest --json document, as cmp_doc_read() */
int cmp_cyclictest_read(struct cmp_doc *doc, struct json_object *root, struct cmp_dist *out,
			const char *file, char *err);

#endif
