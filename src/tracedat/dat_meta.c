// SPDX-License-Identifier: GPL-2.0
/*
 * dat_meta.c - the lines tlat record writes about its run into the
 * recording, and their reading back (see dat_meta.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "tracedat/dat_meta.h"

int dat_meta_format(char *buf, size_t len, const struct dat_meta *m)
{
	return snprintf(buf, len, DAT_META_PREFIX " source=%s start_ns=%" PRIu64
			" end_ns=%" PRIu64 " irq_us=%" PRIu64 " thread_us=%" PRIu64
			" stack_us=%" PRIu64 " user=%d", m->source, m->start_ns, m->end_ns,
			m->stop_irq_us, m->stop_thread_us, m->stack_us, m->user_data);
}

bool dat_meta_parse(const char *text, size_t len, struct dat_meta *m)
{
	static const struct { const char *key; size_t offset; } keys[] = {
		{ "start_ns", offsetof(struct dat_meta, start_ns) },
		{ "end_ns", offsetof(struct dat_meta, end_ns) },
		{ "irq_us", offsetof(struct dat_meta, stop_irq_us) },
		{ "thread_us", offsetof(struct dat_meta, stop_thread_us) },
		{ "stack_us", offsetof(struct dat_meta, stack_us) },
	};
	size_t plen = strlen(DAT_META_PREFIX);
	char line[256];

	len = strnlen(text, len);
	if (len < plen || len >= sizeof(line) || strncmp(text, DAT_META_PREFIX, plen))
		return false;
	memcpy(line, text, len);
	line[len] = '\0';
	memset(m, 0, sizeof(*m));
	/* unknown keys are a later tlat's: skipped */
	for (char *save, *tok = strtok_r(line + plen, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			continue;
		*eq++ = '\0';
		if (!strcmp(tok, "source"))
			snprintf(m->source, sizeof(m->source), "%s", eq);
		if (!strcmp(tok, "user"))
			m->user_data = !strcmp(eq, "1");
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strcmp(tok, keys[i].key))
				*(u64 *)((char *)m + keys[i].offset) = strtoull(eq, NULL, 10);
	}
	return m->source[0] != '\0';
}

int dat_run_write(const char *json, int (*write)(void *ctx, const char *line), void *ctx)
{
	size_t len = strlen(json), nr = (len + DAT_RUN_CHUNK - 1) / DAT_RUN_CHUNK;
	char line[DAT_RUN_CHUNK + 64];
	int ret = 0;

	for (size_t i = 0; i < nr && !ret; i++) {
		snprintf(line, sizeof(line), DAT_RUN_PREFIX " %zu/%zu %.*s", i + 1, nr,
			 DAT_RUN_CHUNK, json + i * DAT_RUN_CHUNK);
		ret = write(ctx, line);
	}
	return ret;
}

/*
 * A "tlat-run: K/N text" line: chunk K must follow the K - 1 before it;
 * a description with a chunk missing is dropped whole.
 */
void dat_run_line(struct dat_run *run, const char *text, size_t len)
{
	size_t plen = strlen(DAT_RUN_PREFIX), used, add;
	/* the record's text is not NUL-terminated: sscanf() reads a copy */
	char line[DAT_RUN_CHUNK + 64];
	unsigned int k, n;
	int off = 0;
	char *json;

	len = strnlen(text, len);
	if (len < plen || strncmp(text, DAT_RUN_PREFIX, plen))
		return;
	/* the kernel adds the newline a marker line lacks */
	while (len && text[len - 1] == '\n')
		len--;
	if (len >= sizeof(line))
		return;
	memcpy(line, text, len);
	line[len] = '\0';
	if (sscanf(line + plen, " %u/%u %n", &k, &n, &off) != 2 || !off || k > n ||
	    (int)k != run->chunks + 1 || (k > 1 && (int)n != run->total) || plen + off > len)
		return;
	used = run->json ? strlen(run->json) : 0;
	add = len - plen - off;
	if (add > DAT_RUN_CHUNK)
		return;
	json = realloc(run->json, used + add + 1);
	if (!json)
		return;
	memcpy(json + used, text + plen + off, add);
	json[used + add] = '\0';
	run->json = json;
	run->chunks = k;
	run->total = n;
}

bool dat_run_complete(const struct dat_run *run)
{
	return run->chunks && run->chunks == run->total;
}

void dat_run_free(struct dat_run *run)
{
	free(run->json);
	memset(run, 0, sizeof(*run));
}
