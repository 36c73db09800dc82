/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup.h - rtla's -C: the measuring threads run in a cgroup (v2).
 */
#ifndef TLAT_CGROUP_H
#define TLAT_CGROUP_H

/*
 * Move the measuring threads (kernel threads named timerlat/N or tlat/N,
 * and tlat's own) into the cgroup @name (relative to the cgroup2 root), or
 * into tlat's own cgroup if @name is NULL.
 */
int cgroup_attach_measuring_threads(const char *name, char *err);

#endif
