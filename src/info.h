/* SPDX-License-Identifier: GPL-2.0 */
/*
 * info.h - the "tlat info" command.
 */
#ifndef TLAT_INFO_H
#define TLAT_INFO_H

#include <stdio.h>

int tlat_info(FILE *out, char *err);

#endif
