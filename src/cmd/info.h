/* SPDX-License-Identifier: GPL-2.0 */
/*
 * info.h - the "tlat info" command.
 */
#ifndef TLAT_CMD_INFO_H
#define TLAT_CMD_INFO_H

#include <stdio.h>

#include "core/notes.h"

/**
 * tlat_info - what this machine supports, printed to @out: the kernel, where
 * tracefs is, and each source with why it can or cannot run
 *
 * Returns 0, or -errno with err set (tracefs not available).
 */
int tlat_info(FILE *out, const struct tlat_notes *notes, char *err);

#endif
