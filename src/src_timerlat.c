// SPDX-License-Identifier: GPL-2.0
/*
 * src_timerlat.c - the source backed by the kernel's timerlat tracer, set in
 * tlat's own instance. Its osnoise/ configuration is global: it is saved,
 * set and restored, and a second user (another tlat, or rtla) is refused
 * rather than disturbed. User threads read osnoise/per_cpu/cpuN/timerlat_fd
 * where the kernel has it (6.5+), as rtla does by default.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <libproc2/pids.h>

#include "aa_adapter.h"
#include "cli.h"
#include "cpuset.h"
#include "knobs.h"
#include "runlock.h"
#include "source.h"
#include "timerlat_event.h"
#include "workload.h"

#define TL_DEFAULT_BUFFER_KB	2048
#define TL_WORKLOAD_OPTION	"OSNOISE_WORKLOAD"
#define TL_ALIGN_OPTION		"TIMERLAT_ALIGN"	/* 7.1+ */
#define TL_NR_OPTIONS		2

struct tlat_source {
	const struct tlat_params *params;
	struct tlat_session *session;
	struct knobs *knobs;
	struct workload *wl;
	struct timerlat_records records;
	struct fd_workload timerlat_fd;	/* for user threads */
	char *fd_prefix;
	bool user_threads;
	bool tracer_set;
	int lock_fd;			/* held while tlat owns the tracer */
	/* osnoise/options flags as found, e.g. "NO_OSNOISE_WORKLOAD", restored newest first */
	char *options_saved[TL_NR_OPTIONS];
	int nr_options;
};

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
		snprintf(err, TLAT_ERR_LEN, "the kernel has no timerlat tracer");
		return -ENOENT;
	}
	if (tl_find_user(session, who, sizeof(who))) {
		snprintf(err, TLAT_ERR_LEN,
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

/* the tracer stops the instance it runs in, not the top-level buffer */
static int tl_set_stops(struct tlat_source *src, bool armed)
{
	const struct tlat_params *p = src->params;

	return knobs_set_u64(src->knobs, "osnoise/stop_tracing_us", armed ? p->stop_irq_us : 0) ?:
	       knobs_set_u64(src->knobs, "osnoise/stop_tracing_total_us",
			     armed ? p->stop_thread_us : 0);
}

static int tl_arm_thresholds(struct tlat_source *src)
{
	return tl_set_stops(src, true);
}

/*
 * -A sets TIMERLAT_ALIGN and timerlat_align_us; without -A the option is
 * turned off where the kernel has it, as rtla does, so that an alignment
 * someone left set does not apply to this run.
 */
static int tl_set_align(struct tlat_source *src, char *err)
{
	const struct tlat_params *p = src->params;
	int ret = tl_set_option(src, TL_ALIGN_OPTION, p->aligned);

	if (ret == -ENOENT && !p->aligned)
		return 0;
	if (!ret && p->aligned)
		ret = knobs_set_u64(src->knobs, "osnoise/timerlat_align_us", p->align_us);
	if (ret)
		snprintf(err, TLAT_ERR_LEN, "cannot set the alignment of timerlat's threads: %s",
			 strerror(-ret));
	return ret;
}

static int tl_configure(struct tlat_source *src, char *err)
{
	const struct tlat_params *p = src->params;
	char cpus[4096];
	int ret;

	ret = cpuset_to_list(&p->cpus, cpus, sizeof(cpus));
	if (!ret)
		ret = knobs_set(src->knobs, "osnoise/cpus", cpus);
	if (!ret)
		ret = knobs_set_u64(src->knobs, "osnoise/timerlat_period_us", p->period_us);
	if (!ret)
		ret = knobs_set_u64(src->knobs, "osnoise/print_stack", p->stack_us);
	/* a warm-up must not stop the run: run.c arms the stops after it */
	if (!ret)
		ret = tl_set_stops(src, !p->warmup_s);
	if (ret) {
		snprintf(err, TLAT_ERR_LEN, "cannot configure the timerlat tracer: %s", strerror(-ret));
		return ret;
	}
	ret = tl_set_workload_option(src, !src->user_threads);
	if (ret) {
		snprintf(err, TLAT_ERR_LEN, "cannot select the %s threads of timerlat: %s",
			 src->user_threads ? "user" : "kernel", strerror(-ret));
		return ret;
	}
	return tl_set_align(src, err);
}

#define TL_RECORDS	"ftrace", "timerlat", "kernel_stack", "size", "caller"

static int tl_decoder(struct tlat_source **out, const struct tlat_params *params,
		      struct tep_handle *tep, char *err)
{
	struct tlat_source *src = calloc(1, sizeof(*src));

	*out = src;
	if (!src)
		return -ENOMEM;
	src->params = params;
	src->lock_fd = -1;
	return timerlat_records_init(&src->records, tep, TL_RECORDS, err);
}

static int tl_open(struct tlat_source **out, const struct tlat_params *params,
		   struct tlat_session *session, struct tep_handle *tep, char *err)
{
	struct tracefs_instance *inst = session->inst;
	struct tlat_source *src;
	int ret;

	src = calloc(1, sizeof(*src));
	if (!src)
		return -ENOMEM;
	*out = src;
	src->params = params;
	src->session = session;
	/*
	 * Between the probe and setting the tracer, another tlat may probe too:
	 * the lock closes that window; the tracer check covers rtla.
	 */
	src->lock_fd = runlock_acquire("timerlat");
	if (src->lock_fd < 0) {
		snprintf(err, TLAT_ERR_LEN, "the timerlat tracer is in use by another tlat");
		return src->lock_fd;
	}
	src->user_threads = params->threads == TLAT_THREADS_USER ||
			    (params->threads == TLAT_THREADS_AUTO && tl_has_timerlat_fd());
	if (src->user_threads && !tl_has_timerlat_fd()) {
		snprintf(err, TLAT_ERR_LEN, "this kernel has no timerlat_fd for user threads (-u): use -k");
		return -EOPNOTSUPP;
	}
	if (params->aligned && tl_option_state(TL_ALIGN_OPTION) < 0) {
		snprintf(err, TLAT_ERR_LEN, "this kernel's timerlat tracer cannot align its threads (no TIMERLAT_ALIGN, 7.1+): use --source module or tracepoints for -A");
		return -EOPNOTSUPP;
	}
	ret = timerlat_records_init(&src->records, tep, TL_RECORDS, err);
	if (ret)
		return ret;
	src->knobs = knobs_alloc(session->tracing_dir);
	if (!src->knobs)
		return -ENOMEM;
	ret = tl_configure(src, err);
	if (ret)
		return ret;

	tracefs_trace_off(inst);
	if (tracefs_instance_set_buffer_size(inst, params->buffer_kb ?: TL_DEFAULT_BUFFER_KB, -1)) {
		snprintf(err, TLAT_ERR_LEN, "cannot set the trace buffer size: %s", strerror(errno));
		return -EIO;
	}
	/* setting the tracer starts the kernel threads: samples wait for trace on */
	if (tracefs_tracer_set(inst, TRACEFS_TRACER_CUSTOM, "timerlat")) {
		snprintf(err, TLAT_ERR_LEN, "cannot set the timerlat tracer: %s", strerror(errno));
		return -EIO;
	}
	src->tracer_set = true;
	if (!src->user_threads) {
		ret = tl_set_kthread_sched(&params->sched);
		if (ret)
			snprintf(err, TLAT_ERR_LEN, "cannot set the priority of timerlat's threads: %s",
				 strerror(-ret));
		return ret;
	}
	if (params->user_load)
		return 0;	/* the user's own tasks read timerlat_fd */
	/* osnoise/per_cpu/cpu<N>/timerlat_fd */
	src->fd_prefix = tracefs_get_tracing_file("osnoise/per_cpu/cpu");
	if (!src->fd_prefix)
		return -ENOMEM;
	src->timerlat_fd = (struct fd_workload){ src->fd_prefix, "/timerlat_fd", true };
	return workload_create(&src->wl, params, &fd_workload_ops, &src->timerlat_fd, err);
}

static int tl_start(struct tlat_source *src, char *err)
{
	if (tracefs_trace_on(src->session->inst)) {
		snprintf(err, TLAT_ERR_LEN, "cannot turn tracing on: %s", strerror(errno));
		return -EIO;
	}
	if (src->wl)
		workload_start(src->wl);
	return 0;
}

static void tl_record(struct tlat_source *src, struct tep_event *event,
		      struct tep_record *record, struct tlat_sink *sink)
{
	timerlat_records_forward(&src->records, event, record, sink);
}

/*
 * User threads must have closed timerlat_fd before the tracer goes: the
 * kernel SIGKILLs the user threads it still knows, and with them tlat.
 */
static void tl_stop(struct tlat_source *src)
{
	if (src->wl)
		workload_stop(src->wl);
	tracefs_trace_off(src->session->inst);
}

static void tl_report(struct tlat_source *src, FILE *out)
{
	fprintf(out, "tlat: timerlat: %s threads\n", src->user_threads ? "user" : "kernel");
}

static bool tl_user_data(const struct tlat_source *src)
{
	return src->user_threads;
}

static void tl_close(struct tlat_source *src)
{
	if (!src)
		return;
	if (src->wl) {
		workload_stop(src->wl);
		workload_free(src->wl);
	}
	if (src->tracer_set)
		tracefs_tracer_clear(src->session->inst);
	while (src->nr_options--) {
		tracefs_instance_file_write(NULL, "osnoise/options",
					    src->options_saved[src->nr_options]);
		free(src->options_saved[src->nr_options]);
	}
	tracefs_put_tracing_file(src->fd_prefix);
	knobs_free(src->knobs);
	runlock_release(src->lock_fd);
	free(src);
}

const struct tlat_source_ops timerlat_source_ops = {
	.name = "timerlat",
	.systems = tl_systems,
	.interference = &aa_osnoise_ops,
	.probe = tl_probe,
	.open = tl_open,
	.decoder = tl_decoder,
	.start = tl_start,
	.arm_thresholds = tl_arm_thresholds,
	.record = tl_record,
	.stop = tl_stop,
	.report = tl_report,
	.user_data = tl_user_data,
	.close = tl_close,
};
