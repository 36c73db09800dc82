/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.h - kernel symbols for a tep, from /proc/kallsyms, so that stacks
 * and %ps fields print as function names.
 */
#ifndef TLAT_TRACE_KSYMS_H
#define TLAT_TRACE_KSYMS_H

#include <stdio.h>
#include <event-parse.h>

/* /proc/kallsyms is some 10 MB; a file past this is not one */
#define KSYMS_MAX_BYTES	(256u << 20)

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

/**
 * ksyms_load_file - ksyms_load() from an open file in kallsyms' format
 * @tep: the tep, before its first symbol lookup
 * @f: the file, read to its end
 *
 * Returns 0; -EFBIG past KSYMS_MAX_BYTES, -EINVAL for a NUL byte in it or
 * text libtraceevent refuses, -EIO or -ENOMEM. The tep may then hold some of
 * the symbols.
 */
int ksyms_load_file(struct tep_handle *tep, FILE *f);

#endif
