/* SPDX-License-Identifier: GPL-2.0 */
/*
 * privilege.h - whether this process may trace at all: root, and root of
 * the initial user namespace. Checked before anything is set up, so that a
 * user who may not trace gets one line, not a failure halfway through.
 */
#ifndef TLAT_UTIL_PRIVILEGE_H
#define TLAT_UTIL_PRIVILEGE_H

/**
 * privilege_check - whether this process may trace at all
 * @prog: the name tlat was called by, for the message
 * @err: why not, on failure
 *
 * Root, and root of the initial user namespace.
 *
 * Returns 0, or -EPERM with @err set.
 */
int privilege_check(const char *prog, char *err);

#endif
