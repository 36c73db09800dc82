// SPDX-License-Identifier: GPL-2.0
/*
 * cli_options.c - what each option sets in struct tlat_params, with rtla's
 * ranges, so that a command line written for rtla means the same here.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/actions_parse.h"
#include "cmd/cli.h"
#include "cmd/cli_local.h"
#include "cmd/parse_sched.h"
#include "output/plot.h"
#include "sources/collect.h"
#include "util/parse.h"

int cli_error(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, TLAT_ERR_LEN, fmt, ap);
	va_end(ap);
	return -EINVAL;
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
	events = realloc(p->events.list, (p->events.nr + 1) * sizeof(*events));
	if (!events) {
		free(system);
		goto nomem;
	}
	p->events.list = events;
	p->events.list[p->events.nr++] = (struct tlat_event_req){
		.system = system,
		.event = colon ? colon + 1 : NULL,
	};
	return 0;
nomem:
	tlat_err(err, "out of memory");
	return -ENOMEM;
}

/* --filter and --trigger belong to the -e before them, as in rtla */
static int cli_event_option(struct tlat_params *p, int opt, const char *arg, char *err)
{
	const char *name = opt == OPT_FILTER ? "--filter" : "--trigger";
	struct tlat_event_req *ev;

	if (!p->events.nr)
		return cli_error(err, "%s '%s' has no previous -e event to apply to", name, arg);
	ev = &p->events.list[p->events.nr - 1];
	if (!ev->event)
		return cli_error(err, "%s '%s' applies to one event, not to all %s events",
				 name, arg, ev->system);
	if (!*arg)
		return cli_error(err, "%s for %s:%s is empty", name, ev->system, ev->event);
	*(opt == OPT_FILTER ? &ev->filter : &ev->trigger) = arg;
	return 0;
}

/* trace_file: -t's and -a's, which becomes the last threshold action once all is parsed */
/* the options of every command; 1: not one of them */
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
		p->cpus_set = true;
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
		p->out.nano = true;
		return 0;
	case 'i':
	case 'T':
	case 's':
		if (parse_u64_range(arg, 0, 1000000000, &v))
			return cli_error(err, "invalid threshold '%s' for -%c: must be 0 (off) to 1000000000 us",
					 arg, opt);
		*(opt == 'i' ? &p->stop.irq_us : opt == 'T' ? &p->stop.thread_us : &p->stop.stack_us) = v;
		p->thresholds_set = true;
		return 0;
	case 'a':
	case OPT_AA_ONLY:
		/* as rtla's code: -a also sets -i, which its documentation leaves out */
		if (parse_u64_range(arg, 1, 1000000000, &v))
			return cli_error(err, "invalid threshold '%s' for %s: must be 1 to 1000000000 us",
					 arg, opt == 'a' ? "-a" : "--aa-only");
		p->stop.irq_us = p->stop.thread_us = p->stop.stack_us = v;
		p->thresholds_set = true;
		if (opt == OPT_AA_ONLY)
			p->out.aa_only = true;
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
	case OPT_REPORT_HITS:
		p->report_hits = true;
		return 0;
	case OPT_NO_AA:
		p->no_aa = true;
		return 0;
	case OPT_DUMP_TASKS:
		p->dump_tasks = true;
		return 0;
	case OPT_AA_EXTRAS:
		p->out.aa_extras = true;
		return 0;
	case OPT_STACK_FORMAT:
		if (!strcmp(arg, "truncate"))
			p->out.stack_format = TLAT_STACK_TRUNCATE;
		else if (!strcmp(arg, "skip"))
			p->out.stack_format = TLAT_STACK_SKIP;
		else if (!strcmp(arg, "full"))
			p->out.stack_format = TLAT_STACK_FULL;
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
	case OPT_COLLECTOR:
		for (int c = TLAT_COLLECT_AUTO; c <= TLAT_COLLECT_BOTH; c++) {
			if (!strcmp(arg, collect_name(c))) {
				p->collect = c;
				return 0;
			}
		}
		return cli_error(err, "invalid --collector '%s': auto, kernel, trace or both", arg);
	case OPT_READERS:
		if (!strcmp(arg, "auto")) {
			p->readers = 0;
			return 0;
		}
		if (!strcmp(arg, "merged")) {
			p->readers = -1;
			return 0;
		}
		if (parse_u64_range(arg, 1, 1024, &v))
			return cli_error(err, "invalid --readers '%s': auto, merged or 1 to 1024", arg);
		p->readers = (int)v;
		return 0;
	case OPT_SAMPLE_LOG:
		p->sample_log = arg;
		return 0;
	case OPT_JSON:
		p->out.json_path = arg;
		return 0;
	case OPT_JSON_FORMAT:
		if (!strcmp(arg, "tlat"))
			p->out.json_format = TLAT_JSON_TLAT;
		else if (!strcmp(arg, "rt-tests"))
			p->out.json_format = TLAT_JSON_RT_TESTS;
		else
			return cli_error(err, "invalid --json-format '%s': expected tlat or rt-tests",
					 arg);
		p->out.json_format_set = true;
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
		p->out.quiet = true;
		return 0;
	case 'b':
		if (parse_u64_range(arg, 1, 999999, &v))
			return cli_error(err, "invalid bucket size '%s': must be 1 to 999999", arg);
		p->out.hist.bucket_size = (unsigned int)v;
		return 0;
	case 'E':
		if (parse_u64_range(arg, 10, 9999999, &v))
			return cli_error(err, "invalid number of entries '%s': must be 10 to 9999999", arg);
		p->out.hist.entries = (unsigned int)v;
		return 0;
	case OPT_NO_IRQ:
		p->out.hist.no_irq = true;
		return 0;
	case OPT_NO_THREAD:
		p->out.hist.no_thread = true;
		return 0;
	case OPT_NO_HEADER:
		p->out.hist.no_header = true;
		return 0;
	case OPT_NO_SUMMARY:
		p->out.hist.no_summary = true;
		return 0;
	case OPT_NO_INDEX:
		p->out.hist.no_index = true;
		return 0;
	case OPT_WITH_ZEROS:
		p->out.hist.with_zeros = true;
		return 0;
	case OPT_PLOT:
		if (render_plot_format(arg) == TLAT_PLOT_NONE)
			return cli_error(err, "invalid --plot '%s': the file name must end in .png or .svg",
					 arg);
		p->out.hist.plot_file = arg;
		return 0;
	}
	return 1;
}

int cli_option(struct tlat_params *p, const char **trace_file, int opt, const char *arg,
	       char *err)
{
	int ret = parse_common_opt(p, trace_file, opt, arg, err);

	return ret > 0 ? parse_mode_opt(p, opt, arg, err) : ret;
}
