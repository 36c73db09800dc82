// SPDX-License-Identifier: GPL-2.0
/*
 * tp_bpf.bpf.c - the tracepoint source's pairing, in the kernel: the expiry
 * of a measuring thread's sleep and the switch to the thread give its IRQ
 * and thread latencies, written to the thread's slot (tp_bpf_slot.h) instead
 * of three trace events to decode. Only tlat's threads are looked at: the
 * cost for every other timer and switch is one map lookup.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "sources/tracepoints/tp_bpf_slot.h"

char LICENSE[] SEC("license") = "GPL";

/* the function of every sleeper's timer; libbpf finds it in kallsyms */
extern const void hrtimer_wakeup __ksym;

/* a measuring thread's tid -> its slot; sized by user space before loading */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} tids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tp_bpf_slot);
} slots SEC(".maps");

static struct tp_bpf_slot *slot_of(__u32 tid)
{
	__u32 *slot = bpf_map_lookup_elem(&tids, &tid);

	return slot ? bpf_map_lookup_elem(&slots, slot) : NULL;
}

/*
 * A sleeper's timer sits in its struct hrtimer_sleeper, next to the task it
 * wakes: the function tells a sleeper, the task tells ours.
 */
SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(tp_expire, struct hrtimer *timer, ktime_t *now)
{
	struct hrtimer_sleeper *sleeper;
	struct tp_bpf_slot *s;
	__u64 now_ns = 0, expires;

	if ((__u64)BPF_CORE_READ(timer, function) != (__u64)&hrtimer_wakeup)
		return 0;
	sleeper = container_of(timer, struct hrtimer_sleeper, timer);
	s = slot_of(BPF_CORE_READ(sleeper, task, pid));
	if (!s || s->seen)
		return 0;
	bpf_probe_read_kernel(&now_ns, sizeof(now_ns), now);
	expires = BPF_CORE_READ(timer, node.expires);
	s->expires_ns = expires;
	s->softexpires_ns = BPF_CORE_READ(timer, _softexpires);
	s->irq_ns = now_ns > expires ? now_ns - expires : 0;
	s->irq_ts_ns = bpf_ktime_get_ns();
	s->irq_pid = (__u32)bpf_get_current_pid_tgid();
	s->seen = TP_BPF_SEEN_IRQ;
	return 0;
}

/* switch-ins before the expiry (preempted on the way to sleep) do not count */
SEC("tp_btf/sched_switch")
int BPF_PROG(tp_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct tp_bpf_slot *s = slot_of(next->pid);
	__u64 now_ns;

	if (!s || s->seen != TP_BPF_SEEN_IRQ)
		return 0;
	now_ns = bpf_ktime_get_ns();
	s->thread_ns = now_ns > s->expires_ns ? now_ns - s->expires_ns : 0;
	s->thread_ts_ns = now_ns;
	s->seen = TP_BPF_SEEN_IRQ | TP_BPF_SEEN_THREAD;
	return 0;
}

