// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_records.c - libFuzzer harness: raw records through every source's
 * decoder, with the event formats of real recordings (tests/golden: each
 * source, both VM kernels). The input's first byte picks the recording;
 * the second, how the rest is read:
 * - as ring-buffer pages, through tlat's page reader (page_records.h) with
 *   the checks tlat report makes of each page (dat_pages.c);
 * - as records: a 16-bit length, then the record's bytes, each in a buffer
 *   of its own size, so that a read past a record's end is caught.
 * The recordings' directory: $TLAT_FUZZ_RECORDINGS (default
 * build/fuzz/recordings, which make fuzz fills).
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "core/err.h"
#include "sources/source.h"
#include "trace/page_records.h"
#include "tracedat/dat_read.h"

#define MAX_RECORDINGS	16
#define MAX_SOURCES	8

struct fuzz_recording {
	struct dat_reader *rec;
	struct tep_handle *tep;
	struct event_index events;
	struct kbuffer *kbuf;
	int page_size;
	int long_size;
};

/* the recordings, loaded once: the harness's only state across inputs */
static struct fuzz_recording recordings[MAX_RECORDINGS];
static int nr_recordings;

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("TLAT_FUZZ_RECORDINGS") ?: "build/fuzz/recordings";
	char path[4096], err[TLAT_ERR_LEN];
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);

	(void)argc;
	(void)argv;
	for (int i = 0; i < n; i++) {
		struct fuzz_recording *r = &recordings[nr_recordings];

		if (nr_recordings < MAX_RECORDINGS && strstr(names[i]->d_name, ".dat")) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			if (!dat_reader_open(&r->rec, strdup(path), err)) {
				r->tep = dat_reader_tep(r->rec);
				r->kbuf = tep_kbuffer(r->tep);
				r->page_size = dat_reader_page_size(r->rec);
				r->long_size = tep_get_long_size(r->tep);
				if (r->kbuf && r->page_size > 0 &&
				    !event_index_init(&r->events, r->tep))
					nr_recordings++;
			}
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	if (!nr_recordings) {
		fprintf(stderr, "fuzz_records: no recordings in %s (TLAT_FUZZ_RECORDINGS)\n", dir);
		exit(1);
	}
	return 0;
}

static void count_sample(struct tlat_sink *sink, const struct tlat_sample *sample)
{
	(void)sink;
	(void)sample;
}

static void count_stack(struct tlat_sink *sink, const struct tlat_stack *stack)
{
	(void)sink;
	/* the sink reads every frame */
	for (volatile int i = 0; i < stack->nr; i++)
		(void)stack->ips[i];
}

struct decoders {
	const struct tlat_decoder_ops *ops[MAX_SOURCES];
	struct tlat_source *src[MAX_SOURCES];
	int nr;
	struct tlat_sink sink;
};

static void decode(struct decoders *d, struct fuzz_recording *r, struct tep_record *rec)
{
	struct tep_event *event = event_index_find(&r->events, rec->data, rec->size);

	if (!event)
		return;
	for (int i = 0; i < d->nr; i++) {
		if (rec->missed_events && d->ops[i]->lost)
			d->ops[i]->lost(d->src[i], rec->cpu);
		d->ops[i]->record(d->src[i], event, rec, &d->sink);
	}
}

/* a page header's commit (its data's size, flags above bit 27) within the page */
static bool page_header_fits(const char *page, size_t ps, int long_size)
{
	unsigned long long commit = 0;

	memcpy(&commit, page + 8, long_size == 4 ? 4 : 8);
	return 8 + (size_t)long_size + (commit & ((1ULL << 27) - 1)) <= ps;
}

static void fuzz_pages(struct decoders *d, struct fuzz_recording *r, const uint8_t *data,
		       size_t size)
{
	size_t ps = (size_t)r->page_size;
	char *page = malloc(ps);
	struct tep_record rec = { .cpu = 0 };
	struct page_cursor pc;

	if (!page)
		return;
	for (size_t off = 0; off < size; off += ps) {
		size_t n = size - off < ps ? size - off : ps;

		memset(page, 0, ps);
		memcpy(page, data + off, n);
		/*
		 * kbuffer_load_subbuffer() walks as far as the page's header
		 * says, past the page: tlat's pages come from the kernel, or
		 * from libtracecmd, which loads them first (a crash there is
		 * the bounded child's, tests/robust/)
		 */
		if (!page_header_fits(page, ps, r->long_size))
			continue;
		if (kbuffer_load_subbuffer(r->kbuf, page))
			continue;
		/* what dat_pages.c checks before it reads a page's records */
		if (kbuffer_start_of_data(r->kbuf) + kbuffer_subbuffer_size(r->kbuf) > (int)ps)
			continue;
		page_cursor_start(&pc, r->kbuf, page);
		rec.cpu = (int)(off / ps) % 4;
		while (page_cursor_next(&pc, &rec))
			decode(d, r, &rec);
	}
	free(page);
}

static void fuzz_raw(struct decoders *d, struct fuzz_recording *r, const uint8_t *data,
		     size_t size)
{
	struct tep_record rec = { .ts = 1000000 };

	while (size >= 3) {
		size_t len = (data[0] | (size_t)data[1] << 8) % 1024;
		void *copy;

		rec.cpu = data[2] % 4;
		rec.missed_events = data[2] & 0x80;
		rec.ts += data[2] * 997ULL;
		data += 3;
		size -= 3;
		if (len > size)
			len = size;
		copy = malloc(len ?: 1);
		if (!copy)
			return;
		memcpy(copy, data, len);
		rec.data = copy;
		rec.size = (int)len;
		/* the page reader hands on no record too short for its event id */
		if (len >= 2)
			decode(d, r, &rec);
		free(copy);
		data += len;
		size -= len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct decoders d = { .sink = { .sample = count_sample, .stack = count_stack } };
	char why[TLAT_ERR_LEN];
	struct fuzz_recording *r;
	struct tlat_params params;
	const struct tlat_source_ops *ops;

	if (size < 2)
		return 0;
	r = &recordings[data[0] % nr_recordings];
	if (cli_params_init(&params, data[1] & 2 ? TLAT_MODE_HIST : TLAT_MODE_TOP, 4)) {
		cli_params_free(&params);
		return 0;
	}
	params.stop.stack_us = data[1] & 4 ? 1 : 0;
	for (size_t i = 0; (ops = source_nth(i)) && d.nr < MAX_SOURCES; i++) {
		struct tlat_source *src = NULL;

		if (!ops->decoder->open(&src, &params, r->tep, why)) {
			d.ops[d.nr] = ops->decoder;
			d.src[d.nr++] = src;
		} else if (src) {
			ops->decoder->close(src);
		}
	}
	if (data[1] & 1)
		fuzz_pages(&d, r, data + 2, size - 2);
	else
		fuzz_raw(&d, r, data + 2, size - 2);
	for (int i = 0; i < d.nr; i++)
		d.ops[i]->close(d.src[i]);
	cli_params_free(&params);
	return 0;
}
