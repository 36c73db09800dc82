// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ksyms.c - libFuzzer harness: a /proc/kallsyms of any content
 * (ksyms_load_file(), through fmemopen(), the real file untouched), then
 * what a stack or %ps field asks of the symbols: the function at an
 * address, taken from the input's first bytes and from round numbers, and
 * its start.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <event-parse.h>

#include "trace/ksyms.h"

static void lookup(struct tep_handle *tep, unsigned long long addr)
{
	const char *name = tep_find_function(tep, addr);

	if (name)
		(void)strlen(name);
	(void)tep_find_function_address(tep, addr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tep_handle *tep;
	unsigned long long addr = 0;
	FILE *f;

	if (!size)
		return 0;
	tep = tep_alloc();
	if (!tep)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (f) {
		ksyms_load_file(tep, f);
		fclose(f);
		memcpy(&addr, data, size < sizeof(addr) ? size : sizeof(addr));
		lookup(tep, addr);
		lookup(tep, 0);
		lookup(tep, ~0ull);
		lookup(tep, 0xffffffff81000000ull);
		lookup(tep, 0xffffffff81000010ull);
	}
	tep_free(tep);
	return 0;
}
