// SPDX-License-Identifier: GPL-2.0
/*
 * cli.c - rtla timerlat's options for top and hist, parsed with one option
 * table per mode into struct tlat_params. Ranges and cross-option rules follow
 * rtla's cli so that command lines written for rtla mean the same here.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "render.h"

#define TLAT_DEFAULT_PERIOD_US	1000
#define TLAT_DEFAULT_ENTRIES	256

enum {
	OPT_DMA_LATENCY = 256,
	OPT_WARMUP,
	OPT_BUFFER_SIZE,
	OPT_SOURCE,
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

#define COMMON_LONG_OPTS						\
	{ "help",		no_argument,		NULL, 'h' },	\
	{ "period",		required_argument,	NULL, 'p' },	\
	{ "duration",		required_argument,	NULL, 'd' },	\
	{ "cpus",		required_argument,	NULL, 'c' },	\
	{ "house-keeping",	required_argument,	NULL, 'H' },	\
	{ "priority",		required_argument,	NULL, 'P' },	\
	{ "nano",		no_argument,		NULL, 'n' },	\
	{ "debug",		no_argument,		NULL, 'D' },	\
	{ "dma-latency",	required_argument,	NULL, OPT_DMA_LATENCY }, \
	{ "warm-up",		required_argument,	NULL, OPT_WARMUP },	\
	{ "trace-buffer-size",	required_argument,	NULL, OPT_BUFFER_SIZE }, \
	{ "source",		required_argument,	NULL, OPT_SOURCE },	\
	{ "irq",		required_argument,	NULL, 'i' },	\
	{ "thread",		required_argument,	NULL, 'T' },	\
	{ "stack",		required_argument,	NULL, 's' },	\
	{ "kernel-threads",	no_argument,		NULL, 'k' },	\
	{ "user-threads",	no_argument,		NULL, 'u' },	\
	{ "user-load",		no_argument,		NULL, 'U' },	\
	{ "cgroup",		optional_argument,	NULL, 'C' },	\
	{ "auto",		required_argument,	NULL, 'a' },	\
	{ "trace",		optional_argument,	NULL, 't' },	\
	{ "no-aa",		no_argument,		NULL, OPT_NO_AA },	\
	{ "dump-tasks",		no_argument,		NULL, OPT_DUMP_TASKS },	\
	{ "stack-format",	required_argument,	NULL, OPT_STACK_FORMAT }, \
	{ "on-threshold",	required_argument,	NULL, OPT_ON_THRESHOLD }, \
	{ "on-end",		required_argument,	NULL, OPT_ON_END },	\
	{ "sample-log",		required_argument,	NULL, OPT_SAMPLE_LOG },	\
	{ "json",		required_argument,	NULL, OPT_JSON },	\
	{ "json-format",	required_argument,	NULL, OPT_JSON_FORMAT }, \
	{ "event",		required_argument,	NULL, 'e' },	\
	{ "filter",		required_argument,	NULL, OPT_FILTER },	\
	{ "trigger",		required_argument,	NULL, OPT_TRIGGER },	\
	{ "deepest-idle-state",	required_argument,	NULL, OPT_DEEPEST_IDLE }, \
	{ "aligned",		required_argument,	NULL, 'A' }

#define TOP_LONG_OPTS							\
	{ "quiet",		no_argument,		NULL, 'q' },	\
	{ "aa-only",		required_argument,	NULL, OPT_AA_ONLY }

#define HIST_LONG_OPTS							\
	{ "bucket-size",	required_argument,	NULL, 'b' },	\
	{ "entries",		required_argument,	NULL, 'E' },	\
	{ "no-irq",		no_argument,		NULL, OPT_NO_IRQ },	\
	{ "no-thread",		no_argument,		NULL, OPT_NO_THREAD },	\
	{ "no-header",		no_argument,		NULL, OPT_NO_HEADER },	\
	{ "no-summary",		no_argument,		NULL, OPT_NO_SUMMARY },	\
	{ "no-index",		no_argument,		NULL, OPT_NO_INDEX },	\
	{ "with-zeros",		no_argument,		NULL, OPT_WITH_ZEROS },	\
	{ "plot",		required_argument,	NULL, OPT_PLOT }

#define RECORD_LONG_OPTS						\
	{ "output",		required_argument,	NULL, 'o' }

/* tlat report: what changes how samples are shown or analysed, not how they are taken */
#define REPORT_LONG_OPTS						\
	{ "help",		no_argument,		NULL, 'h' },	\
	{ "nano",		no_argument,		NULL, 'n' },	\
	{ "debug",		no_argument,		NULL, 'D' },	\
	{ "irq",		required_argument,	NULL, 'i' },	\
	{ "thread",		required_argument,	NULL, 'T' },	\
	{ "stack",		required_argument,	NULL, 's' },	\
	{ "no-aa",		no_argument,		NULL, OPT_NO_AA },	\
	{ "dump-tasks",		no_argument,		NULL, OPT_DUMP_TASKS },	\
	{ "stack-format",	required_argument,	NULL, OPT_STACK_FORMAT }, \
	{ "sample-log",		required_argument,	NULL, OPT_SAMPLE_LOG }

static const struct option top_long_opts[] = {
	COMMON_LONG_OPTS, TOP_LONG_OPTS, { NULL, 0, NULL, 0 }
};

static const struct option hist_long_opts[] = {
	COMMON_LONG_OPTS, HIST_LONG_OPTS, { NULL, 0, NULL, 0 }
};

static const struct option record_top_long_opts[] = {
	COMMON_LONG_OPTS, TOP_LONG_OPTS, RECORD_LONG_OPTS, { NULL, 0, NULL, 0 }
};

static const struct option record_hist_long_opts[] = {
	COMMON_LONG_OPTS, HIST_LONG_OPTS, RECORD_LONG_OPTS, { NULL, 0, NULL, 0 }
};

static const struct option report_top_long_opts[] = {
	REPORT_LONG_OPTS,
	{ "aa-only",		required_argument,	NULL, OPT_AA_ONLY },
	{ NULL, 0, NULL, 0 }
};

static const struct option report_hist_long_opts[] = {
	REPORT_LONG_OPTS, HIST_LONG_OPTS, { NULL, 0, NULL, 0 }
};

/* [command][mode] */
static const struct option *const long_opts[][2] = {
	[TLAT_CMD_MEASURE] = { top_long_opts, hist_long_opts },
	[TLAT_CMD_RECORD] = { record_top_long_opts, record_hist_long_opts },
	[TLAT_CMD_REPORT] = { report_top_long_opts, report_hist_long_opts },
};

#define COMMON_SHORT_OPTS "hp:d:c:H:P:nDkuUi:T:s:C::a:t::e:A:"
#define HIST_SHORT_OPTS "b:E:"
#define REPORT_SHORT_OPTS "hnDi:T:s:"

/* [command][mode]; the leading ':' makes getopt return ':' for a missing argument */
static const char *const short_opts[][2] = {
	[TLAT_CMD_MEASURE] = { ":" COMMON_SHORT_OPTS "q", ":" COMMON_SHORT_OPTS HIST_SHORT_OPTS },
	[TLAT_CMD_RECORD] = { ":" COMMON_SHORT_OPTS "qo:", ":" COMMON_SHORT_OPTS HIST_SHORT_OPTS "o:" },
	[TLAT_CMD_REPORT] = { ":" REPORT_SHORT_OPTS, ":" REPORT_SHORT_OPTS HIST_SHORT_OPTS },
};

static int cli_error(char *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int cli_error(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, TLAT_ERR_LEN, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int cli_params_init(struct tlat_params *params, enum tlat_mode mode, int nr_cpus)
{
	memset(params, 0, sizeof(*params));
	params->mode = mode;
	params->period_us = TLAT_DEFAULT_PERIOD_US;
	params->dma_latency_us = -1;
	params->deepest_idle_state = TLAT_IDLE_UNTOUCHED;
	params->source = "auto";
	params->hist.bucket_size = 1;
	params->hist.entries = TLAT_DEFAULT_ENTRIES;
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
	for (int i = 0; i < params->nr_events; i++)
		free(params->events[i].system);
	free(params->events);
	params->events = NULL;
	params->nr_events = 0;
	cpuset_free(&params->cpus);
	cpuset_free(&params->housekeeping);
	actions_free(&params->on_threshold);
	actions_free(&params->on_end);
}

/* the names become tracefs paths: no '/', no dot names, nothing empty */
static bool event_name_ok(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

/* -e sys[:event]; whether the kernel has it is checked when the run starts */
static int cli_add_event(struct tlat_params *p, const char *arg, char *err)
{
	struct tlat_event_req *events;
	char *system, *colon;

	system = strdup(arg);
	if (!system)
		goto nomem;
	colon = strchr(system, ':');
	if (colon)
		*colon = '\0';
	if (!event_name_ok(system) || (colon && !event_name_ok(colon + 1))) {
		free(system);
		return cli_error(err, "invalid event '%s': expected sys or sys:event", arg);
	}
	events = realloc(p->events, (p->nr_events + 1) * sizeof(*events));
	if (!events) {
		free(system);
		goto nomem;
	}
	p->events = events;
	p->events[p->nr_events++] = (struct tlat_event_req){
		.system = system,
		.event = colon ? colon + 1 : NULL,
	};
	return 0;
nomem:
	snprintf(err, TLAT_ERR_LEN, "out of memory");
	return -ENOMEM;
}

/* --filter and --trigger belong to the -e before them, as in rtla */
static int cli_event_option(struct tlat_params *p, int opt, const char *arg, char *err)
{
	const char *name = opt == OPT_FILTER ? "--filter" : "--trigger";
	struct tlat_event_req *ev;

	if (!p->nr_events)
		return cli_error(err, "%s '%s' has no previous -e event to apply to", name, arg);
	ev = &p->events[p->nr_events - 1];
	if (!ev->event)
		return cli_error(err, "%s '%s' applies to one event, not to all %s events",
				 name, arg, ev->system);
	if (!*arg)
		return cli_error(err, "%s for %s:%s is empty", name, ev->system, ev->event);
	*(opt == OPT_FILTER ? &ev->filter : &ev->trigger) = arg;
	return 0;
}

/* trace_file: -t's and -a's, which becomes the last threshold action once all is parsed */
static int parse_common_opt(struct tlat_params *p, const char **trace_file, int opt,
			    const char *arg, char *err)
{
	u64 v;

	switch (opt) {
	case 'p':
		if (parse_u64_range(arg, 100, 1000000, &p->period_us))
			return cli_error(err, "invalid period '%s': must be 100 to 1000000 us", arg);
		return 0;
	case 'd':
		if (parse_duration_s(arg, &p->duration_s))
			return cli_error(err, "invalid duration '%s': expected a number with s, m, h or d",
					 arg);
		return 0;
	case 'c':
		if (parse_cpu_list(arg, &p->cpus))
			return cli_error(err, "invalid cpu list '%s' (this system has CPUs 0-%d)",
					 arg, p->cpus.nr_cpus - 1);
		return 0;
	case 'H':
		if (parse_cpu_list(arg, &p->housekeeping))
			return cli_error(err, "invalid house-keeping cpu list '%s' (this system has CPUs 0-%d)",
					 arg, p->housekeeping.nr_cpus - 1);
		p->housekeeping_set = true;
		return 0;
	case 'P':
		if (parse_sched(arg, &p->sched))
			return cli_error(err, "invalid priority '%s': expected o:nice, r:prio, f:prio or d:runtime:period",
					 arg);
		return 0;
	case 'n':
		p->nano = true;
		return 0;
	case 'i':
	case 'T':
	case 's':
		if (parse_u64_range(arg, 0, 1000000000, &v))
			return cli_error(err, "invalid threshold '%s' for -%c: must be 0 (off) to 1000000000 us",
					 arg, opt);
		*(opt == 'i' ? &p->stop_irq_us : opt == 'T' ? &p->stop_thread_us : &p->stack_us) = v;
		p->thresholds_set = true;
		return 0;
	case 'a':
	case OPT_AA_ONLY:
		/* as rtla's code: -a also sets -i, which its documentation leaves out */
		if (parse_u64_range(arg, 1, 1000000000, &v))
			return cli_error(err, "invalid threshold '%s' for %s: must be 1 to 1000000000 us",
					 arg, opt == 'a' ? "-a" : "--aa-only");
		p->stop_irq_us = p->stop_thread_us = p->stack_us = v;
		p->thresholds_set = true;
		if (opt == OPT_AA_ONLY)
			p->aa_only = true;
		else if (!*trace_file)
			*trace_file = TLAT_DEFAULT_TRACE_FILE;
		return 0;
	case 't':
		*trace_file = arg && *arg ? arg : TLAT_DEFAULT_TRACE_FILE;
		return 0;
	case OPT_ON_THRESHOLD:
		return actions_parse(&p->on_threshold, arg, "--on-threshold", err);
	case OPT_ON_END:
		return actions_parse(&p->on_end, arg, "--on-end", err);
	case OPT_NO_AA:
		p->no_aa = true;
		return 0;
	case OPT_DUMP_TASKS:
		p->dump_tasks = true;
		return 0;
	case OPT_STACK_FORMAT:
		if (!strcmp(arg, "truncate"))
			p->stack_format = TLAT_STACK_TRUNCATE;
		else if (!strcmp(arg, "skip"))
			p->stack_format = TLAT_STACK_SKIP;
		else if (!strcmp(arg, "full"))
			p->stack_format = TLAT_STACK_FULL;
		else
			return cli_error(err, "invalid --stack-format '%s': expected truncate, skip or full",
					 arg);
		return 0;
	case 'C':
		p->cgroup_set = true;
		p->cgroup = arg;	/* NULL: tlat's own cgroup */
		return 0;
	case 'U':
		p->user_load = true;
		opt = 'u';	/* a user load is user threads, only not tlat's */
		/* fall through */
	case 'k':
	case 'u':
		if (p->threads != TLAT_THREADS_AUTO &&
		    p->threads != (opt == 'k' ? TLAT_THREADS_KERNEL : TLAT_THREADS_USER))
			return cli_error(err, "--kernel-threads and --user-threads are mutually exclusive!");
		p->threads = opt == 'k' ? TLAT_THREADS_KERNEL : TLAT_THREADS_USER;
		return 0;
	case 'D':
		p->debug = true;
		return 0;
	case OPT_DMA_LATENCY:
		if (parse_u64_range(arg, 0, 10000, &v))
			return cli_error(err, "invalid --dma-latency '%s': must be 0 to 10000 us", arg);
		p->dma_latency_us = (int)v;
		return 0;
	case OPT_WARMUP:
		if (parse_u64_range(arg, 0, 86400, &v))
			return cli_error(err, "invalid --warm-up '%s': must be 0 to 86400 s", arg);
		p->warmup_s = (unsigned int)v;
		return 0;
	case OPT_BUFFER_SIZE:
		if (parse_u64_range(arg, 1, 1 << 24, &v))
			return cli_error(err, "invalid --trace-buffer-size '%s': must be 1 to 16777216 kB",
					 arg);
		p->buffer_kb = v;
		return 0;
	case OPT_SOURCE:
		p->source = arg;
		return 0;
	case OPT_SAMPLE_LOG:
		p->sample_log = arg;
		return 0;
	case OPT_JSON:
		p->json_path = arg;
		return 0;
	case OPT_JSON_FORMAT:
		if (!strcmp(arg, "tlat"))
			p->json_format = TLAT_JSON_TLAT;
		else if (!strcmp(arg, "rt-tests"))
			p->json_format = TLAT_JSON_RT_TESTS;
		else
			return cli_error(err, "invalid --json-format '%s': expected tlat or rt-tests",
					 arg);
		p->json_format_set = true;
		return 0;
	case 'e':
		return cli_add_event(p, arg, err);
	case OPT_FILTER:
	case OPT_TRIGGER:
		return cli_event_option(p, opt, arg, err);
	case OPT_DEEPEST_IDLE:
		if (parse_int_range(arg, TLAT_IDLE_NONE, INT_MAX, &p->deepest_idle_state))
			return cli_error(err, "invalid --deepest-idle-state '%s': must be -1 (no idle state) to %d",
					 arg, INT_MAX);
		return 0;
	case 'A':
		if (parse_u64_range(arg, 0, 1000000000, &p->align_us))
			return cli_error(err, "invalid -A/--aligned '%s': must be 0 to 1000000000 us", arg);
		p->aligned = true;
		return 0;
	case 'o':
		p->recording = arg;
		return 0;
	}
	return 1;	/* not a common option */
}

static int parse_mode_opt(struct tlat_params *p, int opt, const char *arg, char *err)
{
	u64 v;

	switch (opt) {
	case 'q':
		p->quiet = true;
		return 0;
	case 'b':
		if (parse_u64_range(arg, 1, 999999, &v))
			return cli_error(err, "invalid bucket size '%s': must be 1 to 999999", arg);
		p->hist.bucket_size = (unsigned int)v;
		return 0;
	case 'E':
		if (parse_u64_range(arg, 10, 9999999, &v))
			return cli_error(err, "invalid number of entries '%s': must be 10 to 9999999", arg);
		p->hist.entries = (unsigned int)v;
		return 0;
	case OPT_NO_IRQ:
		p->hist.no_irq = true;
		return 0;
	case OPT_NO_THREAD:
		p->hist.no_thread = true;
		return 0;
	case OPT_NO_HEADER:
		p->hist.no_header = true;
		return 0;
	case OPT_NO_SUMMARY:
		p->hist.no_summary = true;
		return 0;
	case OPT_NO_INDEX:
		p->hist.no_index = true;
		return 0;
	case OPT_WITH_ZEROS:
		p->hist.with_zeros = true;
		return 0;
	case OPT_PLOT:
		if (render_plot_format(arg) == TLAT_PLOT_NONE)
			return cli_error(err, "invalid --plot '%s': the file name must end in .png or .svg",
					 arg);
		p->hist.plot_file = arg;
		return 0;
	}
	return 1;
}

static int cli_check(struct tlat_params *p, char *err)
{
	if (!cpuset_count(&p->cpus))
		return cli_error(err, "no CPU to measure");
	if (p->hist.no_irq && p->hist.no_thread)
		return cli_error(err, "no-irq and no-thread set, there is nothing to do here");
	if (p->hist.no_index && !p->hist.with_zeros)
		return cli_error(err, "no-index set with with-zeros is not set - it does not make sense");
	if (p->no_aa && p->aa_only)
		return cli_error(err, "--no-aa and --aa-only are mutually exclusive!");
	if (p->json_format_set && !p->json_path)
		return cli_error(err, "--json-format needs --json");
	/* there is nothing to analyse without a stop; report may take the recording's */
	if (!p->stop_irq_us && !p->stop_thread_us && p->command != TLAT_CMD_REPORT)
		p->no_aa = true;
	return 0;
}

int cli_parse(struct tlat_params *p, int argc, char **argv, char *err)
{
	const struct option *longs = long_opts[p->command][p->mode == TLAT_MODE_HIST];
	const char *shorts = short_opts[p->command][p->mode == TLAT_MODE_HIST];
	const char *trace_file = NULL;
	int opt, ret;

	optind = 0;	/* full reset: unit tests parse many command lines */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (opt == 'h')
			return TLAT_CLI_HELP;
		/* getopt has moved past a long option or a finished cluster of short ones */
		if (opt == ':')
			return cli_error(err, "option '%s' requires an argument", argv[optind - 1]);
		if (opt == '?') {
			if (optopt > 0 && optopt < 256 &&
			    (optopt == ':' || !strchr(shorts, optopt)))
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
		ret = parse_common_opt(p, &trace_file, opt, optarg, err);
		if (ret > 0)
			ret = parse_mode_opt(p, opt, optarg, err);
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

static const char common_usage[] =
	"  -h/--help: print this menu\n"
	"  -p/--period us: timerlat period in us (100 to 1000000, default 1000)\n"
	"  -d/--duration time[s|m|h|d]: duration of the session\n"
	"  -c/--cpus cpu-list: run the measurement threads only on these CPUs\n"
	"  -H/--house-keeping cpu-list: run tlat itself only on these CPUs\n"
	"  -P/--priority o:nice|r:prio|f:prio|d:runtime:period: scheduling parameters\n"
	"     of the measurement threads (default f:95)\n"
	"  -i/--irq us: stop trace if the irq latency is higher than the argument in us\n"
	"  -T/--thread us: stop trace if the thread latency is higher than the argument in us\n"
	"  -s/--stack us: save the stack trace at the IRQ if a thread latency is higher than the\n"
	"     argument in us\n"
	"  -a/--auto us: set automatic trace mode, stopping the session if argument in us latency\n"
	"     is hit (sets -i, -T and -s to us, and -t)\n"
	"  -t/--trace[file]: save the stopped trace to [file|timerlat_trace.txt]\n"
	"     --no-aa: disable the auto-analysis (on by default when -i or -T is set)\n"
	"     --dump-tasks: print the task running on each CPU when tracing stopped\n"
	"     --stack-format truncate|skip|full: at an unknown address, stop the stack,\n"
	"     skip the address or print it raw (default truncate)\n"
	"     --on-threshold action: run action when a threshold stops tracing; may be repeated:\n"
	"     trace[,file=name], signal,num=N,pid=PID|parent, shell,command=CMD, or continue\n"
	"     (measure on: each hit is reported as it happens, exit status 2 at the end)\n"
	"     --on-end action: run action when the measurement ends; may be repeated\n"
	"  -e/--event sys[:event]: enable the <sys[:event]> in tlat's trace instance (saved with\n"
	"     -t), multiple -e are allowed\n"
	"     --filter <filter>: enable a trace event filter to the previous -e event\n"
	"     --trigger <trigger>: enable a trace event trigger to the previous -e event; a\n"
	"     hist: trigger is saved to <sys>_<event>_hist.txt at the end\n"
	"  -n/--nano: display data in nanoseconds\n"
	"  -D/--debug: print debug info\n"
	"     --dma-latency us: set /dev/cpu_dma_latency latency <us> to reduce exit from idle latency\n"
	"     --deepest-idle-state n: only go down to idle state n on the measured CPUs to reduce\n"
	"     exit from idle latency (-1: no idle state); restored at the end\n"
	"  -A/--aligned us: align the first wake-ups of the measuring threads: the thread of the\n"
	"     k-th measured CPU wakes at a common time + k * us (0: all together)\n"
	"     --warm-up s: let the workload run for s seconds before collecting data\n"
	"     --trace-buffer-size kB: set the per-cpu trace buffer size in kB\n"
	"  -k/--kernel-threads: use timerlat kernel-space threads instead of user threads\n"
	"  -u/--user-threads: use user threads (the default where the source has both)\n"
	"  -C/--cgroup[=cgroup_name]: set cgroup, if no cgroup_name is passed, the tlat's cgroup\n"
	"     will be inherited in case of user threads\n"
	"  -U/--user-load: enable timerlat for user-defined user-space workload: tlat starts\n"
	"     no thread, your pinned tasks read timerlat_fd (or /dev/tlat)\n"
	"     --source auto|timerlat|module|tracepoints: where samples come from (default auto)\n"
	"     --sample-log file: write every sample as \"cpu seq context latency_ns time_ns\" to file\n"
	"     --json file: at the end, write the results as one JSON document to file (- for\n"
	"     stdout, which then carries nothing else); see JSON OUTPUT in tlat(8)\n"
	"     --json-format tlat|rt-tests: tlat's own schema (default), or the shape of\n"
	"     cyclictest --json that rt-tests harnesses parse\n";

static const char top_usage[] =
	"  -q/--quiet: print only a summary at the end\n"
	"     --aa-only us: stop if a latency reaches us and print only the auto-analysis,\n"
	"     no statistics\n";

static const char hist_usage[] =
	"  -b/--bucket-size N: set the histogram bucket size (default 1)\n"
	"  -E/--entries N: set the number of entries of the histogram (default 256)\n"
	"     --no-irq: ignore IRQ latencies\n"
	"     --no-thread: ignore thread latencies\n"
	"     --no-header: do not print header\n"
	"     --no-summary: do not print summary\n"
	"     --no-index: do not print index\n"
	"     --with-zeros: print zero only entries\n"
	"     --plot file.png|file.svg: also draw the histogram with gnuplot: latency against\n"
	"     the number of samples (log scale), a curve per CPU and context\n";

static void measure_usage(FILE *out, enum tlat_mode mode)
{
	if (mode == TLAT_MODE_TOP) {
		fputs("tlat top: a per-cpu summary of the timer latency\n\n"
		      "  usage: [rtla] timerlat [top] [-h] [-q] [-d s] [-D] [-n] [-p us] [-i us] [-T us] [-s us]\n"
		      "	  [-a us] [-t[file]] [-e sys[:event]] [--filter <filter>] [--trigger <trigger>]\n"
		      "	  [--no-aa] [--dump-tasks] [-c cpu-list] [-H cpu-list] [-u|-k] [-P priority]\n"
		      "	  [--dma-latency us] [--deepest-idle-state n] [-A us] [--warm-up s]\n"
		      "	  [--trace-buffer-size kB] [--on-threshold action] [--on-end action]\n"
		      "	  [--json file [--json-format tlat|rt-tests]]\n\n",
		      out);
	} else {
		fputs("tlat hist: a per-cpu histogram of the timer latency\n\n"
		      "  usage: [rtla] timerlat hist [-h] [-d s] [-D] [-n] [-p us] [-i us] [-T us] [-s us]\n"
		      "	  [-a us] [-t[file]] [-e sys[:event]] [--filter <filter>] [--trigger <trigger>]\n"
		      "	  [--no-aa] [--dump-tasks] [-c cpu-list] [-H cpu-list] [-u|-k] [-P priority]\n"
		      "	  [-b N] [-E N] [--no-irq] [--no-thread] [--no-header] [--no-summary]\n"
		      "	  [--no-index] [--with-zeros] [--dma-latency us] [--deepest-idle-state n] [-A us]\n"
		      "	  [--warm-up s] [--trace-buffer-size kB] [--on-threshold action] [--on-end action]\n"
		      "	  [--json file [--json-format tlat|rt-tests]] [--plot file.png|file.svg]\n\n",
		      out);
	}
	fputs(common_usage, out);
}

static void record_usage(FILE *out, enum tlat_mode mode)
{
	fprintf(out, "tlat record: measure as tlat %s does, and keep every record of the run in a\n"
		"trace.dat that trace-cmd report, KernelShark and tlat report read\n\n"
		"  usage: tlat record [top|hist] [-o file] [tlat %s options]\n\n",
		mode == TLAT_MODE_TOP ? "top" : "hist", mode == TLAT_MODE_TOP ? "top" : "hist");
	fputs(common_usage, out);
	fputs("  -o/--output file: the trace.dat to write (default trace.dat)\n", out);
}
static void report_usage(FILE *out, enum tlat_mode mode)
{
	fprintf(out, "tlat report: the %s of the samples in a trace.dat written by tlat record,\n"
		"or by trace-cmd record of the timerlat tracer or of tlat.ko's events\n\n"
		"  usage: tlat report [top|hist] [-h] [-n] [-D] [-i us] [-T us] [-s us] [--no-aa]\n"
		"	  [--dump-tasks] [--stack-format f] [--sample-log file]%s [file]\n\n",
		mode == TLAT_MODE_TOP ? "summary" : "histogram",
		mode == TLAT_MODE_TOP ? " [--aa-only us]" : " [hist options]");
	fputs("  file: the trace.dat to read (default trace.dat)\n"
	      "  -h/--help: print this menu\n"
	      "  -i/--irq us: the run stops at the first irq latency of at least us\n"
	      "  -T/--thread us: ... at the first thread or user-return latency of at least us\n"
	      "  -s/--stack us: show the stack at the IRQ from this thread latency on\n"
	      "     without -i, -T or -s, those the recording was made with apply\n"
	      "     --no-aa: no auto-analysis (on by default when -i or -T apply)\n"
	      "     --dump-tasks: print the task running on each CPU when tracing stopped\n"
	      "     --stack-format truncate|skip|full: at an unknown address, stop the stack,\n"
	      "     skip the address or print it raw (default truncate)\n"
	      "  -n/--nano: display data in nanoseconds\n"
	      "  -D/--debug: print debug info\n"
	      "     --sample-log file: write every sample as \"cpu seq context latency_ns time_ns\" to file\n",
	      out);
	if (mode == TLAT_MODE_TOP)
		fputs("     --aa-only us: stop if a latency reaches us and print only the auto-analysis,\n"
		      "     no statistics\n", out);
}

void cli_usage(FILE *out, const struct tlat_params *p)
{
	if (p->command == TLAT_CMD_RECORD)
		record_usage(out, p->mode);
	else if (p->command == TLAT_CMD_REPORT)
		report_usage(out, p->mode);
	else
		measure_usage(out, p->mode);
	if (p->command != TLAT_CMD_REPORT || p->mode == TLAT_MODE_HIST)
		fputs(p->mode == TLAT_MODE_TOP ? top_usage : hist_usage, out);
	if (p->command == TLAT_CMD_REPORT)
		fputs("\nExit status: 0 when no threshold was reached, 1 on error, 2 when one was.\n",
		      out);
	else
		fputs("\nExit status: 0 when the run completes, 1 on error, 2 when a threshold stopped it\n"
		      "(or, with --on-threshold continue, was hit).\n", out);
}
