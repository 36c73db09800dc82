// SPDX-License-Identifier: GPL-2.0
/*
 * tlat.c - main(): looks the command (top, hist, record, report, info,
 * compare, --version, --help) up in one table of words and run functions,
 * also when called as "rtla timerlat [top|hist]", and runs it. The only place
 * that prints errors, -D's lines and warnings, and that chooses the exit status.
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

struct command;

/* a command's call: how main() was called, and the words from the command's own on */
struct cmd_call {
	const struct command *cmd;
	const char *prog;	/* the name it answers to */
	bool rtla;		/* as "rtla timerlat ...", which has a help page of its own */
	int argc;		/* argv[0]: the command's word (the program's, for no command) */
	char **argv;
	int cmdline_argc;	/* the command line as typed, for --json */
	char **cmdline;
};

/* one command: its word, and what runs it */
struct command {
	const char *name;
	int (*run)(const struct cmd_call *call);
	enum tlat_command command;	/* top, hist, record and report: what they do */
	enum tlat_mode mode;
};

/* argc/argv: the options, argv[0] the word before them */
static int run_params(const struct cmd_call *call, enum tlat_mode mode, int argc, char **argv)
{
	/* getopt may permute argv: the documents want the command line as typed */
	char **typed = malloc(call->cmdline_argc * sizeof(*typed));
	enum tlat_command command = call->cmd->command;
	const char *prog = call->prog;
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
	memcpy(typed, call->cmdline, call->cmdline_argc * sizeof(*typed));
	params.argc = call->cmdline_argc;
	params.argv = typed;
	params.command = command;
	ret = cli_parse(&params, argc, argv, err);
	if (ret == TLAT_CLI_HELP) {
		cli_usage(stdout, &params);
		ret = TLAT_EXIT_PASS;
		goto out;
	}
	cn.debug = params.debug;
	/* reading a file needs no privilege, nor online CPUs */
	if (!ret && command != TLAT_CMD_REPORT)
		ret = cpu_online_apply(&params.cpus, params.cpus_set, err);
	if (!ret && command != TLAT_CMD_REPORT)
		ret = privilege_check(prog, err);
	if (!ret)
		ret = command == TLAT_CMD_REPORT ? tlat_replay(&params, &notes, err) :
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

static const struct command *find_command(const char *name);

/* top and hist: measure, and print as the mode says */
static int run_measure(const struct cmd_call *call)
{
	return run_params(call, call->cmd->mode, call->argc, call->argv);
}

/* record and report take the mode as a word of their own: record [top|hist] ... */
static int run_mode_word(const struct cmd_call *call)
{
	const struct command *mode = call->argc >= 2 ? find_command(call->argv[1]) : NULL;

	/* the parser's argv[0] is the word before the options, as for top and hist */
	if (mode && mode->run == run_measure)
		return run_params(call, mode->mode, call->argc - 1, call->argv + 1);
	return run_params(call, TLAT_MODE_TOP, call->argc, call->argv);
}

static int run_info(const struct cmd_call *call)
{
	struct cmd_notes cn = { .prog = call->prog };
	const struct tlat_notes notes = { cmd_note, &cn };
	char err[TLAT_ERR_LEN] = "";

	if (call->argc > 1) {
		fprintf(stderr, "%s: info takes no options\n", call->prog);
		return TLAT_EXIT_ERROR;
	}
	if (privilege_check(call->prog, err) || tlat_info(stdout, &notes, err)) {
		fprintf(stderr, "%s: %s\n", call->prog, err);
		return TLAT_EXIT_ERROR;
	}
	return TLAT_EXIT_PASS;
}

static int run_compare(const struct cmd_call *call)
{
	return tlat_compare(call->prog, call->argc, call->argv);
}

static int run_version(const struct cmd_call *call)
{
	(void)call;
	printf("tlat version %s\n", TLAT_VERSION);
	return TLAT_EXIT_PASS;
}

static int run_help(const struct cmd_call *call)
{
	if (call->rtla)
		rtla_usage();
	else
		usage(stdout, call->prog);
	return TLAT_EXIT_PASS;
}

/* every command, once; the first is what runs with no command, or options first */
static const struct command commands[] = {
	{ .name = "top",	.run = run_measure,	.command = TLAT_CMD_MEASURE,
	  .mode = TLAT_MODE_TOP },
	{ .name = "hist",	.run = run_measure,	.command = TLAT_CMD_MEASURE,
	  .mode = TLAT_MODE_HIST },
	{ .name = "record",	.run = run_mode_word,	.command = TLAT_CMD_RECORD },
	{ .name = "report",	.run = run_mode_word,	.command = TLAT_CMD_REPORT },
	{ .name = "info",	.run = run_info },
	{ .name = "compare",	.run = run_compare },
	{ .name = "--version",	.run = run_version },
	{ .name = "-h",		.run = run_help },
	{ .name = "--help",	.run = run_help },
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	struct cmd_call call = {
		.prog = basename(argv[0]),
		.cmdline_argc = argc,
		.cmdline = argv,
	};

	setvbuf(stdout, NULL, _IOFBF, 0);
	/* "rtla timerlat ..." is "tlat ..." */
	if (!strcmp(call.prog, "rtla")) {
		if (argc < 2 || strcmp(argv[1], "timerlat")) {
			fprintf(stderr, "rtla: only the timerlat command is supported: rtla timerlat [top|hist] ...\n");
			return TLAT_EXIT_ERROR;
		}
		call.rtla = true;
		argc--;
		argv++;
	}
	call.cmd = argc >= 2 ? find_command(argv[1]) : NULL;
	call.argc = argc;
	call.argv = argv;
	if (call.cmd) {
		call.argc--;
		call.argv++;
	} else if (argc < 2 || argv[1][0] == '-') {
		/* as rtla: no command, or options first, means top */
		call.cmd = &commands[0];
	} else {
		fprintf(stderr, "%s: unknown command '%s' (try: top, hist, record, report, info, compare)\n",
			call.prog, argv[1]);
		return TLAT_EXIT_ERROR;
	}
	return call.cmd->run(&call);
}
