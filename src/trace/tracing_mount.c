// SPDX-License-Identifier: GPL-2.0
/*
 * tracing_mount.c - see tracing_mount.h. Which mount is tlat's is written
 * down in a file next to the run locks, with the mount's id: a mount made
 * again later by someone else has another id, and is left alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <unistd.h>

#include "core/err.h"
#include "trace/tracing_mount.h"
#include "util/runlock.h"

#define MARK_NAME	"tracefs-mount"

/* the directory dir is in; false if there is none but / */
static bool parent_dir(const char *dir, char *parent, size_t len)
{
	char *slash;

	if (snprintf(parent, len, "%s", dir) >= (int)len)
		return false;
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return false;
	*slash = '\0';
	return true;
}

/*
 * Where only debugfs is mounted, libtracefs names its tracing/ directory, on
 * which the kernel mounts tracefs at the first look (an automount): a mount
 * that tlat causes. AT_NO_AUTOMOUNT looks without triggering it.
 */
static bool automount_pending(const char *dir)
{
	char parent[PATH_MAX];
	struct stat st, pst;

	if (!parent_dir(dir, parent, sizeof(parent)) ||
	    fstatat(AT_FDCWD, dir, &st, AT_NO_AUTOMOUNT) || stat(parent, &pst))
		return false;
	return st.st_dev == pst.st_dev;
}

/* the id of the mount dir is on (and an automount there is triggered) */
static unsigned long long mount_id(const char *dir)
{
	struct statx stx;

	if (statx(AT_FDCWD, dir, 0, STATX_MNT_ID, &stx) || !(stx.stx_mask & STATX_MNT_ID))
		return 0;
	return stx.stx_mnt_id;
}

/* "<mnt_id> <debugfs> <dir>": the mount a tlat run made and has not undone */
static bool mark_read(unsigned long long *mnt_id, int *debugfs, char *dir, size_t len)
{
	char path[PATH_MAX], fmt[32];
	bool ok;
	FILE *f;

	runlock_path(MARK_NAME, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return false;
	snprintf(fmt, sizeof(fmt), "%%llu %%d %%%zus", len - 1);
	ok = fscanf(f, fmt, mnt_id, debugfs, dir) == 3;
	fclose(f);
	return ok;
}

static void mark_write(const struct tracing_mount *m)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;

	runlock_path(MARK_NAME, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.%d", path, getpid());
	f = fopen(tmp, "we");
	if (!f)
		return;
	fprintf(f, "%llu %d %s\n", m->mnt_id, m->debugfs, m->dir);
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
}

static void mark_remove(const struct tracing_mount *m)
{
	unsigned long long id;
	char path[PATH_MAX], dir[PATH_MAX];
	int debugfs;

	if (!mark_read(&id, &debugfs, dir, sizeof(dir)) || id != m->mnt_id)
		return;
	runlock_path(MARK_NAME, path, sizeof(path));
	unlink(path);
}

/* a mount of a tlat run that ended without undoing it (it was killed) */
static void take_over(struct tracing_mount *m)
{
	unsigned long long id;
	char dir[PATH_MAX];
	int debugfs;

	m->mnt_id = mount_id(m->dir);
	if (m->mnt_id && mark_read(&id, &debugfs, dir, sizeof(dir)) && id == m->mnt_id &&
	    !strcmp(dir, m->dir)) {
		m->ours = true;
		m->debugfs = debugfs;
	}
}

int tracing_mount_get(struct tracing_mount *m, char *err)
{
	int ret;

	memset(m, 0, sizeof(*m));
	ret = tracefs_tracing_dir_is_mounted(false, &m->dir);
	if (ret == 1 && m->dir) {
		m->ours = automount_pending(m->dir);
		if (!m->ours)
			take_over(m);
	} else {
		/* where tracefs cannot be mounted, libtracefs mounts debugfs */
		ret = tracefs_tracing_dir_is_mounted(true, &m->dir);
		if (ret < 0 || !m->dir) {
			tlat_err(err, "tracefs is not available (mounting it failed: %s)",
				 strerror(errno ? errno : ENODEV));
			return -ENODEV;
		}
		m->ours = true;
		m->debugfs = automount_pending(m->dir);
	}
	if (m->ours && !m->mnt_id) {
		m->mnt_id = mount_id(m->dir);
		mark_write(m);
	}
	/*
	 * Every later libtracefs call looks for the directory again, and where
	 * it sees only debugfs's it mounts tracefs at /sys/kernel/tracing
	 * besides: pin it to this one.
	 */
	if (tracefs_set_tracing_dir((char *)m->dir)) {
		tracing_mount_put(m, true);
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

void tracing_mount_put(struct tracing_mount *m, bool last)
{
	char parent[PATH_MAX];

	if (!m->ours || !last)
		return;
	umount2(m->dir, MNT_DETACH);
	if (m->debugfs && parent_dir(m->dir, parent, sizeof(parent)))
		umount2(parent, MNT_DETACH);
	mark_remove(m);
	m->ours = false;
}
