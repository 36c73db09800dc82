// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup.c - moves the measuring threads into a cgroup v2, as rtla's -C.
 * cgroup v2 moves whole processes: tlat's own threads take tlat (and its
 * collector) along; the kernel's threads move alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libproc2/pids.h>

#include "core/array.h"
#include "core/err.h"
#include "util/cgroup.h"

static const char *const thread_prefixes[] = { "timerlat/", "timerlatu/", "tlat/" };

static int cgroup2_root(char *buf, size_t len)
{
	FILE *f = setmntent("/proc/self/mounts", "r");
	struct mntent *m;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while ((m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "cgroup2")) {
			ret = snprintf(buf, len, "%s", m->mnt_dir) < (int)len ? 0 : -ENAMETOOLONG;
			break;
		}
	}
	endmntent(f);
	return ret;
}

/*
 * the "0::/path" line of /proc/self/cgroup, read whole (a part of a longer
 * line is no line of its own), its path refused if @buf cannot hold it
 */
static int own_cgroup(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char *line = NULL;
	size_t size = 0;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (getline(&line, &size, f) > 0) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		ret = snprintf(buf, len, "%s", line + 3) < (int)len ? 0 : -ENAMETOOLONG;
		break;
	}
	free(line);
	fclose(f);
	return ret;
}

static bool is_measuring_thread(const char *comm, int tgid, int ppid)
{
	/* kernel threads are children of kthreadd (pid 2); user ones must be ours */
	if (ppid != 2 && tgid != getpid())
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(thread_prefixes); i++)
		if (!strncmp(comm, thread_prefixes[i], strlen(thread_prefixes[i])))
			return true;
	return false;
}

static int move_threads(const char *procs)
{
	enum pids_item items[] = { PIDS_ID_PID, PIDS_ID_TGID, PIDS_ID_PPID, PIDS_CMD };
	struct pids_info *info = NULL;
	struct pids_stack *stack;
	int fd, moved = 0, ret = 0;

	fd = open(procs, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (procps_pids_new(&info, items, 4) < 0) {
		close(fd);
		return -ENOMEM;
	}
	while ((stack = procps_pids_get(info, PIDS_FETCH_THREADS_TOO))) {
		char pid[16];

		if (!is_measuring_thread(PIDS_VAL(3, str, stack, info),
					 PIDS_VAL(1, s_int, stack, info),
					 PIDS_VAL(2, s_int, stack, info)))
			continue;
		snprintf(pid, sizeof(pid), "%d", PIDS_VAL(0, s_int, stack, info));
		if (write(fd, pid, strlen(pid)) < 0)
			ret = -errno;
		else
			moved++;
	}
	procps_pids_unref(&info);
	close(fd);
	return ret ? ret : moved ? 0 : -ESRCH;
}

int cgroup_attach_measuring_threads(const char *name, char *err)
{
	char root[1024], rel[2048], procs[4096];
	int ret;

	ret = cgroup2_root(root, sizeof(root));
	if (!ret && !name)
		ret = own_cgroup(rel, sizeof(rel));
	else if (!ret)
		snprintf(rel, sizeof(rel), "%s%s", name[0] == '/' ? "" : "/", name);
	if (ret) {
		tlat_err(err, "-C needs a cgroup v2 hierarchy: %s", strerror(-ret));
		return ret;
	}
	snprintf(procs, sizeof(procs), "%s%s/cgroup.procs", root, strcmp(rel, "/") ? rel : "");
	ret = move_threads(procs);
	if (ret)
		tlat_err(err, "cannot move the measuring threads to %.200s: %s",
			 procs, strerror(-ret));
	return ret;
}
