// SPDX-License-Identifier: GPL-2.0
/*
 * unit_report.c - the report of a run, as the outputs' tests start from it
 * (unit_report.h).
 */
#include <stdlib.h>

#include "unit_report.h"

int unit_report_setup(void **state)
{
	struct unit_report *r = calloc(1, sizeof(*r));

	if (!r)
		return -1;
	r->c = *state;
	*state = r;
	return 0;
}

void unit_report_clear(struct unit_report *r)
{
	if (r->started)
		cli_params_free(&r->params);
	agg_free(r->agg);
	free(r->text);
}

int unit_report_teardown(void **state)
{
	unit_report_clear(*state);
	free(*state);
	return 0;
}

void unit_report_start(struct unit_report *r, enum tlat_mode mode, int argc, char **argv)
{
	struct tlat_params *p = &r->params;
	char err[TLAT_ERR_LEN] = "";

	assert_false(r->started);
	r->started = true;
	assert_int_equal(cli_params_init(p, mode, UNIT_NR_CPUS), 0);
	p->command = r->command;
	if (cli_parse(p, argc, argv, err))
		fail_msg("cli_parse: %s", err);
	r->agg = agg_alloc(&(struct tlat_agg_layout){
		.nr_cpus = UNIT_NR_CPUS,
		.entries = mode == TLAT_MODE_HIST ? p->out.hist.entries : 0,
		.bucket_ns = (u64)p->out.hist.bucket_size * (p->out.nano ? 1 : 1000),
		.loglinear = r->loglinear,
	});
	assert_non_null(r->agg);
	r->report = (struct tlat_report){ .params = p, .agg = r->agg };
}

void unit_report_add(struct unit_report *r, int cpu, enum tlat_ctx ctx, u64 ns, int n)
{
	for (int i = 0; i < n; i++) {
		agg_add_stat(r->agg, cpu, ctx, ns);
		agg_add_loglinear(r->agg, cpu, ctx, ns);
		agg_add_linear(r->agg, cpu, ctx, ns);
	}
}

const char *unit_report_render(struct unit_report *r,
			       void (*fn)(FILE *out, const struct tlat_report *report))
{
	FILE *out;

	free(r->text);
	r->text = NULL;
	out = open_memstream(&r->text, &r->len);
	assert_non_null(out);
	fn(out, &r->report);
	assert_int_equal(fclose(out), 0);
	return r->text;
}
