// SPDX-License-Identifier: GPL-2.0
/*
 * local_events.c - this machine's event formats in a tep (see
 * local_events.h), parsed by libtraceevent from the files libtracefs reads.
 * Not tracefs_local_events_system(): it also parses /proc/kallsyms, which
 * a run needs only to print symbols, and reads its 5 MB or more 8 KiB at a
 * time into a buffer regrown each time. Under ASan, where realloc() always
 * moves, that alone is seconds of copying and page faults at every start.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include "trace/local_events.h"

static bool wanted(const char *const *systems, const char *system)
{
	if (!systems)
		return true;
	for (; *systems; systems++)
		if (!strcmp(*systems, system))
			return true;
	return false;
}

/* an event whose format does not parse is left out, as libtracefs does */
static void load_system(struct tep_handle *tep, const char *system)
{
	char **events = tracefs_system_events(NULL, system);

	for (int i = 0; events && events[i]; i++) {
		int size = 0;
		char *format = tracefs_event_file_read(NULL, system, events[i], "format", &size);

		if (format && size > 0)
			tep_parse_event(tep, format, size, system);
		free(format);
	}
	tracefs_list_free(events);
}

static int load_header(struct tep_handle *tep)
{
	int size = 0;
	char *buf = tracefs_instance_file_read(NULL, "events/header_page", &size);
	int ret = 0;

	if (!buf || size <= 0 || tep_parse_header_page(tep, buf, size, sizeof(long)))
		ret = errno ? -errno : -EINVAL;
	free(buf);
	return ret;
}

struct tep_handle *local_events_load(const char *const *systems)
{
	struct tep_handle *tep = tep_alloc();
	char **all = NULL;
	bool listed_ftrace = false;
	char *printk;
	int ret;

	if (!tep)
		return NULL;
	errno = 0;
	ret = load_header(tep);
	if (!ret) {
		all = tracefs_event_systems(NULL);
		if (!all)
			ret = errno ? -errno : -ENOENT;
	}
	if (ret) {
		tep_free(tep);
		errno = -ret;
		return NULL;
	}
	for (int i = 0; all[i]; i++) {
		if (wanted(systems, all[i]))
			load_system(tep, all[i]);
		listed_ftrace |= !strcmp(all[i], "ftrace");
	}
	/* ftrace has no enable file: tracefs_event_systems() does not list it */
	if (!listed_ftrace && wanted(systems, "ftrace"))
		load_system(tep, "ftrace");
	tracefs_list_free(all);
	/* without these, %pS-style strings and comms print as addresses and <...> */
	printk = tracefs_instance_file_read(NULL, "printk_formats", NULL);
	if (printk)
		tep_parse_printk_formats(tep, printk);
	free(printk);
	tracefs_load_cmdlines(NULL, tep);
	/* as tracefs_local_events_system() sets them */
	tep_set_long_size(tep, tep_get_header_page_size(tep));
	tep_set_cpus(tep, sysconf(_SC_NPROCESSORS_CONF));
	return tep;
}
