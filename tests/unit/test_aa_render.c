// SPDX-License-Identifier: GPL-2.0
/*
 * test_aa_render.c - the auto-analysis report of a result, against rtla's
 * v7.1 format strings (rtla.md section 2.4), not against our code: thread
 * and IRQ stops, with and without tlat's extra lines and symbols.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "output/text_aa.h"
#include "trace/kstack.h"
#include "unit_aa.h"

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
	*r = (struct aa_result){
		.cpu = 3, .complete = true, .seq = 17, .total_ns = US(50),
		.irq_latency_ns = US(3), .thread_latency_ns = US(50), .irq_delay_ns = US(2),
		.timer_irq_seen = true, .timer_irq_ns = US(4),
		.blocking_pid = HOG_PID, .blocking_comm = "tlat-hog", .blocking_ns = US(30),
		.parts[AA_NMI].sum_ns = US(1),
	};
	part_line(&r->parts[AA_IRQ], 11, "eth0", 1000);
	part_line(&r->parts[AA_IRQ], 11, "eth0", 1500);
	part_line(&r->parts[AA_SOFTIRQ], 3, "NET_RX", 3500);
	part_line(&r->parts[AA_THREAD], 7, "kworker/1:1", US(5));
	r->unexplained_ns = US(2);
	r->nr_frames = 3;
	memcpy(r->frames, unit_aa_stack_hit, sizeof(unit_aa_stack_hit));
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

/* an IRQ stop delayed 22 of 30 us = 73.33 %; NMI 1.5 of 30 = 5 % */
static void expect_delayed_irq_stop(void)
{
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
	struct aa_result r = {
		.cpu = 1, .irq_stop = true, .complete = true, .total_ns = US(30),
		.irq_latency_ns = US(30), .thread_latency_ns = US(400), .irq_delay_ns = US(22),
		.timer_irq_seen = true,
		.timer_irq_ns = US(6),		/* not printed for IRQ stops */
		.prev_irq_ns = US(7), .blocking_pid = HOG_PID, .blocking_comm = "tlat-hog",
		.parts[AA_NMI].sum_ns = 1500,
	};
	char *text;

	part_line(&r.parts[AA_IRQ], 11, "eth0", US(9));	/* thread stops only */
	text = render(&r, TLAT_STACK_TRUNCATE);
	assert_string_equal(text, delayed);
	free(text);
}

/* an IRQ stop of 12 of 15 us = 80 %, from idle and above 10 us */
static void expect_idle_irq_stop(void)
{
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
	const struct aa_result r = {
		.cpu = 0, .irq_stop = true, .complete = true, .total_ns = US(15),
		.irq_latency_ns = US(15), .irq_delay_ns = US(12), .exit_from_idle = true,
		.blocking_pid = 0, .blocking_comm = "swapper/0",
		.nr_frames = 1, .frames = { 0xffffffff81000030ULL },
	};
	char *text = render(&r, TLAT_STACK_TRUNCATE);

	assert_string_equal(text, idle);
	free(text);
}

static void test_render_irq_stop(void **state)
{
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
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	expect_delayed_irq_stop();
	expect_idle_irq_stop();
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

UNIT_MAIN("aa_render",
	cmocka_unit_test(test_render_thread_stop),
	cmocka_unit_test(test_render_extras),
	cmocka_unit_test(test_render_irq_stop),
)
