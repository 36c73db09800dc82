// SPDX-License-Identifier: GPL-2.0
/*
 * tlat.c - main(): picks the command (top, hist, record, report, info, compare) from
 * one table, also when called as "rtla timerlat [top|hist]", parses its
 * options and runs it. The only place that prints errors, -D's lines and
 * warnings, and that chooses the exit status.
 */
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/info.h"
#include "compare/compare.h"
#include "core/array.h"
#include "core/version.h"
#include "run/run.h"
#include "util/cpu_online.h"
#include "util/privilege.h"

struct command {
	const char *name;
	enum tlat_command command;
	enum tlat_mode mode;
	/* record and report take the mode as a word of their own: record [top|hist] ... */
	bool mode_word;
};

static const struct command commands[] = {
	{ "top",	TLAT_CMD_MEASURE,	TLAT_MODE_TOP,	false },
	{ "hist",	TLAT_CMD_MEASURE,	TLAT_MODE_HIST,	false },
	{ "record",	TLAT_CMD_RECORD,	TLAT_MODE_TOP,	true },
	{ "report",	TLAT_CMD_REPORT,	TLAT_MODE_TOP,	true },
};

#define NR_COMMANDS	ARRAY_SIZE(commands)

/* what the layers below have to say besides errors: -D's lines and warnings */
struct cmd_notes {
	const char *prog;
	bool debug;
};

static void cmd_note(void *ctx, enum tlat_note_kind kind, const char *line)
{
	const struct cmd_notes *cn = ctx;

	if (kind == TLAT_NOTE_DEBUG && !cn->debug)
		return;
	/* a line of the output where there is no output to put it in: standard output */
	fprintf(kind == TLAT_NOTE_OUTPUT ? stdout : stderr, "%s\n", line);
}

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"tlat version %s\n\n"
		"  usage: %s [top|hist|record|report|info|compare] [options] [-h|--help]\n\n"
		"  commands:\n"
		"     top    - prints the summary of the timer latency, per CPU\n"
		"     hist   - prints a histogram of the timer latency\n"
		"     record - measures as top or hist, and keeps the trace in a trace.dat\n"
		"     report - prints the summary or histogram of a trace.dat\n"
		"     info   - tells which sample sources this machine supports, and why\n"
		"     compare - compares two runs' --json files: a regression verdict for CI\n\n"
		"if no command is given, top is run with the given options\n",
		TLAT_VERSION, prog);
}

/*
 * "rtla timerlat --help": rtla's page, where scripts look for "timerlat
 * version"; as rtla, on standard error, exit status 0
 */
static void rtla_usage(void)
{
	fprintf(stderr,
		"\n"
		"timerlat version %s (tlat)\n"
		"\n"
		"  usage: [rtla] timerlat [MODE] ...\n"
		"\n"
		"  modes:\n"
		"     top   - prints the summary from timerlat tracer\n"
		"     hist  - prints a histogram of timer latencies\n"
		"\n"
		"if no MODE is given, the top mode is called, passing the arguments\n",
		TLAT_VERSION);
}

/* argc/argv: the command's options; cmdline: the whole command line, for --json */
static int run_command(const struct command *cmd, enum tlat_mode mode, const char *prog,
		       int argc, char **argv, int cmdline_argc, char **cmdline)
{
	/* getopt may permute argv: the documents want the command line as typed */
	char **typed = malloc(cmdline_argc * sizeof(*typed));
	struct cmd_notes cn = { .prog = prog };
	const struct tlat_notes notes = { cmd_note, &cn };
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
	params.command = cmd->command;
	ret = cli_parse(&params, argc, argv, err);
	if (ret == TLAT_CLI_HELP) {
		cli_usage(stdout, &params);
		ret = TLAT_EXIT_PASS;
		goto out;
	}
	cn.debug = params.debug;
	/* reading a file needs no privilege, nor online CPUs */
	if (!ret && cmd->command != TLAT_CMD_REPORT)
		ret = cpu_online_apply(&params.cpus, params.cpus_set, err);
	if (!ret && cmd->command != TLAT_CMD_REPORT)
		ret = privilege_check(prog, err);
	if (!ret)
		ret = cmd->command == TLAT_CMD_REPORT ? tlat_replay(&params, &notes, err) :
							tlat_measure(&params, &notes, err);
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
	struct cmd_notes cn = { .prog = prog };
	const struct tlat_notes notes = { cmd_note, &cn };
	char err[TLAT_ERR_LEN] = "";

	if (argc > 1) {
		fprintf(stderr, "%s: info takes no options\n", prog);
		return TLAT_EXIT_ERROR;
	}
	if (privilege_check(prog, err) || tlat_info(stdout, &notes, err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return TLAT_EXIT_ERROR;
	}
	return TLAT_EXIT_PASS;
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const char *prog = basename(argv[0]);
	const struct command *cmd, *mode;
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
		if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
			rtla_usage();
			return TLAT_EXIT_PASS;
		}
	}
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout, prog);
		return TLAT_EXIT_PASS;
	}
	if (argc >= 2 && !strcmp(argv[1], "info"))
		return run_info(prog, argc - 1);
	if (argc >= 2 && !strcmp(argv[1], "compare"))
		return tlat_compare(prog, argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		printf("tlat version %s\n", TLAT_VERSION);
		return TLAT_EXIT_PASS;
	}
	/* as rtla: no command, or options first, means top */
	if (argc < 2 || argv[1][0] == '-')
		return run_command(&commands[0], TLAT_MODE_TOP, prog, argc, argv, cmdline_argc,
				   cmdline);
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "%s: unknown command '%s' (try: top, hist, record, report, info, compare)\n",
			prog, argv[1]);
		return TLAT_EXIT_ERROR;
	}
	argc--;
	argv++;
	if (!cmd->mode_word)
		return run_command(cmd, cmd->mode, prog, argc, argv, cmdline_argc, cmdline);
	/* the parser's argv[0] is the word before the options, as for top and hist */
	mode = argc >= 2 ? find_command(argv[1]) : NULL;
	if (mode && !mode->mode_word)
		return run_command(cmd, mode->mode, prog, argc - 1, argv + 1, cmdline_argc,
				   cmdline);
	return run_command(cmd, TLAT_MODE_TOP, prog, argc, argv, cmdline_argc, cmdline);
}
