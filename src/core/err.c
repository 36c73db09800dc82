// SPDX-License-Identifier: GPL-2.0
/*
 * err.c - the error line (see err.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "core/err.h"

void tlat_err(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, TLAT_ERR_LEN, fmt, ap);
	va_end(ap);
}
