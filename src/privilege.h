/* SPDX-License-Identifier: GPL-2.0 */
/*
 * privilege.h - whether this process may trace at all: root, and root of
 * the initial user namespace. Checked before anything is set up, so that a
 * user who may not trace gets one line, not a failure halfway through.
 */
#ifndef TLAT_PRIVILEGE_H
#define TLAT_PRIVILEGE_H

/* 0, or -EPERM and why in err (prog: the name tlat was called by) */
int privilege_check(const char *prog, char *err);

#endif
