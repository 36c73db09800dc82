// SPDX-License-Identifier: GPL-2.0
/*
 * aa_adapter.c - what both auto-analysis adapters need to name things the
 * way the kernel prints them.
 */
#include <string.h>

#include "aa_adapter.h"

/* the kernel's softirq names, as __print_symbolic() prints them */
const char *aa_softirq_name(unsigned long long vec)
{
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
		"IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	return vec < sizeof(names) / sizeof(names[0]) ? names[vec] : "UNKNOWN";
}

/* event strings need not be NUL-terminated within their field */
void aa_copy_name(char *dst, const void *src, size_t len)
{
	size_t n = strnlen(src, len < AA_NAME_LEN - 1 ? len : AA_NAME_LEN - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}
