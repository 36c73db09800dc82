// SPDX-License-Identifier: GPL-2.0
/*
 * sysinfo.c - the machine's description for the JSON documents (see
 * sysinfo.h), read from uname(2), /proc and sysfs as rt-tests does.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "util/sysinfo.h"

/* the first line of a file without its newline; "" if it cannot be read */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static void read_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *line = NULL, *colon;
	size_t n = 0;

	buf[0] = '\0';
	if (!f)
		return;
	while (getline(&line, &n, f) > 0) {
		colon = strchr(line, ':');
		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += strspn(colon + 1, " \t") + 1;
		snprintf(buf, len, "%.*s", (int)strcspn(colon, "\n"), colon);
		break;
	}
	free(line);
	fclose(f);
}

int sysinfo_read(struct tlat_sysinfo *sys)
{
	char rt[8];

	memset(sys, 0, sizeof(*sys));
	if (uname(&sys->uts))
		return -errno;
	read_line("/proc/cmdline", sys->cmdline, sizeof(sys->cmdline));
	read_cpu_model(sys->cpu_model, sizeof(sys->cpu_model));
	read_line("/sys/kernel/realtime", rt, sizeof(rt));
	sys->realtime = rt[0] == '1';
	sys->nr_cpus = get_nprocs_conf();
	sys->nr_online = get_nprocs();
	return 0;
}

int sysinfo_cpu_node(int cpu)
{
	char path[64];
	struct dirent *de;
	int node = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((de = readdir(dir)))
		if (sscanf(de->d_name, "node%d", &node) == 1)
			break;
	closedir(dir);
	return node;
}
