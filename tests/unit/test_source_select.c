// SPDX-License-Identifier: GPL-2.0
/*
 * test_source_select.c - which source measures (source_pick()), with
 * sources whose probes say what the test wants: auto takes the first that
 * works, skips one the kernel lacks, and refuses, naming the holder, one
 * busy with another measurement, rather than measure the same CPUs beside
 * it; --source still forces a source.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "core/err.h"
#include "sources/source.h"
#include "unit_helpers.h"

static int probe_busy(struct tlat_session *session, char *err)
{
	(void)session;
	tlat_err(err, "the timerlat tracer is in use by instance tlat_134 (another tlat or rtla?)");
	return -EBUSY;
}

static int probe_missing(struct tlat_session *session, char *err)
{
	(void)session;
	tlat_err(err, "tlat.ko is neither loaded nor loadable");
	return -ENOENT;
}

static int probe_ok(struct tlat_session *session, char *err)
{
	(void)session;
	(void)err;
	return 0;
}

static const struct tlat_source_ops busy = { .name = "timerlat", .probe = probe_busy };
static const struct tlat_source_ops missing = { .name = "module", .probe = probe_missing };
static const struct tlat_source_ops works = { .name = "tracepoints", .probe = probe_ok };

/* --source, and what source_pick() gives: a source, or none and an error line */
struct pick {
	const char *source;
	const struct tlat_source_ops *want;
	const char *err;		/* the line, or NULL for none */
	bool err_within;		/* the line holds err, not only err */
};

/* the sources a kernel has, in tlat's order, and picks among them */
struct select_case {
	const struct tlat_source_ops *list[3];
	int nr;
	struct pick picks[2];
};

static const struct select_case auto_first_that_works = {
	{ &missing, &works }, 2, { { .source = "auto", .want = &works } },
};

static const struct select_case auto_refuses_busy = {
	{ &busy, &missing, &works }, 3,
	{ { .source = "auto", .err = "the timerlat tracer is in use by instance tlat_134 "
	    "(another tlat or rtla?): not measuring beside it (--source forces one)" } },
};

static const struct select_case forced_source_beside_busy = {
	{ &busy, &missing, &works }, 3,
	{ { .source = "tracepoints", .want = &works },
	  { .source = "timerlat", .err = "source timerlat is not available: "
	    "the timerlat tracer is in use by instance tlat_134", .err_within = true } },
};

static const struct select_case auto_none = {
	{ &missing }, 1, { { .source = "auto", .err = "no sample source works on this kernel" } },
};

static void test_select_case(void **state)
{
	const struct select_case *c = *state;

	for (int i = 0; i < 2 && c->picks[i].source; i++) {
		const struct pick *p = &c->picks[i];
		char err[TLAT_ERR_LEN] = "";

		assert_ptr_equal(source_pick(c->list, c->nr, p->source, NULL, NULL, err), p->want);
		if (p->err && p->err_within)
			assert_non_null(strstr(err, p->err));
		else if (p->err)
			assert_string_equal(err, p->err);
		/* one line */
		assert_null(strchr(err, '\n'));
	}
}

#define CASE(name)	UNIT_CASE("test_" #name, test_select_case, NULL, NULL, &name)

UNIT_MAIN("source_select",
	CASE(auto_first_that_works),
	CASE(auto_refuses_busy),
	CASE(forced_source_beside_busy),
	CASE(auto_none),
)
