/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.h - kernel symbols for a tep, from /proc/kallsyms, so that stacks
 * and %ps fields print as function names.
 */
#ifndef TLAT_KSYMS_H
#define TLAT_KSYMS_H

#include <event-parse.h>

/*
 * Once per tep, before its first symbol lookup: libtraceevent builds its
 * address map at the first lookup and does not take functions added later.
 */
int ksyms_load(struct tep_handle *tep);

#endif
