/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - the command line of tlat top, hist, record and report. Parsing never
 * exits and never prints: errors come back as one line in the caller's buffer.
 */
#ifndef TLAT_CMD_CLI_H
#define TLAT_CMD_CLI_H

#include <stdio.h>

#include "core/err.h"
#include "core/params.h"

#define TLAT_CLI_HELP	1	/* parse succeeded, but the user asked for --help */

/**
 * cli_params_init - the options of a command line that gives none
 * @params: set to rtla's defaults: 1000 us period, all CPUs, source auto
 * @mode: top or hist
 * @nr_cpus: the CPUs the machine has, for the CPU sets
 *
 * Returns 0 or -ENOMEM; free @params with cli_params_free() either way.
 */
int cli_params_init(struct tlat_params *params, enum tlat_mode mode, int nr_cpus);

/**
 * cli_params_free - free what parsing allocated in the options
 * @params: from cli_params_init(); the struct itself is the caller's
 */
void cli_params_free(struct tlat_params *params);

/**
 * cli_parse - parse a command line into the options
 * @params: from cli_params_init(), with its command set
 * @argc: the command's arguments, counting argv[0]
 * @argv: argv[0] names the command (getopt skips it), then its options
 * @err: the error line, on failure
 *
 * Returns 0, TLAT_CLI_HELP if the user asked for --help, or -errno with
 * one line in @err (the caller prints it and exits 1).
 */
int cli_parse(struct tlat_params *params, int argc, char **argv, char *err);

/**
 * cli_usage - the help of a command line, as rtla prints it
 * @out: where to print it
 * @params: the command and mode whose help it is
 */
void cli_usage(FILE *out, const struct tlat_params *params);

#endif
