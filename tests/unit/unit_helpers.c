// SPDX-License-Identifier: GPL-2.0
/*
 * unit_helpers.c - what the cmocka unit tests share (unit_helpers.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event-parse.h>

#include "stats/aggregate.h"
#include "unit_helpers.h"
#include "core/cpuset.h"

u64 unit_rng(u64 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

int unit_agg_setup(void **state)
{
	*state = agg_alloc(*state);
	return *state ? 0 : -1;
}

int unit_agg_teardown(void **state)
{
	agg_free(*state);
	return 0;
}

struct tep_handle *unit_tep(const struct unit_format *formats)
{
	struct tep_handle *tep = tep_alloc();

	assert_non_null(tep);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, getpagesize());
	/* not tep_parse_format(), which dereferences its event pointer even when NULL */
	for (const struct unit_format *f = formats; f->text; f++)
		if (tep_parse_event(tep, f->text, strlen(f->text), f->system))
			fail_msg("the %s format does not parse:\n%s", f->system, f->text);
	return tep;
}

const char *unit_symbol(void *ctx, u64 addr)
{
	for (const struct unit_symbol *sym = ctx; sym->name; sym++)
		if (sym->addr == addr)
			return sym->name;
	return NULL;
}

char *unit_tmpdir(const char *name)
{
	char *dir = NULL;

	assert_true(asprintf(&dir, "/tmp/%s.XXXXXX", name) > 0);
	if (!mkdtemp(dir))
		fail_msg("cannot make %s", dir);
	return dir;
}

int unit_rmtree(char *dir)
{
	char *cmd = NULL;
	int ret;

	assert_true(asprintf(&cmd, "rm -rf '%s'", dir) > 0);
	ret = system(cmd) ? -1 : 0;
	free(cmd);
	free(dir);
	return ret;
}

int unit_count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

void unit_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fail_msg("cannot write %s", path);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

char *unit_read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t size = 0, len = 0;

	if (!f)
		fail_msg("cannot read %s", path);
	do {
		size = size ? 2 * size : 4096;
		text = realloc(text, size);
		assert_non_null(text);
		len += fread(text + len, 1, size - len - 1, f);
	} while (len == size - 1);
	assert_false(ferror(f));
	fclose(f);
	text[len] = '\0';
	return text;
}

u64 unit_cpu_mask(const struct tlat_cpuset *cpus)
{
	u64 mask = 0;

	for (int cpu = 0; cpu < cpus->nr_cpus && cpu < 64; cpu++)
		if (cpuset_has(cpus, cpu))
			mask |= 1ULL << cpu;
	return mask;
}

/* text with its control characters escaped, for failure messages */
static char *escaped(const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	for (const char *c = text; *c; c++) {
		if (*c == '\n' || isprint((unsigned char)*c))
			fputc(*c, out);
		else
			fprintf(out, "\\%03o", (unsigned char)*c);
	}
	fclose(out);
	return buf;
}

void unit_expect_text(const char *got, const char *want)
{
	const char *g = got, *w = want, *gl = got, *wl = want;
	int line = 1;
	char *a, *b;

	if (!strcmp(got, want))
		return;
	while (*g && *g == *w) {
		if (*g == '\n') {
			line++;
			gl = g + 1;
			wl = w + 1;
		}
		g++;
		w++;
	}
	a = escaped(gl);
	b = escaped(wl);
	print_error("output differs at line %d, column %d:\n got: '%.*s'\nwant: '%.*s'\n", line,
		    (int)(g - gl) + 1, (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
	free(a);
	free(b);
	a = escaped(got);
	print_error("--- whole output ---\n%s--- end ---\n", a);
	free(a);
	fail();
}
