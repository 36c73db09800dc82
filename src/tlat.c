// SPDX-License-Identifier: GPL-2.0
/*
 * tlat.c - main(): picks the command (top, hist, record, report, info), also
 * when called as "rtla timerlat [top|hist]", parses its options and runs it.
 * The only place that prints errors and chooses the exit status.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "cli.h"
#include "info.h"
#include "privilege.h"
#include "run.h"
#include "version.h"

struct mode_word {
	const char *name;
	enum tlat_mode mode;
};

static const struct mode_word commands[] = {
	{ "top", TLAT_MODE_TOP },
	{ "hist", TLAT_MODE_HIST },
};

/* the commands that write or read a trace.dat */
static const struct {
	const char *name;
	enum tlat_command command;
} dat_commands[] = {
	{ "record", TLAT_CMD_RECORD },
	{ "report", TLAT_CMD_REPORT },
};

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"tlat version %s\n\n"
		"  usage: %s [top|hist|record|report|info] [options] [-h|--help]\n\n"
		"  commands:\n"
		"     top    - prints the summary of the timer latency, per CPU\n"
		"     hist   - prints a histogram of the timer latency\n"
		"     record - measures as top or hist, and keeps the trace in a trace.dat\n"
		"     report - prints the summary or histogram of a trace.dat\n"
		"     info   - tells which sample sources this machine supports, and why\n\n"
		"if no command is given, top is run with the given options\n",
		TLAT_VERSION, prog);
}

/* argc/argv: the command's options; cmdline: the whole command line, for --json */
static int run_command(enum tlat_command command, enum tlat_mode mode, const char *prog,
		       int argc, char **argv, int cmdline_argc, char **cmdline)
{
	/* getopt may permute argv: the documents want the command line as typed */
	char **typed = malloc(cmdline_argc * sizeof(*typed));
	char err[TLAT_ERR_LEN] = "";
	struct tlat_params params;
	int ret;

	if (!typed || cli_params_init(&params, mode, get_nprocs_conf())) {
		fprintf(stderr, "%s: out of memory\n", prog);
		free(typed);
		return TLAT_EXIT_ERROR;
	}
	memcpy(typed, cmdline, cmdline_argc * sizeof(*typed));
	params.argc = cmdline_argc;
	params.argv = typed;
	params.command = command;
	ret = cli_parse(&params, argc, argv, err);
	if (ret == TLAT_CLI_HELP) {
		cli_usage(stdout, &params);
		ret = TLAT_EXIT_PASS;
		goto out;
	}
	/* reading a file needs no privilege */
	if (!ret && command != TLAT_CMD_REPORT)
		ret = privilege_check(prog, err);
	if (!ret)
		ret = command == TLAT_CMD_REPORT ? tlat_report(&params, err) :
						   tlat_run(&params, err);
	else
		ret = TLAT_EXIT_ERROR;
	/* what the run printed comes before its error */
	fflush(stdout);
	if (ret == TLAT_EXIT_ERROR)
		fprintf(stderr, "%s: %s\n", prog, *err ? err : "failed");
out:
	cli_params_free(&params);
	free(typed);
	return ret;
}

static int run_info(const char *prog, int argc)
{
	char err[TLAT_ERR_LEN] = "";

	if (argc > 1) {
		fprintf(stderr, "%s: info takes no options\n", prog);
		return TLAT_EXIT_ERROR;
	}
	if (privilege_check(prog, err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return TLAT_EXIT_ERROR;
	}
	if (tlat_info(stdout, err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return TLAT_EXIT_ERROR;
	}
	return TLAT_EXIT_PASS;
}

int main(int argc, char **argv)
{
	const char *prog = basename(argv[0]);
	char **cmdline = argv;
	int cmdline_argc = argc;

	setvbuf(stdout, NULL, _IOFBF, 0);
	/* "rtla timerlat ..." is "tlat ..." */
	if (!strcmp(prog, "rtla")) {
		if (argc < 2 || strcmp(argv[1], "timerlat")) {
			fprintf(stderr, "rtla: only the timerlat command is supported: rtla timerlat [top|hist] ...\n");
			return TLAT_EXIT_ERROR;
		}
		argc--;
		argv++;
	}
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout, prog);
		return TLAT_EXIT_PASS;
	}
	if (argc >= 2 && !strcmp(argv[1], "info"))
		return run_info(prog, argc - 1);
	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		printf("tlat version %s\n", TLAT_VERSION);
		return TLAT_EXIT_PASS;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (argc >= 2 && !strcmp(argv[1], commands[i].name))
			return run_command(TLAT_CMD_MEASURE, commands[i].mode, prog, argc - 1,
					   argv + 1, cmdline_argc, cmdline);
	/* record and report take the mode as a word of their own: record [top|hist] ... */
	for (size_t c = 0; c < sizeof(dat_commands) / sizeof(dat_commands[0]); c++) {
		if (argc < 2 || strcmp(argv[1], dat_commands[c].name))
			continue;
		argc--;
		argv++;
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (argc >= 2 && !strcmp(argv[1], commands[i].name))
				return run_command(dat_commands[c].command, commands[i].mode, prog,
						   argc - 1, argv + 1, cmdline_argc, cmdline);
		return run_command(dat_commands[c].command, TLAT_MODE_TOP, prog, argc, argv,
				   cmdline_argc, cmdline);
	}
	/* as rtla: no command, or options first, means top */
	if (argc < 2 || argv[1][0] == '-')
		return run_command(TLAT_CMD_MEASURE, TLAT_MODE_TOP, prog, argc, argv,
				   cmdline_argc, cmdline);
	fprintf(stderr, "%s: unknown command '%s' (try: top, hist, record, report, info)\n", prog,
		argv[1]);
	return TLAT_EXIT_ERROR;
}
