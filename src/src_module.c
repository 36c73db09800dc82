// SPDX-License-Identifier: GPL-2.0
/*
 * src_module.c - the source backed by tlat.ko (kernel/), tlat's own
 * timerlat-like tracer: its kernel threads or, with user threads, tlat's
 * threads reading /dev/tlat measure, and tlat:tlat_sample carries each
 * sample. tlat loads the module if it is not loaded (modprobe, or the
 * tlat.ko built next to the tlat binary), and unloads it again at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aa_adapter.h"
#include "cli.h"
#include "cpuset.h"
#include "knobs.h"
#include "runlock.h"
#include "source.h"
#include "timerlat_event.h"
#include "workload.h"

#define MOD_NAME	"tlat"
#define MOD_PARAMS	"/sys/module/tlat/parameters"
#define MOD_DEVICE	"/dev/tlat"
#define MOD_DEFAULT_BUFFER_KB	2048

extern char **environ;

struct tlat_source {
	const struct tlat_params *params;
	struct tlat_session *session;
	struct knobs *knobs;
	struct workload *wl;
	struct timerlat_records records;
	struct fd_workload device;	/* /dev/tlat, for user threads */
	bool user_threads;
	bool loaded_by_us;
	int lock_fd;			/* held while tlat owns the module */
};

static const char *const mod_systems[] = { "tlat", NULL };

static bool mod_loaded(void)
{
	return tracefs_event_file_exists(NULL, "tlat", "tlat_sample", "format");
}

/* the tlat.ko built in the source tree, next to a tlat built there */
static int mod_tree_path(char *path, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		return -errno;
	exe[n] = '\0';
	if (snprintf(path, len, "%s/kernel/tlat.ko", dirname(exe)) >= (int)len)
		return -ENAMETOOLONG;
	return access(path, R_OK) ? -ENOENT : 0;
}

static int run_quietly(char *const argv[])
{
	posix_spawn_file_actions_t actions;
	int status, ret;
	pid_t pid;

	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
	ret = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	if (ret)
		return -ret;
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ENOENT;
}

static bool mod_loadable(void)
{
	char path[PATH_MAX];

	return !run_quietly((char *[]){ "modprobe", "-n", "-q", MOD_NAME, NULL }) ||
	       !mod_tree_path(path, sizeof(path));
}

static int mod_load(void)
{
	char path[PATH_MAX];
	int fd, ret;

	if (!run_quietly((char *[]){ "modprobe", "-q", MOD_NAME, NULL }))
		return 0;
	ret = mod_tree_path(path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, "", 0) ? -errno : 0;
	close(fd);
	return ret;
}

static void mod_unload(void)
{
	syscall(SYS_delete_module, MOD_NAME, O_NONBLOCK);
}

static int mod_probe(struct tlat_session *session, char *err)
{
	(void)session;
	if (mod_loaded() || mod_loadable())
		return 0;
	snprintf(err, TLAT_ERR_LEN, "tlat.ko is neither loaded nor loadable (modprobe tlat, or %s)",
		 "kernel/tlat.ko next to the tlat binary");
	return -ENOENT;
}

static int mod_set_stops(struct tlat_source *src, bool armed)
{
	const struct tlat_params *p = src->params;

	return knobs_set_u64(src->knobs, "stop_irq_us", armed ? p->stop_irq_us : 0) ?:
	       knobs_set_u64(src->knobs, "stop_thread_us", armed ? p->stop_thread_us : 0);
}

static int mod_arm_thresholds(struct tlat_source *src)
{
	return mod_set_stops(src, true);
}

/* -A: the module's align_us (-1: off); a tlat.ko older than -A has no such parameter */
static int mod_set_align(struct tlat_source *src, char *err)
{
	const struct tlat_params *p = src->params;
	char val[24];
	int ret;

	if (!knobs_exists(src->knobs, "align_us")) {
		if (!p->aligned)
			return 0;
		snprintf(err, TLAT_ERR_LEN, "this tlat.ko cannot align its threads (no align_us parameter): load the tlat.ko built with this tlat for -A");
		return -EOPNOTSUPP;
	}
	snprintf(val, sizeof(val), "%lld", p->aligned ? (long long)p->align_us : -1LL);
	ret = knobs_set(src->knobs, "align_us", val);
	if (ret)
		snprintf(err, TLAT_ERR_LEN, "cannot configure tlat.ko: %s", strerror(-ret));
	return ret;
}

static int mod_configure(struct tlat_source *src, char *err)
{
	const struct tlat_params *p = src->params;
	char cpus[4096];
	int ret;

	/* stop whatever measures before changing what it measures */
	ret = knobs_set(src->knobs, "enabled", "N");
	if (!ret)
		ret = knobs_set(src->knobs, "kthreads", src->user_threads ? "N" : "Y");
	if (!ret)
		ret = knobs_set_u64(src->knobs, "period_us", p->period_us);
	if (!ret)
		ret = cpuset_to_list(&p->cpus, cpus, sizeof(cpus));
	if (!ret)
		ret = knobs_set(src->knobs, "cpus", cpus);
	if (!ret && !src->user_threads)
		ret = knobs_set_u64(src->knobs, "prio",
				    p->sched.set ? p->sched.prio : TLAT_DEFAULT_PRIO);
	if (!ret)
		ret = knobs_set_u64(src->knobs, "print_stack_us", p->stack_us);
	/* a warm-up must not stop the run: run.c arms the stops after it */
	if (!ret)
		ret = mod_set_stops(src, !p->warmup_s);
	if (ret) {
		snprintf(err, TLAT_ERR_LEN, "cannot configure tlat.ko: %s", strerror(-ret));
		return ret;
	}
	return mod_set_align(src, err);
}

#define MOD_RECORDS	"tlat", "tlat_sample", "tlat_stack", "nr", "ips"

static int mod_decoder(struct tlat_source **out, const struct tlat_params *params,
		       struct tep_handle *tep, char *err)
{
	struct tlat_source *src = calloc(1, sizeof(*src));

	*out = src;
	if (!src)
		return -ENOMEM;
	src->params = params;
	src->lock_fd = -1;
	return timerlat_records_init(&src->records, tep, MOD_RECORDS, err);
}

static int mod_open(struct tlat_source **out, const struct tlat_params *params,
		    struct tlat_session *session, struct tep_handle *tep, char *err)
{
	struct tracefs_instance *inst = session->inst;
	struct tlat_source *src;
	int failures, ret;

	src = calloc(1, sizeof(*src));
	if (!src)
		return -ENOMEM;
	*out = src;
	src->params = params;
	src->session = session;
	src->user_threads = params->threads != TLAT_THREADS_KERNEL;
	src->device.prefix = MOD_DEVICE;
	/* the module's parameters are global: one tlat run at a time */
	src->lock_fd = runlock_acquire("module");
	if (src->lock_fd < 0) {
		snprintf(err, TLAT_ERR_LEN, "tlat.ko is in use by another tlat");
		return src->lock_fd;
	}

	if (!src->user_threads && params->sched.set &&
	    params->sched.policy != SCHED_FIFO) {
		snprintf(err, TLAT_ERR_LEN, "tlat.ko's kernel threads run SCHED_FIFO: use -P f:prio, or -u");
		return -EINVAL;
	}
	if (!mod_loaded()) {
		ret = mod_load();
		if (ret) {
			snprintf(err, TLAT_ERR_LEN, "cannot load tlat.ko: %s", strerror(-ret));
			return ret;
		}
		src->loaded_by_us = true;
		/* the new events must be known to libtraceevent */
		ret = tracefs_fill_local_events(NULL, tep, &failures);
		if (ret)
			return -EIO;
	}
	ret = timerlat_records_init(&src->records, tep, MOD_RECORDS, err);
	if (ret)
		return ret;
	src->knobs = knobs_alloc(MOD_PARAMS);
	if (!src->knobs)
		return -ENOMEM;
	ret = mod_configure(src, err);
	if (ret)
		return ret;

	tracefs_trace_off(inst);
	/*
	 * The module cannot stop an instance: a trigger on its threshold
	 * event, which follows the offending sample, stops only tlat's.
	 */
	if (tracefs_instance_set_buffer_size(inst, params->buffer_kb ?: MOD_DEFAULT_BUFFER_KB, -1) ||
	    tracefs_event_enable(inst, "tlat", "tlat_sample") ||
	    (params->stack_us && tracefs_event_enable(inst, "tlat", "tlat_stack")) ||
	    ((params->stop_irq_us || params->stop_thread_us) &&
	     tracefs_event_file_write(inst, "tlat", "tlat_threshold", "trigger", "traceoff") < 0)) {
		snprintf(err, TLAT_ERR_LEN, "cannot set up the trace instance: %s", strerror(errno));
		return -EIO;
	}
	if (!src->user_threads)
		return 0;
	/* /dev/tlat opens only while measurement is enabled */
	ret = knobs_set(src->knobs, "enabled", "Y");
	if (ret) {
		snprintf(err, TLAT_ERR_LEN, "cannot enable tlat.ko: %s", strerror(-ret));
		return ret;
	}
	if (params->user_load)
		return 0;	/* the user's own tasks read /dev/tlat */
	return workload_create(&src->wl, params, &fd_workload_ops, &src->device, err);
}

static int mod_start(struct tlat_source *src, char *err)
{
	int ret;

	if (tracefs_trace_on(src->session->inst)) {
		snprintf(err, TLAT_ERR_LEN, "cannot turn tracing on: %s", strerror(errno));
		return -EIO;
	}
	if (src->wl) {
		workload_start(src->wl);
		return 0;
	}
	ret = knobs_set(src->knobs, "enabled", "Y");
	if (ret)
		snprintf(err, TLAT_ERR_LEN, "cannot enable tlat.ko: %s", strerror(-ret));
	return ret;
}

static void mod_record(struct tlat_source *src, struct tep_event *event,
		       struct tep_record *record, struct tlat_sink *sink)
{
	timerlat_records_forward(&src->records, event, record, sink);
}

static void mod_stop(struct tlat_source *src)
{
	if (src->wl)
		workload_stop(src->wl);
	if (src->knobs)
		knobs_set(src->knobs, "enabled", "N");
	tracefs_trace_off(src->session->inst);
}

static void mod_report(struct tlat_source *src, FILE *out)
{
	fprintf(out, "tlat: module: %s threads%s\n", src->user_threads ? "user" : "kernel",
		src->loaded_by_us ? ", loaded for this run" : "");
}

static bool mod_user_data(const struct tlat_source *src)
{
	return src->user_threads;
}

static void mod_close(struct tlat_source *src)
{
	if (!src)
		return;
	if (src->wl) {
		workload_stop(src->wl);
		workload_free(src->wl);
	}
	knobs_free(src->knobs);
	if (src->loaded_by_us) {
		/* a module must not go while an instance still uses its events */
		if (src->params->stop_irq_us || src->params->stop_thread_us)
			tracefs_event_file_write(src->session->inst, "tlat", "tlat_threshold",
						 "trigger", "!traceoff");
		tracefs_event_disable(src->session->inst, "tlat", NULL);
		mod_unload();
	}
	runlock_release(src->lock_fd);
	free(src);
}

const struct tlat_source_ops module_source_ops = {
	.name = "module",
	.systems = mod_systems,
	.interference = &aa_stock_ops,
	.probe = mod_probe,
	.open = mod_open,
	.decoder = mod_decoder,
	.start = mod_start,
	.arm_thresholds = mod_arm_thresholds,
	.record = mod_record,
	.stop = mod_stop,
	.report = mod_report,
	.user_data = mod_user_data,
	.close = mod_close,
};
