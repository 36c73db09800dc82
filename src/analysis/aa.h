/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aa.h - auto-analysis: why the activation that crossed a threshold was late.
 *
 * The engine knows nothing about sources or tracefs. Adapters feed it
 * interference intervals (IRQ, softirq, NMI, thread), context switches and
 * stacks; the run feeds it samples. Per CPU it keeps a bounded history and
 * the first activation that crossed a threshold, and explains that one by
 * time, so it does not matter whether its samples arrive before or after
 * the events around it, or how much later the tracing stopped.
 */
#ifndef TLAT_ANALYSIS_AA_H
#define TLAT_ANALYSIS_AA_H

#include <stdbool.h>

#include "core/sample.h"

#define AA_NAME_LEN	24	/* an IRQ's description or a task's comm */
#define AA_MAX_LINES	16	/* per-source lines kept per interference class */
#define AA_MAX_OCCS	64	/* occurrences kept per interference class */

enum aa_class {
	AA_NMI,
	AA_IRQ,
	AA_SOFTIRQ,
	AA_THREAD,
	AA_NR_CLASS
};

/* one interference, its duration net of what nested in it */
struct aa_interval {
	enum aa_class cls;
	int cpu;
	u64 start_ns;
	u64 end_ns;		/* where only the net duration is known: start + net */
	u64 net_ns;
	long long id;		/* IRQ vector or number, softirq vector, pid */
	char name[AA_NAME_LEN];
};

struct aa_switch {
	int cpu;
	u64 ts_ns;
	int prev_pid;
	int next_pid;
	char prev_comm[AA_NAME_LEN];
	char next_comm[AA_NAME_LEN];
};

struct aa_config {
	int nr_cpus;
	u64 irq_threshold_ns;		/* 0: off */
	u64 thread_threshold_ns;	/* 0: off; also the user-return context */
	u64 stack_threshold_ns;		/* -s: show a stack from this latency on */
	/*
	 * Thread interference comes as switches, not as intervals: the engine
	 * then works out who ran between the timer IRQ and the thread, net of
	 * the IRQs it saw, as osnoise's thread_noise would have.
	 */
	bool threads_from_switches;
	size_t history;			/* events kept per CPU */
};

/* one line under an interference class: an IRQ, a softirq or a task */
struct aa_line {
	long long id;
	char name[AA_NAME_LEN];
	u64 ns;
};

/*
 * One interference class twice: one line per occurrence in time order, as
 * rtla lists them, and one per source, summed (tlat's view, --aa-extras).
 */
struct aa_part {
	u64 sum_ns;
	int nr_lines;
	struct aa_line lines[AA_MAX_LINES];
	u64 other_ns;		/* lines beyond AA_MAX_LINES, summed */
	int nr_occs;
	struct aa_line occs[AA_MAX_OCCS];
	int nr_other_occs;	/* occurrences beyond AA_MAX_OCCS */
	u64 other_occs_ns;	/* and their time, summed */
};

/* the explanation of one CPU's threshold hit */
struct aa_result {
	int cpu;
	bool irq_stop;		/* the IRQ latency crossed, not the thread's */
	/* no events were lost inside the window, nor pushed out of the history */
	bool complete;
	u32 seq;
	u64 total_ns;		/* the latency that crossed: the 100% */
	u64 irq_latency_ns;
	u64 thread_latency_ns;
	u64 irq_delay_ns;	/* expected expiry to the start of the timer IRQ */
	bool exit_from_idle;
	bool timer_irq_seen;
	u64 timer_irq_ns;	/* the timer IRQ's own duration */
	u64 prev_irq_ns;	/* an earlier IRQ or NMI that delayed the timer IRQ */
	int blocking_pid;	/* -1: unknown */
	char blocking_comm[AA_NAME_LEN];
	u64 blocking_ns;
	struct aa_part parts[AA_NR_CLASS];	/* AA_THREAD: other tasks */
	/*
	 * total minus every part the text gives a share of (handler delay, timer
	 * IRQ, blocking thread, the interference classes), so that the shares
	 * add up to 100 %: scheduling overhead; < 0 if over-explained
	 */
	long long unexplained_ns;
	int nr_frames;
	u64 frames[TLAT_STACK_MAX_FRAMES];
};

/* a task that was running on a CPU when tracing stopped */
struct aa_task {
	int pid;
	char comm[AA_NAME_LEN];
	/* a kworker's work item and its function, since it switched in; 0: none */
	u64 work;
	u64 work_func;
};

/* --dump-tasks as data: what a CPU ran when tracing stopped */
struct aa_cpu_task {
	int cpu;
	struct aa_task task;
};

struct aa_engine;

/**
 * aa_alloc - an engine with no event yet
 * @config: the CPUs, thresholds and history it works with (copied)
 *
 * A CPU's state and history are allocated at its first event or sample:
 * only the CPUs that see some cost memory.
 *
 * Returns the engine, to free with aa_free(), or NULL on failure.
 */
struct aa_engine *aa_alloc(const struct aa_config *config);

/**
 * aa_free - free an engine and every CPU's history
 * @aa: from aa_alloc(), or NULL
 */
void aa_free(struct aa_engine *aa);

/**
 * aa_nr_cpus - how many CPUs @aa analyses, numbered from 0
 * @aa: the engine
 *
 * It ignores the events of any other: an adapter needs no state for them.
 */
int aa_nr_cpus(const struct aa_engine *aa);

/**
 * aa_add_sample - one sample of an activation
 * @aa: the engine
 * @sample: its CPU, context, latency and time; a CPU out of range is ignored
 *
 * An IRQ sample begins an activation. The first sample in the window
 * (aa_set_window()) that crosses its context's threshold freezes the CPU's
 * history around it, for aa_result() to explain.
 */
void aa_add_sample(struct aa_engine *aa, const struct tlat_sample *sample);

/**
 * aa_set_window - the run's measured window
 * @aa: the engine
 * @from_ns: its start, in trace time
 * @until_ns: its end, 0 for none
 *
 * Only samples from @from_ns to @until_ns can be a hit or the idle exit.
 * The others still give activations their context, such as the IRQ sample
 * of one that straddles the start.
 */
void aa_set_window(struct aa_engine *aa, u64 from_ns, u64 until_ns);

/**
 * aa_add_interval - an interference on a CPU: an NMI, IRQ, softirq or thread
 * @aa: the engine
 * @iv: when it ran, its duration net of what nested in it, and what it was
 */
void aa_add_interval(struct aa_engine *aa, const struct aa_interval *iv);

/**
 * aa_add_switch - a context switch
 * @aa: the engine
 * @sw: the CPU, time and the tasks before and after
 *
 * It sets the CPU's current task; with threads_from_switches the engine
 * also works out the thread interference from switches.
 */
void aa_add_switch(struct aa_engine *aa, const struct aa_switch *sw);

/**
 * aa_add_work - workqueue_execute_start: a CPU's task now runs a work item
 * @aa: the engine
 * @cpu: the CPU
 * @ts_ns: when
 * @work: the work item's address
 * @work_func: its function's address
 *
 * Kept for --dump-tasks until the CPU's next switch.
 */
void aa_add_work(struct aa_engine *aa, int cpu, u64 ts_ns, u64 work, u64 work_func);

/**
 * aa_add_stack - a stack saved at a timer IRQ
 * @aa: the engine
 * @stack: the stack: its activation's seq, or without one its time, says
 *	whose it is
 *
 * Kept in a bounded ring until the hit's own is found; a stack pushed out
 * before that makes the result incomplete.
 */
void aa_add_stack(struct aa_engine *aa, const struct tlat_stack *stack);

/**
 * aa_lost - the kernel dropped events on a CPU
 * @aa: the engine
 * @cpu: the CPU
 *
 * What is in flight is incomplete: a result whose window covers it says so.
 */
void aa_lost(struct aa_engine *aa, int cpu);

/**
 * aa_overwritten - a CPU's events before a time are gone
 * @aa: the engine
 * @cpu: the CPU
 * @ts_ns: the time of its oldest event still there
 *
 * A buffer in overwrite mode, read only after a hit, dropped the older
 * ones: a window that begins before @ts_ns is incomplete, as one the
 * history no longer reaches.
 */
void aa_overwritten(struct aa_engine *aa, int cpu, u64 ts_ns);

/**
 * aa_rearm - forget a CPU's hit, so that the next crossing is explained
 * @aa: the engine
 * @cpu: the CPU
 *
 * For a run that goes on measuring after a threshold (continue). What was
 * not kept since the hit counts as lost.
 */
void aa_rearm(struct aa_engine *aa, int cpu);

/**
 * aa_result - the explanation of a CPU's threshold hit
 * @aa: the engine
 * @cpu: the CPU
 * @res: filled in when there is a hit
 *
 * Returns false if no threshold was crossed on @cpu.
 */
bool aa_result(const struct aa_engine *aa, int cpu, struct aa_result *res);

/**
 * aa_max_idle_exit - the highest IRQ latency of an activation that woke its
 * CPU from idle, not delayed by an earlier IRQ
 * @aa: the engine
 * @latency_ns: set to that latency
 * @cpu: set to its CPU
 *
 * Returns false if no activation in the window woke a CPU from idle.
 */
bool aa_max_idle_exit(const struct aa_engine *aa, u64 *latency_ns, int *cpu);

/**
 * aa_current_task - the task a CPU was running at its last switch
 * @aa: the engine
 * @cpu: the CPU
 * @task: set to it, with its work item if it is a kworker running one
 *
 * Returns false if no switch was seen on @cpu.
 */
bool aa_current_task(const struct aa_engine *aa, int cpu, struct aa_task *task);

#endif
