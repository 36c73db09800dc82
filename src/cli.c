// SPDX-License-Identifier: GPL-2.0
/*
 * cli.c - rtla timerlat's options for top and hist, parsed with one option
 * table per mode into struct tlat_params. Ranges and cross-option rules follow
 * rtla's cli so that command lines written for rtla mean the same here.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <string.h>

#include "cli.h"
#include "parse.h"

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
};

/* rtla's name for the trace that -t and -a save */
#define TLAT_DEFAULT_TRACE_FILE	"timerlat_trace.txt"

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
	{ "sample-log",		required_argument,	NULL, OPT_SAMPLE_LOG }

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
	{ "with-zeros",		no_argument,		NULL, OPT_WITH_ZEROS }

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

#define COMMON_SHORT_OPTS "hp:d:c:H:P:nDkuUi:T:s:C::a:t::"
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
	cpuset_free(&params->cpus);
	cpuset_free(&params->housekeeping);
}

static int parse_common_opt(struct tlat_params *p, int opt, const char *arg, char *err)
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
		else if (!p->trace_file)
			p->trace_file = TLAT_DEFAULT_TRACE_FILE;
		return 0;
	case 't':
		p->trace_file = arg && *arg ? arg : TLAT_DEFAULT_TRACE_FILE;
		return 0;
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
	/* there is nothing to analyse without a stop; report may take the recording's */
	if (!p->stop_irq_us && !p->stop_thread_us && p->command != TLAT_CMD_REPORT)
		p->no_aa = true;
	return 0;
}

int cli_parse(struct tlat_params *p, int argc, char **argv, char *err)
{
	const struct option *longs = long_opts[p->command][p->mode == TLAT_MODE_HIST];
	const char *shorts = short_opts[p->command][p->mode == TLAT_MODE_HIST];
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
		ret = parse_common_opt(p, opt, optarg, err);
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
	"  -n/--nano: display data in nanoseconds\n"
	"  -D/--debug: print debug info\n"
	"     --dma-latency us: set /dev/cpu_dma_latency latency <us> to reduce exit from idle latency\n"
	"     --warm-up s: let the workload run for s seconds before collecting data\n"
	"     --trace-buffer-size kB: set the per-cpu trace buffer size in kB\n"
	"  -k/--kernel-threads: use timerlat kernel-space threads instead of user threads\n"
	"  -u/--user-threads: use user threads (the default where the source has both)\n"
	"  -C/--cgroup[=cgroup_name]: set cgroup, if no cgroup_name is passed, the tlat's cgroup\n"
	"     will be inherited in case of user threads\n"
	"  -U/--user-load: enable timerlat for user-defined user-space workload: tlat starts\n"
	"     no thread, your pinned tasks read timerlat_fd (or /dev/tlat)\n"
	"     --source auto|timerlat|module|tracepoints: where samples come from (default auto)\n"
	"     --sample-log file: write every sample as \"cpu seq context latency_ns time_ns\" to file\n";

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
	"     --with-zeros: print zero only entries\n";

static void measure_usage(FILE *out, enum tlat_mode mode)
{
	if (mode == TLAT_MODE_TOP) {
		fputs("tlat top: a per-cpu summary of the timer latency\n\n"
		      "  usage: [rtla] timerlat [top] [-h] [-q] [-d s] [-D] [-n] [-p us] [-i us] [-T us] [-s us]\n"
		      "	  [-a us] [-t[file]] [--no-aa] [--dump-tasks] [-c cpu-list] [-H cpu-list] [-u|-k]\n"
		      "	  [-P priority] [--dma-latency us] [--warm-up s] [--trace-buffer-size kB]\n\n",
		      out);
	} else {
		fputs("tlat hist: a per-cpu histogram of the timer latency\n\n"
		      "  usage: [rtla] timerlat hist [-h] [-d s] [-D] [-n] [-p us] [-i us] [-T us] [-s us]\n"
		      "	  [-a us] [-t[file]] [--no-aa] [--dump-tasks] [-c cpu-list] [-H cpu-list] [-u|-k]\n"
		      "	  [-P priority] [-b N] [-E N] [--no-irq] [--no-thread] [--no-header] [--no-summary]\n"
		      "	  [--no-index] [--with-zeros] [--dma-latency us] [--warm-up s] [--trace-buffer-size kB]\n\n",
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
	      "     without -i, -T, -s (or --aa-only), those the recording was made with apply\n"
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
	fputs("\nExit status: 0 when the run completes, 1 on error, 2 when a threshold stopped it.\n",
	      out);
}
