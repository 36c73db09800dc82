/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli_local.h - what the parser (cli.c) and the options' meanings
 * (cli_options.c) share. Private to cmd/.
 */
#ifndef TLAT_CMD_CLI_LOCAL_H
#define TLAT_CMD_CLI_LOCAL_H

#include "core/params.h"

/* the long options without a short one */
enum {
	OPT_DMA_LATENCY = 256,
	OPT_WARMUP,
	OPT_BUFFER_SIZE,
	OPT_SOURCE,
	OPT_COLLECTOR,
	OPT_READERS,
	OPT_SAMPLE_LOG,
	OPT_NO_IRQ,
	OPT_NO_THREAD,
	OPT_NO_HEADER,
	OPT_NO_SUMMARY,
	OPT_NO_INDEX,
	OPT_WITH_ZEROS,
	OPT_AA_ONLY,
	OPT_NO_AA,
	OPT_DUMP_TASKS,
	OPT_REPORT_HITS,
	OPT_AA_EXTRAS,
	OPT_STACK_FORMAT,
	OPT_JSON,
	OPT_JSON_FORMAT,
	OPT_PLOT,
	OPT_ON_THRESHOLD,
	OPT_ON_END,
	OPT_FILTER,
	OPT_TRIGGER,
	OPT_DEEPEST_IDLE,
};

/* one line in err, and -EINVAL */
int cli_error(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * What option opt (getopt's answer) with arg sets in p: 0, 1 if it is no
 * option of tlat's, or -errno with err set. trace_file: -t's and -a's,
 * which becomes the last threshold action once all is parsed.
 */
int cli_option(struct tlat_params *p, const char **trace_file, int opt, const char *arg,
	       char *err);

#endif
