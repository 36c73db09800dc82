// SPDX-License-Identifier: GPL-2.0
/*
 * test_tracesave.c - the -t store: records come back oldest first in the
 * kernel's trace-file layout, eviction keeps the newest within the budget,
 * and a failed write leaves no file behind. The event is the kernel's
 * sched_wakeup format, embedded so that tracefs need not be mounted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/text_save.h"
#include "unit_helpers.h"

#define WAKEUP_ID	374
#define WAKEUP_SIZE	36
/* above PID_MAX_LIMIT, so the machine's saved_cmdlines cannot name it too */
#define TASK_PID	5000000

static const char wakeup_format[] =
	"name: sched_wakeup\n"
	"ID: 374\n"
	"format:\n"
	UNIT_COMMON_FIELDS
	"\n"
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, "
	"REC->prio, REC->target_cpu\n";

struct fixture {
	struct tep_handle *tep;
	char *dir;
	char path[96];
	struct text_save *ts;		/* the test's store, if it made one */
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	fx->tep = unit_tep((const struct unit_format[]){ { "sched", wakeup_format }, {} });
	assert_int_equal(tep_register_comm(fx->tep, "bash", TASK_PID), 0);
	fx->dir = unit_tmpdir("test_tracesave");
	snprintf(fx->path, sizeof(fx->path), "%s/timerlat_trace.txt", fx->dir);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(unit_rmtree(fx->dir), 0);
	text_save_free(fx->ts);
	tep_free(fx->tep);
	free(fx);
	return 0;
}

/* a sched_wakeup of task "t<seq>", pid seq, with size bytes of data in all */
static void add_wakeup(struct text_save *ts, int seq, int size, int common_pid, int cpu,
		       unsigned long long ns)
{
	unsigned char data[256] = { 0 };
	struct tep_record rec = { .ts = ns, .cpu = cpu, .size = size, .data = data };
	uint16_t type = WAKEUP_ID;
	int32_t prio = 120, target = cpu;

	memcpy(data, &type, 2);
	data[2] = 0x01;			/* irqs off */
	data[3] = 0x01;			/* preempt depth 1 */
	memcpy(data + 4, &common_pid, 4);
	snprintf((char *)data + 8, 16, "t%d", seq);
	memcpy(data + 24, &seq, 4);
	memcpy(data + 28, &prio, 4);
	memcpy(data + 32, &target, 4);
	assert_int_equal(text_save_add(ts, &rec), 0);
}

/* the pid= values of the event lines, in file order */
static int read_seqs(const char *path, int *seq, int max)
{
	char *buf = unit_read_file(path), *p = buf;
	int n = 0;

	while ((p = strstr(p, ": sched_wakeup: comm=")) && n < max) {
		p = strstr(p, " pid=");
		assert_non_null(p);
		seq[n++] = atoi(p + 5);
	}
	free(buf);
	return n;
}

/* a new store of budget bytes, the test's last one freed */
static struct text_save *store(struct fixture *fx, size_t budget)
{
	text_save_free(fx->ts);
	fx->ts = text_save_alloc(budget);
	assert_non_null(fx->ts);
	return fx->ts;
}

static void test_order_and_layout(void **state)
{
	struct fixture *fx = *state;
	struct text_save *ts = store(fx, 4096);
	int seq[8];
	char *buf;

	add_wakeup(ts, 7, WAKEUP_SIZE, TASK_PID, 1, 1234567890123ULL);
	add_wakeup(ts, 8, WAKEUP_SIZE, 0, 2, 1234567891000ULL);
	add_wakeup(ts, 9, WAKEUP_SIZE, TASK_PID, 0, 1234567892000ULL);
	assert_int_equal(text_save_write(ts, fx->tep, "timerlat", fx->path), 0);

	buf = unit_read_file(fx->path);
	assert_memory_equal(buf, "# tracer: timerlat\n#\n", 21);
	assert_non_null(strstr(buf, "entries-in-buffer/entries-written: 3/3 "));
	assert_non_null(strstr(buf, "\n            bash-5000000 [001] d..1.  1234.567890: "
				    "sched_wakeup: comm=t7 pid=7 prio=120 target_cpu=001\n"));
	assert_non_null(strstr(buf, "\n          <idle>-0       [002] d..1.  1234.567891: "
				    "sched_wakeup: comm=t8 pid=8 prio=120 target_cpu=002\n"));
	free(buf);
	assert_int_equal(read_seqs(fx->path, seq, 8), 3);
	assert_int_equal(seq[0], 7);
	assert_int_equal(seq[1], 8);
	assert_int_equal(seq[2], 9);
	assert_int_equal(text_save_dropped(ts), 0);
}

/* sizes vary so that the ring's end is padded with and without a marker */
static void test_eviction_keeps_newest(void **state)
{
	static const size_t budgets[] = { 100, 280, 290, 300, 333, 1000, 4096 };
	struct fixture *fx = *state;
	const int n = 200;
	int seq[200];

	for (size_t b = 0; b < sizeof(budgets) / sizeof(budgets[0]); b++) {
		struct text_save *ts = store(fx, budgets[b]);
		size_t kept_bytes = 0;
		int kept;

		for (int i = 0; i < n; i++)
			add_wakeup(ts, i, WAKEUP_SIZE + (i * 13) % 41, TASK_PID, 0, 1000000ULL * i);
		assert_int_equal(text_save_write(ts, fx->tep, "timerlat", fx->path), 0);
		kept = read_seqs(fx->path, seq, n);
		assert_true(kept > 0);
		assert_int_equal(kept + text_save_dropped(ts), n);
		for (int i = 0; i < kept; i++) {
			assert_int_equal(seq[i], n - kept + i);
			kept_bytes += 16 + ((WAKEUP_SIZE + (seq[i] * 13) % 41 + 7) & ~7);
		}
		assert_true(kept_bytes <= budgets[b]);
		/* at most the padding and the hole before the oldest go unused */
		assert_true(kept_bytes + 2 * (16 + 80) > budgets[b]);
	}
}

static void test_oversized_record_dropped(void **state)
{
	struct fixture *fx = *state;
	struct text_save *ts = store(fx, 64);
	int seq[4];

	add_wakeup(ts, 1, WAKEUP_SIZE, TASK_PID, 0, 1000);
	add_wakeup(ts, 2, 100, TASK_PID, 0, 2000);
	assert_int_equal(text_save_dropped(ts), 1);
	assert_int_equal(text_save_write(ts, fx->tep, "timerlat", fx->path), 0);
	assert_int_equal(read_seqs(fx->path, seq, 4), 1);
	assert_int_equal(seq[0], 1);
}

static void test_unwritable_path(void **state)
{
	struct fixture *fx = *state;
	struct text_save *ts = store(fx, 4096);
	char path[128];

	add_wakeup(ts, 1, WAKEUP_SIZE, TASK_PID, 0, 1000);

	snprintf(path, sizeof(path), "%s/missing/trace.txt", fx->dir);
	assert_int_equal(text_save_write(ts, fx->tep, "timerlat", path), -ENOENT);
	assert_int_equal(unit_count_entries(fx->dir), 0);

	/* the rename fails after the whole file is written: the temp file must go */
	snprintf(path, sizeof(path), "%s/adir", fx->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_true(text_save_write(ts, fx->tep, "timerlat", path) < 0);
	assert_int_equal(unit_count_entries(fx->dir), 1);
}

#define SAVE_TEST(fn)	cmocka_unit_test_setup_teardown(fn, setup, teardown)

UNIT_MAIN("tracesave",
	SAVE_TEST(test_order_and_layout),
	SAVE_TEST(test_eviction_keeps_newest),
	SAVE_TEST(test_oversized_record_dropped),
	SAVE_TEST(test_unwritable_path),
)
