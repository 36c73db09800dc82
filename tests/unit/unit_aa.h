/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit_aa.h - what the auto-analysis tests share: times around the expiry
 * under study, the event formats of real kernels (this host's 6.18 for the
 * stock events, the 6.12-RT and 6.1-RT QEMU dumps for osnoise:* and
 * ftrace:kernel_stack) embedded so that tracefs is never touched, a tep, an
 * engine and an adapter opened on them (struct fx), each event's record fed
 * through the adapter as the kernel writes it, and the timelines several
 * tests start from.
 */
#ifndef TLAT_UNIT_AA_H
#define TLAT_UNIT_AA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/aa.h"
#include "analysis/aa_adapter.h"
#include "unit_helpers.h"

/* the expected expiry of the activation under study: 1000 s into the run */
#define E_NS		1000000000000ULL
#define US(x)		((u64)(x) * 1000ULL)
/* E + x microseconds; x may be negative */
#define AT(x)		((u64)((long long)E_NS + (long long)(x) * 1000LL))

#define HOG_PID		4242
#define STRESS_PID	500
#define TLAT_PID	99		/* the measuring thread of CPU 0 */

/* the %.*s paddings of rtla's format strings */
#define SP6	"      "
#define SP12	SP6 SP6
#define SP14	SP12 "  "
#define SP15	SP12 "   "
#define SP16	SP12 "    "
#define SP24	SP12 SP12
#define SP30	SP24 SP6
#define SP32	SP16 SP16
#define SP33	SP32 " "
#define SP36	SP30 SP6
#define SP37	SP36 " "
#define SP40	SP36 "    "
#define SP20	SP16 "    "
#define SP21	SP20 " "
#define SP22	SP20 "  "
#define DASHES	"------------------------------------------------------------------------\n"

/* /sys/kernel/tracing/events/<system>/<name>/format of a 6.18 x86 host */
#define LOCAL_TIMER_ENTRY_ID	165
#define LOCAL_TIMER_EXIT_ID	164
#define IRQ_ENTRY_ID		225
#define IRQ_EXIT_ID		224
#define SOFTIRQ_ENTRY_ID	223
#define SOFTIRQ_EXIT_ID		222
#define NMI_HANDLER_ID		170
#define SCHED_SWITCH_ID		372
/* the 6.12-RT QEMU dump (kmod-spike/test/qemu-log-6.12.117-rt.txt) */
#define NMI_NOISE_ID		513
#define IRQ_NOISE_ID		514
#define SOFTIRQ_NOISE_ID	515
#define THREAD_NOISE_ID		516
#define KERNEL_STACK_ID		4
#define TIMERLAT_ID		21

#define NR_CPUS		4

/* what a test's fixture opens: an adapter, and its engine's thresholds in us */
struct fx_engine {
	const struct aa_adapter_ops *ops;
	u64 irq_us;
	u64 thread_us;
	u64 stack_us;
};

struct fx {
	struct tep_handle *tep;
	struct aa_engine *aa;
	const struct aa_adapter_ops *ops;
	struct aa_adapter *ad;
	const struct fx_engine *engine;	/* what fx_setup() opened, if anything */
};

/* the formats of the stock adapter's events, and of the osnoise adapter's */
extern const struct unit_format unit_aa_stock_formats[];
extern const struct unit_format unit_aa_osnoise_formats[];
/* ftrace:kernel_stack of 6.12-RT, and of Debian's 6.1-RT (one more common field) */
extern const char unit_aa_kernel_stack_612[];
extern const char unit_aa_kernel_stack_61rt[];
/* the stack of the hit in the stack tests, three frames */
extern const u64 unit_aa_stack_hit[3];

/* the engines the tests open, named by adapter and -i, -T (and -s) */
extern const struct fx_engine stock_t1000, stock_t150, stock_t100, stock_t50, stock_i20,
	stock_i20_t100, osnoise_t1000, osnoise_t100, osnoise_t50;

/* the test f on a fixture that opens nothing, or that opens an engine */
#define FX_TEST(f)	cmocka_unit_test_setup_teardown(f, fx_setup, fx_teardown)
#define AA_TEST(f, engine)	{ #f, f, fx_setup, fx_teardown, (void *)&(engine) }

/**
 * fx_config - an engine's configuration for NR_CPUS CPUs
 * @irq_threshold_us: -i, 0 for none
 * @thread_threshold_us: -T, 0 for none
 * @ops: the adapter that feeds it
 *
 * Return: the configuration.
 */
struct aa_config fx_config(u64 irq_threshold_us, u64 thread_threshold_us,
			   const struct aa_adapter_ops *ops);

/**
 * fx_open - a tep of the adapter's formats, an engine of cfg, and the adapter on them
 * @fx: the fixture, closed
 * @ops: the adapter
 * @cfg: the engine's configuration
 */
void fx_open(struct fx *fx, const struct aa_adapter_ops *ops, const struct aa_config *cfg);

/**
 * fx_close - close what fx_open() opened, if anything
 * @fx: the fixture
 */
void fx_close(struct fx *fx);

/**
 * fx_reopen - close the fixture, and open the engine of its setup anew
 * @fx: the fixture, of a test with an engine
 */
void fx_reopen(struct fx *fx);

/**
 * fx_setup - a cmocka setup: a fixture, opened on the struct fx_engine in *state if any
 * @state: the test's state
 *
 * A failed assertion leaves the test early: the teardown still frees.
 *
 * Return: 0, or -1 if it cannot be allocated.
 */
int fx_setup(void **state);

/**
 * fx_teardown - a cmocka teardown: close and free the fixture
 * @state: the test's state
 *
 * Return: 0.
 */
int fx_teardown(void **state);

/**
 * fx_feed - one record of an event through the adapter
 * @fx: the fixture, open
 * @id: the event's id; its common header is written into data
 * @cpu: the buffer it is in
 * @ts: its stamp
 * @data: the record, its payload after the common header
 * @size: the record's size
 */
void fx_feed(struct fx *fx, int id, int cpu, u64 ts, unsigned char *data, int size);

/**
 * fx_put32 - a 32-bit field of a record
 * @data: the record
 * @off: the field's offset
 * @v: its value
 */
void fx_put32(unsigned char *data, int off, int32_t v);

/**
 * fx_put64 - a 64-bit field of a record
 * @data: the record
 * @off: the field's offset
 * @v: its value
 */
void fx_put64(unsigned char *data, int off, uint64_t v);

/**
 * fx_put_str - a __data_loc string field of a record
 * @data: the record
 * @off: the field's offset
 * @where: where its text goes in the record
 * @s: the text
 */
void fx_put_str(unsigned char *data, int off, int where, const char *s);

/**
 * fx_local_timer - irq_vectors:local_timer_entry or _exit
 * @fx: the fixture, open on the stock adapter
 * @cpu: the CPU
 * @ts: the stamp
 * @entry: the entry, else the exit
 */
void fx_local_timer(struct fx *fx, int cpu, u64 ts, bool entry);

/**
 * fx_irq_entry - irq:irq_handler_entry
 * @fx: the fixture, open on the stock adapter
 * @cpu: the CPU
 * @ts: the stamp
 * @irq: the IRQ
 * @name: its handler's name
 */
void fx_irq_entry(struct fx *fx, int cpu, u64 ts, int irq, const char *name);

/**
 * fx_irq_exit - irq:irq_handler_exit, handled
 * @fx: the fixture, open on the stock adapter
 * @cpu: the CPU
 * @ts: the stamp
 * @irq: the IRQ
 */
void fx_irq_exit(struct fx *fx, int cpu, u64 ts, int irq);

/**
 * fx_softirq - irq:softirq_entry or _exit
 * @fx: the fixture, open on the stock adapter
 * @cpu: the CPU
 * @ts: the stamp
 * @vec: the softirq
 * @entry: the entry, else the exit
 */
void fx_softirq(struct fx *fx, int cpu, u64 ts, unsigned int vec, bool entry);

/**
 * fx_nmi - nmi:nmi_handler, written as the handler returns, with its duration
 * @fx: the fixture, open on the stock adapter
 * @cpu: the CPU
 * @ts: the stamp, the NMI's end
 * @delta_ns: its duration
 */
void fx_nmi(struct fx *fx, int cpu, u64 ts, long long delta_ns);

/**
 * fx_sched_switch - sched:sched_switch
 * @fx: the fixture, open
 * @cpu: the CPU
 * @ts: the stamp
 * @prev_comm: the task switched out
 * @prev_pid: its pid
 * @next_comm: the task switched in
 * @next_pid: its pid
 */
void fx_sched_switch(struct fx *fx, int cpu, u64 ts, const char *prev_comm, int prev_pid,
		     const char *next_comm, int next_pid);

/**
 * fx_running - a task runs on a CPU from before the window: switched in from kworker/0:1 at E-100
 * @fx: the fixture, open
 * @cpu: the CPU
 * @comm: the task
 * @pid: its pid
 */
void fx_running(struct fx *fx, int cpu, const char *comm, int pid);

/**
 * fx_irq_noise - osnoise:irq_noise, written as the noise ends
 * @fx: the fixture, open on the osnoise adapter
 * @cpu: the CPU
 * @ts: the stamp
 * @start: the noise's start on the instance's clock (written OSN_SKEW behind)
 * @desc: the IRQ's name
 * @vector: its vector
 * @dur: the noise's duration
 */
void fx_irq_noise(struct fx *fx, int cpu, u64 ts, u64 start, const char *desc, int vector,
		  u64 dur);

/**
 * fx_softirq_noise - osnoise:softirq_noise, written as the noise ends
 * @fx: the fixture, open on the osnoise adapter
 * @cpu: the CPU
 * @ts: the stamp
 * @start: the noise's start on the instance's clock
 * @vector: the softirq
 * @dur: the noise's duration
 */
void fx_softirq_noise(struct fx *fx, int cpu, u64 ts, u64 start, int vector, u64 dur);

/**
 * fx_nmi_noise - osnoise:nmi_noise, written as the noise ends
 * @fx: the fixture, open on the osnoise adapter
 * @cpu: the CPU
 * @ts: the stamp
 * @start: the noise's start on the instance's clock
 * @dur: the noise's duration
 */
void fx_nmi_noise(struct fx *fx, int cpu, u64 ts, u64 start, u64 dur);

/**
 * fx_thread_noise - osnoise:thread_noise, written as the noise ends
 * @fx: the fixture, open on the osnoise adapter
 * @cpu: the CPU
 * @ts: the stamp
 * @start: the noise's start on the instance's clock
 * @comm: the thread
 * @pid: its pid
 * @dur: the noise's duration
 */
void fx_thread_noise(struct fx *fx, int cpu, u64 ts, u64 start, const char *comm, int pid,
		     u64 dur);

/**
 * fx_sample - a latency sample to the engine
 * @fx: the fixture, open
 * @ctx: its context
 * @cpu: its CPU
 * @seq: its activation
 * @pid: the task the IRQ interrupted, or the measuring thread
 * @ts: its stamp
 * @latency_ns: its latency
 */
void fx_sample(struct fx *fx, enum tlat_ctx ctx, int cpu, u32 seq, int pid, u64 ts,
	       u64 latency_ns);

/**
 * fx_lost - events lost on a CPU, to the adapter and the engine
 * @fx: the fixture, open
 * @cpu: the CPU
 */
void fx_lost(struct fx *fx, int cpu);

/**
 * fx_result - the engine's result of a CPU, which it must have
 * @fx: the fixture, open
 * @cpu: the CPU
 * @res: the result
 */
void fx_result(struct fx *fx, int cpu, struct aa_result *res);

/**
 * fx_stack - a saved stack to the engine
 * @fx: the fixture, open
 * @cpu: its CPU
 * @ts: its stamp
 * @seq: its activation (0: the source does not say, as the kernel's)
 * @ips: its frames
 * @nr: how many
 */
void fx_stack(struct fx *fx, int cpu, u64 ts, u32 seq, const u64 *ips, int nr);

/**
 * assert_one_line - a part of the analysis has exactly one line
 * @p: the part
 * @id: the line's id
 * @name: its name
 * @ns: its time, and the part's
 */
void assert_one_line(const struct aa_part *p, long long id, const char *name, u64 ns);

/**
 * assert_empty - a part of the analysis has nothing
 * @p: the part
 */
void assert_empty(const struct aa_part *p);

/**
 * assert_blocked_by - the blocking thread of a result
 * @res: the result
 * @pid: its pid
 * @comm: its name
 */
void assert_blocked_by(const struct aa_result *res, int pid, const char *comm);

/**
 * fx_irq_in_softirq - a softirq from..to on a CPU, and an IRQ in it from..to
 * @fx: the fixture, open on the stock adapter
 * @cpu: the CPU
 * @vec: the softirq
 * @from: its entry
 * @to: its exit
 * @irq: the IRQ
 * @name: its handler's name
 * @irq_from: its entry
 * @irq_to: its exit
 */
void fx_irq_in_softirq(struct fx *fx, int cpu, unsigned int vec, u64 from, u64 to, int irq,
		       const char *name, u64 irq_from, u64 irq_to);

/**
 * fx_expect_hog - fx_hog_timeline(), and its hit's analysis checked
 * @fx: the fixture, open on the stock adapter
 * @samples_at_end: the tracepoint source's order, else the kernel sources'
 */
void fx_expect_hog(struct fx *fx, bool samples_at_end);

/**
 * fx_hog_timeline - the hog pattern on CPU 0 (unit_aa.c), samples before or after their events
 * @fx: the fixture, open on the stock adapter
 * @samples_at_end: the tracepoint source's order, else the kernel sources'
 */
void fx_hog_timeline(struct fx *fx, bool samples_at_end);

/**
 * fx_check_hog - the analysis of fx_hog_timeline()'s hit
 * @res: the result of CPU 0
 */
void fx_check_hog(const struct aa_result *res);

/**
 * fx_stress_timer_irq - "stress" runs, the timer IRQ E+5..E+15, its sample at E+8
 * @fx: the fixture, open on the stock adapter
 * @cpu: the CPU
 */
void fx_stress_timer_irq(struct fx *fx, int cpu);

/**
 * fx_stress_thread - stress keeps the CPU to E+end, then the thread runs: latency end us
 * @fx: the fixture, open on the stock adapter
 * @cpu: the CPU
 * @end: when, in us after E
 */
void fx_stress_thread(struct fx *fx, int cpu, int end);

/**
 * fx_check_stress_head - what fx_stress_timer_irq() and fx_stress_thread() make of a hit
 * @res: the result
 * @end: fx_stress_thread()'s end
 */
void fx_check_stress_head(const struct aa_result *res, int end);

#endif
