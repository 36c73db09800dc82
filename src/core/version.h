/* SPDX-License-Identifier: GPL-2.0 */
/*
 * version.h - tlat's version, printed by --version and recorded in every
 * JSON document; the build may override it (-DTLAT_VERSION=...).
 */
#ifndef TLAT_CORE_VERSION_H
#define TLAT_CORE_VERSION_H

#ifndef TLAT_VERSION
#define TLAT_VERSION "0.1"
#endif

#endif
