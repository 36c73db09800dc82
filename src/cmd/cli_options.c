// SPDX-License-Identifier: GPL-2.0
/*
 * cli_options.c - what each option sets in struct tlat_params, with rtla's
 * ranges, so that a command line written for rtla means the same here.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/actions_parse.h"
#include "cmd/cli.h"
#include "cmd/cli_local.h"
#include "cmd/parse_sched.h"
#include "core/array.h"
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

/*
 * The options that only switch something on, and the bool each sets.
 * CLI_FLAG() refuses, at compile time, a field that is not a bool.
 */
#define CLI_FLAG(o, field)						\
	{ o, offsetof(struct tlat_params, field) +			\
	     0 * sizeof(char[_Generic(((struct tlat_params *)0)->field, bool: 1)]) }

static const struct cli_flag_opt {
	int opt;
	size_t offset;
} cli_flags[] = {
	CLI_FLAG('n', out.nano), CLI_FLAG('D', debug), CLI_FLAG('q', out.quiet),
	CLI_FLAG(OPT_REPORT_HITS, report_hits), CLI_FLAG(OPT_NO_AA, no_aa),
	CLI_FLAG(OPT_DUMP_TASKS, dump_tasks), CLI_FLAG(OPT_AA_EXTRAS, out.aa_extras),
	CLI_FLAG(OPT_NO_IRQ, out.hist.no_irq), CLI_FLAG(OPT_NO_THREAD, out.hist.no_thread),
	CLI_FLAG(OPT_NO_HEADER, out.hist.no_header),
	CLI_FLAG(OPT_NO_SUMMARY, out.hist.no_summary),
	CLI_FLAG(OPT_NO_INDEX, out.hist.no_index), CLI_FLAG(OPT_WITH_ZEROS, out.hist.with_zeros),
};

/* what a switch-only option sets, NULL for the others */
static bool *cli_flag(struct tlat_params *p, int opt)
{
	for (size_t i = 0; i < ARRAY_SIZE(cli_flags); i++)
		if (cli_flags[i].opt == opt)
			return (bool *)((char *)p + cli_flags[i].offset);
	return NULL;
}

/* a whole number from min to max, or the error that says so: "invalid WHAT 'arg': ..." */
static int cli_range(const char *arg, u64 min, u64 max, const char *what, const char *unit,
		     u64 *v, char *err)
{
	if (parse_u64_range(arg, min, max, v))
		return cli_error(err, "invalid %s '%s': must be %llu to %llu%s", what, arg,
				 (unsigned long long)min, (unsigned long long)max, unit);
	return 0;
}

/* which of names[] (indexed by what each word stands for, NULL last) arg is, or -1 */
static int cli_word(const char *arg, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	return -1;
}

/* a keyword option's value: which of names[] it is, or -EINVAL and the line naming @words */
static int cli_keyword(const char *arg, const char *const *names, const char *option,
		       const char *words, char *err)
{
	int word = cli_word(arg, names);

	return word >= 0 ? word : cli_error(err, "invalid %s '%s': expected %s", option, arg, words);
}

/* -c, -H: a CPU list into cpus, and given set */
static int cli_cpu_list(const char *arg, const char *what, struct tlat_cpuset *cpus, bool *given,
			char *err)
{
	if (parse_cpu_list(arg, cpus))
		return cli_error(err, "invalid %s '%s' (this system has CPUs 0-%d)", what, arg,
				 cpus->nr_cpus - 1);
	*given = true;
	return 0;
}

/* how the measuring threads run: how long, how often, on which CPUs, of which kind */
static int cli_thread_opt(struct tlat_params *p, int opt, const char *arg, char *err)
{
	switch (opt) {
	case 'p':
		return cli_range(arg, 100, 1000000, "period", " us", &p->period_us, err);
	case 'd':
		return parse_duration_s(arg, &p->duration_s) ?
		       cli_error(err, "invalid duration '%s': expected a number with s, m, h or d",
				 arg) : 0;
	case 'c':
		return cli_cpu_list(arg, "cpu list", &p->cpus, &p->cpus_set, err);
	case 'H':
		return cli_cpu_list(arg, "house-keeping cpu list", &p->housekeeping,
				    &p->housekeeping_set, err);
	case 'P':
		return parse_sched(arg, &p->sched) ?
		       cli_error(err, "invalid priority '%s': expected o:nice, r:prio, f:prio or d:runtime:period",
				 arg) : 0;
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
	case 'A':
		if (cli_range(arg, 0, 1000000000, "-A/--aligned", " us", &p->align_us, err))
			return -EINVAL;
		p->aligned = true;
		return 0;
	}
	return 1;
}

/* what the machine is made to be around the threads: DMA latency, idle states, warm-up */
static int cli_system_opt(struct tlat_params *p, int opt, const char *arg, char *err)
{
	u64 v;

	switch (opt) {
	case OPT_DMA_LATENCY:
		if (cli_range(arg, 0, 10000, "--dma-latency", " us", &v, err))
			return -EINVAL;
		p->dma_latency_us = (int)v;
		return 0;
	case OPT_DEEPEST_IDLE:
		if (parse_int_range(arg, TLAT_IDLE_NONE, INT_MAX, &p->deepest_idle_state))
			return cli_error(err, "invalid --deepest-idle-state '%s': must be -1 (no idle state) to %d",
					 arg, INT_MAX);
		return 0;
	case OPT_WARMUP:
		if (cli_range(arg, 0, 86400, "--warm-up", " s", &v, err))
			return -EINVAL;
		p->warmup_s = (unsigned int)v;
		return 0;
	}
	return 1;
}

/*
 * when a latency stops the run (the thresholds), and what is done then;
 * trace_file: -t's and -a's, which becomes the last threshold action once all is parsed
 */
static int cli_stop_opt(struct tlat_params *p, const char **trace_file, int opt,
			const char *arg, char *err)
{
	u64 v;

	switch (opt) {
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
	}
	return 1;
}

/* where the samples come from and how they are read: source, collector, buffer, events */
static int cli_trace_opt(struct tlat_params *p, int opt, const char *arg, char *err)
{
	u64 v;

	switch (opt) {
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
	case OPT_BUFFER_SIZE:
		if (cli_range(arg, 1, 1 << 24, "--trace-buffer-size", " kB", &v, err))
			return -EINVAL;
		p->buffer_kb = v;
		return 0;
	case 'e':
		return cli_add_event(p, arg, err);
	case OPT_FILTER:
	case OPT_TRIGGER:
		return cli_event_option(p, opt, arg, err);
	}
	return 1;
}

/* what is written and where: the histogram's shape, the files, their formats */
static int cli_output_opt(struct tlat_params *p, int opt, const char *arg, char *err)
{
	static const char *const stack_formats[] = {
		[TLAT_STACK_TRUNCATE] = "truncate",
		[TLAT_STACK_SKIP] = "skip",
		[TLAT_STACK_FULL] = "full",
		NULL,
	};
	static const char *const json_formats[] = {
		[TLAT_JSON_TLAT] = "tlat",
		[TLAT_JSON_RT_TESTS] = "rt-tests",
		NULL,
	};
	int word;
	u64 v;

	switch (opt) {
	case 'b':
		if (cli_range(arg, 1, 999999, "bucket size", "", &v, err))
			return -EINVAL;
		p->out.hist.bucket_size = (unsigned int)v;
		return 0;
	case 'E':
		if (cli_range(arg, 10, 9999999, "number of entries", "", &v, err))
			return -EINVAL;
		p->out.hist.entries = (unsigned int)v;
		return 0;
	case OPT_PLOT:
		if (render_plot_format(arg) == TLAT_PLOT_NONE)
			return cli_error(err, "invalid --plot '%s': the file name must end in .png or .svg",
					 arg);
		p->out.hist.plot_file = arg;
		return 0;
	case OPT_STACK_FORMAT:
		word = cli_keyword(arg, stack_formats, "--stack-format", "truncate, skip or full", err);
		if (word >= 0)
			p->out.stack_format = word;
		return word < 0 ? word : 0;
	case OPT_JSON_FORMAT:
		word = cli_keyword(arg, json_formats, "--json-format", "tlat or rt-tests", err);
		if (word < 0)
			return word;
		p->out.json_format = word;
		p->out.json_format_set = true;
		return 0;
	case OPT_JSON:
		p->out.json_path = arg;
		return 0;
	case OPT_SAMPLE_LOG:
		p->sample_log = arg;
		return 0;
	case 'o':
		p->recording = arg;
		return 0;
	}
	return 1;
}

int cli_option(struct tlat_params *p, const char **trace_file, int opt, const char *arg,
	       char *err)
{
	bool *flag = cli_flag(p, opt);
	int ret;

	if (flag) {
		*flag = true;
		return 0;
	}
	ret = cli_thread_opt(p, opt, arg, err);
	if (ret > 0)
		ret = cli_system_opt(p, opt, arg, err);
	if (ret > 0)
		ret = cli_stop_opt(p, trace_file, opt, arg, err);
	if (ret > 0)
		ret = cli_trace_opt(p, opt, arg, err);
	if (ret > 0)
		ret = cli_output_opt(p, opt, arg, err);
	return ret;
}
