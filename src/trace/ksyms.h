/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.h - kernel symbols for a tep, from /proc/kallsyms, so that stacks
 * and %ps fields print as function names.
 */
#ifndef TLAT_TRACE_KSYMS_H
#define TLAT_TRACE_KSYMS_H

#include <event-parse.h>

/**
 * ksyms_load - give a tep the kernel's symbols, from /proc/kallsyms
 * @tep: the tep, before its first symbol lookup
 *
 * Once per tep: libtraceevent builds its address map at the first lookup
 * and does not take functions added later.
 *
 * Returns 0, or -errno.
 */
int ksyms_load(struct tep_handle *tep);

#endif
