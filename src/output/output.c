// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - the output registry (see output.h). The plot comes first only
 * so that its check is the first error a command line with several bad
 * paths gets, as before there was a registry.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/array.h"
#include "core/err.h"
#include "output/output.h"

static const struct tlat_output_ops *const registry[] = {
	&plot_output_ops,
	&json_output_ops,
	&text_output_ops,
};

#define NR_OUTPUTS	ARRAY_SIZE(registry)

struct outputs {
	int nr;
	const struct tlat_output_ops *ops[NR_OUTPUTS];
	void *priv[NR_OUTPUTS];
};

int outputs_open(struct outputs **out, const struct tlat_output_params *params, char *err)
{
	struct outputs *o = calloc(1, sizeof(*o));
	int ret;

	*out = o;
	if (!o) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < NR_OUTPUTS; i++) {
		if (!registry[i]->chosen(params))
			continue;
		o->ops[o->nr] = registry[i];
		ret = registry[i]->open ? registry[i]->open(&o->priv[o->nr], params, err) : 0;
		if (ret)
			return ret;
		o->nr++;
	}
	return 0;
}

/* every output's hook of this stage, in order; a NULL hook has nothing for it */
#define EACH(o, hook, ...)						\
	for (int i = 0; i < (o)->nr; i++)				\
		if ((o)->ops[i]->hook)					\
			(o)->ops[i]->hook((o)->priv[i], __VA_ARGS__)

void outputs_frame(struct outputs *o, const struct tlat_report *report)
{
	EACH(o, frame, report);
}

void outputs_hit_frame(struct outputs *o, const struct tlat_report *report, bool after_actions)
{
	EACH(o, hit_frame, report, after_actions);
}

void outputs_summary(struct outputs *o, const struct tlat_report *report)
{
	EACH(o, summary, report);
}

void outputs_note(struct outputs *o, const char *line)
{
	EACH(o, note, line);
}

void outputs_hit(struct outputs *o, const struct tlat_report *report)
{
	EACH(o, hit, report);
}

void outputs_conclusion(struct outputs *o, const struct tlat_report *report)
{
	EACH(o, conclusion, report);
}

static int outputs_stage(struct outputs *o, bool restored, const struct tlat_report *report,
			 char *err)
{
	char later_err[TLAT_ERR_LEN];
	int ret = 0, r;

	for (int i = 0; i < o->nr; i++) {
		int (*stage)(void *, const struct tlat_report *, char *) =
			restored ? o->ops[i]->restored : o->ops[i]->document;

		/* one that fails leaves the others to be written; the first error is told */
		r = stage ? stage(o->priv[i], report, ret ? later_err : err) : 0;
		if (!ret)
			ret = r;
	}
	return ret;
}

int outputs_document(struct outputs *o, const struct tlat_report *report, char *err)
{
	return outputs_stage(o, false, report, err);
}

int outputs_restored(struct outputs *o, const struct tlat_report *report, char *err)
{
	return outputs_stage(o, true, report, err);
}

void outputs_close(struct outputs *o)
{
	if (!o)
		return;
	for (int i = 0; i < o->nr; i++)
		if (o->ops[i]->close)
			o->ops[i]->close(o->priv[i]);
	free(o);
}
