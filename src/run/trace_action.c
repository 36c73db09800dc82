// SPDX-License-Identifier: GPL-2.0
/*
 * trace_action.c - the trace action (-t, -a, --on-threshold trace), as
 * rtla's: a copy of the kernel's "trace" file. tlat consumes its instance's
 * buffer as it reads it, so that file is empty at a stop; a kernel source
 * writes its samples to a second instance, tlat_PID_trace, that nothing
 * reads, whose file is copied (trace on and off with tlat's). The
 * tracepoint source, whose samples are pairs of stock events tlat matches,
 * has no such text: the collector hands every record to a store of the
 * newest ones (trace/text_save.c), written out as the file would show them.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "core/cpuset.h"
#include "run/actions.h"
#include "run/run_local.h"
#include "trace/ksyms.h"

/* the action keeps what the kernel's own buffers would: its size on each CPU */
#define TRACE_DEFAULT_KB	4096

static void trace_record(void *store, struct tep_event *event, struct tep_record *record)
{
	(void)event;
	text_save_add(store, record);
}

/* the -e events, without their triggers: a hist: would be saved twice */
static int trace_inst_events(struct tracefs_instance *inst, const struct tlat_params *p,
			     char *err)
{
	for (int i = 0; i < p->events.nr; i++) {
		const struct tlat_event_req *e = &p->events.list[i];

		if (tracefs_event_enable(inst, e->system, e->event) ||
		    (e->filter && e->event &&
		     tracefs_event_file_write(inst, e->system, e->event, "filter",
					      e->filter) < 0)) {
			tlat_err(err, "cannot enable %s%s%s in %s: %s", e->system,
				 e->event ? ":" : "", e->event ?: "",
				 tracefs_instance_get_name(inst), strerror(errno));
			return -EIO;
		}
	}
	return 0;
}

static int trace_inst_open(struct run *run, struct tlat_session *session,
			   struct tlat_source *src, char *err)
{
	const struct tlat_params *p = run->params;

	run->trace_inst = session_trace_open(session, err);
	if (!run->trace_inst)
		return -EIO;
	if (p->buffer_kb && tracefs_instance_set_buffer_size(run->trace_inst, p->buffer_kb, -1)) {
		tlat_err(err, "cannot set the buffer size of %s: %s",
			 tracefs_instance_get_name(run->trace_inst), strerror(errno));
		return -EIO;
	}
	return run->ops->trace_instance(src, run->trace_inst, err) ?:
	       trace_inst_events(run->trace_inst, p, err);
}

int run_trace_init(struct run *run, struct tlat_collector *c, struct tlat_session *session,
		   struct tlat_source *src, char *err)
{
	const struct tlat_params *p = run->params;
	struct tlat_record_observer observer = { trace_record, NULL, NULL, NULL };
	size_t kb = (p->buffer_kb ?: TRACE_DEFAULT_KB) * cpuset_count(&p->cpus);

	if (!actions_have(&p->on_threshold, TLAT_ACTION_TRACE) &&
	    !actions_have(&p->on_end, TLAT_ACTION_TRACE))
		return 0;
	if (run->ops->trace_instance)
		return trace_inst_open(run, session, src, err);
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

void run_trace_switch(struct run *run, bool on)
{
	if (!run->trace_inst)
		return;
	if (on)
		tracefs_trace_on(run->trace_inst);
	else
		tracefs_trace_off(run->trace_inst);
}

void run_trace_close(struct run *run)
{
	session_trace_close(run->trace_inst, &run->notes);
	run->trace_inst = NULL;
}

/* the instance's "trace" file, as it is */
static int trace_inst_copy(struct tracefs_instance *inst, const char *path)
{
	char *file = tracefs_instance_get_file(inst, "trace");
	int in = -1, out = -1, ret = 0;
	char buf[65536];
	ssize_t n = 0;

	if (!file)
		return -ENOMEM;
	in = open(file, O_RDONLY | O_CLOEXEC);
	tracefs_put_tracing_file(file);
	if (in < 0)
		return -errno;
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		ret = -errno;
	while (!ret && (n = read(in, buf, sizeof(buf))) > 0) {
		for (ssize_t done = 0; !ret && done < n;) {
			ssize_t w = write(out, buf + done, n - done);

			if (w < 0)
				ret = -errno;
			else
				done += w;
		}
	}
	if (!ret && n < 0)
		ret = -errno;
	if (out >= 0 && close(out) && !ret)
		ret = -errno;
	close(in);
	return ret;
}

bool run_symbols(struct run *run)
{
	if (!run->symbols_tried) {
		run->symbols_tried = true;
		/* a recording has the kallsyms of the machine it was taken on */
		run->symbols = run->recording ? !dat_reader_symbols(run->recording) :
						!ksyms_load(run->collector->tep);
	}
	return run->symbols;
}

/* the actions' save_trace */
int run_trace_save(void *priv, const char *path, char *err)
{
	struct run *run = priv;
	int ret;

	tlat_note(&run->notes, TLAT_NOTE_OUTPUT, "  Saving trace to %s", path);
	if (run->trace_inst) {
		/* a kernel stop turned it off with tlat's; the module's stops only tlat's */
		run_trace_switch(run, false);
		ret = trace_inst_copy(run->trace_inst, path);
	} else {
		/* a saved trace's %ps fields want names */
		run_symbols(run);
		/* without them every task prints as <...>, so that is also what their failure costs */
		tracefs_load_cmdlines(tracefs_instance_get_trace_dir(run->collector->inst),
				      run->collector->tep);
		ret = text_save_write(run->trace, run->collector->tep, run->ops->name, path);
	}
	if (ret)
		tlat_err(err, "cannot save the trace to %s: %s", path, strerror(-ret));
	return ret;
}
