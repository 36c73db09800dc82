// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_cli.c - libFuzzer harness: command lines, the action parser (--on-
 * threshold, --on-end) and every option's value parser. The input's first
 * byte picks the command and mode; the rest, split at NUL bytes, is argv.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "core/err.h"

#define MAX_ARGS	64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum tlat_command cmds[] = {
		TLAT_CMD_MEASURE, TLAT_CMD_RECORD, TLAT_CMD_REPORT,
	};
	char err[TLAT_ERR_LEN] = "";
	char *argv[MAX_ARGS + 2], *buf;
	struct tlat_params params;
	int argc = 0;

	if (!size)
		return 0;
	buf = malloc(size);
	if (!buf)
		return 0;
	/* the arguments, each NUL-terminated: the last one too */
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	argv[argc++] = "tlat";
	for (char *p = buf; p < buf + size && argc <= MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	if (!cli_params_init(&params, data[0] & 1 ? TLAT_MODE_HIST : TLAT_MODE_TOP, 4)) {
		params.command = cmds[(data[0] >> 1) % 3];
		params.argc = argc;
		params.argv = argv;
		cli_parse(&params, argc, argv, err);
	}
	cli_params_free(&params);
	free(buf);
	return 0;
}
