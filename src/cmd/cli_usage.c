// SPDX-License-Identifier: GPL-2.0
/*
 * cli_usage.c - the --help text of each command, in rtla's words where rtla
 * has the option, so that its users find theirs.
 */
#include <stdio.h>

#include "cmd/cli.h"

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
	"     --aa-extras: after rtla's analysis lines, tlat's: each interference summed per\n"
	"     source, and the part of the latency that no line with a share explains\n"
	"     --stack-format truncate|skip|full: at an unknown address, stop the stack,\n"
	"     skip the address or print it raw (default truncate)\n"
	"     --on-threshold action: run action when a threshold stops tracing; may be repeated:\n"
	"     trace[,file=name], signal,num=N,pid=PID|parent, shell,command=CMD, or continue\n"
	"     (measure on: each hit is reported as it happens; exit status 0 at the end, as rtla)\n"
	"     --on-end action: run action when the measurement ends; may be repeated\n"
	"     --report-hits: with continue, exit status 2 if a threshold was hit\n"
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
	"     --collector auto|kernel|trace|both: count the samples in the kernel (tlat.ko's\n"
	"     aggregates, BPF), or decode their trace events (default auto: the module's\n"
	"     aggregates where no event is needed, else trace); both: trace, with the BPF\n"
	"     collector's counts of the same activations beside it, printed by -D; kernel with\n"
	"     the auto-analysis decodes its events only at a hit (tlat.ko stops at -i/-T)\n"
	"     --readers auto|merged|N: read the trace buffers per CPU in N threads, with no\n"
	"     merge in time order (default auto: from 8 measured CPUs, one thread per 8 up\n"
	"     to 8, where nothing needs the order: no -t, record or auto-analysis, and a\n"
	"     kernel source; merged below 8); merged: one thread, all CPUs in time order\n"
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
		      "	  [--no-aa] [--dump-tasks] [--aa-extras] [-c cpu-list] [-H cpu-list] [-u|-k]\n"
		      "	  [-P priority] [--dma-latency us] [--deepest-idle-state n] [-A us] [--warm-up s]\n"
		      "	  [--trace-buffer-size kB] [--on-threshold action] [--on-end action]\n"
		      "	  [--report-hits] [--json file [--json-format tlat|rt-tests]]\n\n",
		      out);
	} else {
		fputs("tlat hist: a per-cpu histogram of the timer latency\n\n"
		      "  usage: [rtla] timerlat hist [-h] [-d s] [-D] [-n] [-p us] [-i us] [-T us] [-s us]\n"
		      "	  [-a us] [-t[file]] [-e sys[:event]] [--filter <filter>] [--trigger <trigger>]\n"
		      "	  [--no-aa] [--dump-tasks] [--aa-extras] [-c cpu-list] [-H cpu-list] [-u|-k]\n"
		      "	  [-P priority] [-b N] [-E N] [--no-irq] [--no-thread] [--no-header] [--no-summary]\n"
		      "	  [--no-index] [--with-zeros] [--dma-latency us] [--deepest-idle-state n] [-A us]\n"
		      "	  [--warm-up s] [--trace-buffer-size kB] [--on-threshold action] [--on-end action]\n"
		      "	  [--report-hits] [--json file [--json-format tlat|rt-tests]] [--plot file.png|file.svg]\n\n",
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
		"	  [--dump-tasks] [--aa-extras] [--stack-format f] [--sample-log file]\n"
		"	  [--json file [--json-format tlat|rt-tests]]%s [file]\n\n",
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
	      "     --aa-extras: after rtla's analysis lines, tlat's: each interference summed per\n"
	      "     source, and the part of the latency that no line with a share explains\n"
	      "     --stack-format truncate|skip|full: at an unknown address, stop the stack,\n"
	      "     skip the address or print it raw (default truncate)\n"
	      "  -n/--nano: display data in nanoseconds\n"
	      "  -D/--debug: print debug info\n"
	      "     --sample-log file: write every sample as \"cpu seq context latency_ns time_ns\" to file\n"
	      "     --json file: write the results as one JSON document to file (- for stdout),\n"
	      "     with the recorded run's command line, options and system where tlat record\n"
	      "     kept them; see JSON OUTPUT in tlat(8)\n"
	      "     --json-format tlat|rt-tests: tlat's own schema (default), or cyclictest's\n",
	      out);
	if (mode == TLAT_MODE_TOP)
		fputs("     --aa-only us: stop if a latency reaches us and print only the auto-analysis,\n"
		      "     no statistics\n", out);
}

void cli_usage(FILE *out, const struct tlat_params *p)
{
	if (p->command == TLAT_CMD_RECORD)
		record_usage(out, p->out.mode);
	else if (p->command == TLAT_CMD_REPORT)
		report_usage(out, p->out.mode);
	else
		measure_usage(out, p->out.mode);
	if (p->command != TLAT_CMD_REPORT || p->out.mode == TLAT_MODE_HIST)
		fputs(p->out.mode == TLAT_MODE_TOP ? top_usage : hist_usage, out);
	if (p->command == TLAT_CMD_REPORT)
		fputs("\nExit status: 0 when no threshold was reached, 1 on error, 2 when one was.\n",
		      out);
	else
		fputs("\nExit status: 0 when the run completes, 1 on error, 2 when a threshold stopped it\n"
		      "(or, with --on-threshold continue and --report-hits, was hit).\n", out);
}
