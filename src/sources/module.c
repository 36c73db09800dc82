// SPDX-License-Identifier: GPL-2.0
/*
 * module.c - the source backed by tlat.ko (kernel/), tlat's own
 * timerlat-like tracer: its kernel threads or, with user threads, tlat's
 * threads reading /dev/tlat measure, and tlat:tlat_sample carries each
 * sample. tlat loads the module if it is not loaded (modprobe, or the
 * tlat.ko built next to the tlat binary), and unloads it again at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "analysis/aa_adapter.h"
#include "core/err.h"
#include "sources/kernel_source.h"
#include "util/cpuset.h"
#include "util/knobs.h"
#include "util/spawn.h"

#define MOD_NAME	"tlat"
#define MOD_PARAMS	"/sys/module/tlat/parameters"
#define MOD_DEVICE	"/dev/tlat"
#define MOD_DEFAULT_BUFFER_KB	2048

struct tlat_source {
	struct kernel_source ks;	/* first: kernel_source.c's part */
	bool loaded_by_us;
};
_Static_assert(offsetof(struct tlat_source, ks) == 0, "kernel_source.c finds ks at src");

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

/*
 * modprobe, quietly: 0 if it succeeded. It keeps tlat's signal mask: as
 * open() itself, which loads the module, it runs to its end whatever stop
 * signal tlat holds back meanwhile.
 */
static int mod_modprobe(char *const argv[])
{
	int status = spawn_wait(argv, &(struct spawn_io){
		.in = STDIN_FILENO,
		.out = SPAWN_DEVNULL,
		.err = SPAWN_DEVNULL,
		.keep_sigmask = true,
	});

	return status < 0 ? status : status ? -ENOENT : 0;
}

static bool mod_loadable(void)
{
	char path[PATH_MAX];

	return !mod_modprobe((char *[]){ "modprobe", "-n", "-q", MOD_NAME, NULL }) ||
	       !mod_tree_path(path, sizeof(path));
}

static int mod_load(void)
{
	char path[PATH_MAX];
	int fd, ret;

	if (!mod_modprobe((char *[]){ "modprobe", "-q", MOD_NAME, NULL }))
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
	tlat_err(err, "tlat.ko is neither loaded nor loadable (modprobe tlat, or %s)",
		 "kernel/tlat.ko next to the tlat binary");
	return -ENOENT;
}

/* -A: the module's align_us (-1: off); a tlat.ko older than -A has no such parameter */
static int mod_set_align(struct tlat_source *src, char *err)
{
	const struct tlat_params *p = src->ks.params;
	char val[24];
	int ret;

	if (!knobs_exists(src->ks.knobs, "align_us")) {
		if (!p->aligned)
			return 0;
		tlat_err(err, "this tlat.ko cannot align its threads (no align_us parameter): load the tlat.ko built with this tlat for -A");
		return -EOPNOTSUPP;
	}
	snprintf(val, sizeof(val), "%lld", p->aligned ? (long long)p->align_us : -1LL);
	ret = knobs_set(src->ks.knobs, "align_us", val);
	if (ret)
		tlat_err(err, "cannot configure tlat.ko: %s", strerror(-ret));
	return ret;
}

static int mod_configure(struct tlat_source *src, char *err)
{
	const struct tlat_params *p = src->ks.params;
	struct knobs *knobs = src->ks.knobs;
	bool user_threads = src->ks.user_threads;
	char cpus[4096];
	int ret;

	/* stop whatever measures before changing what it measures */
	ret = knobs_set(knobs, "enabled", "N");
	if (!ret)
		ret = knobs_set(knobs, "kthreads", user_threads ? "N" : "Y");
	if (!ret)
		ret = knobs_set_u64(knobs, "period_us", p->period_us);
	if (!ret)
		ret = cpuset_to_list(&p->cpus, cpus, sizeof(cpus));
	if (!ret)
		ret = knobs_set(knobs, "cpus", cpus);
	if (!ret && !user_threads)
		ret = knobs_set_u64(knobs, "prio",
				    p->sched.set ? p->sched.prio : TLAT_DEFAULT_PRIO);
	if (!ret)
		ret = knobs_set_u64(knobs, "print_stack_us", p->stack_us);
	/* a warm-up must not stop the run: run.c arms the stops after it */
	if (!ret)
		ret = kernel_source_set_stops(&src->ks, !p->warmup_s);
	if (ret) {
		tlat_err(err, "cannot configure tlat.ko: %s", strerror(-ret));
		return ret;
	}
	return mod_set_align(src, err);
}

static int mod_enable(struct tlat_source *src, char *err)
{
	int ret = knobs_set(src->ks.knobs, "enabled", "Y");

	if (ret)
		tlat_err(err, "cannot enable tlat.ko: %s", strerror(-ret));
	return ret;
}

static void mod_disable(struct tlat_source *src)
{
	if (src->ks.knobs)
		knobs_set(src->ks.knobs, "enabled", "N");
}

static void mod_release(struct tlat_source *src)
{
	const struct tlat_params *p = src->ks.params;
	struct tracefs_instance *inst;

	if (!src->loaded_by_us)
		return;
	/* its parameters go back while it is there to take them */
	knobs_free(src->ks.knobs);
	src->ks.knobs = NULL;
	/* a module must not go while an instance still uses its events */
	inst = src->ks.session->inst;
	if (p->stop_irq_us || p->stop_thread_us)
		tracefs_event_file_write(inst, "tlat", "tlat_threshold", "trigger", "!traceoff");
	tracefs_event_disable(inst, "tlat", NULL);
	mod_unload();
}

static const struct kernel_source_kind mod_kind = {
	.size = sizeof(struct tlat_source),
	.resource = "module",
	.owner = "tlat.ko",
	.events = { "tlat", "tlat_sample", "tlat_stack", "nr", "ips" },
	.stop_irq_knob = "stop_irq_us",
	.stop_thread_knob = "stop_thread_us",
	/* its kernel threads only where -k asks for them */
	.user_by_default = NULL,
	/* without user threads, enabling the module starts its kernel threads */
	.start = mod_enable,
	.stop = mod_disable,
	.release = mod_release,
};

static int mod_decoder(struct tlat_source **out, const struct tlat_params *params,
		       struct tep_handle *tep, char *err)
{
	return kernel_source_decoder(out, &mod_kind, params, tep, err);
}

/* tlat.ko's events, known to libtraceevent once the module is loaded */
static int mod_load_events(struct tlat_source *src, struct tep_handle *tep, char *err)
{
	int failures, ret;

	if (mod_loaded())
		return 0;
	ret = mod_load();
	if (ret) {
		tlat_err(err, "cannot load tlat.ko: %s", strerror(-ret));
		return ret;
	}
	src->loaded_by_us = true;
	return tracefs_fill_local_events(NULL, tep, &failures) ? -EIO : 0;
}

/*
 * The module cannot stop an instance: a trigger on its threshold event,
 * which follows the offending sample, stops only tlat's.
 */
static int mod_set_instance(struct tracefs_instance *inst, const struct tlat_params *params,
			    char *err)
{
	tracefs_trace_off(inst);
	if (tracefs_instance_set_buffer_size(inst, params->buffer_kb ?: MOD_DEFAULT_BUFFER_KB, -1) ||
	    tracefs_event_enable(inst, "tlat", "tlat_sample") ||
	    (params->stack_us && tracefs_event_enable(inst, "tlat", "tlat_stack")) ||
	    ((params->stop_irq_us || params->stop_thread_us) &&
	     tracefs_event_file_write(inst, "tlat", "tlat_threshold", "trigger", "traceoff") < 0)) {
		tlat_err(err, "cannot set up the trace instance: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}

static int mod_open(struct tlat_source **out, const struct tlat_params *params,
		    struct tlat_session *session, struct tep_handle *tep, char *err)
{
	struct tlat_source *src;
	int ret;

	ret = kernel_source_open(out, &mod_kind, params, session, err);
	src = *out;
	if (ret)
		return ret;
	if (!src->ks.user_threads && params->sched.set && params->sched.policy != SCHED_FIFO) {
		tlat_err(err, "tlat.ko's kernel threads run SCHED_FIFO: use -P f:prio, or -u");
		return -EINVAL;
	}
	ret = mod_load_events(src, tep, err) ?:
	      kernel_source_setup(&src->ks, tep, MOD_PARAMS, err) ?:
	      mod_configure(src, err) ?:
	      mod_set_instance(session->inst, params, err);
	if (ret || !src->ks.user_threads)
		return ret;
	/* /dev/tlat opens only while measurement is enabled */
	ret = mod_enable(src, err);
	if (ret)
		return ret;
	src->ks.user_fd = (struct fd_workload){ .prefix = MOD_DEVICE, .comm = "tlat/" };
	return kernel_source_workload(&src->ks, err);
}

static void mod_report(struct tlat_source *src, const struct tlat_notes *notes)
{
	tlat_note(notes, TLAT_NOTE_DEBUG, "tlat: module: %s threads%s",
		  src->ks.user_threads ? "user" : "kernel",
		  src->loaded_by_us ? ", loaded for this run" : "");
}

const struct tlat_source_ops module_source_ops = {
	.name = "module",
	.systems = mod_systems,
	.interference = &aa_stock_ops,
	.probe = mod_probe,
	.open = mod_open,
	.decoder = mod_decoder,
	.report = mod_report,
	KERNEL_SOURCE_OPS,
};
