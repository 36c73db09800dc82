// SPDX-License-Identifier: GPL-2.0
/*
 * unit_aa_formats.c - the event formats the auto-analysis tests open their
 * adapters on (unit_aa.h): /sys/kernel/tracing/events/<system>/<name>/format
 * of a 6.18 x86 host for the stock events, of the 6.12-RT and 6.1-RT QEMU
 * dumps for osnoise:* and ftrace:kernel_stack.
 */
#include "unit_aa.h"

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

/* what follows local_timer_entry's and _exit's names and ids */
#define LOCAL_TIMER_FORMAT \
	"format:\n" \
	UNIT_COMMON_FIELDS \
	"\n" \
	"\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\n" \
	"print fmt: \"vector=%d\", REC->vector\n"

static const char local_timer_entry_format[] =
	"name: local_timer_entry\n"
	"ID: 165\n"
	LOCAL_TIMER_FORMAT;

static const char local_timer_exit_format[] =
	"name: local_timer_exit\n"
	"ID: 164\n"
	LOCAL_TIMER_FORMAT;

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

/* what follows softirq_entry's and _exit's names and ids */
#define SOFTIRQ_FORMAT \
	"format:\n" \
	UNIT_COMMON_FIELDS \
	"\n" \
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\n" \
	SOFTIRQ_PRINT

static const char softirq_entry_format[] =
	"name: softirq_entry\n"
	"ID: 223\n"
	SOFTIRQ_FORMAT;

static const char softirq_exit_format[] =
	"name: softirq_exit\n"
	"ID: 222\n"
	SOFTIRQ_FORMAT;

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

const char unit_aa_kernel_stack_612[] =
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
const char unit_aa_kernel_stack_61rt[] =
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

const struct unit_format unit_aa_stock_formats[] = {
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

const struct unit_format unit_aa_osnoise_formats[] = {
	{ "osnoise", irq_noise_format },
	{ "osnoise", nmi_noise_format },
	{ "osnoise", softirq_noise_format },
	{ "osnoise", thread_noise_format },
	{ "ftrace", timerlat_format },
	{ "sched", sched_switch_format },
	{ NULL, NULL },
};
