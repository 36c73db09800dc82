// SPDX-License-Identifier: GPL-2.0
/*
 * cli.c - rtla timerlat's options for top and hist, parsed from one option
 * table into struct tlat_params. Ranges and cross-option rules follow
 * rtla's cli so that command lines written for rtla mean the same here.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/cli_local.h"
#include "core/array.h"
#include "sources/collect.h"

#define TLAT_DEFAULT_PERIOD_US	1000
#define TLAT_DEFAULT_ENTRIES	256

/* which command lines take an option: measuring (top, hist), recording, reporting */
enum cli_where {
	IN_MEASURE_TOP	= 1 << 0,
	IN_MEASURE_HIST	= 1 << 1,
	IN_RECORD_TOP	= 1 << 2,
	IN_RECORD_HIST	= 1 << 3,
	IN_REPORT_TOP	= 1 << 4,
	IN_REPORT_HIST	= 1 << 5,
	TOP		= IN_MEASURE_TOP | IN_RECORD_TOP,
	HIST		= IN_MEASURE_HIST | IN_RECORD_HIST,
	LIVE		= TOP | HIST,
	RECORD		= IN_RECORD_TOP | IN_RECORD_HIST,
	/* report: what changes how samples are shown or analysed, not how they are taken */
	REPORT		= IN_REPORT_TOP | IN_REPORT_HIST,
	ALL		= LIVE | REPORT,
	ANY_TOP		= TOP | IN_REPORT_TOP,
	ANY_HIST	= HIST | IN_REPORT_HIST,
};

struct cli_option {
	struct option opt;	/* opt.val < 256: also a short option */
	unsigned int where;
};

#define OPT(name, has_arg, val, where)	{ { name, has_arg, NULL, val }, where }

/* every option, once; each command line's getopt tables are drawn from it */
static const struct cli_option cli_options[] = {
	OPT("help",			no_argument,		'h',			ALL),
	OPT("period",			required_argument,	'p',			LIVE),
	OPT("duration",			required_argument,	'd',			LIVE),
	OPT("cpus",			required_argument,	'c',			LIVE),
	OPT("house-keeping",		required_argument,	'H',			LIVE),
	OPT("priority",			required_argument,	'P',			LIVE),
	OPT("nano",			no_argument,		'n',			ALL),
	OPT("debug",			no_argument,		'D',			ALL),
	OPT("dma-latency",		required_argument,	OPT_DMA_LATENCY,	LIVE),
	OPT("warm-up",			required_argument,	OPT_WARMUP,		LIVE),
	OPT("trace-buffer-size",	required_argument,	OPT_BUFFER_SIZE,	LIVE),
	OPT("source",			required_argument,	OPT_SOURCE,		LIVE),
	OPT("collector",		required_argument,	OPT_COLLECTOR,		LIVE),
	OPT("readers",			required_argument,	OPT_READERS,		LIVE),
	OPT("irq",			required_argument,	'i',			ALL),
	OPT("thread",			required_argument,	'T',			ALL),
	OPT("stack",			required_argument,	's',			ALL),
	OPT("kernel-threads",		no_argument,		'k',			LIVE),
	OPT("user-threads",		no_argument,		'u',			LIVE),
	OPT("user-load",		no_argument,		'U',			LIVE),
	OPT("cgroup",			optional_argument,	'C',			LIVE),
	OPT("auto",			required_argument,	'a',			LIVE),
	OPT("trace",			optional_argument,	't',			LIVE),
	OPT("no-aa",			no_argument,		OPT_NO_AA,		ALL),
	OPT("dump-tasks",		no_argument,		OPT_DUMP_TASKS,		ALL),
	OPT("aa-extras",		no_argument,		OPT_AA_EXTRAS,		ALL),
	OPT("stack-format",		required_argument,	OPT_STACK_FORMAT,	ALL),
	OPT("on-threshold",		required_argument,	OPT_ON_THRESHOLD,	LIVE),
	OPT("on-end",			required_argument,	OPT_ON_END,		LIVE),
	OPT("report-hits",		no_argument,		OPT_REPORT_HITS,	LIVE),
	OPT("sample-log",		required_argument,	OPT_SAMPLE_LOG,		ALL),
	OPT("json",			required_argument,	OPT_JSON,		ALL),
	OPT("json-format",		required_argument,	OPT_JSON_FORMAT,	ALL),
	OPT("event",			required_argument,	'e',			LIVE),
	OPT("filter",			required_argument,	OPT_FILTER,		LIVE),
	OPT("trigger",			required_argument,	OPT_TRIGGER,		LIVE),
	OPT("deepest-idle-state",	required_argument,	OPT_DEEPEST_IDLE,	LIVE),
	OPT("aligned",			required_argument,	'A',			LIVE),
	OPT("quiet",			no_argument,		'q',			TOP),
	OPT("aa-only",			required_argument,	OPT_AA_ONLY,		ANY_TOP),
	OPT("bucket-size",		required_argument,	'b',			ANY_HIST),
	OPT("entries",			required_argument,	'E',			ANY_HIST),
	OPT("no-irq",			no_argument,		OPT_NO_IRQ,		ANY_HIST),
	OPT("no-thread",		no_argument,		OPT_NO_THREAD,		ANY_HIST),
	OPT("no-header",		no_argument,		OPT_NO_HEADER,		ANY_HIST),
	OPT("no-summary",		no_argument,		OPT_NO_SUMMARY,		ANY_HIST),
	OPT("no-index",			no_argument,		OPT_NO_INDEX,		ANY_HIST),
	OPT("with-zeros",		no_argument,		OPT_WITH_ZEROS,		ANY_HIST),
	OPT("plot",			required_argument,	OPT_PLOT,		ANY_HIST),
	OPT("output",			required_argument,	'o',			RECORD),
};

#undef OPT
#define CLI_NR_OPTIONS	ARRAY_SIZE(cli_options)

/* one command line's getopt tables */
struct cli_getopt {
	struct option longs[CLI_NR_OPTIONS + 1];
	/* ':' first, so getopt returns ':' for a missing argument; then 3 per option at most */
	char shorts[1 + 3 * CLI_NR_OPTIONS + 1];
};

static void cli_getopt_init(struct cli_getopt *g, const struct tlat_params *p)
{
	static const unsigned int where[][2] = {
		[TLAT_CMD_MEASURE] = { IN_MEASURE_TOP, IN_MEASURE_HIST },
		[TLAT_CMD_RECORD] = { IN_RECORD_TOP, IN_RECORD_HIST },
		[TLAT_CMD_REPORT] = { IN_REPORT_TOP, IN_REPORT_HIST },
	};
	unsigned int here = where[p->command][p->out.mode == TLAT_MODE_HIST];
	char *s = g->shorts;
	int nr = 0;

	*s++ = ':';
	for (size_t i = 0; i < CLI_NR_OPTIONS; i++) {
		const struct option *o = &cli_options[i].opt;

		if (!(cli_options[i].where & here))
			continue;
		g->longs[nr++] = *o;
		if (o->val >= 256)
			continue;
		*s++ = (char)o->val;
		if (o->has_arg != no_argument)
			*s++ = ':';
		if (o->has_arg == optional_argument)
			*s++ = ':';
	}
	*s = '\0';
	memset(&g->longs[nr], 0, sizeof(g->longs[nr]));
}

int cli_params_init(struct tlat_params *params, enum tlat_mode mode, int nr_cpus)
{
	memset(params, 0, sizeof(*params));
	params->out.mode = mode;
	params->period_us = TLAT_DEFAULT_PERIOD_US;
	params->dma_latency_us = -1;
	params->deepest_idle_state = TLAT_IDLE_UNTOUCHED;
	params->source = "auto";
	params->out.hist.bucket_size = 1;
	params->out.hist.entries = TLAT_DEFAULT_ENTRIES;
	if (cpuset_init(&params->cpus, nr_cpus) ||
	    cpuset_init(&params->housekeeping, nr_cpus)) {
		cli_params_free(params);
		return -ENOMEM;
	}
	cpuset_fill(&params->cpus);
	return 0;
}

void cli_params_free(struct tlat_params *params)
{
	for (int i = 0; i < params->events.nr; i++)
		free(params->events.list[i].system);
	free(params->events.list);
	params->events.list = NULL;
	params->events.nr = 0;
	cpuset_free(&params->cpus);
	cpuset_free(&params->housekeeping);
	actions_free(&params->on_threshold);
	actions_free(&params->on_end);
}


static int cli_check(struct tlat_params *p, char *err)
{
	const char *why;

	if (!cpuset_count(&p->cpus))
		return cli_error(err, "no CPU to measure");
	if (p->out.hist.no_irq && p->out.hist.no_thread)
		return cli_error(err, "no-irq and no-thread set, there is nothing to do here");
	if (p->out.hist.no_index && !p->out.hist.with_zeros)
		return cli_error(err, "no-index set with with-zeros is not set - it does not make sense");
	if (p->no_aa && p->out.aa_only)
		return cli_error(err, "--no-aa and --aa-only are mutually exclusive!");
	if (p->out.json_format_set && !p->out.json_path)
		return cli_error(err, "--json-format needs --json");
	/* there is nothing to analyse without a stop; report may take the recording's */
	if (!p->stop.irq_us && !p->stop.thread_us && p->command != TLAT_CMD_REPORT)
		p->no_aa = true;
	/* the analysis alone: the source says whether its kernel collector serves it */
	why = collect_needs_events(p);
	if (p->collect == TLAT_COLLECT_KERNEL && why)
		return cli_error(err, "--collector kernel: %s needs the trace collector", why);
	return 0;
}

int cli_parse(struct tlat_params *p, int argc, char **argv, char *err)
{
	const char *trace_file = NULL;
	struct cli_getopt g;
	int opt, ret;

	cli_getopt_init(&g, p);
	optind = 0;	/* full reset: unit tests parse many command lines */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		if (opt == 'h')
			return TLAT_CLI_HELP;
		/* getopt has moved past a long option or a finished cluster of short ones */
		if (opt == ':')
			return cli_error(err, "option '%s' requires an argument", argv[optind - 1]);
		if (opt == '?') {
			if (optopt > 0 && optopt < 256 &&
			    (optopt == ':' || !strchr(g.shorts, optopt)))
				return cli_error(err, "unknown option '-%c'", optopt);
			if (optopt)	/* a long option that takes no argument got one */
				return cli_error(err, "option '%s' does not take an argument",
						 argv[optind - 1]);
			return cli_error(err, "unknown option '%s'", argv[optind - 1]);
		}
		/* -C name and -C=name (and -t), as rtla takes them, besides -Cname */
		if ((opt == 'C' || opt == 't') && !optarg && optind < argc &&
		    argv[optind][0] != '-')
			optarg = argv[optind++];
		if ((opt == 'C' || opt == 't') && optarg && optarg[0] == '=')
			optarg++;
		ret = cli_option(p, &trace_file, opt, optarg, err);
		if (ret)
			return ret;
	}
	/* report's one argument: the recording */
	if (p->command == TLAT_CMD_REPORT && optind < argc)
		p->recording = argv[optind++];
	if (optind < argc)
		return cli_error(err, "unexpected argument '%s'", argv[optind]);
	/* as rtla: -t is a trace action, after every --on-threshold */
	if (trace_file && actions_add_trace(&p->on_threshold, trace_file))
		return cli_error(err, "out of memory");
	if (p->command != TLAT_CMD_MEASURE && !p->recording)
		p->recording = TLAT_DEFAULT_RECORDING;
	return cli_check(p, err);
}
