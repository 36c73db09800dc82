/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup.h - rtla's -C: the measuring threads run in a cgroup (v2).
 */
#ifndef TLAT_UTIL_CGROUP_H
#define TLAT_UTIL_CGROUP_H

/**
 * cgroup_attach_measuring_threads - rtla's -C: the measuring threads into a cgroup
 * @name: the cgroup, relative to the cgroup2 root; NULL: tlat's own
 * @err: the error line, on failure
 *
 * The kernel threads named timerlat/N or tlat/N, and tlat's own (tlat/N,
 * or timerlatu/N where they read timerlat_fd).
 *
 * Returns 0, or -errno with @err set.
 */
int cgroup_attach_measuring_threads(const char *name, char *err);

#endif
