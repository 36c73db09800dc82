// SPDX-License-Identifier: GPL-2.0
/*
 * notes.c - a line for the command layer (see notes.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/notes.h"

void tlat_note(const struct tlat_notes *notes, enum tlat_note_kind kind, const char *fmt, ...)
{
	char *line;
	va_list ap;
	int ret;

	if (!notes)
		return;
	va_start(ap, fmt);
	ret = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return;
	notes->note(notes->ctx, kind, line);
	free(line);
}
