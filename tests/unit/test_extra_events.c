// SPDX-License-Identifier: GPL-2.0
/*
 * test_extra_events.c - the event systems the collector must decode for the
 * -e events: the source's and the analysis's first, then each -e system
 * once. (Enabling, filters and triggers need a kernel: tests/live/opts.sh.)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "trace/extra_events.h"
#include "unit_helpers.h"

#define ARGV(...)	((char *[]){ "tlat", __VA_ARGS__, NULL })
#define ARGC(...)	((int)(sizeof((char *[]){ "tlat", __VA_ARGS__ }) / sizeof(char *)))

static void expect_systems(const char **systems, const char *const *want)
{
	int i;

	assert_non_null(systems);
	for (i = 0; want[i]; i++) {
		assert_non_null(systems[i]);
		assert_string_equal(systems[i], want[i]);
	}
	assert_null(systems[i]);
	free(systems);
}

static void test_systems(void **state)
{
	static const char *const base[] = { "irq", "sched", NULL };
	struct tlat_params p;
	char err[TLAT_ERR_LEN] = "";

	(void)state;
	assert_int_equal(cli_params_init(&p, TLAT_MODE_TOP, 2), 0);
	/* no -e: the base list as it is, or nothing */
	expect_systems(extra_events_systems(&p.events, base), base);
	expect_systems(extra_events_systems(&p.events, NULL), (const char *const []){ NULL });

	assert_int_equal(cli_parse(&p, ARGC("-e", "sched:sched_wakeup", "-e", "timer",
					     "-e", "timer:hrtimer_start", "-e", "workqueue"),
				   ARGV("-e", "sched:sched_wakeup", "-e", "timer",
					"-e", "timer:hrtimer_start", "-e", "workqueue"), err), 0);
	expect_systems(extra_events_systems(&p.events, base),
		       (const char *const []){ "irq", "sched", "timer", "workqueue", NULL });
	expect_systems(extra_events_systems(&p.events, NULL),
		       (const char *const []){ "sched", "timer", "workqueue", NULL });
	cli_params_free(&p);
}

/* no -e: nothing to enable, nothing to free, no hist to save */
static void test_no_events(void **state)
{
	struct extra_events *ev = (void *)1;
	struct tlat_params p;
	char err[TLAT_ERR_LEN] = "";

	(void)state;
	assert_int_equal(cli_params_init(&p, TLAT_MODE_HIST, 2), 0);
	assert_int_equal(extra_events_enable(&ev, &p.events, NULL, NULL, err), 0);
	assert_null(ev);
	assert_int_equal(extra_events_save_hists(ev, NULL, err), 0);
	extra_events_free(ev);
	assert_string_equal(err, "");
	cli_params_free(&p);
}

UNIT_MAIN("extra_events",
	cmocka_unit_test(test_systems),
	cmocka_unit_test(test_no_events),
)
