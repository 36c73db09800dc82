/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_golden.h - the texts test_render.c expects of tlat top and tlat
 * hist, written out by hand from upstream rtla's format strings
 * (timerlat_top.c, timerlat_hist.c, osnoise.c of v7.2): the header lines all
 * share once, then each case's rows. Included by test_render.c alone.
 */
#ifndef TLAT_RENDER_GOLDEN_H
#define TLAT_RENDER_GOLDEN_H

/* the duration stamp of test_render.c's runs */
#define DURATION	"  0 01:02:05"

/* ---------------------------------------------------------------- tlat top */

#define TOP_TITLE	"                                     Timer Latency" \
			"                                              "
#define TOP_GROUPS(duration, unit) \
	duration "   |          IRQ Timer Latency (" unit ")        |" \
	"         Thread Timer Latency (" unit ")\n"
#define TOP_COLUMNS	"CPU COUNT      |      cur       min       avg       max |" \
			"      cur       min       avg       max"
#define TOP_HEADER(duration, unit) \
	TOP_TITLE "\n" TOP_GROUPS(duration, unit) TOP_COLUMNS "\n"
#define TOP_RULE	"---------------|----------------------------------------|" \
			"---------------------------------------\n"
/* one activation, IRQ 1 us and thread 2 us: its CPU's row and the ALL row's start */
#define TOP_ONE_ACTIVATION(row, all) \
	row "        1         1         1         1 |" \
	"        2         2         2         2\n" \
	TOP_RULE \
	all "                  1         1         1 |" \
	"                  2         2         2\n"

static const char top_basic[] =
	"\033c"
	TOP_HEADER(DURATION, "us")
	"  0 #2         |        3         1         2         3 |"
	"        9         5         7         9\n"
	"  2 #1         |        2         2         2         2 |"
	"        4         4         4         4\n"
	TOP_RULE
	"ALL #3      e0 |                  1         2         3 |"
	"                  4         6         9\n";

static const char top_user[] =
	TOP_TITLE "                                         \n"
	DURATION "   |          IRQ Timer Latency (us)        |"
	"         Thread Timer Latency (us)      |    Ret user Timer Latency (us)\n"
	TOP_COLUMNS " |      cur       min       avg       max\n"
	"  0 #2         |        3         1         2         3 |"
	"        9         5         7         9 |       12         6         9        12\n"
	"  2 #1         |        2         2         2         2 |"
	"        4         4         4         4 |        -         -         -         -\n"
	"---------------|----------------------------------------|"
	"----------------------------------------|---------------------------------------\n"
	"ALL #3      e0 |                  1         2         3 |"
	"                  4         6         9 |                  6         9        12\n";

static const char top_nano[] =
	TOP_HEADER(DURATION, "ns")
	"  1 #2         |     2345      1234      1789      2345 |"
	"     4567      3456      4011      4567\n"
	TOP_RULE
	"ALL #2      e0 |               1234      1789      2345 |"
	"               3456      4011      4567\n";

static const char top_thread_only[] =
	TOP_HEADER(DURATION, "us")
	"  3 #0         |        -         -         -         - |"
	"        7         7         7         7\n"
	TOP_RULE
	"ALL #0      e0 |                  -         -         - |"
	"                  7         7         7\n";

/*
 * Deliberately not rtla's average: rtla truncates every sample to us before
 * summing (1.5 and 2.5 us average to 1 there), tlat averages nanoseconds.
 */
static const char top_avg[] =
	TOP_HEADER(DURATION, "us")
	"  0 #2         |        2         1         2         2 |"
	"        1         0         1         1\n"
	TOP_RULE
	"ALL #2      e0 |                  1         2         2 |"
	"                  0         1         1\n";

static const char top_small[] =
	TOP_HEADER(DURATION, "us") TOP_ONE_ACTIVATION("  0 #1         |", "ALL #1      e0 |");
static const char top_monitored[] =
	TOP_HEADER(DURATION, "us") TOP_ONE_ACTIVATION("  1 #1         |", "ALL #1      e0 |");
static const char top_debug_days[] =
	TOP_HEADER("  1 01:01:01", "us") TOP_ONE_ACTIVATION("  0 #1         |", "ALL #1      e0 |");
static const char top_e1[] =
	TOP_HEADER(DURATION, "us") TOP_ONE_ACTIVATION("  0 #1000000   |", "ALL #100000 e1 |");
static const char top_no_data[] = TOP_HEADER(DURATION, "us");
static const char top_pretty[] =
	"\033[2;37;40m" TOP_TITLE "\033[0;0;0m\n"
	TOP_GROUPS(DURATION, "us")
	"\033[2;30;47m" TOP_COLUMNS "\033[0;0;0m\n";

/* --------------------------------------------------------------- tlat hist */

#define HIST_HEADER(unit) \
	"# RTLA timerlat histogram\n# Time unit is " unit "\n# Duration:   0 01:02:05\n"
#define HIST_US		HIST_HEADER("microseconds (us)")
#define HIST_ALL	"ALL:        IRQ       Thr\n"
/* one activation on CPU 0, IRQ 1 us and thread 2 us: its rows, its statistics, and ALL's */
#define HIST_ONE_ROWS	"1             1         0 \n2             0         1 \n" \
			"over:         0         0 \n"
#define HIST_ONE_STATS	"count:        1         1 \nmin:          1         2 \n" \
			"avg:          1         2 \nmax:          1         2 \n"
#define HIST_ONE	HIST_ONE_ROWS HIST_ONE_STATS HIST_ALL HIST_ONE_STATS

static const char hist_basic[] =
	HIST_US
	"Index   IRQ-000   Thr-000   IRQ-002   Thr-002\n"
	"1             1         0         0         0 \n"
	"2             0         0         1         0 \n"
	"3             2         0         0         0 \n"
	"4             0         0         0         1 \n"
	"5             0         1         0         0 \n"
	"9             0         1         0         0 \n"
	"over:         0         1         0         0 \n"
	"count:        3         3         1         1 \n"
	"min:          1         5         2         4 \n"
	"avg:          2       104         2         4 \n"
	"max:          3       300         2         4 \n"
	HIST_ALL
	"count:        4         4 \nmin:          1         4 \n"
	"avg:          2        79 \nmax:          3       300 \n";

static const char hist_small[] = HIST_US "Index   IRQ-000   Thr-000\n" HIST_ONE;
static const char hist_no_header[] = HIST_ONE;
static const char hist_no_summary[] =
	HIST_US "Index   IRQ-000   Thr-000\n" HIST_ONE_ROWS
	"1 (33.33%) events missed, results might not be accurate\n";

static const char hist_nano[] =
	HIST_HEADER("nanoseconds (ns)")
	"Index   IRQ-000   Thr-000\n"
	"100           1         0 \n"
	"200           0         1 \n"
	"900           1         0 \n"
	"over:         1         1 \n"
	"count:        3         2 \nmin:        150       250 \n"
	"avg:        716      2625 \nmax:       1000      5000 \n"
	HIST_ALL
	"count:        3         2 \nmin:        150       250 \n"
	"avg:        716      2625 \nmax:       1000      5000 \n";

static const char hist_no_irq[] =
	HIST_US
	"Index   Thr-000   Thr-001\n"
	"5             1         0 \n"
	"over:         0         0 \n"
	"count:        1         0 \nmin:          5         - \n"
	"avg:          5         - \nmax:          5         - \n"
	"ALL:         Thr\n"
	"count:        1 \nmin:          5 \navg:          5 \nmax:          5 \n";

static const char hist_no_thread[] =
	HIST_US
	"Index   IRQ-000   IRQ-001\n"
	"1             1         0 \n"
	"3             0         1 \n"
	"over:         0         0 \n"
	"count:        1         1 \nmin:          1         3 \n"
	"avg:          1         3 \nmax:          1         3 \n"
	"ALL:        IRQ\n"
	"count:        2 \nmin:          1 \navg:          2 \nmax:          3 \n";

static const char hist_no_index[] =
	HIST_US
	"   IRQ-000   Thr-000   IRQ-001   Thr-001\n"
	"        0         0         0         0 \n"
	"        1         0         0         0 \n"
	"        0         1         0         0 \n"
	"        0         0         0         0 \n"
	"        0         0         0         0 \n"
	"        0         0         0         0 \n"
	"        0         0         0         0 \n"
	"        0         0         0         0 \n"
	"        0         0         0         0 \n"
	"        0         0         1         0 \n"
	"        0         0         0         1 \n"
	"        1         1         1         1 \n"
	"        1         2         9        10 \n"
	"        1         2         9        10 \n"
	"        1         2         9        10 \n"
	"      IRQ       Thr\n"
	"        2         2 \n"
	"        1         2 \n"
	"        5         6 \n"
	"        9        10 \n";

static const char hist_with_zeros[] =
	HIST_US
	"Index   IRQ-000   Thr-000\n"
	"0             0         0 \n"
	"10            1         0 \n"
	"20            0         0 \n"
	"30            0         0 \n"
	"40            0         0 \n"
	"50            0         0 \n"
	"60            0         0 \n"
	"70            0         0 \n"
	"80            0         0 \n"
	"90            0         1 \n"
	"over:         0         1 \n"
	"count:        1         2 \nmin:         15        95 \n"
	"avg:         15        97 \nmax:         15       100 \n"
	HIST_ALL
	"count:        1         2 \nmin:         15        95 \n"
	"avg:         15        97 \nmax:         15       100 \n";

static const char hist_user[] =
	HIST_US
	"Index   IRQ-000   Thr-000   Usr-000   IRQ-002   Thr-002   Usr-002\n"
	"1             1         0         0         1         0         0 \n"
	"2             0         1         0         0         1         0 \n"
	"3             0         0         1         0         0         0 \n"
	"over:         0         0         0         0         0         0 \n"
	"count:        1         1         1         1         1         0 \n"
	"min:          1         2         3         1         2         - \n"
	"avg:          1         2         3         1         2         - \n"
	"max:          1         2         3         1         2         - \n"
	"ALL:        IRQ       Thr       Usr\n"
	"count:        2         2         1 \nmin:          1         2         3 \n"
	"avg:          1         2         3 \nmax:          1         2         3 \n";

static const char hist_no_data[] =
	HIST_US
	"Index\nover: \ncount:\nmin:  \navg:  \nmax:  \n"
	HIST_ALL
	"count:        0         0 \nmin:          -         - \n"
	"avg:          -         - \nmax:          -         - \n";

/* deliberately not rtla's average, as top_avg */
static const char hist_avg[] =
	HIST_US
	"Index   IRQ-000   Thr-000\n"
	"0             0         1 \n"
	"1             1         1 \n"
	"2             1         0 \n"
	"over:         0         0 \n"
	"count:        2         2 \nmin:          1         0 \n"
	"avg:          2         1 \nmax:          2         1 \n"
	HIST_ALL
	"count:        2         2 \nmin:          1         0 \n"
	"avg:          2         1 \nmax:          2         1 \n";

#endif
