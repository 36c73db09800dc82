/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - the command line of tlat top, hist, record and report. Parsing never
 * exits and never prints: errors come back as one line in the caller's buffer.
 */
#ifndef TLAT_CLI_H
#define TLAT_CLI_H

#include <stdio.h>

#include "params.h"

#define TLAT_CLI_HELP	1	/* parse succeeded, but the user asked for --help */
#define TLAT_ERR_LEN	256

int cli_params_init(struct tlat_params *params, enum tlat_mode mode, int nr_cpus);
void cli_params_free(struct tlat_params *params);
int cli_parse(struct tlat_params *params, int argc, char **argv, char *err);
void cli_usage(FILE *out, const struct tlat_params *params);

#endif
