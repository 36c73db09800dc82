// SPDX-License-Identifier: GPL-2.0
/*
 * trace_action.c - the trace action (-t, -a, --on-threshold trace): tlat
 * consumes its instance's buffer as it reads it, so the kernel's "trace"
 * file is empty at a stop. The collector hands every record to a store of
 * the newest ones too (trace/text_save.c), which the action writes out as
 * that file would have shown them.
 */
#include <errno.h>
#include <string.h>

#include "run/actions.h"
#include "run/run_local.h"
#include "trace/ksyms.h"
#include "util/cpuset.h"

/* the action keeps what the kernel's own buffers would: its size on each CPU */
#define TRACE_DEFAULT_KB	4096

static void trace_record(void *store, struct tep_event *event, struct tep_record *record)
{
	(void)event;
	text_save_add(store, record);
}

int run_trace_init(struct run *run, struct tlat_collector *c, char *err)
{
	const struct tlat_params *p = run->params;
	struct tlat_record_observer observer = { trace_record, NULL, NULL };
	size_t kb = (p->buffer_kb ?: TRACE_DEFAULT_KB) * cpuset_count(&p->cpus);

	if (!actions_have(&p->on_threshold, TLAT_ACTION_TRACE) &&
	    !actions_have(&p->on_end, TLAT_ACTION_TRACE))
		return 0;
	run->trace = text_save_alloc(kb * 1024);
	if (!run->trace) {
		tlat_err(err, "cannot keep %zu kB of trace for the trace action: %s", kb,
			 strerror(errno));
		return -ENOMEM;
	}
	observer.priv = run->trace;
	if (collector_observe(c, &observer)) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

bool run_symbols(struct run *run)
{
	if (!run->symbols_tried) {
		run->symbols_tried = true;
		run->symbols = !ksyms_load(run->collector->tep);
	}
	return run->symbols;
}

/* the actions' save_trace */
int run_trace_save(void *priv, const char *path, char *err)
{
	struct run *run = priv;
	int ret;

	/* a saved trace's %ps fields want names */
	run_symbols(run);
	/* without them every task prints as <...>, so that is also what their failure costs */
	tracefs_load_cmdlines(tracefs_instance_get_trace_dir(run->collector->inst),
			      run->collector->tep);
	tlat_note(&run->notes, TLAT_NOTE_OUTPUT, "  Saving trace to %s", path);
	ret = text_save_write(run->trace, run->collector->tep, run->ops->name, path);
	if (ret)
		tlat_err(err, "cannot save the trace to %s: %s", path, strerror(-ret));
	return ret;
}
