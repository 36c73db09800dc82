// SPDX-License-Identifier: GPL-2.0
/*
 * unit_aa.c - what the auto-analysis tests share (unit_aa.h): a tep, an
 * engine and an adapter opened on the formats of unit_aa_formats.c, each
 * event's record fed through the adapter, and the common timelines.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "unit_aa.h"

struct aa_config fx_config(u64 irq_threshold_us, u64 thread_threshold_us,
			   const struct aa_adapter_ops *ops)
{
	return (struct aa_config){
		.nr_cpus = NR_CPUS,
		.irq_threshold_ns = US(irq_threshold_us),
		.thread_threshold_ns = US(thread_threshold_us),
		.threads_from_switches = ops->threads_from_switches,
	};
}

void fx_open(struct fx *fx, const struct aa_adapter_ops *ops, const struct aa_config *cfg)
{
	char err[TLAT_ERR_LEN] = "";

	memset(fx, 0, sizeof(*fx));
	fx->ops = ops;
	fx->tep = unit_tep(ops == &aa_stock_ops ? unit_aa_stock_formats : unit_aa_osnoise_formats);
	fx->aa = aa_alloc(cfg);
	assert_non_null(fx->aa);
	if (ops->open(&fx->ad, fx->tep, fx->aa, false, err)) {
		print_error("open: %s\n", err);
		fail();
	}
	assert_non_null(fx->ad);
}

void fx_close(struct fx *fx)
{
	if (fx->ad)
		fx->ops->close(fx->ad);
	aa_free(fx->aa);
	tep_free(fx->tep);
	memset(fx, 0, sizeof(*fx));
}

const struct fx_engine stock_t1000 = { &aa_stock_ops, 0, 1000, 0 };
const struct fx_engine stock_t150 = { &aa_stock_ops, 0, 150, 0 };
const struct fx_engine stock_t100 = { &aa_stock_ops, 0, 100, 0 };
const struct fx_engine stock_t50 = { &aa_stock_ops, 0, 50, 0 };
const struct fx_engine stock_i20 = { &aa_stock_ops, 20, 0, 0 };
const struct fx_engine stock_i20_t100 = { &aa_stock_ops, 20, 100, 0 };
const struct fx_engine osnoise_t1000 = { &aa_osnoise_ops, 0, 1000, 0 };
const struct fx_engine osnoise_t100 = { &aa_osnoise_ops, 0, 100, 0 };
const struct fx_engine osnoise_t50 = { &aa_osnoise_ops, 0, 50, 0 };

int fx_setup(void **state)
{
	const struct fx_engine *e = *state;
	struct fx *fx = calloc(1, sizeof(*fx));
	struct aa_config cfg;

	if (!fx)
		return -1;
	*state = fx;
	if (e) {
		cfg = fx_config(e->irq_us, e->thread_us, e->ops);
		cfg.stack_threshold_ns = US(e->stack_us);
		fx_open(fx, e->ops, &cfg);
		fx->engine = e;
	}
	return 0;
}

void fx_reopen(struct fx *fx)
{
	const struct fx_engine *e = fx->engine;
	struct aa_config cfg = fx_config(e->irq_us, e->thread_us, e->ops);

	fx_close(fx);
	cfg.stack_threshold_ns = US(e->stack_us);
	fx_open(fx, e->ops, &cfg);
	fx->engine = e;
}

int fx_teardown(void **state)
{
	fx_close(*state);
	free(*state);
	return 0;
}

/* one record of event id, its payload after the common header in data */
void fx_feed(struct fx *fx, int id, int cpu, u64 ts, unsigned char *data, int size)
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

void fx_put32(unsigned char *data, int off, int32_t v)
{
	memcpy(data + off, &v, 4);
}

void fx_put64(unsigned char *data, int off, uint64_t v)
{
	memcpy(data + off, &v, 8);
}

/* a __data_loc string at off, its text at where */
void fx_put_str(unsigned char *data, int off, int where, const char *s)
{
	int len = strlen(s) + 1;

	fx_put32(data, off, (len << 16) | where);
	memcpy(data + where, s, len);
}

void fx_local_timer(struct fx *fx, int cpu, u64 ts, bool entry)
{
	unsigned char data[16] = { 0 };

	fx_put32(data, 8, 236);
	fx_feed(fx, entry ? LOCAL_TIMER_ENTRY_ID : LOCAL_TIMER_EXIT_ID, cpu, ts, data, 12);
}

void fx_irq_entry(struct fx *fx, int cpu, u64 ts, int irq, const char *name)
{
	unsigned char data[64] = { 0 };

	fx_put32(data, 8, irq);
	fx_put_str(data, 12, 16, name);
	fx_feed(fx, IRQ_ENTRY_ID, cpu, ts, data, 16 + strlen(name) + 1);
}

void fx_irq_exit(struct fx *fx, int cpu, u64 ts, int irq)
{
	unsigned char data[16] = { 0 };

	fx_put32(data, 8, irq);
	fx_put32(data, 12, 1);
	fx_feed(fx, IRQ_EXIT_ID, cpu, ts, data, 16);
}

void fx_softirq(struct fx *fx, int cpu, u64 ts, unsigned int vec, bool entry)
{
	unsigned char data[16] = { 0 };

	fx_put32(data, 8, vec);
	fx_feed(fx, entry ? SOFTIRQ_ENTRY_ID : SOFTIRQ_EXIT_ID, cpu, ts, data, 12);
}

/* nmi:nmi_handler is written as the handler returns, with its duration */
void fx_nmi(struct fx *fx, int cpu, u64 ts, long long delta_ns)
{
	unsigned char data[32] = { 0 };

	fx_put64(data, 8, 0xffffffff81234560ULL);
	fx_put64(data, 16, delta_ns);
	fx_put32(data, 24, 1);
	fx_feed(fx, NMI_HANDLER_ID, cpu, ts, data, 28);
}

void fx_sched_switch(struct fx *fx, int cpu, u64 ts, const char *prev_comm, int prev_pid,
		     const char *next_comm, int next_pid)
{
	unsigned char data[64] = { 0 };

	strncpy((char *)data + 8, prev_comm, 16);
	fx_put32(data, 24, prev_pid);
	fx_put32(data, 28, 120);
	fx_put64(data, 32, 0);
	strncpy((char *)data + 40, next_comm, 16);
	fx_put32(data, 56, next_pid);
	fx_put32(data, 60, 120);
	fx_feed(fx, SCHED_SWITCH_ID, cpu, ts, data, 64);
}

void fx_running(struct fx *fx, int cpu, const char *comm, int pid)
{
	fx_sched_switch(fx, cpu, AT(-100), "kworker/0:1", 30, comm, pid);
}

/*
 * osnoise:*_noise are written as the noise ends (record ts); their start
 * field is the kernel's stamp on the CPU's local clock, which the tests put
 * OSN_SKEW behind the instance's: the helpers take the start on the
 * instance's clock, the adapter must find it back.
 */
#define OSN_SKEW	(US(777777) + 321)

void fx_irq_noise(struct fx *fx, int cpu, u64 ts, u64 start, const char *desc, int vector,
		  u64 dur)
{
	unsigned char data[64] = { 0 };

	fx_put64(data, 8, start - OSN_SKEW);
	fx_put64(data, 16, dur);
	fx_put_str(data, 24, 32, desc);
	fx_put32(data, 28, vector);
	fx_feed(fx, IRQ_NOISE_ID, cpu, ts, data, 32 + strlen(desc) + 1);
}

void fx_softirq_noise(struct fx *fx, int cpu, u64 ts, u64 start, int vector, u64 dur)
{
	unsigned char data[32] = { 0 };

	fx_put64(data, 8, start - OSN_SKEW);
	fx_put64(data, 16, dur);
	fx_put32(data, 24, vector);
	fx_feed(fx, SOFTIRQ_NOISE_ID, cpu, ts, data, 28);
}

void fx_nmi_noise(struct fx *fx, int cpu, u64 ts, u64 start, u64 dur)
{
	unsigned char data[32] = { 0 };

	fx_put64(data, 8, start - OSN_SKEW);
	fx_put64(data, 16, dur);
	fx_feed(fx, NMI_NOISE_ID, cpu, ts, data, 24);
}

void fx_thread_noise(struct fx *fx, int cpu, u64 ts, u64 start, const char *comm, int pid,
		     u64 dur)
{
	unsigned char data[48] = { 0 };

	strncpy((char *)data + 8, comm, 16);
	fx_put64(data, 24, start - OSN_SKEW);
	fx_put64(data, 32, dur);
	fx_put32(data, 40, pid);
	fx_feed(fx, THREAD_NOISE_ID, cpu, ts, data, 44);
}

void fx_sample(struct fx *fx, enum tlat_ctx ctx, int cpu, u32 seq, int pid, u64 ts,
	       u64 latency_ns)
{
	struct tlat_sample s = {
		.ts_ns = ts, .latency_ns = latency_ns, .seq = seq, .cpu = cpu, .pid = pid,
		.ctx = ctx,
	};

	aa_add_sample(fx->aa, &s);
}

void fx_lost(struct fx *fx, int cpu)
{
	if (fx->ops->lost)
		fx->ops->lost(fx->ad, cpu);
	aa_lost(fx->aa, cpu);
}

void fx_result(struct fx *fx, int cpu, struct aa_result *res)
{
	assert_true(aa_result(fx->aa, cpu, res));
	assert_int_equal(res->cpu, cpu);
}

/* a stack of activation seq (0: the source does not say, as the kernel's) */
void fx_stack(struct fx *fx, int cpu, u64 ts, u32 seq, const u64 *ips, int nr)
{
	struct tlat_stack st = { .ts_ns = ts, .seq = seq, .cpu = cpu, .nr = nr, .ips = ips };

	aa_add_stack(fx->aa, &st);
}

/* a part with exactly one line */
void assert_one_line(const struct aa_part *p, long long id, const char *name, u64 ns)
{
	assert_int_equal(p->sum_ns, ns);
	assert_int_equal(p->nr_lines, 1);
	assert_int_equal(p->lines[0].id, id);
	assert_string_equal(p->lines[0].name, name);
	assert_int_equal(p->lines[0].ns, ns);
	assert_int_equal(p->other_ns, 0);
}

void assert_blocked_by(const struct aa_result *res, int pid, const char *comm)
{
	assert_int_equal(res->blocking_pid, pid);
	assert_string_equal(res->blocking_comm, comm);
}

void fx_irq_in_softirq(struct fx *fx, int cpu, unsigned int vec, u64 from, u64 to, int irq,
		       const char *name, u64 irq_from, u64 irq_to)
{
	fx_softirq(fx, cpu, from, vec, true);
	fx_irq_entry(fx, cpu, irq_from, irq, name);
	fx_irq_exit(fx, cpu, irq_to, irq);
	fx_softirq(fx, cpu, to, vec, false);
}

void assert_empty(const struct aa_part *p)
{
	assert_int_equal(p->sum_ns, 0);
	assert_int_equal(p->nr_lines, 0);
}

/*
 * CPU 0. The timer expires at E while tlat-hog (4242) runs; its IRQ runs
 * E+5..E+15 (the IRQ sample, latency 8 us, is taken at E+8), another
 * local_timer E+1000..E+1010 interrupts the hog, which keeps the CPU to
 * E+3000, when it switches to the measuring thread (99): thread latency
 * 3000 us. Later, events and a second activation that must not matter.
 */
void fx_hog_timeline(struct fx *fx, bool samples_at_end)
{
	fx_running(fx, 0, "tlat-hog", HOG_PID);
	fx_local_timer(fx, 0, AT(5), true);
	if (!samples_at_end)
		fx_sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
	fx_local_timer(fx, 0, AT(15), false);
	fx_local_timer(fx, 0, AT(1000), true);
	fx_local_timer(fx, 0, AT(1010), false);
	fx_sched_switch(fx, 0, AT(3000), "tlat-hog", HOG_PID, "tlat/0", TLAT_PID);
	if (!samples_at_end)
		fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(3000), US(3000));
	/* after the thread woke: frozen out, or outside the window */
	fx_local_timer(fx, 0, AT(3001), true);
	fx_local_timer(fx, 0, AT(3003), false);
	if (samples_at_end) {
		fx_sample(fx, TLAT_CTX_IRQ, 0, 1, HOG_PID, AT(8), US(8));
		fx_sample(fx, TLAT_CTX_THREAD, 0, 1, TLAT_PID, AT(3000), US(3000));
	}
	/* the next activation, expected at E+4000 */
	fx_local_timer(fx, 0, AT(4000), true);
	fx_sample(fx, TLAT_CTX_IRQ, 0, 2, 0, AT(4002), US(2));
	fx_local_timer(fx, 0, AT(4010), false);
	fx_sched_switch(fx, 0, AT(4020), "swapper/0", 0, "tlat/0", TLAT_PID);
	fx_sample(fx, TLAT_CTX_THREAD, 0, 2, TLAT_PID, AT(4020), US(20));
}

void fx_check_hog(const struct aa_result *res)
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
	assert_blocked_by(res, HOG_PID, "tlat-hog");
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

void fx_expect_hog(struct fx *fx, bool samples_at_end)
{
	struct aa_result res;

	fx_hog_timeline(fx, samples_at_end);
	fx_result(fx, 0, &res);
	fx_check_hog(&res);
}

/*
 * The common start of the cases below, on CPU 0: "stress" (500) runs, the
 * timer expires at E and its IRQ runs E+5..E+15 (IRQ sample at E+8, 8 us).
 * So irq_delay = 5 us and the timer IRQ takes 10 us.
 */
void fx_stress_timer_irq(struct fx *fx, int cpu)
{
	fx_running(fx, cpu, "stress", STRESS_PID);
	fx_local_timer(fx, cpu, AT(5), true);
	fx_sample(fx, TLAT_CTX_IRQ, cpu, 1, STRESS_PID, AT(8), US(8));
	fx_local_timer(fx, cpu, AT(15), false);
}

/* stress keeps the CPU to E+end, then the thread runs: latency end us */
void fx_stress_thread(struct fx *fx, int cpu, int end)
{
	fx_sched_switch(fx, cpu, AT(end), "stress", STRESS_PID, "tlat/0", TLAT_PID);
	fx_sample(fx, TLAT_CTX_THREAD, cpu, 1, TLAT_PID, AT(end), US(end));
}

void fx_check_stress_head(const struct aa_result *res, int end)
{
	assert_false(res->irq_stop);
	assert_int_equal(res->total_ns, US(end));
	assert_int_equal(res->irq_delay_ns, US(5));
	assert_blocked_by(res, STRESS_PID, "stress");
}

/* the stack of the hit in the stack tests */
const u64 unit_aa_stack_hit[] = { 0xffffffff81000010ULL, 0xffffffff81000020ULL,
				 0xffffffff81000030ULL };
