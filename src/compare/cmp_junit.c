// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_junit.c - tlat compare --junit: a JUnit XML report written with
 * libxml2's text writer (which escapes): a testsuite per context, a
 * testcase per CPU (and all CPUs) and metric. The verdict's percentile
 * fails on a regression; the other metrics and the KS test are reported,
 * their numbers in system-out, and never fail.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libxml/xmlwriter.h>

#include "compare/compare.h"
#include "core/err.h"

#define W(call)	do { if ((call) < 0) goto fail; } while (0)

/* the metrics a cell has a testcase for: a skipped cell's all but the chosen one */
static bool case_shown(const struct cmp_cell *c, int m)
{
	return c->verdict == CMP_SKIPPED ? m != CMP_CHOSEN : c->m[m].used;
}

static int count_failures(const struct cmp_result *r, int ctx, int *tests)
{
	int failures = 0;

	*tests = 0;
	for (int i = 0; i < r->nr_cells; i++) {
		const struct cmp_cell *c = &r->cells[i];

		if (c->ctx != ctx)
			continue;
		for (int m = 0; m < CMP_NR_METRICS; m++)
			*tests += case_shown(c, m);
		*tests += c->verdict != CMP_SKIPPED;	/* KS */
		failures += c->verdict == CMP_REGRESSION;
	}
	return failures;
}

static void cell_class(char *buf, size_t len, const struct cmp_cell *c)
{
	if (c->cpu < 0)
		snprintf(buf, len, "tlat.compare.%s.all", tlat_ctx_name[c->ctx]);
	else
		snprintf(buf, len, "tlat.compare.%s.cpu%d", tlat_ctx_name[c->ctx], c->cpu);
}

static int case_start(xmlTextWriterPtr w, const struct cmp_cell *c, const char *name)
{
	char cls[64];

	cell_class(cls, sizeof(cls), c);
	W(xmlTextWriterStartElement(w, BAD_CAST "testcase"));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "classname", BAD_CAST cls));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST name));
	return 0;
fail:
	return -EIO;
}

/* <name a1="v1" a2="v2"/>: a testcase's <skipped> or <failure>, a <property>; a2 may be NULL */
static int element(xmlTextWriterPtr w, const char *name, const char *a1, const char *v1,
		   const char *a2, const char *v2)
{
	W(xmlTextWriterStartElement(w, BAD_CAST name));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST a1, BAD_CAST v1));
	if (a2)
		W(xmlTextWriterWriteAttribute(w, BAD_CAST a2, BAD_CAST v2));
	W(xmlTextWriterEndElement(w));
	return 0;
fail:
	return -EIO;
}

/* a testcase's numbers, in system-out, and its end */
static int case_end(xmlTextWriterPtr w, const char *text)
{
	W(xmlTextWriterWriteElement(w, BAD_CAST "system-out", BAD_CAST text));
	W(xmlTextWriterEndElement(w));
	return 0;
fail:
	return -EIO;
}

static int metric_case(xmlTextWriterPtr w, const struct cmp_result *r, const struct cmp_cell *c,
		       int i)
{
	const struct cmp_metric *m = &c->m[i];
	char name[32], text[256];

	W(case_start(w, c, cmp_metric_name(r, i, name, sizeof(name))));
	if (c->verdict == CMP_SKIPPED) {
		W(element(w, "skipped", "message", "a side has no samples", NULL, NULL));
		W(xmlTextWriterEndElement(w));
		return 0;
	}
	snprintf(text, sizeof(text), "base %.2f us, new %.2f us, change %+.2f us", m->base / 1000.0,
		 m->new / 1000.0, (double)m->change / 1000.0);
	if (m->pct < 100)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 ", interval [%+.2f, %s] us", m->lo / 1000.0,
			 m->open ? "open" : (snprintf(name, sizeof(name), "%+.2f", m->hi / 1000.0),
					     name));
	if (i == r->chosen && m->verdict == CMP_REGRESSION)
		W(element(w, "failure", "type", "regression", "message", text));
	return case_end(w, text);
fail:
	return -EIO;
}

static int ks_case(xmlTextWriterPtr w, const struct cmp_cell *c)
{
	char text[160];

	if (c->verdict == CMP_SKIPPED)
		return 0;
	snprintf(text, sizeof(text), "D %.4f p %.3g; NEW larger D %.4f p %.3g; smaller D %.4f p %.3g",
		 c->ks.d, c->ks.p, c->ks.d_up, c->ks.p_up, c->ks.d_down, c->ks.p_down);
	W(case_start(w, c, "ks"));
	return case_end(w, text);
fail:
	return -EIO;
}

static int attr_int(xmlTextWriterPtr w, const char *name, int value)
{
	char num[16];

	snprintf(num, sizeof(num), "%d", value);
	return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST num) < 0 ? -EIO : 0;
}

/* a context's testsuite: its counts, the two sides, a testcase per cell and metric */
static int suite(xmlTextWriterPtr w, const struct cmp_result *r, int ctx, int tests,
		 int failures)
{
	char name[32];

	snprintf(name, sizeof(name), "tlat.compare.%s", tlat_ctx_name[ctx]);
	W(xmlTextWriterStartElement(w, BAD_CAST "testsuite"));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST name));
	W(attr_int(w, "tests", tests));
	W(attr_int(w, "failures", failures));
	W(xmlTextWriterStartElement(w, BAD_CAST "properties"));
	W(element(w, "property", "name", "base", "value", r->base->label));
	W(element(w, "property", "name", "new", "value", r->new->label));
	W(xmlTextWriterEndElement(w));
	for (int i = 0; i < r->nr_cells; i++) {
		const struct cmp_cell *c = &r->cells[i];

		if (c->ctx != ctx)
			continue;
		for (int m = 0; m < CMP_NR_METRICS; m++)
			if (case_shown(c, m))
				W(metric_case(w, r, c, m));
		W(ks_case(w, c));
	}
	W(xmlTextWriterEndElement(w));
	return 0;
fail:
	return -EIO;
}

static int suites(xmlTextWriterPtr w, const struct cmp_result *r)
{
	int tests, failures;

	W(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL));
	W(xmlTextWriterStartElement(w, BAD_CAST "testsuites"));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST "tlat compare"));
	for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
		failures = count_failures(r, ctx, &tests);
		if (tests)
			W(suite(w, r, ctx, tests, failures));
	}
	W(xmlTextWriterEndDocument(w));
	return 0;
fail:
	return -EIO;
}

int cmp_render_junit(const char *path, const struct cmp_result *r, char *err)
{
	xmlTextWriterPtr w = xmlNewTextWriterFilename(path, 0);
	int ret;

	if (!w) {
		tlat_err(err, "cannot write %s", path);
		return -EIO;
	}
	xmlTextWriterSetIndent(w, 1);
	ret = suites(w, r);
	xmlFreeTextWriter(w);
	if (ret)
		tlat_err(err, "cannot write %s", path);
	return ret;
}
