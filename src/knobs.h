/* SPDX-License-Identifier: GPL-2.0 */
/*
 * knobs.h - global settings outside tlat's instance (osnoise/ files, module
 * parameters): each is read before its first write and written back when the
 * run ends, in reverse order.
 */
#ifndef TLAT_KNOBS_H
#define TLAT_KNOBS_H

#include <stdbool.h>

struct knobs;

struct knobs *knobs_alloc(const char *dir);
/* save the current value once, then write the new one */
int knobs_set(struct knobs *knobs, const char *name, const char *value);
/* the same, for a number */
int knobs_set_u64(struct knobs *knobs, const char *name, unsigned long long value);
int knobs_get(struct knobs *knobs, const char *name, char *buf, int len);
bool knobs_exists(const struct knobs *knobs, const char *name);
/* restore every changed knob, newest first; returns the first error */
int knobs_restore(struct knobs *knobs);
void knobs_free(struct knobs *knobs);

#endif
