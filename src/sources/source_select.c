// SPDX-License-Identifier: GPL-2.0
/*
 * source_select.c - which source measures: the one the user named, or with
 * "auto" the best one this kernel supports, in order of preference.
 */
#include <errno.h>
#include <string.h>

#include "core/array.h"
#include "core/err.h"
#include "sources/source.h"

/* in order of preference for "auto" */
static const struct tlat_source_ops *const sources[] = {
	&timerlat_source_ops,
	&module_source_ops,
	&tracepoints_source_ops,
};

#define NR_SOURCES ARRAY_SIZE(sources)

const struct tlat_source_ops *source_pick(const struct tlat_source_ops *const *list, size_t n,
					  const char *name, struct tlat_session *session,
					  const struct tlat_notes *notes, char *err)
{
	char why[TLAT_ERR_LEN];
	bool any = !strcmp(name, "auto");
	int ret;

	for (size_t i = 0; i < n; i++) {
		if (!any && strcmp(name, list[i]->name))
			continue;
		ret = list[i]->probe(session, why);
		if (!ret) {
			tlat_note(notes, TLAT_NOTE_DEBUG, "tlat: using the %s source",
				  list[i]->name);
			return list[i];
		}
		if (!any) {
			tlat_err(err, "source %.32s is not available: %.190s", name, why);
			return NULL;
		}
		/*
		 * Busy with another measurement: the next source would measure
		 * the same CPUs at the same time, each disturbing the other.
		 * rtla refuses too; --source can still force one.
		 */
		if (ret == -EBUSY) {
			tlat_err(err, "%.200s: not measuring beside it (--source forces one)", why);
			return NULL;
		}
		tlat_note(notes, TLAT_NOTE_DEBUG, "tlat: source %s not available: %s",
			  list[i]->name, why);
	}
	if (any)
		tlat_err(err, "no sample source works on this kernel");
	else
		tlat_err(err, "unknown source '%s' (known: auto, timerlat, module, tracepoints)", name);
	return NULL;
}

const struct tlat_source_ops *source_select(const char *name, struct tlat_session *session,
					    const struct tlat_notes *notes, char *err)
{
	return source_pick(sources, NR_SOURCES, name, session, notes, err);
}

const struct tlat_source_ops *source_nth(size_t i)
{
	return i < NR_SOURCES ? sources[i] : NULL;
}
