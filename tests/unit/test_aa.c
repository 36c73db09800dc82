// SPDX-License-Identifier: GPL-2.0
/*
 * test_aa.c - the auto-analysis: the engine (aa.c), its two adapters
 * (aa_stock.c, aa_osnoise.c), the stack decoding (kstack.c) and the report
 * (aa_render.c). The analysis is what a user reads when a run stops, and
 * its numbers cannot be checked against the running system, so each case
 * here is a small timeline whose right answer is worked out by hand in the
 * comments, fed through the adapters as the kernel would write it. Samples
 * are fed both before the events they explain (kernel sources) and after
 * them (the tracepoint source): the engine works by time, so both orders
 * must give the same answer. The report's expected text is built from
 * rtla's v7.1 format strings (rtla.md section 2.4), not from our code.
 *
 * The event formats are the ones of a real kernel (this host's 6.18 for the
 * stock events, the 6.12-RT and 6.1-RT QEMU dumps for osnoise:* and
 * ftrace:kernel_stack), embedded so that tracefs is never touched: the
 * adapters' open() only reads the tep, and enable() is never called.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/aa.h"
#include "analysis/aa_adapter.h"
#include "cmd/cli.h"
#include "output/text_aa.h"
#include "trace/kstack.h"
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

/* ---- event formats ---------------------------------------------------- */

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

/* ftrace:timerlat, the samples the osnoise adapter reads the contexts of */
static const char timerlat_format[] =
	"name: timerlat\n"
	"ID: 21\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	UNIT_TIMERLAT_FIELDS
	"\n"
	"print fmt: \"#%-5u context %6s timer_latency %9llu ns\", REC->seqnum, "
	"(REC->context) ? \"thread\" : \"irq\", REC->timer_latency\n";

static const char local_timer_entry_format[] =
	"name: local_timer_entry\n"
	"ID: 165\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"vector=%d\", REC->vector\n";

static const char local_timer_exit_format[] =
	"name: local_timer_exit\n"
	"ID: 164\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"vector=%d\", REC->vector\n";

static const char irq_handler_entry_format[] =
	"name: irq_handler_entry\n"
	"ID: 225\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"irq=%d name=%s\", REC->irq, __get_str(name)\n";

static const char irq_handler_exit_format[] =
	"name: irq_handler_exit\n"
	"ID: 224\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int ret;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"\n";

#define SOFTIRQ_PRINT \
	"print fmt: \"vec=%u [action=%s]\", REC->vec, __print_symbolic(REC->vec, " \
	"{ 0, \"HI\" }, { 1, \"TIMER\" }, { 2, \"NET_TX\" }, { 3, \"NET_RX\" }, " \
	"{ 4, \"BLOCK\" }, { 5, \"IRQ_POLL\" }, { 6, \"TASKLET\" }, { 7, \"SCHED\" }, " \
	"{ 8, \"HRTIMER\" }, { 9, \"RCU\" })\n"

static const char softirq_entry_format[] =
	"name: softirq_entry\n"
	"ID: 223\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\n"
	SOFTIRQ_PRINT;

static const char softirq_exit_format[] =
	"name: softirq_exit\n"
	"ID: 222\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\n"
	SOFTIRQ_PRINT;

static const char nmi_handler_format[] =
	"name: nmi_handler\n"
	"ID: 170\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:void * handler;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 delta_ns;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:int handled;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"%ps() delta_ns: %lld handled: %d\", REC->handler, REC->delta_ns, "
	"REC->handled\n";

#define TASK_STATES \
	"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | " \
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)"

static const char sched_switch_format[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	UNIT_SCHED_SWITCH_FIELDS
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> "
	"next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, "
	"REC->prev_prio, (REC->prev_state & " TASK_STATES ") ? __print_flags(REC->prev_state & "
	TASK_STATES ", \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, "
	"{ 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, "
	"{ 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
	"REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | "
	"0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", "
	"REC->next_comm, REC->next_pid, REC->next_prio\n";

static const char irq_noise_format[] =
	"name: irq_noise\n"
	"ID: 514\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:u64 start;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 duration;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] desc;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:int vector;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"%s:%d start %llu.%09u duration %llu ns\", __get_str(desc), REC->vector, "
	"(REC->start) / 1000000000UL, (REC->start) % 1000000000UL, REC->duration\n";

static const char nmi_noise_format[] =
	"name: nmi_noise\n"
	"ID: 513\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:u64 start;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 duration;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"start %llu.%09u duration %llu ns\", (REC->start) / 1000000000UL, "
	"(REC->start) % 1000000000UL, REC->duration\n";

static const char softirq_noise_format[] =
	"name: softirq_noise\n"
	"ID: 515\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:u64 start;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 duration;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:int vector;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"%8s:%d start %llu.%09u duration %llu ns\", __print_symbolic(REC->vector, "
	"{ HI_SOFTIRQ, \"HI\" }, { TIMER_SOFTIRQ, \"TIMER\" }, { NET_TX_SOFTIRQ, \"NET_TX\" }, "
	"{ NET_RX_SOFTIRQ, \"NET_RX\" }, { BLOCK_SOFTIRQ, \"BLOCK\" }, "
	"{ IRQ_POLL_SOFTIRQ, \"IRQ_POLL\" }, { TASKLET_SOFTIRQ, \"TASKLET\" }, "
	"{ SCHED_SOFTIRQ, \"SCHED\" }, { HRTIMER_SOFTIRQ, \"HRTIMER\" }, "
	"{ RCU_SOFTIRQ, \"RCU\" }), REC->vector, (REC->start) / 1000000000UL, "
	"(REC->start) % 1000000000UL, REC->duration\n";

static const char thread_noise_format[] =
	"name: thread_noise\n"
	"ID: 516\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:u64 start;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 duration;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:40;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"%8s:%d start %llu.%09u duration %llu ns\", REC->comm, REC->pid, "
	"(REC->start) / 1000000000UL, (REC->start) % 1000000000UL, REC->duration\n";

#define KERNEL_STACK_PRINT \
	"print fmt: \"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\" \"\\t=> %ps\\n\\t=> %ps\\n" \
	"\\t=> %ps\\n\" \"\\t=> %ps\\n\\t=> %ps\\n\", (void *)REC->caller[0], " \
	"(void *)REC->caller[1], (void *)REC->caller[2], (void *)REC->caller[3], " \
	"(void *)REC->caller[4], (void *)REC->caller[5], (void *)REC->caller[6], " \
	"(void *)REC->caller[7]\n"

static const char kernel_stack_612_format[] =
	"name: kernel_stack\n"
	"ID: 4\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n"
	"\n"
	KERNEL_STACK_PRINT;

/* Debian's 6.1-RT: one more common field, and the size moves to 12 */
static const char kernel_stack_61rt_format[] =
	"name: kernel_stack\n"
	"ID: 4\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\tfield:unsigned char common_preempt_lazy_count;\toffset:8;\tsize:1;\tsigned:0;\n"
	"\n"
	"\tfield:int size;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n"
	"\n"
	KERNEL_STACK_PRINT;

static const struct unit_format stock_formats[] = {
	{ "irq_vectors", local_timer_entry_format },
	{ "irq_vectors", local_timer_exit_format },
	{ "irq", irq_handler_entry_format },
	{ "irq", irq_handler_exit_format },
	{ "irq", softirq_entry_format },
	{ "irq", softirq_exit_format },
	{ "nmi", nmi_handler_format },
	{ "sched", sched_switch_format },
	{ NULL, NULL },
};

static const struct unit_format osnoise_formats[] = {
	{ "osnoise", irq_noise_format },
	{ "osnoise", nmi_noise_format },
	{ "osnoise", softirq_noise_format },
	{ "osnoise", thread_noise_format },
	{ "ftrace", timerlat_format },
	{ "sched", sched_switch_format },
	{ NULL, NULL },
};

/* ---- a tep, an engine and an adapter ---------------------------------- */

#define NR_CPUS		4

struct fx {
	struct tep_handle *tep;
	struct aa_engine *aa;
	const struct aa_adapter_ops *ops;
	struct aa_adapter *ad;
};

static struct aa_config config(u64 irq_threshold_us, u64 thread_threshold_us,
			       const struct aa_adapter_ops *ops)
{
	return (struct aa_config){
		.nr_cpus = NR_CPUS,
		.irq_threshold_ns = US(irq_threshold_us),
		.thread_threshold_ns = US(thread_threshold_us),
		.threads_from_switches = ops->threads_from_switches,
	};
}

static void fx_open(struct fx *fx, const struct aa_adapter_ops *ops, const struct aa_config *cfg)
{
	char err[TLAT_ERR_LEN] = "";

	memset(fx, 0, sizeof(*fx));
	fx->ops = ops;
	fx->tep = unit_tep(ops == &aa_stock_ops ? stock_formats : osnoise_formats);
	fx->aa = aa_alloc(cfg);
	assert_non_null(fx->aa);
	if (ops->open(&fx->ad, fx->tep, fx->aa, false, err)) {
		print_error("open: %s\n", err);
		fail();
	}
	assert_non_null(fx->ad);
}

static void fx_close(struct fx *fx)
{
	if (fx->ad)
		fx->ops->close(fx->ad);
	aa_free(fx->aa);
	tep_free(fx->tep);
	memset(fx, 0, sizeof(*fx));
}

/* a failed assertion leaves the test early: the teardown still frees */
static int fx_setup(void **state)
{
	*state = calloc(1, sizeof(struct fx));
	return *state ? 0 : -1;
}

static int fx_teardown(void **state)
{
	fx_close(*state);
	free(*state);
	return 0;
}

/* one record of event id, its payload after the common header in data */
static void feed(struct fx *fx, int id, int cpu, u64 ts, unsigned char *data, int size)
{
	struct tep_event *event = tep_find_event(fx->tep, id);
	struct tep_record record = { .ts = ts, .cpu = cpu, .size = size, .data = data };
	uint16_t type = id;
	int32_t pid = 1;

	assert_non_null(event);
	memcpy(data, &type, 2);
	memcpy(data + 4, &pid, 4);
	fx->ops->record(fx->ad, event, &record);
}

static void put32(unsigned char *data, int off, int32_t v)
{
	memcpy(data + off, &v, 4);
}

static void put64(unsigned char *data, int off, uint64_t v)
{
	memcpy(data + off, &v, 8);
}

/* a __data_loc string at off, its text at where */
static void put_str(unsigned char *data, int off, int where, const char *s)
{
	int len = strlen(s) + 1;

	put32(data, off, (len << 16) | where);
	memcpy(data + where, s, len);
}

static void local_timer(struct fx *fx, int cpu, u64 ts, bool entry)
{
	unsigned char data[16] = { 0 };

	put32(data, 8, 236);
	feed(fx, entry ? LOCAL_TIMER_ENTRY_ID : LOCAL_TIMER_EXIT_ID, cpu, ts, data, 12);
}

static void irq_entry(struct fx *fx, int cpu, u64 ts, int irq, const char *name)
{
	unsigned char data[64] = { 0 };

	put32(data, 8, irq);
	put_str(data, 12, 16, name);
	feed(fx, IRQ_ENTRY_ID, cpu, ts, data, 16 + strlen(name) + 1);
}

static void irq_exit(struct fx *fx, int cpu, u64 ts, int irq)
{
	unsigned char data[16] = { 0 };

	put32(data, 8, irq);
	put32(data, 12, 1);
	feed(fx, IRQ_EXIT_ID, cpu, ts, data, 16);
}

static void softirq(struct fx *fx, int cpu, u64 ts, unsigned int vec, bool entry)
{
	unsigned char data[16] = { 0 };

	put32(data, 8, vec);
	feed(fx, entry ? SOFTIRQ_ENTRY_ID : SOFTIRQ_EXIT_ID, cpu, ts, data, 12);
}

/* nmi:nmi_handler is written as the handler returns, with its duration */
static void nmi(struct fx *fx, int cpu, u64 ts, long long delta_ns)
{
	unsigned char data[32] = { 0 };

	put64(data, 8, 0xffffffff81234560ULL);
	put64(data, 16, delta_ns);
	put32(data, 24, 1);
	feed(fx, NMI_HANDLER_ID, cpu, ts, data, 28);
}

static void sched_switch(struct fx *fx, int cpu, u64 ts, const char *prev_comm, int prev_pid,
			 const char *next_comm, int next_pid)
{
	unsigned char data[64] = { 0 };

	strncpy((char *)data + 8, prev_comm, 16);
	put32(data, 24, prev_pid);
	put32(data, 28, 120);
	put64(data, 32, 0);
	strncpy((char *)data + 40, next_comm, 16);
	put32(data, 56, next_pid);
	put32(data, 60, 120);
	feed(fx, SCHED_SWITCH_ID, cpu, ts, data, 64);
}

/*
 * osnoise:*_noise are written as the noise ends (record ts); their start
 * field is the kernel's stamp on the CPU's local clock, which the tests put
 * OSN_SKEW behind the instance's: the helpers take the start on the
 * instance's clock, the adapter must find it back.
 */
#define OSN_SKEW	(US(777777) + 321)

static void irq_noise(struct fx *fx, int cpu, u64 ts, u64 start, const char *desc, int vector,
		      u64 dur)
{
	unsigned char data[64] = { 0 };

	put64(data, 8, start - OSN_SKEW);
	put64(data, 16, dur);
	put_str(data, 24, 32, desc);
	put32(data, 28, vector);
	feed(fx, IRQ_NOISE_ID, cpu, ts, data, 32 + strlen(desc) + 1);
}

static void softirq_noise(struct fx *fx, int cpu, u64 ts, u64 start, int vector, u64 dur)
{
	unsigned char data[32] = { 0 };

	put64(data, 8, start - OSN_SKEW);
	put64(data, 16, dur);
	put32(data, 24, vector);
	feed(fx, SOFTIRQ_NOISE_ID, cpu, ts, data, 28);
}

static void nmi_noise(struct fx *fx, int cpu, u64 ts, u64 start, u64 dur)
{
	unsigned char data[32] = { 0 };

	put64(data, 8, start - OSN_SKEW);
	put64(data, 16, dur);
	feed(fx, NMI_NOISE_ID, cpu, ts, data, 24);
}

static void thread_noise(struct fx *fx, int cpu, u64 ts, u64 start, const char *comm, int pid,
			 u64 dur)
{
	unsigned char data[48] = { 0 };

	strncpy((char *)data + 8, comm, 16);
	put64(data, 24, start - OSN_SKEW);
	put64(data, 32, dur);
	put32(data, 40, pid);
	feed(fx, THREAD_NOISE_ID, cpu, ts, data, 44);
}

static void sample(struct fx *fx, enum tlat_ctx ctx, int cpu, u32 seq, int pid, u64 ts,
		   u64 latency_ns)
{
	struct tlat_sample s = {
		.ts_ns = ts, .latency_ns = latency_ns, .seq = seq, .cpu = cpu, .pid = pid,
		.ctx = ctx,
	};

	aa_add_sample(fx->aa, &s);
}

static void lost(struct fx *fx, int cpu)
{
	if (fx->ops->lost)
		fx->ops->lost(fx->ad, cpu);
	aa_lost(fx->aa, cpu);
}

static void result(struct fx *fx, int cpu, struct aa_result *res)
{
	assert_true(aa_result(fx->aa, cpu, res));
	assert_int_equal(res->cpu, cpu);
}

/* a stack of activation seq (0: the source does not say, as the kernel's) */
static void stack(struct fx *fx, int cpu, u64 ts, u32 seq, const u64 *ips, int nr)
{
	struct tlat_stack st = { .ts_ns = ts, .seq = seq, .cpu = cpu, .nr = nr, .ips = ips };

	aa_add_stack(fx->aa, &st);
}

/* a part with exactly one line */
static void assert_one_line(const struct aa_part *p, long long id, const char *name, u64 ns)
{
	assert_int_equal(p->sum_ns, ns);
	assert_int_equal(p->nr_lines, 1);
	assert_int_equal(p->lines[0].id, id);
	assert_string_equal(p->lines[0].name, name);
	assert_int_equal(p->lines[0].ns, ns);
	assert_int_equal(p->other_ns, 0);
}

static void assert_empty(const struct aa_part *p)
{
	assert_int_equal(p->sum_ns, 0);
	assert_int_equal(p->nr_lines, 0);
}

/* ---- 1. the hog pattern, through the stock adapter, in both orders ----- */

/*
 * CPU 0. The timer expires at E while tlat-hog (4242) runs; its IRQ runs
 * E+5..E+15 (the IRQ sample, latency 8 us, is taken at E+8), another
 * local_timer E+1000..E+1010 interrupts the hog, which keeps the CPU to
 * E+3000, when it switches to the measuring thread (99): thread latency
 * 3000 us. Later, events and a second activation that must not matter.
 */
static void hog_timeline(struct fx *fx, bool samples_at_end)
{
	sched_switch(fx, 0, AT(-100), "kworker/0:1", 30, "tlat-hog", HOG_PID);
	local_timer(fx, 0, AT(5), true);
	if (!samples_at_end)
		sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
	local_timer(fx, 0, AT(15), false);
	local_timer(fx, 0, AT(1000), true);
	local_timer(fx, 0, AT(1010), false);
	sched_switch(fx, 0, AT(3000), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	if (!samples_at_end)
		sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(3000), US(3000));
	/* after the thread woke: frozen out, or outside the window */
	local_timer(fx, 0, AT(3001), true);
	local_timer(fx, 0, AT(3003), false);
	if (samples_at_end) {
		sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
		sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(3000), US(3000));
	}
	/* the next activation, expected at E+4000 */
	local_timer(fx, 0, AT(4000), true);
	sample(fx, TLAT_CTX_IRQ, 0, 2, 0, AT(4002), US(2));
	local_timer(fx, 0, AT(4010), false);
	sched_switch(fx, 0, AT(4020), "swapper/0", 0, "tlat/0", TLAT_PID);
	sample(fx, TLAT_CTX_THREAD, 0, 2, TLAT_PID, AT(4020), US(20));
}

static void check_hog(const struct aa_result *res)
{
	assert_false(res->irq_stop);
	assert_true(res->complete);
	assert_int_equal(res->seq, 1);
	assert_int_equal(res->total_ns, US(3000));
	assert_int_equal(res->irq_latency_ns, US(8));
	assert_int_equal(res->thread_latency_ns, US(3000));
	assert_true(res->timer_irq_seen);
	/* E+5 (timer IRQ entry) - E (E+8 - 8 us) */
	assert_int_equal(res->irq_delay_ns, US(5));
	/* E+15 - E+5 */
	assert_int_equal(res->timer_irq_ns, US(10));
	assert_int_equal(res->prev_irq_ns, 0);
	assert_false(res->exit_from_idle);
	assert_int_equal(res->blocking_pid, HOG_PID);
	assert_string_equal(res->blocking_comm, "tlat-hog");
	/* E+5..E+3000 = 2995, minus the timer IRQ (10) and the other IRQ (10) */
	assert_int_equal(res->blocking_ns, US(3000 - 5 - 10 - 10));
	/* E+1000..E+1010 */
	assert_one_line(&res->parts[AA_IRQ], 236, "local_timer", US(10));
	assert_empty(&res->parts[AA_NMI]);
	assert_empty(&res->parts[AA_SOFTIRQ]);
	assert_empty(&res->parts[AA_THREAD]);
	/* 3000 - (5 + 10 + 2975 + 10) */
	assert_int_equal(res->unexplained_ns, 0);
	assert_int_equal(res->nr_frames, 0);
}

static void test_hog_kernel_order(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 1000, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	hog_timeline(fx, false);
	result(fx, 0, &res);
	check_hog(&res);
	for (int cpu = 1; cpu < NR_CPUS; cpu++)
		assert_false(aa_result(fx->aa, cpu, &res));
	fx_close(fx);
}

static void test_hog_tracepoint_order(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 1000, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	hog_timeline(fx, true);
	result(fx, 0, &res);
	check_hog(&res);
	fx_close(fx);
}

/*
 * The common start of the cases below, on CPU 0: "stress" (500) runs, the
 * timer expires at E and its IRQ runs E+5..E+15 (IRQ sample at E+8, 8 us).
 * So irq_delay = 5 us and the timer IRQ takes 10 us.
 */
static void stress_timer_irq(struct fx *fx, int cpu)
{
	sched_switch(fx, cpu, AT(-100), "kworker/0:1", 30, "stress", STRESS_PID);
	local_timer(fx, cpu, AT(5), true);
	sample(fx, TLAT_CTX_IRQ, cpu, 1, STRESS_PID, AT(8), US(8));
	local_timer(fx, cpu, AT(15), false);
}

/* stress keeps the CPU to E+end, then the thread runs: latency end us */
static void stress_thread(struct fx *fx, int cpu, int end)
{
	sched_switch(fx, cpu, AT(end), "stress", STRESS_PID, "tlat/0", TLAT_PID);
	sample(fx, TLAT_CTX_THREAD, cpu, 1, TLAT_PID, AT(end), US(end));
}

static void check_stress_head(const struct aa_result *res, int end)
{
	assert_false(res->irq_stop);
	assert_int_equal(res->total_ns, US(end));
	assert_int_equal(res->irq_delay_ns, US(5));
	assert_int_equal(res->blocking_pid, STRESS_PID);
	assert_string_equal(res->blocking_comm, "stress");
}

/* ---- 2. an IRQ nested in a softirq ------------------------------------ */

static void test_irq_in_softirq(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 1000, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	stress_timer_irq(fx, 0);
	softirq(fx, 0, AT(50), 3, true);		/* NET_RX */
	irq_entry(fx, 0, AT(60), 11, "eth0");
	irq_exit(fx, 0, AT(64), 11);
	softirq(fx, 0, AT(80), 3, false);
	stress_thread(fx, 0, 1500);

	result(fx, 0, &res);
	check_stress_head(&res, 1500);
	assert_true(res.complete);
	assert_int_equal(res.timer_irq_ns, US(10));
	/* E+60..E+64 */
	assert_one_line(&res.parts[AA_IRQ], 11, "eth0", US(4));
	/* E+50..E+80 = 30, minus the 4 of the IRQ nested in it */
	assert_one_line(&res.parts[AA_SOFTIRQ], 3, "NET_RX", US(26));
	assert_empty(&res.parts[AA_NMI]);
	assert_empty(&res.parts[AA_THREAD]);
	/* E+5..E+1500 = 1495, minus timer IRQ 10, softirq 26, IRQ 4 */
	assert_int_equal(res.blocking_ns, US(1495 - 10 - 26 - 4));
	/* 1500 - (5 + 10 + 1455 + 4 + 26) */
	assert_int_equal(res.unexplained_ns, 0);
	fx_close(fx);
}

/* ---- 3. an NMI inside an IRQ ------------------------------------------ */

static void test_nmi_in_irq(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 1000, &aa_stock_ops);
	struct aa_render_opts opts = { .stack_format = TLAT_STACK_TRUNCATE };
	struct aa_result res;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	fx_open(fx, &aa_stock_ops, &cfg);
	sched_switch(fx, 0, AT(-100), "kworker/0:1", 30, "stress", STRESS_PID);
	local_timer(fx, 0, AT(5), true);
	sample(fx, TLAT_CTX_IRQ, 0, 1, STRESS_PID, AT(8), US(8));
	nmi(fx, 0, AT(12), 2000);		/* E+10..E+12, in the timer IRQ */
	local_timer(fx, 0, AT(15), false);
	irq_entry(fx, 0, AT(50), 11, "eth0");
	nmi(fx, 0, AT(62), 5000);		/* E+57..E+62, in eth0 */
	irq_exit(fx, 0, AT(70), 11);
	stress_thread(fx, 0, 1500);

	result(fx, 0, &res);
	check_stress_head(&res, 1500);
	/* E+5..E+15 = 10, minus the NMI's 2 */
	assert_int_equal(res.timer_irq_ns, US(8));
	/* 2 + 5 */
	assert_int_equal(res.parts[AA_NMI].sum_ns, US(7));
	/* E+50..E+70 = 20, minus the NMI's 5 */
	assert_one_line(&res.parts[AA_IRQ], 11, "eth0", US(15));
	assert_empty(&res.parts[AA_SOFTIRQ]);
	/* E+5..E+1500 = 1495, minus timer 8 + NMI 2 + eth0 15 + NMI 5 */
	assert_int_equal(res.blocking_ns, US(1495 - 8 - 2 - 15 - 5));
	/* 1500 - (5 + 8 + 1465 + 7 + 15) */
	assert_int_equal(res.unexplained_ns, 0);

	/* thread stops print the NMI sum: 7 us of 1500 = 0.47 % */
	out = open_memstream(&text, &len);
	assert_non_null(out);
	aa_render_result(out, &res, &opts);
	fclose(out);
	assert_non_null(strstr(text, "\n  NMI interference " SP36 " " "     7.00 us (0.47 %)\n"));
	free(text);
	fx_close(fx);
}

/* ---- 4. equal timestamps of nested writes, and an exit before its entry */

static void test_equal_timestamps(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 1000, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	stress_timer_irq(fx, 0);
	/* older kernels stamp nested ring-buffer writes with their parent's time */
	softirq(fx, 0, AT(50), 1, true);		/* TIMER */
	irq_entry(fx, 0, AT(50), 11, "eth0");
	irq_exit(fx, 0, AT(50), 11);
	softirq(fx, 0, AT(70), 1, false);
	/* an exit stamped before its entry */
	irq_entry(fx, 0, AT(100), 12, "ahci");
	irq_exit(fx, 0, AT(99), 12);
	/* the nesting is still in step afterwards */
	irq_entry(fx, 0, AT(200), 11, "eth0");
	irq_exit(fx, 0, AT(203), 11);
	stress_thread(fx, 0, 1500);

	result(fx, 0, &res);
	check_stress_head(&res, 1500);
	assert_int_equal(res.timer_irq_ns, US(10));
	/* E+50..E+70 = 20, minus the eth0 of 0 in it */
	assert_one_line(&res.parts[AA_SOFTIRQ], 1, "TIMER", US(20));
	/* eth0: 0 + 3; ahci: clamped to 0 */
	assert_int_equal(res.parts[AA_IRQ].sum_ns, US(3));
	for (int i = 0; i < res.parts[AA_IRQ].nr_lines; i++) {
		const struct aa_line *l = &res.parts[AA_IRQ].lines[i];

		if (l->id == 11)
			assert_int_equal(l->ns, US(3));
		else
			assert_int_equal(l->ns, 0);
	}
	/* 1495 - timer 10 - softirq 20 - eth0 3 - ahci 0 */
	assert_int_equal(res.blocking_ns, US(1495 - 10 - 20 - 3));
	/* 1500 - (5 + 10 + 1462 + 20 + 3) */
	assert_int_equal(res.unexplained_ns, 0);
	fx_close(fx);
}

/* ---- 5. events lost in the middle ------------------------------------- */

static void test_lost_events(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 50, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	stress_timer_irq(fx, 0);		/* IRQ sample at E+8 */
	irq_entry(fx, 0, AT(30), 11, "eth0");
	lost(fx, 0);
	/* its entry went with the loss: no interval */
	irq_exit(fx, 0, AT(40), 11);
	/* a whole IRQ after the loss counts again */
	irq_entry(fx, 0, AT(60), 12, "ahci");
	irq_exit(fx, 0, AT(63), 12);
	stress_thread(fx, 0, 100);

	result(fx, 0, &res);
	assert_false(res.complete);
	check_stress_head(&res, 100);
	assert_int_equal(res.timer_irq_ns, US(10));
	assert_one_line(&res.parts[AA_IRQ], 12, "ahci", US(3));
	/* E+5..E+100 = 95, minus timer 10 and ahci 3 */
	assert_int_equal(res.blocking_ns, US(95 - 10 - 3));
	/* 100 - (5 + 10 + 82 + 3) */
	assert_int_equal(res.unexplained_ns, 0);
	fx_close(fx);
}

/* ---- 6. which threshold hit ------------------------------------------- */

/*
 * CPU 0: tlat-hog runs; the timer expires at E, its IRQ runs E+25..E+35
 * with an NMI E+26..E+28 in it; the IRQ sample at E+30 reads 30 us.
 */
static void late_timer_irq(struct fx *fx)
{
	sched_switch(fx, 0, AT(-100), "kworker/0:1", 30, "tlat-hog", HOG_PID);
	local_timer(fx, 0, AT(25), true);
	nmi(fx, 0, AT(28), 2000);
	sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(30), US(30));
	local_timer(fx, 0, AT(35), false);
}

static void test_irq_threshold_hit(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(20, 100, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	late_timer_irq(fx);
	/* its own thread sample crosses the thread threshold too */
	sched_switch(fx, 0, AT(500), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(500), US(500));
	/* and a later activation with a bigger thread latency */
	local_timer(fx, 0, AT(1005), true);
	sample(fx, TLAT_CTX_IRQ, 0, 2, TLAT_PID, AT(1008), US(8));
	local_timer(fx, 0, AT(1015), false);
	irq_entry(fx, 0, AT(1020), 11, "eth0");
	nmi(fx, 0, AT(1022), 1000);
	irq_exit(fx, 0, AT(1030), 11);
	sample(fx, TLAT_CTX_THREAD, 0, 2, TLAT_PID, AT(2000), US(1000));

	result(fx, 0, &res);
	assert_true(res.irq_stop);
	assert_true(res.complete);
	assert_int_equal(res.seq, 1);
	/* the IRQ latency is the 100 % */
	assert_int_equal(res.total_ns, US(30));
	assert_int_equal(res.irq_latency_ns, US(30));
	/* E+25 - (E+30 - 30 us) */
	assert_int_equal(res.irq_delay_ns, US(25));
	assert_true(res.timer_irq_seen);
	/* E+25..E+35 = 10, minus the NMI's 2 */
	assert_int_equal(res.timer_irq_ns, US(8));
	assert_int_equal(res.blocking_pid, HOG_PID);
	assert_string_equal(res.blocking_comm, "tlat-hog");
	/* the NMI E+26..E+28 is inside [E+25, E+30); the later one is not */
	assert_int_equal(res.parts[AA_NMI].sum_ns, US(2));
	assert_empty(&res.parts[AA_IRQ]);
	assert_empty(&res.parts[AA_SOFTIRQ]);
	assert_empty(&res.parts[AA_THREAD]);
	fx_close(fx);
}

static void test_thread_threshold_hit(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 100, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	late_timer_irq(fx);		/* 30 us: no IRQ threshold to cross */
	sched_switch(fx, 0, AT(300), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(300), US(300));

	result(fx, 0, &res);
	assert_false(res.irq_stop);
	assert_int_equal(res.seq, 1);
	assert_int_equal(res.total_ns, US(300));
	assert_int_equal(res.irq_latency_ns, US(30));
	assert_int_equal(res.irq_delay_ns, US(25));
	assert_int_equal(res.timer_irq_ns, US(8));
	assert_int_equal(res.parts[AA_NMI].sum_ns, US(2));
	/* E+25..E+300 = 275, minus timer 8 and NMI 2 */
	assert_int_equal(res.blocking_ns, US(275 - 8 - 2));
	/* 300 - (25 + 8 + 265 + 2) */
	assert_int_equal(res.unexplained_ns, 0);
	fx_close(fx);
}

/* ---- 7. only the first hit per CPU ------------------------------------ */

/* an activation expected at E+at: timer IRQ at +5..+15, thread at +lat */
static void activation(struct fx *fx, int cpu, u32 seq, int at, int lat)
{
	local_timer(fx, cpu, AT(at + 5), true);
	sample(fx, TLAT_CTX_IRQ, cpu, seq, HOG_PID, AT(at + 8), US(8));
	local_timer(fx, cpu, AT(at + 15), false);
	sched_switch(fx, cpu, AT(at + lat), "tlat-hog", HOG_PID, "tlat/x", TLAT_PID + cpu);
	sample(fx, TLAT_CTX_THREAD, cpu, seq, TLAT_PID + cpu, AT(at + lat), US(lat));
	sched_switch(fx, cpu, AT(at + lat + 1), "tlat/x", TLAT_PID + cpu, "tlat-hog", HOG_PID);
}

static void test_first_hit_per_cpu(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 100, &aa_stock_ops);
	struct aa_result res;
	struct aa_task task;

	fx_open(fx, &aa_stock_ops, &cfg);
	activation(fx, 0, 1, 0, 150);		/* hit */
	activation(fx, 1, 1, 0, 50);
	activation(fx, 2, 1, 0, 60);
	activation(fx, 1, 2, 1000, 200);	/* hit */
	activation(fx, 0, 2, 1000, 400);	/* bigger, but second */
	activation(fx, 1, 3, 2000, 300);

	result(fx, 0, &res);
	assert_int_equal(res.seq, 1);
	assert_int_equal(res.total_ns, US(150));
	/* E+5..E+150 = 145, minus timer 10 */
	assert_int_equal(res.blocking_ns, US(135));
	assert_int_equal(res.unexplained_ns, 0);

	result(fx, 1, &res);
	assert_int_equal(res.seq, 2);
	assert_int_equal(res.total_ns, US(200));
	assert_int_equal(res.irq_delay_ns, US(5));
	/* E+1005..E+1200 = 195, minus timer 10 */
	assert_int_equal(res.blocking_ns, US(185));
	assert_int_equal(res.unexplained_ns, 0);

	assert_false(aa_result(fx->aa, 2, &res));
	assert_false(aa_result(fx->aa, 3, &res));
	/* the task each CPU ran last, for --dump-tasks */
	assert_true(aa_current_task(fx->aa, 0, &task));
	assert_int_equal(task.pid, HOG_PID);
	assert_string_equal(task.comm, "tlat-hog");
	assert_false(aa_current_task(fx->aa, 3, &task));
	fx_close(fx);
}

/*
 * A run that measures on after a hit (--on-threshold continue): once
 * re-armed, the CPU's next crossing is frozen and explained on its own;
 * what was dropped while frozen is a gap up to the next event seen.
 */
static void test_rearm(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 100, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	activation(fx, 0, 1, 0, 150);		/* hit */
	activation(fx, 0, 2, 1000, 400);	/* frozen out */
	result(fx, 0, &res);
	assert_int_equal(res.seq, 1);
	aa_rearm(fx->aa, 0);
	aa_rearm(fx->aa, 1);			/* no hit there: nothing to forget */
	assert_false(aa_result(fx->aa, 0, &res));
	assert_false(aa_result(fx->aa, 1, &res));

	activation(fx, 0, 3, 2000, 50);		/* closes the gap */
	activation(fx, 0, 4, 3000, 300);	/* the next hit */
	activation(fx, 0, 5, 4000, 500);	/* frozen out again */
	result(fx, 0, &res);
	assert_int_equal(res.seq, 4);
	assert_int_equal(res.total_ns, US(300));
	assert_true(res.complete);
	/* E+3005..E+3300 = 295, minus the timer IRQ's 10 */
	assert_int_equal(res.blocking_ns, US(285));
	assert_int_equal(res.unexplained_ns, 0);

	/* a hit right after the re-arm: its window reaches into what was dropped */
	aa_rearm(fx->aa, 0);
	activation(fx, 0, 6, 5000, 200);
	result(fx, 0, &res);
	assert_int_equal(res.seq, 6);
	assert_false(res.complete);
	fx_close(fx);
}

/* ---- 8. exits from idle ----------------------------------------------- */

/* CPU 0 idle: timer IRQ E+11..E+21, IRQ sample E+13 reading 13 us */
static void idle_exit_cpu0(struct fx *fx)
{
	sched_switch(fx, 0, AT(-100), "tlat/0", TLAT_PID, "swapper/0", 0);
	local_timer(fx, 0, AT(11), true);
	sample(fx, TLAT_CTX_IRQ, 0, 1, 0, AT(13), US(13));
	local_timer(fx, 0, AT(21), false);
	sched_switch(fx, 0, AT(150), "swapper/0", 0, "tlat/0", TLAT_PID);
	sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(150), US(150));
}

/*
 * CPU 1 idle, but eth0 runs E-10..E+20 across the expiry and delays the
 * timer IRQ (E+20..E+30, sample at E+25 reading 25 us): not an idle exit.
 */
static void idle_exit_cpu1(struct fx *fx)
{
	sched_switch(fx, 1, AT(-100), "tlat/1", 98, "swapper/1", 0);
	irq_entry(fx, 1, AT(-10), 11, "eth0");
	irq_exit(fx, 1, AT(20), 11);
	local_timer(fx, 1, AT(20), true);
	sample(fx, TLAT_CTX_IRQ, 1, 1, 0, AT(25), US(25));
	local_timer(fx, 1, AT(30), false);
	sched_switch(fx, 1, AT(200), "swapper/1", 0, "tlat/1", 98);
	sample(fx, TLAT_CTX_THREAD, 1, 1, 98, AT(200), US(200));
}

static void test_idle_exit(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 100, &aa_stock_ops);
	struct aa_result res;
	u64 lat;
	int cpu;

	fx_open(fx, &aa_stock_ops, &cfg);
	idle_exit_cpu0(fx);
	idle_exit_cpu1(fx);
	assert_true(aa_max_idle_exit(fx->aa, &lat, &cpu));
	assert_int_equal(lat, US(13));
	assert_int_equal(cpu, 0);

	result(fx, 0, &res);
	assert_true(res.exit_from_idle);
	assert_int_equal(res.prev_irq_ns, 0);
	assert_int_equal(res.irq_delay_ns, US(11));
	assert_int_equal(res.blocking_pid, 0);
	assert_string_equal(res.blocking_comm, "swapper/0");
	/* E+11..E+150 = 139, minus timer 10 */
	assert_int_equal(res.blocking_ns, US(129));
	/* 150 - (11 + 10 + 129) */
	assert_int_equal(res.unexplained_ns, 0);

	result(fx, 1, &res);
	assert_false(res.exit_from_idle);
	/* eth0: E-10..E+20 */
	assert_int_equal(res.prev_irq_ns, US(30));
	/* E+20 - E */
	assert_int_equal(res.irq_delay_ns, US(20));
	assert_int_equal(res.timer_irq_ns, US(10));
	/* eth0 began before the window: not interference */
	assert_empty(&res.parts[AA_IRQ]);
	/* E+20..E+200 = 180, minus timer 10 */
	assert_int_equal(res.blocking_ns, US(170));
	assert_int_equal(res.unexplained_ns, 0);
	fx_close(fx);

	/* with only the delayed one, there is no idle exit to report */
	fx_open(fx, &aa_stock_ops, &cfg);
	idle_exit_cpu1(fx);
	assert_false(aa_max_idle_exit(fx->aa, &lat, &cpu));
	fx_close(fx);
}

/* ---- 9. the osnoise adapter ------------------------------------------- */

/*
 * The hog pattern as the timerlat tracer's noise events tell it: the timer
 * IRQ E+5..E+15; tlat-hog runs E+15..E+2996 (2981 us) with a NET_RX of
 * 4 us and an NMI of 2 us in it, so its thread_noise says 2975; then
 * kworker/1:1 (7) for 3 us, E+2996..E+2999; the thread sample at E+3000.
 */
static void test_osnoise_adapter(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 1000, &aa_osnoise_ops);
	struct aa_result res;

	assert_false(cfg.threads_from_switches);
	fx_open(fx, &aa_osnoise_ops, &cfg);
	/* the hog's previous stretch, before the window */
	thread_noise(fx, 0, AT(-50), AT(-150), "tlat-hog", HOG_PID, US(100));
	sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
	irq_noise(fx, 0, AT(15), AT(5), "local_timer", 236, US(10));
	softirq_noise(fx, 0, AT(1004), AT(1000), 3, US(4));
	nmi_noise(fx, 0, AT(2000), AT(1998), US(2));
	thread_noise(fx, 0, AT(2996), AT(15), "tlat-hog", HOG_PID, US(2975));
	thread_noise(fx, 0, AT(2999), AT(2996), "kworker/1:1", 7, US(3));
	sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(3000), US(3000));

	result(fx, 0, &res);
	assert_false(res.irq_stop);
	assert_true(res.complete);
	assert_int_equal(res.total_ns, US(3000));
	/* irq_noise start = E+15 - 10 = E+5; E+5 - E */
	assert_int_equal(res.irq_delay_ns, US(5));
	assert_int_equal(res.timer_irq_ns, US(10));
	assert_int_equal(res.blocking_pid, HOG_PID);
	assert_string_equal(res.blocking_comm, "tlat-hog");
	assert_int_equal(res.blocking_ns, US(2975));
	assert_one_line(&res.parts[AA_THREAD], 7, "kworker/1:1", US(3));
	assert_one_line(&res.parts[AA_SOFTIRQ], 3, "NET_RX", US(4));
	assert_int_equal(res.parts[AA_NMI].sum_ns, US(2));
	assert_empty(&res.parts[AA_IRQ]);
	/* 3000 - (5 + 10 + 2975 + 3 + 4 + 2): the switch to the thread */
	assert_int_equal(res.unexplained_ns, US(1));
	fx_close(fx);
}

/* ---- 10. stacks ------------------------------------------------------- */

static const u64 stack_old[] = { 0xffffffff81000100ULL, 0xffffffff81000200ULL };
static const u64 stack_hit[] = { 0xffffffff81000010ULL, 0xffffffff81000020ULL,
				 0xffffffff81000030ULL };
static const u64 stack_later[] = { 0xffffffff81000900ULL };

/* the activation expected at E (seq 2), its thread at E+150 crossing 100 us */
static void stack_activation(struct fx *fx)
{
	local_timer(fx, 0, AT(5), true);
	sample(fx, TLAT_CTX_IRQ, 0, 2, HOG_PID, AT(8), US(8));
	local_timer(fx, 0, AT(15), false);
	sched_switch(fx, 0, AT(150), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	sample(fx, TLAT_CTX_THREAD, 0, 2, TLAT_PID, AT(150), US(150));
}

static void assert_hit_stack(const struct aa_result *res)
{
	assert_int_equal(res->nr_frames, 3);
	assert_memory_equal(res->frames, stack_hit, sizeof(stack_hit));
}

static void test_stack_pick(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 100, &aa_stock_ops);
	struct aa_result res;

	cfg.stack_threshold_ns = US(100);	/* -s 100: the hit reaches it */
	/* the timerlat tracer: the stack is written after the thread sample */
	fx_open(fx, &aa_stock_ops, &cfg);
	stack(fx, 0, AT(-990), 0, stack_old, 2);	/* the activation before */
	stack_activation(fx);
	stack(fx, 0, AT(151), 0, stack_hit, 3);
	stack(fx, 0, AT(1151), 0, stack_later, 1);
	result(fx, 0, &res);
	assert_hit_stack(&res);
	assert_true(res.complete);
	fx_close(fx);

	/* tlat.ko: saved at the timer IRQ, before the hit is known */
	fx_open(fx, &aa_stock_ops, &cfg);
	stack(fx, 0, AT(-992), 1, stack_old, 2);
	stack(fx, 0, AT(8), 2, stack_hit, 3);
	stack_activation(fx);
	stack(fx, 0, AT(1008), 3, stack_later, 1);
	stack(fx, 0, AT(2008), 4, stack_later, 1);
	result(fx, 0, &res);
	assert_hit_stack(&res);
	assert_true(res.complete);
	fx_close(fx);

	/* only an older stack: none */
	fx_open(fx, &aa_stock_ops, &cfg);
	stack(fx, 0, AT(-990), 0, stack_old, 2);
	stack_activation(fx);
	result(fx, 0, &res);
	assert_int_equal(res.nr_frames, 0);
	fx_close(fx);

	/*
	 * The hit's own stack lost: the next activation's (expected at E+1000,
	 * its IRQ at E+1003) is not its, whichever comes first, sample or stack.
	 */
	fx_open(fx, &aa_stock_ops, &cfg);
	stack_activation(fx);
	stack(fx, 0, AT(1003), 0, stack_later, 1);
	sample(fx, TLAT_CTX_IRQ, 0, 3, 0, AT(1003), US(3));
	stack(fx, 0, AT(2003), 0, stack_later, 1);
	result(fx, 0, &res);
	assert_int_equal(res.nr_frames, 0);
	fx_close(fx);
}

/*
 * The tracepoint source on a CPU's first activation: the stack trigger on
 * hrtimer_expire_entry writes the stack at the expiry, the samples come at
 * the thread's marker, and no event was kept on that CPU yet. The stack is
 * the hit's all the same (it was printed without: "verify -s/--stack" of
 * upstream rtla's tests failed now and then on the host).
 */
static void test_stack_first_activation(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 10, &aa_stock_ops);
	struct aa_result res;

	cfg.stack_threshold_ns = US(3);		/* -s 3 -T 10 */
	fx_open(fx, &aa_stock_ops, &cfg);
	stack(fx, 1, AT(8), 0, stack_hit, 3);
	sample(fx, TLAT_CTX_IRQ, 1, 0, 0, AT(8), US(8));
	sample(fx, TLAT_CTX_THREAD, 1, 0, TLAT_PID, AT(40), US(40));
	sample(fx, TLAT_CTX_USER, 1, 0, TLAT_PID, AT(45), US(45));
	result(fx, 1, &res);
	assert_int_equal(res.thread_latency_ns, US(40));
	assert_false(res.complete);	/* nothing kept: the analysis has only the samples */
	assert_hit_stack(&res);
	fx_close(fx);

	/* below -s: none, events or not */
	cfg.stack_threshold_ns = US(50);
	fx_open(fx, &aa_stock_ops, &cfg);
	stack(fx, 1, AT(8), 0, stack_hit, 3);
	sample(fx, TLAT_CTX_IRQ, 1, 0, 0, AT(8), US(8));
	sample(fx, TLAT_CTX_THREAD, 1, 0, TLAT_PID, AT(40), US(40));
	result(fx, 1, &res);
	assert_int_equal(res.nr_frames, 0);
	fx_close(fx);
}

/*
 * tlat.ko's cold activation seq, whose thread crosses 100 us: its IRQ
 * sample (42 us of IRQ latency) implies the expiry E-12, late by the stack's
 * saving. Its timer IRQ is kept: the result is complete but for stacks.
 */
static void cold_activation(struct fx *fx, int cpu, u32 seq)
{
	local_timer(fx, cpu, AT(5), true);
	local_timer(fx, cpu, AT(15), false);
	sample(fx, TLAT_CTX_IRQ, cpu, seq, 0, AT(30), US(42));
	sample(fx, TLAT_CTX_THREAD, cpu, seq, TLAT_PID, AT(300), US(300));
}

/*
 * Cold activation 2 after a stack of activation seq written at ts, before
 * the expiry the IRQ sample implies, after the stacks before it. Whether the
 * hit shows it.
 */
static void cold_hit(struct fx *fx, u64 ts, u32 seq, bool shown)
{
	struct aa_result res;

	stack(fx, 1, ts, seq, stack_hit, 3);
	cold_activation(fx, 1, 2);
	result(fx, 1, &res);
	if (shown)
		assert_hit_stack(&res);
	else
		assert_int_equal(res.nr_frames, 0);
	fx_close(fx);
}

/*
 * tlat.ko samples the time, saves the stack, then writes stack and IRQ
 * sample: the expiry derived from the sample's time (less its latency) is
 * late by that work, and on a cold first activation under TCG the stack
 * seemed older than the expiry (42 us of IRQ latency, CI r19; 5 ms of stack
 * saving). Its stack names its activation: that, not its time, makes it the
 * hit's. A stack that does not name one is placed by its time.
 */
static void test_stack_before_derived_expiry(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 100, &aa_stock_ops);
	struct aa_result res;

	cfg.stack_threshold_ns = US(100);
	/* the hit's seq: its stack, however long its saving took */
	fx_open(fx, &aa_stock_ops, &cfg);
	cold_hit(fx, AT(-20), 2, true);
	fx_open(fx, &aa_stock_ops, &cfg);
	cold_hit(fx, AT(-5000), 2, true);

	/* after the activation before, its stack and samples: still the hit's own */
	fx_open(fx, &aa_stock_ops, &cfg);
	stack(fx, 1, AT(-1020), 1, stack_old, 2);
	sample(fx, TLAT_CTX_IRQ, 1, 1, 0, AT(-995), US(5));
	sample(fx, TLAT_CTX_THREAD, 1, 1, TLAT_PID, AT(-990), US(10));
	cold_hit(fx, AT(-20), 2, true);

	/* another activation's seq, at the same time: not the hit's */
	fx_open(fx, &aa_stock_ops, &cfg);
	cold_hit(fx, AT(-20), 1, false);
	fx_open(fx, &aa_stock_ops, &cfg);
	cold_hit(fx, AT(-20), 3, false);

	/* no seq: by time, and the time is before the expiry */
	fx_open(fx, &aa_stock_ops, &cfg);
	cold_hit(fx, AT(-20), 0, false);

	/* another activation's seq after the expiry, as by time the hit's would be: not it */
	fx_open(fx, &aa_stock_ops, &cfg);
	stack(fx, 1, AT(10), 3, stack_later, 1);
	cold_activation(fx, 1, 2);
	result(fx, 1, &res);
	assert_int_equal(res.nr_frames, 0);
	fx_close(fx);
}

/*
 * tlat.ko restarts a CPU's thread after a hotplug, and its activations count
 * from 1 again: a stack of the old count is not the stack of the new
 * activation of the same number. The new activation's own stack, saved just
 * before the sample that shows the restart, still is.
 */
static void test_stack_after_restart(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 100, &aa_stock_ops);
	struct aa_result res;

	cfg.stack_threshold_ns = US(100);
	/* the old thread's activations 1 to 3, with stacks at 2 and 3 */
	for (int with_own = 0; with_own < 2; with_own++) {
		fx_open(fx, &aa_stock_ops, &cfg);
		for (u32 seq = 1; seq <= 3; seq++) {
			int at = -5000 + (int)seq * 1000;

			if (seq > 1)
				stack(fx, 1, AT(at - 20), seq, stack_old, 2);
			sample(fx, TLAT_CTX_IRQ, 1, seq, 0, AT(at + 5), US(5));
			sample(fx, TLAT_CTX_THREAD, 1, seq, TLAT_PID, AT(at + 10), US(10));
		}
		/* the new thread: activation 1 quiet, then 2, the hit */
		sample(fx, TLAT_CTX_IRQ, 1, 1, 0, AT(-995), US(5));
		sample(fx, TLAT_CTX_THREAD, 1, 1, TLAT_PID, AT(-990), US(10));
		if (with_own)
			stack(fx, 1, AT(-20), 2, stack_hit, 3);
		cold_activation(fx, 1, 2);
		result(fx, 1, &res);
		if (with_own)
			assert_hit_stack(&res);
		else
			assert_int_equal(res.nr_frames, 0);
		fx_close(fx);
	}
}

/* more stacks than the analysis keeps before a hit */
#define MANY_STACKS	40

/*
 * The stacks kept are bounded: one pushed out before the hit was known
 * makes its result incomplete only if it may have been the hit's, by seq
 * where the source names it, else by time.
 */
static void test_stack_pushed_out(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 100, &aa_stock_ops);
	struct aa_result res;
	const u32 hit = MANY_STACKS + 1;

	cfg.stack_threshold_ns = US(100);
	/* the stacks of the activations before the hit's: none of them was its */
	fx_open(fx, &aa_stock_ops, &cfg);
	for (u32 seq = 1; seq < hit; seq++)
		stack(fx, 0, AT(-2000) + seq, seq, stack_old, 2);
	stack(fx, 0, AT(-20), hit, stack_hit, 3);
	cold_activation(fx, 0, hit);
	result(fx, 0, &res);
	assert_hit_stack(&res);
	assert_true(res.complete);
	fx_close(fx);

	/* the hit's pushed out by later ones before its samples came: lost */
	fx_open(fx, &aa_stock_ops, &cfg);
	stack(fx, 0, AT(-20), 2, stack_hit, 3);
	for (u32 seq = 3; seq < 3 + MANY_STACKS; seq++)
		stack(fx, 0, AT(-19) + seq, seq, stack_later, 1);
	cold_activation(fx, 0, 2);
	result(fx, 0, &res);
	assert_int_equal(res.nr_frames, 0);
	assert_false(res.complete);
	fx_close(fx);
}

/*
 * The measured window (after --warm-up) starts between the activation's IRQ
 * and its thread sample: the hit is the thread's, explained with its IRQ.
 * A crossing before the window (the warm-up) is no hit.
 */
static void test_window(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 100, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	aa_set_window(fx->aa, AT(100), 0);
	stack_activation(fx);
	result(fx, 0, &res);
	assert_int_equal(res.irq_latency_ns, US(8));
	assert_int_equal(res.total_ns, US(150));
	fx_close(fx);

	fx_open(fx, &aa_stock_ops, &cfg);
	aa_set_window(fx->aa, AT(200), 0);
	stack_activation(fx);
	assert_false(aa_result(fx->aa, 0, &res));
	fx_close(fx);

	/*
	 * -d ran out between its IRQ and its thread: the activation counts
	 * whole (the pipeline counts its thread sample), so its thread is the hit
	 */
	fx_open(fx, &aa_stock_ops, &cfg);
	aa_set_window(fx->aa, AT(0), AT(100));
	stack_activation(fx);
	result(fx, 0, &res);
	assert_int_equal(res.total_ns, US(150));
	fx_close(fx);

	/*
	 * Its IRQ sample never came (the timerlat tracer's first activation,
	 * tracing turned on after its expiry): the thread over -T is the hit
	 * all the same, its blocker the task switched out for it, partial
	 */
	fx_open(fx, &aa_stock_ops, &cfg);
	aa_set_window(fx->aa, AT(0), 0);
	local_timer(fx, 0, AT(5), true);
	local_timer(fx, 0, AT(15), false);
	sched_switch(fx, 0, AT(150), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	sample(fx, TLAT_CTX_THREAD, 0, 2, TLAT_PID, AT(150), US(150));
	result(fx, 0, &res);
	assert_int_equal(res.total_ns, US(150));
	assert_int_equal(res.blocking_pid, HOG_PID);
	assert_false(res.complete);
	assert_true(res.blocking_ns > 0);
	fx_close(fx);

	/* below -T, no IRQ sample: nothing */
	fx_open(fx, &aa_stock_ops, &cfg);
	aa_set_window(fx->aa, AT(0), 0);
	sched_switch(fx, 0, AT(50), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	sample(fx, TLAT_CTX_THREAD, 0, 2, TLAT_PID, AT(50), US(50));
	assert_false(aa_result(fx->aa, 0, &res));
	fx_close(fx);

	/* both past -d: no hit */
	fx_open(fx, &aa_stock_ops, &cfg);
	aa_set_window(fx->aa, AT(0), AT(7));
	stack_activation(fx);
	assert_false(aa_result(fx->aa, 0, &res));
	fx_close(fx);
}

/* below -s, no stack is shown even when the source saved one */
static void test_stack_below_threshold(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 100, &aa_stock_ops);
	struct aa_result res;

	cfg.stack_threshold_ns = US(1000000);
	fx_open(fx, &aa_stock_ops, &cfg);
	stack(fx, 0, AT(8), 2, stack_hit, 3);
	stack_activation(fx);
	result(fx, 0, &res);
	assert_int_equal(res.nr_frames, 0);
	fx_close(fx);
}

static void test_stack_drop_repeats(void **state)
{
	u64 a[] = { 1, 2, 3, 2, 3, 4 };		/* {A,B,C,B,C,D} */
	u64 b[] = { 1, 1, 2 };			/* {A,A,B} */
	u64 c[] = { 1, 2, 3 };			/* nothing repeats */
	const u64 a_want[] = { 1, 2, 3, 4 };
	const u64 b_want[] = { 1, 2 };

	(void)state;
	assert_int_equal(kstack_drop_repeats(a, 6), 4);
	assert_memory_equal(a, a_want, sizeof(a_want));
	assert_int_equal(kstack_drop_repeats(b, 3), 2);
	assert_memory_equal(b, b_want, sizeof(b_want));
	assert_int_equal(kstack_drop_repeats(c, 3), 3);
	assert_int_equal(kstack_drop_repeats(c, 0), 0);
}

/* a kernel_stack record: size at size_off, nr_ips entries at 16 */
static int stack_record(unsigned char *data, int size_off, int size, const u64 *ips, int nr_ips)
{
	uint16_t type = KERNEL_STACK_ID;

	memcpy(data, &type, 2);
	put32(data, size_off, size);
	memcpy(data + 16, ips, nr_ips * sizeof(*ips));
	return 16 + nr_ips * sizeof(*ips);
}

static const struct unit_format stack_612_formats[] = {
	{ "ftrace", kernel_stack_612_format }, { NULL, NULL },
};

static const struct unit_format stack_61rt_formats[] = {
	{ "ftrace", kernel_stack_61rt_format }, { NULL, NULL },
};

static void test_stack_decode_61rt(void **state)
{
	/* 3 real frames, then the 8 slots 6.1 reserves and never fills */
	static const u64 ips[] = {
		0xffffffff81000010ULL, 0xffffffff81000020ULL, 0xffffffff81000030ULL,
		0xe52e00000000ULL, 0xe52e00000001ULL, 0x1ULL, 0x2ULL,
		0xdeadbeefULL, 0xffff888000000000ULL, 0x3ULL, 0x4ULL,
	};
	struct tep_handle *tep = unit_tep(stack_61rt_formats);
	unsigned char data[256] = { 0 };
	struct tep_record record = { .cpu = 0, .ts = 1, .data = data };
	struct kstack_event ks;
	u64 out[AA_MAX_FRAMES];

	(void)state;
	assert_int_equal(kstack_event_init(&ks, tep, "ftrace", "kernel_stack", "size", "caller"),
			 0);
	record.size = stack_record(data, 12, 3, ips, 11);
	assert_int_equal(kstack_decode(&ks, tep_find_event(tep, KERNEL_STACK_ID), &record,
				       out, AA_MAX_FRAMES), 3);
	assert_memory_equal(out, ips, 3 * sizeof(u64));
	tep_free(tep);
}

struct stack_sink {
	struct tlat_sink sink;
	int calls;
	int cpu;
	u64 ts;
	u32 seq;
	int nr;
	u64 ips[AA_MAX_FRAMES];
};

static void sink_stack(struct tlat_sink *sink, const struct tlat_stack *stack)
{
	struct stack_sink *s = (struct stack_sink *)sink;

	s->calls++;
	s->cpu = stack->cpu;
	s->ts = stack->ts_ns;
	s->seq = stack->seq;
	s->nr = stack->nr;
	memcpy(s->ips, stack->ips, stack->nr * sizeof(*stack->ips));
}

/* tlat.ko's tlat_stack: a count and a __data_loc array (no element size) */
static const char tlat_stack_format[] =
	"name: tlat_stack\nID: 1500\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned int seqnum;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int nr;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc unsigned long[] ips;\toffset:16;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"#%u nr %u\", REC->seqnum, REC->nr\n";

static const struct unit_format tlat_stack_formats[] = {
	{ "tlat", tlat_stack_format }, { NULL, NULL },
};

static void test_stack_decode_module(void **state)
{
	static const u64 three[] = { 31, 32, 33 };
	struct tep_handle *tep = unit_tep(tlat_stack_formats);
	struct tep_event *event = tep_find_event(tep, 1500);
	unsigned char data[64] = { 0 };
	struct tep_record record = { .cpu = 1, .ts = 5, .data = data, .size = 20 + 24 };
	u32 loc = 20 | (24 << 16);	/* the array at offset 20, 24 bytes long */
	u32 nr = 3, seq = 7;
	u64 out[AA_MAX_FRAMES];
	struct stack_sink sink = { .sink.stack = sink_stack };
	struct kstack_event ks;

	(void)state;
	memcpy(data, &(unsigned short){ 1500 }, 2);
	memcpy(data + 12, &nr, 4);
	memcpy(data + 16, &loc, 4);
	memcpy(data + 20, three, sizeof(three));
	assert_int_equal(kstack_event_init(&ks, tep, "tlat", "tlat_stack", "nr", "ips"), 0);
	assert_int_equal(kstack_decode(&ks, event, &record, out, AA_MAX_FRAMES), 3);
	assert_memory_equal(out, three, sizeof(three));

	/* forwarded with its activation's seqnum */
	memcpy(data + 8, &seq, 4);
	kstack_forward(&ks, event, &record, &sink.sink);
	assert_int_equal(sink.calls, 1);
	assert_int_equal(sink.cpu, 1);
	assert_int_equal(sink.ts, 5);
	assert_int_equal(sink.seq, 7);
	assert_int_equal(sink.nr, 3);
	assert_memory_equal(sink.ips, three, sizeof(three));
	tep_free(tep);
}

static void test_stack_decode_612(void **state)
{
	static const u64 five[] = { 11, 12, 13, 14, 15 };
	static const u64 ended[] = { 21, 22, ULONG_MAX, 23 };
	static const u64 repeats[] = { 1, 2, 3, 2, 3, 4 };
	static const u64 no_repeats[] = { 1, 2, 3, 4 };
	struct tep_handle *tep = unit_tep(stack_612_formats);
	struct tep_event *event = tep_find_event(tep, KERNEL_STACK_ID);
	unsigned char data[256] = { 0 };
	struct tep_record record = { .cpu = 2, .ts = 777, .data = data };
	struct stack_sink sink = { .sink.stack = sink_stack };
	struct kstack_event ks;
	u64 out[AA_MAX_FRAMES];

	(void)state;
	assert_int_equal(kstack_event_init(&ks, tep, "ftrace", "kernel_stack", "size", "caller"),
			 0);
	/* the record ends with the last frame: 16 + 5 * 8 bytes */
	record.size = stack_record(data, 8, 5, five, 5);
	assert_int_equal(kstack_decode(&ks, event, &record, out, AA_MAX_FRAMES), 5);
	assert_memory_equal(out, five, sizeof(five));
	/* max bounds it */
	assert_int_equal(kstack_decode(&ks, event, &record, out, 2), 2);
	/* a size beyond the record is bounded by the record */
	record.size = stack_record(data, 8, 10, five, 5);
	assert_int_equal(kstack_decode(&ks, event, &record, out, AA_MAX_FRAMES), 5);
	/* ULONG_MAX ends the stack, as in trace_stack_print() */
	record.size = stack_record(data, 8, 4, ended, 4);
	assert_int_equal(kstack_decode(&ks, event, &record, out, AA_MAX_FRAMES), 2);
	assert_memory_equal(out, ended, 2 * sizeof(u64));

	/* forwarded without repeats, with the record's CPU and time */
	record.size = stack_record(data, 8, 6, repeats, 6);
	kstack_forward(&ks, event, &record, &sink.sink);
	assert_int_equal(sink.calls, 1);
	assert_int_equal(sink.cpu, 2);
	assert_int_equal(sink.ts, 777);
	assert_int_equal(sink.seq, 0);		/* kernel_stack does not name its activation */
	assert_int_equal(sink.nr, 4);
	assert_memory_equal(sink.ips, no_repeats, sizeof(no_repeats));
	tep_free(tep);
}

/* ---- 11. the report, against rtla's format strings -------------------- */

static const struct unit_symbol symbols[] = {
	{ 0xffffffff81000010ULL, "timerlat_irq" },
	{ 0xffffffff81000030ULL, "do_idle" },
	{ 0xffffffff81000050ULL, "vmstat_update" },
	{ 0, NULL },
};

static char *render_opts(const struct aa_result *r, enum tlat_stack_format format, bool extras)
{
	struct aa_render_opts opts = {
		.stack_format = format, .symbol = unit_symbol, .symbol_ctx = (void *)symbols,
		.extras = extras,
	};
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	aa_render_result(out, r, &opts);
	fclose(out);
	return text;
}

static char *render(const struct aa_result *r, enum tlat_stack_format format)
{
	return render_opts(r, format, false);
}

/* one occurrence, summed into its source's line as the engine does */
static void part_line(struct aa_part *p, long long id, const char *name, u64 ns)
{
	int i;

	p->occs[p->nr_occs].id = id;
	strcpy(p->occs[p->nr_occs].name, name);
	p->occs[p->nr_occs].ns = ns;
	p->nr_occs++;
	p->sum_ns += ns;
	for (i = 0; i < p->nr_lines; i++)
		if (p->lines[i].id == id && !strcmp(p->lines[i].name, name))
			break;
	if (i == p->nr_lines) {
		p->lines[i].id = id;
		strcpy(p->lines[i].name, name);
		p->nr_lines++;
	}
	p->lines[i].ns += ns;
}

/*
 * A thread stop of 50 us on CPU 3: delay 2, timer IRQ 4, blocking 30,
 * NMI 1, IRQ 2.5 (eth0 twice), softirq 3.5, thread 5; unexplained
 * 50 - 48 = 2.
 */
static void thread_stop_result(struct aa_result *r)
{
	memset(r, 0, sizeof(*r));
	r->cpu = 3;
	r->complete = true;
	r->seq = 17;
	r->total_ns = US(50);
	r->irq_latency_ns = US(3);
	r->thread_latency_ns = US(50);
	r->irq_delay_ns = US(2);
	r->timer_irq_seen = true;
	r->timer_irq_ns = US(4);
	r->blocking_pid = HOG_PID;
	strcpy(r->blocking_comm, "tlat-hog");
	r->blocking_ns = US(30);
	r->parts[AA_NMI].sum_ns = US(1);
	part_line(&r->parts[AA_IRQ], 11, "eth0", 1000);
	part_line(&r->parts[AA_IRQ], 11, "eth0", 1500);
	part_line(&r->parts[AA_SOFTIRQ], 3, "NET_RX", 3500);
	part_line(&r->parts[AA_THREAD], 7, "kworker/1:1", US(5));
	r->unexplained_ns = US(2);
	r->nr_frames = 3;
	memcpy(r->frames, stack_hit, sizeof(stack_hit));
}

/*
 * rtla's strings with the paddings spelled out: %24s right-aligns a name in
 * 24 ("tlat-hog" after 16 spaces, "eth0" after 20, "NET_RX" after 18,
 * "kworker/1:1" after 13), %-9llu, %-3llu and %-12llu left-align an id
 * ("4242" + 5, "11" + 1, "3" + 2, "7" + 11 spaces), %9.2f is 9 wide, and
 * percentages are part * 100 / 50 us.
 */
#define THREAD_STOP_HEAD \
	"## CPU 3 hit stop tracing, analyzing it ##\n" \
	"  IRQ handler delay: " SP16 " " SP16 "  " "     2.00 us (4.00 %)\n" \
	"  IRQ latency: " SP40 " " "     3.00 us\n" \
	"  Timerlat IRQ duration: " SP30 " " "     4.00 us (8.00 %)\n" \
	"  Blocking thread: " SP36 " " "    30.00 us (60.00 %)\n" \
	" " SP6 " " SP16 "tlat-hog" ":" "4242     " " " SP12 " " "    30.00 us\n" \
	"    Blocking thread stack trace\n" \
	" " SP14 " -> timerlat_irq\n"

#define THREAD_STOP_TAIL \
	"  NMI interference " SP36 " " "     1.00 us (2.00 %)\n" \
	"  IRQ interference " SP36 " " "     2.50 us (5.00 %)\n" \
	"  " SP16 "    eth0" ":" "11 " " " SP24 " " "     1.00 us\n" \
	"  " SP16 "    eth0" ":" "11 " " " SP24 " " "     1.50 us\n" \
	"  Softirq interference " SP32 " " "     3.50 us (7.00 %)\n" \
	"  " SP16 "  NET_RX" ":" "3  " " " SP24 " " "     3.50 us\n" \
	"  Thread interference " SP33 " " "     5.00 us (10.00 %)\n" \
	"  " SP12 " kworker/1:1" ":" "7           " " " SP15 " " "     5.00 us\n" \
	THREAD_STOP_END

#define THREAD_STOP_END \
	DASHES \
	"  Thread latency: " SP37 " " "    50.00 us (100%)\n"

/* --aa-extras: tlat's lines between rtla's and the dashes */
#define THREAD_STOP_EXTRAS \
	"  NMI interference per source: " SP24 " " "     1.00 us\n" \
	"  IRQ interference per source: " SP24 " " "     2.50 us\n" \
	"  " SP16 "    eth0" ":" "11 " " " SP24 " " "     2.50 us\n" \
	"  Softirq interference per source: " SP20 " " "     3.50 us\n" \
	"  " SP16 "  NET_RX" ":" "3  " " " SP24 " " "     3.50 us\n" \
	"  Thread interference per source: " SP21 " " "     5.00 us\n" \
	"  " SP12 " kworker/1:1" ":" "7           " " " SP15 " " "     5.00 us\n" \
	"  Not in the lines with a share: " SP22 " " "     2.00 us (4.00 %)\n"

static void test_render_thread_stop(void **state)
{
	static const char truncate[] = THREAD_STOP_HEAD THREAD_STOP_TAIL;
	static const char skip[] = THREAD_STOP_HEAD
		" " SP14 " -> do_idle\n"
		THREAD_STOP_TAIL;
	static const char full[] = THREAD_STOP_HEAD
		" " SP14 " -> 0xffffffff81000020\n"
		" " SP14 " -> do_idle\n"
		THREAD_STOP_TAIL;
	struct aa_result r;
	char *text;

	(void)state;
	thread_stop_result(&r);
	text = render(&r, TLAT_STACK_TRUNCATE);
	assert_string_equal(text, truncate);
	free(text);
	text = render(&r, TLAT_STACK_SKIP);
	assert_string_equal(text, skip);
	free(text);
	text = render(&r, TLAT_STACK_FULL);
	assert_string_equal(text, full);
	free(text);
}

/* rtla's lines first and unchanged, then tlat's sums and the rest */
static void test_render_extras(void **state)
{
	static const char *const rtla_tail = THREAD_STOP_TAIL;
	struct aa_result r;
	char *text, *expected;
	size_t head;

	(void)state;
	thread_stop_result(&r);
	text = render_opts(&r, TLAT_STACK_TRUNCATE, true);
	head = strlen(THREAD_STOP_HEAD) + strlen(rtla_tail) - strlen(THREAD_STOP_END);
	assert_non_null(expected = malloc(head + strlen(THREAD_STOP_EXTRAS THREAD_STOP_END) + 1));
	memcpy(expected, THREAD_STOP_HEAD THREAD_STOP_TAIL, head);
	strcpy(expected + head, THREAD_STOP_EXTRAS THREAD_STOP_END);
	assert_string_equal(text, expected);
	free(expected);
	free(text);
}

static void test_render_irq_stop(void **state)
{
	/* 22 of 30 us = 73.33 %; NMI 1.5 of 30 = 5 % */
	static const char delayed[] =
		"## CPU 1 hit stop tracing, analyzing it ##\n"
		"  Previous IRQ interference: " SP16 " up to  " "     7.00 us\n"
		"  IRQ handler delay: " SP16 " " SP16 "  " "    22.00 us (73.33 %)\n"
		"  IRQ latency: " SP40 " " "    30.00 us\n"
		"  Blocking thread:\n"
		" " SP6 " " SP16 "tlat-hog" ":" "4242     " "\n"
		"  NMI interference " SP36 " " "     1.50 us (5.00 %)\n"
		DASHES
		"     IRQ latency: " SP37 " " "    30.00 us (100%)\n";
	/* 12 of 15 us = 80 %, from idle and above 10 us */
	static const char idle[] =
		"## CPU 0 hit stop tracing, analyzing it ##\n"
		"  IRQ handler delay: " SP16 " (exit from idle)  " "    12.00 us (80.00 %)\n"
		"  IRQ latency: " SP40 " " "    15.00 us\n"
		"  Blocking thread:\n"
		" " SP6 " " SP15 "swapper/0" ":" "0        " "\n"
		"    Blocking thread stack trace\n"
		" " SP14 " -> do_idle\n"
		DASHES
		"     IRQ latency: " SP37 " " "    15.00 us (100%)\n";
	static const char trailer[] =
		"\nMax timerlat IRQ latency from idle: 13.00 us in cpu 0\n"
		"\nPrinting CPU tasks:\n"
		"    [002] " SP12 " kworker/2:0:31\n"
		/* rtla's " kworker:%s:%s": the work item is data, no symbol */
		"    [003] " SP12 " kworker/3:1:44 kworker:<...>:vmstat_update\n"
		/* without the kernel's symbols, the function's address */
		"    [003] " SP12 " kworker/3:1:44 kworker:<...>:0xffffffff81000050\n";
	struct aa_render_opts opts = { .symbol = unit_symbol, .symbol_ctx = (void *)symbols };
	struct aa_render_opts no_symbols = { .symbol = NULL };
	struct aa_task idle_kworker = { .pid = 31, .comm = "kworker/2:0" };
	struct aa_task busy_kworker = {
		.pid = 44, .comm = "kworker/3:1",
		.work = 0xffff888003a1c0e8ULL, .work_func = 0xffffffff81000050ULL,
	};
	struct aa_result r;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.cpu = 1;
	r.irq_stop = true;
	r.complete = true;
	r.total_ns = US(30);
	r.irq_latency_ns = US(30);
	r.thread_latency_ns = US(400);
	r.irq_delay_ns = US(22);
	r.timer_irq_seen = true;
	r.timer_irq_ns = US(6);		/* not printed for IRQ stops */
	r.prev_irq_ns = US(7);
	r.blocking_pid = HOG_PID;
	strcpy(r.blocking_comm, "tlat-hog");
	r.parts[AA_NMI].sum_ns = 1500;
	part_line(&r.parts[AA_IRQ], 11, "eth0", US(9));	/* thread stops only */
	text = render(&r, TLAT_STACK_TRUNCATE);
	assert_string_equal(text, delayed);
	free(text);

	memset(&r, 0, sizeof(r));
	r.cpu = 0;
	r.irq_stop = true;
	r.complete = true;
	r.total_ns = US(15);
	r.irq_latency_ns = US(15);
	r.irq_delay_ns = US(12);
	r.exit_from_idle = true;
	r.blocking_pid = 0;
	strcpy(r.blocking_comm, "swapper/0");
	r.nr_frames = 1;
	r.frames[0] = 0xffffffff81000030ULL;
	text = render(&r, TLAT_STACK_TRUNCATE);
	assert_string_equal(text, idle);
	free(text);

	out = open_memstream(&text, &len);
	assert_non_null(out);
	aa_render_idle_exit(out, US(13), 0);
	aa_render_tasks_header(out);
	aa_render_task(out, 2, &idle_kworker, &opts);
	aa_render_task(out, 3, &busy_kworker, &opts);
	aa_render_task(out, 3, &busy_kworker, &no_symbols);
	fclose(out);
	assert_string_equal(text, trailer);
	free(text);
}

/* ---- more timelines ---------------------------------------------------- */

/*
 * Thread interference from switches: the hog is preempted by kworker/0:1
 * (31) at E+1000, which runs 3 us; the hog gets the CPU back for 2 us,
 * then switches to the thread at E+1005; the thread sample comes at
 * E+1010. rtla's rule: the interrupted task's first stretch is the
 * blocking thread, anything after it is thread interference.
 */
static void test_thread_interference_stock(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 1000, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	sched_switch(fx, 0, AT(-100), "kworker/0:1", 31, "tlat-hog", HOG_PID);
	local_timer(fx, 0, AT(5), true);
	sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
	local_timer(fx, 0, AT(15), false);
	sched_switch(fx, 0, AT(1000), "tlat-hog", HOG_PID, "kworker/0:1", 31);
	sched_switch(fx, 0, AT(1003), "kworker/0:1", 31, "tlat-hog", HOG_PID);
	sched_switch(fx, 0, AT(1005), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(1010), US(1010));

	result(fx, 0, &res);
	assert_int_equal(res.total_ns, US(1010));
	assert_int_equal(res.irq_delay_ns, US(5));
	assert_int_equal(res.timer_irq_ns, US(10));
	assert_int_equal(res.blocking_pid, HOG_PID);
	assert_string_equal(res.blocking_comm, "tlat-hog");
	/* E+5..E+1000 = 995, minus the timer IRQ's 10 */
	assert_int_equal(res.blocking_ns, US(985));
	/* kworker/0:1 E+1000..E+1003, the hog again E+1003..E+1005 */
	assert_int_equal(res.parts[AA_THREAD].sum_ns, US(5));
	assert_int_equal(res.parts[AA_THREAD].nr_lines, 2);
	assert_int_equal(res.parts[AA_THREAD].lines[0].id, 31);
	assert_string_equal(res.parts[AA_THREAD].lines[0].name, "kworker/0:1");
	assert_int_equal(res.parts[AA_THREAD].lines[0].ns, US(3));
	assert_int_equal(res.parts[AA_THREAD].lines[1].id, HOG_PID);
	assert_int_equal(res.parts[AA_THREAD].lines[1].ns, US(2));
	/* 1010 - (5 + 10 + 985 + 3 + 2): the thread's wake-up, E+1005..E+1010 */
	assert_int_equal(res.unexplained_ns, US(5));
	fx_close(fx);
}

/*
 * The user-return sample crosses the thread threshold (it is the
 * user-return context's threshold too) while the thread sample did not:
 * the window runs to the user return, and an IRQ between the thread's
 * wake-up and its return to user space is interference.
 */
static void test_user_return_hit(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 150, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	stress_timer_irq(fx, 0);
	sched_switch(fx, 0, AT(100), "stress", STRESS_PID, "tlat/0", TLAT_PID);
	sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(100), US(100));
	irq_entry(fx, 0, AT(110), 11, "eth0");
	irq_exit(fx, 0, AT(130), 11);
	sample(fx, TLAT_CTX_USER, 0, 1, TLAT_PID, AT(160), US(160));

	result(fx, 0, &res);
	assert_false(res.irq_stop);
	assert_int_equal(res.total_ns, US(160));
	assert_int_equal(res.thread_latency_ns, US(160));
	assert_int_equal(res.irq_delay_ns, US(5));
	assert_int_equal(res.timer_irq_ns, US(10));
	/* E+5..E+100 = 95, minus the timer IRQ's 10 */
	assert_int_equal(res.blocking_ns, US(85));
	assert_one_line(&res.parts[AA_IRQ], 11, "eth0", US(20));
	/* 160 - (5 + 10 + 85 + 20): the thread's own way back to user space */
	assert_int_equal(res.unexplained_ns, US(40));
	fx_close(fx);
}

/* a history of 8 events per CPU wraps many times and still holds the window */
static void test_small_history(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 1000, &aa_stock_ops);
	struct aa_result res;

	cfg.history = 8;
	fx_open(fx, &aa_stock_ops, &cfg);
	for (int i = 0; i < 50; i++) {
		irq_entry(fx, 0, AT(-2000 + 20 * i), 11, "eth0");
		irq_exit(fx, 0, AT(-2000 + 20 * i + 5), 11);
	}
	hog_timeline(fx, false);
	result(fx, 0, &res);
	check_hog(&res);
	fx_close(fx);
}

/*
 * The osnoise adapter, the timer IRQ interrupting a softirq: NET_RX runs
 * E-10..E+50 with the timer IRQ E+5..E+15 in it, so its softirq_noise
 * says 50 (net), written at E+50. Inside the window: E+5..E+50 = 45,
 * minus the timer IRQ's 10 = 35; the hog runs E+50..E+200 (150).
 */
static void test_osnoise_softirq_across_window_start(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 100, &aa_osnoise_ops);
	struct aa_result res;

	fx_open(fx, &aa_osnoise_ops, &cfg);
	sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
	irq_noise(fx, 0, AT(15), AT(5), "local_timer", 236, US(10));
	softirq_noise(fx, 0, AT(50), AT(-10), 3, US(50));
	thread_noise(fx, 0, AT(200), AT(50), "tlat-hog", HOG_PID, US(150));
	sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(200), US(200));

	result(fx, 0, &res);
	assert_int_equal(res.irq_delay_ns, US(5));
	assert_int_equal(res.timer_irq_ns, US(10));
	assert_int_equal(res.blocking_ns, US(150));
	assert_one_line(&res.parts[AA_SOFTIRQ], 3, "NET_RX", US(35));
	/* 200 - (5 + 10 + 150 + 35) */
	assert_int_equal(res.unexplained_ns, 0);
	fx_close(fx);
}

/*
 * The stock adapter, an NMI inside the timer IRQ after the IRQ sample: the
 * timer IRQ E+5..E+15, the sample at E+8, the NMI E+9..E+14. The entry and
 * exit events give the timer IRQ's start, whatever nested in it.
 */
static void test_nmi_in_timer_irq_stock(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 50, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	sched_switch(fx, 0, AT(-100), "kworker/0:1", 30, "tlat-hog", HOG_PID);
	local_timer(fx, 0, AT(5), true);
	sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
	nmi(fx, 0, AT(14), 5000);
	local_timer(fx, 0, AT(15), false);
	sched_switch(fx, 0, AT(100), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(100), US(100));

	result(fx, 0, &res);
	assert_true(res.timer_irq_seen);
	assert_int_equal(res.irq_delay_ns, US(5));
	/* 10 - the NMI's 5 */
	assert_int_equal(res.timer_irq_ns, US(5));
	assert_int_equal(res.parts[AA_NMI].sum_ns, US(5));
	assert_empty(&res.parts[AA_IRQ]);
	/* E+5..E+100 = 95, minus timer 5 and NMI 5 */
	assert_int_equal(res.blocking_ns, US(85));
	/* 100 - (5 + 5 + 5 + 85) */
	assert_int_equal(res.unexplained_ns, 0);
	fx_close(fx);
}

/* each adapter refuses a tep without its events, and says why */
static void test_adapter_open(void **state)
{
	struct aa_config cfg = config(0, 100, &aa_osnoise_ops);
	struct tep_handle *stock = unit_tep(stock_formats);
	struct tep_handle *osnoise = unit_tep(osnoise_formats);
	struct aa_engine *aa = aa_alloc(&cfg);
	char err[TLAT_ERR_LEN] = "";
	struct aa_adapter *ad = NULL;
	struct aa_task task;
	struct fx fx;

	(void)state;
	assert_non_null(aa);
	assert_int_not_equal(aa_osnoise_ops.open(&ad, stock, aa, false, err), 0);
	assert_non_null(strstr(err, "osnoise"));
	aa_osnoise_ops.close(ad);
	ad = NULL;
	err[0] = '\0';
	assert_int_not_equal(aa_stock_ops.open(&ad, osnoise, aa, false, err), 0);
	assert_true(err[0] != '\0');
	aa_stock_ops.close(ad);

	/* --dump-tasks: the osnoise adapter decodes switches too */
	fx = (struct fx){ .tep = osnoise, .aa = aa, .ops = &aa_osnoise_ops };
	assert_int_equal(aa_osnoise_ops.open(&fx.ad, osnoise, aa, true, err), 0);
	sched_switch(&fx, 1, AT(0), "swapper/1", 0, "kworker/1:1", 7);
	assert_true(aa_current_task(aa, 1, &task));
	assert_int_equal(task.pid, 7);
	assert_string_equal(task.comm, "kworker/1:1");
	assert_int_equal(task.work_func, 0);
	/* the kworker takes a work item: the task does it until it switches out */
	aa_add_work(aa, 1, AT(1), 0xffff888003a1c0e8ULL, 0xffffffff81000050ULL);
	assert_true(aa_current_task(aa, 1, &task));
	assert_int_equal(task.pid, 7);
	assert_int_equal(task.work, 0xffff888003a1c0e8ULL);
	assert_int_equal(task.work_func, 0xffffffff81000050ULL);
	sched_switch(&fx, 1, AT(2), "kworker/1:1", 7, "swapper/1", 0);
	assert_true(aa_current_task(aa, 1, &task));
	assert_int_equal(task.pid, 0);
	assert_int_equal(task.work, 0);
	assert_int_equal(task.work_func, 0);
	aa_osnoise_ops.close(fx.ad);
	aa_free(aa);
	tep_free(osnoise);
	tep_free(stock);
}

/* names as the kernel prints them, cut to fit */
static void test_adapter_names(void **state)
{
	static const char unterminated[4] = { 'e', 't', 'h', '0' };
	char name[AA_NAME_LEN];

	(void)state;
	assert_string_equal(aa_softirq_name(0), "HI");
	assert_string_equal(aa_softirq_name(3), "NET_RX");
	assert_string_equal(aa_softirq_name(9), "RCU");
	assert_string_equal(aa_softirq_name(10), "UNKNOWN");
	aa_copy_name(name, unterminated, sizeof(unterminated));
	assert_string_equal(name, "eth0");
	aa_copy_name(name, "a-very-long-irq-action-name-indeed", 35);
	assert_int_equal(strlen(name), AA_NAME_LEN - 1);
	assert_memory_equal(name, "a-very-long-irq-action-name-indeed", AA_NAME_LEN - 1);
}

/*
 * ---- cases that found bugs in src/ ------------------------------------
 *
 * Each comment says what the right answer is and why; the report that came
 * with this file says where the code goes wrong.
 */

/*
 * The same loss in the tracepoint source's order, where the samples come
 * after the events: the events of the window were lost all the same, so
 * the analysis must say it is partial, as it does in the kernel order.
 */
static void test_lost_events_tracepoint_order(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 50, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	sched_switch(fx, 0, AT(-100), "kworker/0:1", 30, "stress", STRESS_PID);
	local_timer(fx, 0, AT(5), true);
	local_timer(fx, 0, AT(15), false);
	irq_entry(fx, 0, AT(30), 11, "eth0");
	lost(fx, 0);
	irq_exit(fx, 0, AT(40), 11);
	sched_switch(fx, 0, AT(100), "stress", STRESS_PID, "tlat/0", TLAT_PID);
	sample(fx, TLAT_CTX_IRQ, 0, 1, STRESS_PID, AT(8), US(8));
	sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(100), US(100));

	result(fx, 0, &res);
	assert_int_equal(res.total_ns, US(100));
	assert_false(res.complete);
	fx_close(fx);
}

/*
 * The kernel collector's order with the analysis (events decoded only at a
 * hit): every sample first, then the buffer's events, whose oldest were
 * overwritten. Gone before the window: the explanation is whole, the
 * same as in the tracepoint order; gone into it: partial.
 */
static void deferred_stress(struct fx *fx, int overwritten_from_us)
{
	sample(fx, TLAT_CTX_IRQ, 0, 1, STRESS_PID, AT(8), US(8));
	sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(100), US(100));
	fx->ops->lost(fx->ad, 0);
	aa_overwritten(fx->aa, 0, AT(overwritten_from_us));
	sched_switch(fx, 0, AT(-100), "kworker/0:1", 30, "stress", STRESS_PID);
	local_timer(fx, 0, AT(5), true);
	local_timer(fx, 0, AT(15), false);
	sched_switch(fx, 0, AT(100), "stress", STRESS_PID, "tlat/0", TLAT_PID);
}

static void test_deferred_events_overwritten(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 50, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	deferred_stress(fx, -100);
	result(fx, 0, &res);
	check_stress_head(&res, 100);
	assert_true(res.timer_irq_seen);
	assert_int_equal(res.timer_irq_ns, US(10));
	assert_int_equal(res.blocking_ns, US(85));
	assert_true(res.complete);
	fx_close(fx);

	fx_open(fx, &aa_stock_ops, &cfg);
	deferred_stress(fx, 5);
	result(fx, 0, &res);
	assert_int_equal(res.total_ns, US(100));
	assert_false(res.complete);
	fx_close(fx);
}

/*
 * An IRQ stop, kernel order: the loss comes after the IRQ sample, taking
 * the timer IRQ's exit with it, so the IRQ handler delay is unknown.
 */
static void test_lost_events_irq_stop(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(20, 0, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	sched_switch(fx, 0, AT(-100), "kworker/0:1", 30, "stress", STRESS_PID);
	local_timer(fx, 0, AT(25), true);
	sample(fx, TLAT_CTX_IRQ, 0, 1, STRESS_PID, AT(30), US(30));
	lost(fx, 0);
	local_timer(fx, 0, AT(35), false);

	result(fx, 0, &res);
	assert_true(res.irq_stop);
	assert_false(res.timer_irq_seen);
	assert_false(res.complete);
	fx_close(fx);
}

/*
 * The timer IRQ interrupts a NET_RX softirq (E-10..E+50) running in
 * stress's context (the IRQ sample's pid): after the timer IRQ, the
 * softirq keeps the CPU to E+50, and only then does stress run on. The
 * softirq's share of the window [E+5, E+200) is interference, not the
 * blocking thread's time: E+5..E+50 = 45, minus the timer IRQ's 10 = 35.
 */
static void test_softirq_across_window_start(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 100, &aa_stock_ops);
	struct aa_result res;

	fx_open(fx, &aa_stock_ops, &cfg);
	sched_switch(fx, 0, AT(-100), "kworker/0:1", 30, "stress", STRESS_PID);
	softirq(fx, 0, AT(-10), 3, true);
	local_timer(fx, 0, AT(5), true);
	sample(fx, TLAT_CTX_IRQ, 0, 1, STRESS_PID, AT(8), US(8));
	local_timer(fx, 0, AT(15), false);
	softirq(fx, 0, AT(50), 3, false);
	stress_thread(fx, 0, 200);

	result(fx, 0, &res);
	check_stress_head(&res, 200);
	assert_int_equal(res.timer_irq_ns, US(10));
	assert_one_line(&res.parts[AA_SOFTIRQ], 3, "NET_RX", US(35));
	/* E+50..E+200 */
	assert_int_equal(res.blocking_ns, US(150));
	/* 200 - (5 + 10 + 150 + 35) */
	assert_int_equal(res.unexplained_ns, 0);
	fx_close(fx);
}

/*
 * rtla counts an exit from idle at the IRQ sample. The kernel tracer turns
 * tracing off in the IRQ when the IRQ threshold is crossed, so the stop's
 * own thread sample never comes: the IRQ stop on an idle CPU is still the
 * highest exit-from-idle latency there was (25 us on CPU 0 here).
 */
static void test_idle_exit_irq_stop(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(20, 100, &aa_stock_ops);
	struct aa_result res;
	u64 lat;
	int cpu;

	fx_open(fx, &aa_stock_ops, &cfg);
	sched_switch(fx, 0, AT(-100), "tlat/0", TLAT_PID, "swapper/0", 0);
	local_timer(fx, 0, AT(20), true);
	sample(fx, TLAT_CTX_IRQ, 0, 1, 0, AT(25), US(25));
	local_timer(fx, 0, AT(30), false);

	result(fx, 0, &res);
	assert_true(res.irq_stop);
	assert_true(res.exit_from_idle);
	assert_int_equal(res.irq_delay_ns, US(20));
	assert_true(aa_max_idle_exit(fx->aa, &lat, &cpu));
	assert_int_equal(lat, US(25));
	assert_int_equal(cpu, 0);
	fx_close(fx);
}

/*
 * The osnoise adapter, an NMI inside the timer IRQ after the IRQ sample:
 * the timer IRQ runs E+5..E+15, the sample is taken at E+8, an NMI runs
 * E+9..E+14. irq_noise says 5 us (net of the NMI) at E+15, so "record ts
 * minus duration" puts its start at E+10, after the sample. rtla, reading
 * the kernel's start field, says: delay 5, timer IRQ 5, NMI 5; the stock
 * adapter says the same for the same timeline.
 */
static void test_osnoise_nmi_in_timer_irq(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 50, &aa_osnoise_ops);
	struct aa_result res;

	fx_open(fx, &aa_osnoise_ops, &cfg);
	sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
	nmi_noise(fx, 0, AT(14), AT(9), US(5));
	irq_noise(fx, 0, AT(15), AT(5), "local_timer", 236, US(5));
	thread_noise(fx, 0, AT(100), AT(15), "tlat-hog", HOG_PID, US(85));
	sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(100), US(100));

	result(fx, 0, &res);
	assert_true(res.timer_irq_seen);
	assert_int_equal(res.irq_delay_ns, US(5));
	assert_int_equal(res.timer_irq_ns, US(5));
	assert_int_equal(res.parts[AA_NMI].sum_ns, US(5));
	assert_empty(&res.parts[AA_IRQ]);
	/* E+15..E+100 */
	assert_int_equal(res.blocking_ns, US(85));
	/* 100 - (5 + 5 + 5 + 85) */
	assert_int_equal(res.unexplained_ns, 0);
	fx_close(fx);
}

/* a test with a struct fx in *state, freed even when it fails */
/* an IRQ sample as the timerlat tracer writes it, in the timer IRQ */
static void timerlat_irq_sample(struct fx *fx, int cpu, u64 ts, u32 seq)
{
	unsigned char data[24] = { 0 };

	put32(data, 8, (int32_t)seq);
	put32(data, 12, 0);
	feed(fx, TIMERLAT_ID, cpu, ts, data, 24);
}

/*
 * The clocks' offset, learned from the events, can put the timer IRQ's
 * start after its sample: here the timer IRQ's record is the CPU's first
 * event and 76 us late. The first irq_noise after the IRQ sample is the
 * timer's (rtla's rule): it starts no later than the sample.
 */
/* issue 15's activation from its IRQ sample on (see below), and its result */
static void issue15_activation(struct fx *fx, bool sample_event, struct aa_result *res)
{
	if (sample_event)
		timerlat_irq_sample(fx, 0, AT(40), 1);
	sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(40), US(40));
	irq_noise(fx, 0, AT(189), AT(4), "local_timer", 236, US(109));
	thread_noise(fx, 0, AT(3000), AT(113), "tlat-hog", HOG_PID, US(2887));
	sample(fx, TLAT_CTX_USER, 0, 1, TLAT_PID, AT(3010), US(3010));
	result(fx, 0, res);
	assert_false(res->irq_stop);
	assert_true(res->timer_irq_seen);
	assert_int_equal(res->timer_irq_ns, US(109));
	assert_empty(&res->parts[AA_IRQ]);
	assert_int_equal(res->blocking_pid, HOG_PID);
	assert_int_equal(res->blocking_ns, US(2887));
}

static void test_osnoise_timer_irq_after_sample(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 1000, &aa_osnoise_ops);
	struct aa_result res;

	fx_open(fx, &aa_osnoise_ops, &cfg);
	issue15_activation(fx, true, &res);
	/* start clamped to the sample: E+40 */
	assert_int_equal(res.irq_delay_ns, US(40));
	fx_close(fx);
}

/*
 * Issue 15, the -u run that rtla got right and tlat did not: the timer
 * IRQ started (kernel stamp) at E+4, 36 us before the IRQ sample at E+40,
 * and ran 109 us; its irq_noise record came at E+189, so "record time less
 * duration" put it at E+80, after the sample, and it was counted as IRQ
 * interference. The events before it give the local clock's offset; the
 * kernel's stamp makes it the timer IRQ. The hog then runs E+113..E+3000,
 * and the user thread's sample is at E+3010.
 */
static void test_osnoise_timer_irq_late_record(void **state)
{
	struct fx *fx = *state;
	struct aa_config cfg = config(0, 1000, &aa_osnoise_ops);
	struct aa_result res;

	fx_open(fx, &aa_osnoise_ops, &cfg);
	irq_noise(fx, 0, AT(-490), AT(-500), "virtio0", 25, US(10));
	thread_noise(fx, 0, AT(-300), AT(-480), "tlat-hog", HOG_PID, US(180));
	/* without the sample event: found by its kernel stamp alone */
	issue15_activation(fx, false, &res);
	assert_int_equal(res.irq_delay_ns, US(4));
	/* 3010 - (4 + 109 + 2887) */
	assert_int_equal(res.unexplained_ns, US(10));
	fx_close(fx);
}

#define FX_TEST(f)	cmocka_unit_test_setup_teardown(f, fx_setup, fx_teardown)

UNIT_MAIN("aa",
	FX_TEST(test_hog_kernel_order),
	FX_TEST(test_hog_tracepoint_order),
	FX_TEST(test_irq_in_softirq),
	FX_TEST(test_nmi_in_irq),
	FX_TEST(test_equal_timestamps),
	FX_TEST(test_lost_events),
	FX_TEST(test_deferred_events_overwritten),
	FX_TEST(test_irq_threshold_hit),
	FX_TEST(test_thread_threshold_hit),
	FX_TEST(test_first_hit_per_cpu),
	FX_TEST(test_rearm),
	FX_TEST(test_idle_exit),
	FX_TEST(test_osnoise_adapter),
	FX_TEST(test_stack_pick),
	FX_TEST(test_stack_first_activation),
	FX_TEST(test_stack_before_derived_expiry),
	FX_TEST(test_stack_after_restart),
	FX_TEST(test_stack_pushed_out),
	FX_TEST(test_stack_below_threshold),
	FX_TEST(test_window),
	cmocka_unit_test(test_stack_drop_repeats),
	cmocka_unit_test(test_stack_decode_61rt),
	cmocka_unit_test(test_stack_decode_612),
	cmocka_unit_test(test_stack_decode_module),
	cmocka_unit_test(test_render_thread_stop),
	cmocka_unit_test(test_render_extras),
	cmocka_unit_test(test_render_irq_stop),
	FX_TEST(test_thread_interference_stock),
	FX_TEST(test_user_return_hit),
	FX_TEST(test_small_history),
	FX_TEST(test_osnoise_softirq_across_window_start),
	FX_TEST(test_nmi_in_timer_irq_stock),
	cmocka_unit_test(test_adapter_open),
	cmocka_unit_test(test_adapter_names),
	FX_TEST(test_softirq_across_window_start),
	FX_TEST(test_lost_events_tracepoint_order),
	FX_TEST(test_lost_events_irq_stop),
	FX_TEST(test_idle_exit_irq_stop),
	FX_TEST(test_osnoise_nmi_in_timer_irq),
	FX_TEST(test_osnoise_timer_irq_late_record),
	FX_TEST(test_osnoise_timer_irq_after_sample),
)
