// SPDX-License-Identifier: GPL-2.0
/*
 * timerlat.c - the source backed by the kernel's timerlat tracer, set in
 * tlat's own instance. Its osnoise/ configuration is global: it is saved,
 * set and restored, and a second user (another tlat, or rtla) is refused
 * rather than disturbed. User threads read osnoise/per_cpu/cpuN/timerlat_fd
 * where the kernel has it (6.5+), as rtla does by default.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <libproc2/pids.h>

#include "analysis/aa_adapter.h"
#include "core/cpuset.h"
#include "core/err.h"
#include "sources/kernel_source.h"
#include "util/knobs.h"

#define TL_DEFAULT_BUFFER_KB	2048
#define TL_WORKLOAD_OPTION	"OSNOISE_WORKLOAD"
#define TL_ALIGN_OPTION		"TIMERLAT_ALIGN"	/* 7.1+ */
#define TL_NR_OPTIONS		2

struct tlat_source {
	struct kernel_source ks;	/* first: kernel_source.c's part */
	char *fd_prefix;		/* osnoise/per_cpu/cpu, of user threads' timerlat_fd */
	bool tracer_set;
	/* osnoise/options flags as found, e.g. "NO_OSNOISE_WORKLOAD", restored newest first */
	char *options_saved[TL_NR_OPTIONS];
	int nr_options;
};
_Static_assert(offsetof(struct tlat_source, ks) == 0, "kernel_source.c finds ks at src");

static const char *const tl_systems[] = { "ftrace", NULL };

static bool tl_has_timerlat_fd(void)
{
	return tracefs_file_exists(NULL, "osnoise/per_cpu/cpu0/timerlat_fd");
}

/* the instance (or top level) whose current tracer is timerlat or osnoise */
static int tl_find_user(struct tlat_session *session, char *who, size_t len)
{
	const char *self = tracefs_instance_get_name(session->inst);
	char **names = tracefs_instances(NULL);
	char *tracer;
	int found = 0;

	for (int i = -1; !found && (i < 0 || (names && names[i])); i++) {
		struct tracefs_instance *inst = NULL;

		if (i >= 0) {
			if (self && !strcmp(names[i], self))
				continue;
			inst = tracefs_instance_alloc(NULL, names[i]);
			if (!inst)
				continue;
		}
		tracer = tracefs_instance_file_read(inst, "current_tracer", NULL);
		if (tracer && (!strncmp(tracer, "timerlat", 8) || !strncmp(tracer, "osnoise", 7))) {
			snprintf(who, len, "%s%s", i < 0 ? "the top-level buffer" : "instance ",
				 i < 0 ? "" : names[i]);
			found = 1;
		}
		free(tracer);
		tracefs_instance_free(inst);
	}
	tracefs_list_free(names);
	return found;
}

static int tl_probe(struct tlat_session *session, char *err)
{
	char who[128];

	if (!tracefs_tracer_available(NULL, "timerlat")) {
		tlat_err(err, "the kernel has no timerlat tracer");
		return -ENOENT;
	}
	if (tl_find_user(session, who, sizeof(who))) {
		tlat_err(err,
			 "the timerlat tracer is in use by %s (another tlat or rtla?)", who);
		return -EBUSY;
	}
	return 0;
}

/*
 * osnoise/options lists every option the kernel has, an option that is off
 * as NO_<name>: 1 on, 0 off, -ENOENT if the kernel does not have it.
 */
static int tl_option_state(const char *name)
{
	char *options = tracefs_instance_file_read(NULL, "osnoise/options", NULL);
	int state = -ENOENT;

	for (char *tok = options ? strtok(options, " \n") : NULL; tok && state < 0;
	     tok = strtok(NULL, " \n")) {
		if (!strcmp(tok, name))
			state = 1;
		else if (!strncmp(tok, "NO_", 3) && !strcmp(tok + 3, name))
			state = 0;
	}
	free(options);
	return state;
}

/* one is changed by writing its name or NO_<name>; the old state is restored at close */
static int tl_set_option(struct tlat_source *src, const char *name, bool on)
{
	int state = tl_option_state(name);
	char *saved, *want;
	int ret;

	if (state < 0)
		return state;
	if (asprintf(&saved, "%s%s", state ? "" : "NO_", name) < 0)
		return -ENOMEM;
	src->options_saved[src->nr_options++] = saved;
	if (asprintf(&want, "%s%s", on ? "" : "NO_", name) < 0)
		return -ENOMEM;
	ret = tracefs_instance_file_write(NULL, "osnoise/options", want) < 0 ? -EIO : 0;
	free(want);
	return ret;
}

static int tl_set_workload_option(struct tlat_source *src, bool kernel_threads)
{
	int ret = tl_set_option(src, TL_WORKLOAD_OPTION, kernel_threads);

	/* before 6.2 there is only the kernel workload */
	return ret == -ENOENT && kernel_threads ? 0 : ret;
}

/* -P for the kernel's timerlat/N threads, found by name as rtla does */
static int tl_set_kthread_sched(const struct tlat_sched *s)
{
	enum pids_item items[] = { PIDS_ID_PID, PIDS_CMD };
	struct pids_info *info = NULL;
	struct pids_stack *stack;
	int ret = 0;

	if (!s->set)
		return 0;
	if (procps_pids_new(&info, items, 2) < 0)
		return -ENOMEM;
	while ((stack = procps_pids_get(info, PIDS_FETCH_TASKS_ONLY))) {
		struct sched_param sp = { .sched_priority = s->prio };

		if (strncmp(PIDS_VAL(1, str, stack, info), "timerlat/", 9))
			continue;
		if (sched_setscheduler(PIDS_VAL(0, s_int, stack, info), s->policy,
				       s->policy == SCHED_OTHER ? &(struct sched_param){ 0 } : &sp))
			ret = -errno;
	}
	procps_pids_unref(&info);
	return ret;
}

/*
 * -A sets TIMERLAT_ALIGN and timerlat_align_us; without -A the option is
 * turned off where the kernel has it, as rtla does, so that an alignment
 * someone left set does not apply to this run.
 */
static int tl_set_align(struct tlat_source *src, char *err)
{
	const struct tlat_params *p = src->ks.params;
	int ret = tl_set_option(src, TL_ALIGN_OPTION, p->aligned);

	if (ret == -ENOENT && !p->aligned)
		return 0;
	if (!ret && p->aligned)
		ret = knobs_set_u64(src->ks.knobs, "osnoise/timerlat_align_us", p->align_us);
	if (ret)
		tlat_err(err, "cannot set the alignment of timerlat's threads: %s",
			 strerror(-ret));
	return ret;
}

static int tl_configure(struct tlat_source *src, char *err)
{
	const struct tlat_params *p = src->ks.params;
	struct knobs *knobs = src->ks.knobs;
	bool user_threads = src->ks.user_threads;
	char cpus[4096];
	int ret;

	ret = cpuset_to_list(&p->cpus, cpus, sizeof(cpus));
	if (!ret)
		ret = knobs_set(knobs, "osnoise/cpus", cpus);
	if (!ret)
		ret = knobs_set_u64(knobs, "osnoise/timerlat_period_us", p->period_us);
	if (!ret)
		ret = knobs_set_u64(knobs, "osnoise/print_stack", p->stop.stack_us);
	/* a warm-up must not stop the run: run.c arms the stops after it */
	if (!ret)
		ret = kernel_source_set_stops(&src->ks, !p->warmup_s);
	if (ret) {
		tlat_err(err, "cannot configure the timerlat tracer: %s", strerror(-ret));
		return ret;
	}
	ret = tl_set_workload_option(src, !user_threads);
	if (ret) {
		tlat_err(err, "cannot select the %s threads of timerlat: %s",
			 user_threads ? "user" : "kernel", strerror(-ret));
		return ret;
	}
	return tl_set_align(src, err);
}

static int tl_set_tracer(struct tlat_source *src, char *err)
{
	struct tracefs_instance *inst = src->ks.session->inst;
	const struct tlat_params *params = src->ks.params;

	tracefs_trace_off(inst);
	if (tracefs_instance_set_buffer_size(inst, params->buffer_kb ?: TL_DEFAULT_BUFFER_KB, -1)) {
		tlat_err(err, "cannot set the trace buffer size: %s", strerror(errno));
		return -EIO;
	}
	/* setting the tracer starts the kernel threads: samples wait for trace on */
	if (tracefs_tracer_set(inst, TRACEFS_TRACER_CUSTOM, "timerlat")) {
		tlat_err(err, "cannot set the timerlat tracer: %s", strerror(errno));
		return -EIO;
	}
	src->tracer_set = true;
	return 0;
}

static void tl_release(struct tlat_source *src)
{
	if (src->tracer_set)
		tracefs_tracer_clear(src->ks.session->inst);
	while (src->nr_options--) {
		tracefs_instance_file_write(NULL, "osnoise/options",
					    src->options_saved[src->nr_options]);
		free(src->options_saved[src->nr_options]);
	}
	tracefs_put_tracing_file(src->fd_prefix);
}

/* user threads need timerlat_fd (6.5+), -A the tracer's TIMERLAT_ALIGN (7.1+) */
static int tl_check(const struct kernel_source *ks, const struct tlat_params *params, char *err)
{
	if (ks->user_threads && !tl_has_timerlat_fd()) {
		tlat_err(err, "this kernel has no timerlat_fd for user threads (-u): use -k");
		return -EOPNOTSUPP;
	}
	if (params->aligned && tl_option_state(TL_ALIGN_OPTION) < 0) {
		tlat_err(err, "this kernel's timerlat tracer cannot align its threads (no TIMERLAT_ALIGN, 7.1+): use --source module or tracepoints for -A");
		return -EOPNOTSUPP;
	}
	return 0;
}

static const struct kernel_source_kind tl_kind = {
	.size = sizeof(struct tlat_source),
	.resource = "timerlat",
	.owner = "the timerlat tracer",
	.events = { "ftrace", "timerlat", "kernel_stack", "size", "caller" },
	.tracer = "timerlat",
	/* the tracer stops the instance it runs in, not the top-level buffer */
	.stop_irq_knob = "osnoise/stop_tracing_us",
	.stop_thread_knob = "osnoise/stop_tracing_total_us",
	/* as rtla: user threads where the kernel has them */
	.user_by_default = tl_has_timerlat_fd,
	.check = tl_check,
	.release = tl_release,
};

static int tl_decoder(struct tlat_source **out, const struct tlat_params *params,
		      struct tep_handle *tep, char *err)
{
	return kernel_source_decoder(out, &tl_kind, params, tep, err);
}

/* the run lock keeps another tlat out; tl_probe()'s check of the tracer, rtla */
static int tl_open(struct tlat_source **out, const struct tlat_params *params,
		   struct tlat_session *session, struct tep_handle *tep, char *err)
{
	struct tlat_source *src;
	int ret;

	ret = kernel_source_open(out, &tl_kind, params, session, err);
	src = *out;
	if (ret)
		return ret;
	ret = kernel_source_setup(&src->ks, tep, session->tracing_dir, err) ?:
	      tl_configure(src, err) ?:
	      tl_set_tracer(src, err);
	if (ret)
		return ret;
	if (!src->ks.user_threads) {
		ret = tl_set_kthread_sched(&params->sched);
		if (ret)
			tlat_err(err, "cannot set the priority of timerlat's threads: %s",
				 strerror(-ret));
		return ret;
	}
	/* osnoise/per_cpu/cpu<N>/timerlat_fd */
	src->fd_prefix = tracefs_get_tracing_file("osnoise/per_cpu/cpu");
	if (!src->fd_prefix)
		return -ENOMEM;
	/* rtla's name for the threads that read timerlat_fd: scripts look for it */
	src->ks.user_fd = (struct fd_workload){ src->fd_prefix, "/timerlat_fd", true,
						"timerlatu/" };
	return kernel_source_workload(&src->ks, err);
}

static void tl_report(struct tlat_source *src, const struct tlat_notes *notes)
{
	tlat_note(notes, TLAT_NOTE_DEBUG, "tlat: timerlat: %s threads",
		  src->ks.user_threads ? "user" : "kernel");
}

static const struct tlat_decoder_ops tl_decoder_ops = {
	.systems = tl_systems,
	.open = tl_decoder,
	KERNEL_DECODER_OPS,
};

const struct tlat_source_ops timerlat_source_ops = {
	.name = "timerlat",
	.decoder = &tl_decoder_ops,
	.interference = &aa_osnoise_ops,
	.probe = tl_probe,
	.open = tl_open,
	.report = tl_report,
	KERNEL_SOURCE_OPS,
};
