// SPDX-License-Identifier: GPL-2.0
/*
 * mod_load.c - tlat.ko in and out of the kernel for the module source (see
 * mod_load.h): modprobe first, else the tlat.ko built next to the tlat
 * binary, loaded by finit_module().
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <tracefs.h>
#include <unistd.h>

#include "sources/mod_load.h"
#include "util/spawn.h"

#define MOD_NAME	"tlat"

bool mod_loaded(void)
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

bool mod_loadable(void)
{
	char path[PATH_MAX];

	return !mod_modprobe((char *[]){ "modprobe", "-n", "-q", MOD_NAME, NULL }) ||
	       !mod_tree_path(path, sizeof(path));
}

int mod_load(void)
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

void mod_unload(void)
{
	syscall(SYS_delete_module, MOD_NAME, O_NONBLOCK);
}
