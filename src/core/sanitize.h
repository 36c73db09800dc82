/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sanitize.h - whether this build has AddressSanitizer (make SANITIZE=...):
 * it reserves terabytes of address space (no RLIMIT_AS), handles crashing
 * signals itself, and reports on standard error, which must stay open.
 */
#ifndef TLAT_CORE_SANITIZE_H
#define TLAT_CORE_SANITIZE_H

#if defined(__SANITIZE_ADDRESS__)
#define TLAT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TLAT_ASAN 1
#endif
#endif

#endif
