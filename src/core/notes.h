/* SPDX-License-Identifier: GPL-2.0 */
/*
 * notes.h - what the layers below the command have to tell the user besides
 * an error: rtla's lines in the middle of the output ("  Saving trace to
 * ..."), -D's debug lines and warnings. They hand each line over; the
 * command layer, which knows where the output goes, prints it.
 */
#ifndef TLAT_CORE_NOTES_H
#define TLAT_CORE_NOTES_H

enum tlat_note_kind {
	TLAT_NOTE_OUTPUT,	/* a line of the text output, where rtla prints it */
	TLAT_NOTE_DEBUG,	/* -D */
	TLAT_NOTE_WARNING,	/* something the user should know, that is no error */
};

struct tlat_notes {
	/* line has no newline; kind says where it belongs */
	void (*note)(void *ctx, enum tlat_note_kind kind, const char *line);
	void *ctx;
};

/**
 * tlat_note - hand one line to the command layer
 * @notes: where it goes; NULL drops it (a caller with no one to tell)
 * @fmt: printf's format, without a newline
 */
void tlat_note(const struct tlat_notes *notes, enum tlat_note_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
