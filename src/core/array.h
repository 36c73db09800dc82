/* SPDX-License-Identifier: GPL-2.0 */
/*
 * array.h - the kernel's ARRAY_SIZE(), for the fixed tables tlat loops over.
 */
#ifndef TLAT_CORE_ARRAY_H
#define TLAT_CORE_ARRAY_H

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
