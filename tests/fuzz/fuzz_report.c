// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_report.c - libFuzzer harness: all of tlat report (the page reader,
 * the source's decoder, the statistics, the auto-analysis, the outputs) on
 * real recordings (tests/golden) whose CPU data the input damages. The
 * headers stay whole: libtracecmd and libtraceevent, which parse them,
 * crash on damaged ones, which tlat survives by reading in a bounded child
 * (util/sandbox.c, tests/robust/mutate.py), not by fuzzing them here.
 * The input's first byte picks the recording and the options; then each
 * patch is a 24-bit offset into the CPU data, a length byte and the bytes.
 * The recordings' directory: $TLAT_FUZZ_RECORDINGS (default
 * build/fuzz/recordings).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <trace-cmd.h>

#include "cmd/cli.h"
#include "core/err.h"
#include "run/run.h"
#include "tracedat/tracecmd_private.h"

#define MAX_RECORDINGS	16

#define MAX_CPUS	64

struct fuzz_recording {
	char *bytes;
	size_t size;
	size_t data_start, data_end;	/* the CPU data's pages */
	size_t first_page[MAX_CPUS];	/* each CPU's, which libtracecmd loads as it opens */
	int nr_cpus;
};

/* the recordings, loaded once, and the file each input is written to */
static struct fuzz_recording recordings[MAX_RECORDINGS];
static int nr_recordings;
static char out_path[64];

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* where in the file the pages of the CPU data are: found by their bytes */
static int find_data(struct fuzz_recording *r, const char *path)
{
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
						 TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	int ps, cpus;

	if (!h)
		return -1;
	ps = tracecmd_page_size(h);
	cpus = tep_get_cpus(tracecmd_get_tep(h));
	r->data_start = r->size;
	r->data_end = 0;
	r->nr_cpus = cpus < MAX_CPUS ? cpus : MAX_CPUS;
	for (int cpu = 0; cpu < cpus; cpu++) {
		struct tep_record *rec = tracecmd_read_cpu_first(h, cpu);
		void *last = NULL;

		while (rec) {
			void *page = tracecmd_record_page(h, rec);

			if (page != last) {
				char *at = memmem(r->bytes, r->size, page, ps);

				if (at && !last && cpu < MAX_CPUS)
					r->first_page[cpu] = at - r->bytes;
				if (at && (size_t)(at - r->bytes) < r->data_start)
					r->data_start = at - r->bytes;
				if (at && (size_t)(at - r->bytes) + ps > r->data_end)
					r->data_end = at - r->bytes + ps;
				last = page;
			}
			tracecmd_free_record(rec);
			rec = tracecmd_read_data(h, cpu);
		}
	}
	tracecmd_close(h);
	return r->data_start < r->data_end ? 0 : -1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("TLAT_FUZZ_RECORDINGS") ?: "build/fuzz/recordings";
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name), null;
	char path[4096];

	(void)argc;
	(void)argv;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	for (int i = 0; i < n; i++) {
		struct fuzz_recording *r = &recordings[nr_recordings];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		free(names[i]);
		if (nr_recordings >= MAX_RECORDINGS || !strstr(path, ".dat"))
			continue;
		f = fopen(path, "r");
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		r->size = ftell(f);
		rewind(f);
		r->bytes = malloc(r->size);
		if (r->bytes && fread(r->bytes, 1, r->size, f) == r->size && !find_data(r, path))
			nr_recordings++;
		else
			free(r->bytes);
		fclose(f);
	}
	if (n >= 0)
		free(names);
	if (!nr_recordings) {
		fprintf(stderr, "fuzz_report: no recordings in %s (TLAT_FUZZ_RECORDINGS)\n", dir);
		exit(1);
	}
	snprintf(out_path, sizeof(out_path), "/dev/shm/tlat-fuzz-report.%d.dat", (int)getpid());
	/* the reports' text: not the fuzzer's */
	null = open("/dev/null", O_WRONLY);
	if (null >= 0)
		dup2(null, STDOUT_FILENO);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[TLAT_ERR_LEN] = "";
	struct fuzz_recording *r;
	struct tlat_params params;
	char *bytes;
	size_t span;
	FILE *f;

	if (size < 1)
		return 0;
	r = &recordings[data[0] % nr_recordings];
	span = r->data_end - r->data_start;
	bytes = malloc(r->size);
	if (!bytes)
		return 0;
	memcpy(bytes, r->bytes, r->size);
	for (size_t i = 1; i + 4 <= size;) {
		size_t off = (data[i] | data[i + 1] << 8 | (size_t)data[i + 2] << 16) % span;
		size_t len = data[i + 3];

		i += 4;
		if (len > size - i)
			len = size - i;
		if (len > span - off)
			len = span - off;
		memcpy(bytes + r->data_start + off, data + i, len);
		i += len;
	}
	/*
	 * libtracecmd loads each CPU's first page as it opens the file, and
	 * walks it as far as its header says, past the page: a crash of the
	 * library, before tlat sees a page, which the bounded child of tlat
	 * report turns into one line (tests/robust/mutate.py). Those headers
	 * stay whole; tlat checks every other page's before libtracecmd loads it.
	 */
	for (int cpu = 0; cpu < r->nr_cpus; cpu++)
		memcpy(bytes + r->first_page[cpu], r->bytes + r->first_page[cpu], 16);
	f = fopen(out_path, "w");
	if (f) {
		fwrite(bytes, 1, r->size, f);
		fclose(f);
		if (!cli_params_init(&params, data[0] & 0x10 ? TLAT_MODE_HIST : TLAT_MODE_TOP, 4)) {
			params.command = TLAT_CMD_REPORT;
			params.recording = out_path;
			/* the recorded thresholds, or none: every sample, no analysis */
			if (data[0] & 0x20)
				params.thresholds_set = true;
			tlat_replay_here(&params, NULL, err);
		}
		cli_params_free(&params);
		unlink(out_path);
	}
	free(bytes);
	return 0;
}
