// SPDX-License-Identifier: GPL-2.0
/*
 * source_select.c - which source measures: the one the user named, or with
 * "auto" the best one this kernel supports, in order of preference.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "source.h"

/* in order of preference for "auto" */
static const struct tlat_source_ops *const sources[] = {
	&timerlat_source_ops,
	&module_source_ops,
	&tracepoints_source_ops,
};

#define NR_SOURCES (sizeof(sources) / sizeof(sources[0]))

const struct tlat_source_ops *source_select(const char *name, struct tlat_session *session,
					    bool debug, char *err)
{
	char why[TLAT_ERR_LEN];
	bool any = !strcmp(name, "auto");

	for (size_t i = 0; i < NR_SOURCES; i++) {
		if (!any && strcmp(name, sources[i]->name))
			continue;
		if (!sources[i]->probe(session, why)) {
			if (debug)
				fprintf(stderr, "tlat: using the %s source\n", sources[i]->name);
			return sources[i];
		}
		if (!any) {
			snprintf(err, TLAT_ERR_LEN, "source %.32s is not available: %.190s", name, why);
			return NULL;
		}
		if (debug)
			fprintf(stderr, "tlat: source %s not available: %s\n", sources[i]->name, why);
	}
	if (any)
		snprintf(err, TLAT_ERR_LEN, "no sample source works on this kernel");
	else
		snprintf(err, TLAT_ERR_LEN, "unknown source '%s' (known: auto, timerlat, module, tracepoints)", name);
	return NULL;
}

const struct tlat_source_ops *source_nth(size_t i)
{
	return i < NR_SOURCES ? sources[i] : NULL;
}

/* what tlat info prints: every source, why it can or cannot run, and auto's pick */
void source_report(FILE *out, struct tlat_session *session)
{
	const struct tlat_source_ops *chosen = NULL;
	char why[TLAT_ERR_LEN];

	for (size_t i = 0; i < NR_SOURCES; i++) {
		if (sources[i]->probe(session, why)) {
			fprintf(out, "  %-12s not available: %s\n", sources[i]->name, why);
			continue;
		}
		fprintf(out, "  %-12s available\n", sources[i]->name);
		if (!chosen)
			chosen = sources[i];
	}
	fprintf(out, "--source auto uses: %s\n", chosen ? chosen->name : "none");
}
