// SPDX-License-Identifier: GPL-2.0
/*
 * unit_cli.c - command lines parsed into fresh options, for the
 * command-line tests (unit_cli.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unit_cli.h"

static int setup(void **state, enum tlat_mode mode)
{
	struct unit_cli *c = calloc(1, sizeof(*c));

	if (!c || cli_params_init(&c->p, mode, UNIT_CLI_NR_CPUS)) {
		free(c);
		return -1;
	}
	c->c = *state;
	*state = c;
	return 0;
}

int unit_cli_setup_top(void **state)
{
	return setup(state, TLAT_MODE_TOP);
}

int unit_cli_setup_hist(void **state)
{
	return setup(state, TLAT_MODE_HIST);
}

int unit_cli_teardown(void **state)
{
	struct unit_cli *c = *state;

	cli_params_free(&c->p);
	free(c);
	return 0;
}

void unit_cli_reset(struct unit_cli *c)
{
	enum tlat_command command = c->p.command;
	enum tlat_mode mode = c->p.out.mode;

	cli_params_free(&c->p);
	assert_int_equal(cli_params_init(&c->p, mode, UNIT_CLI_NR_CPUS), 0);
	c->p.command = command;
	memset(c->err, 0, sizeof(c->err));
}

void unit_cli_expect_error(struct unit_cli *c, int ret, const char *needle)
{
	if (ret != -EINVAL)
		fail_msg("expected -EINVAL, got %d (err '%s')", ret, c->err);
	if (!c->err[0])
		fail_msg("no error message");
	for (const char *s = c->err; *s; s++)
		if (!isprint((unsigned char)*s))
			fail_msg("error message has a non-printable byte %#x: '%s'",
				 (unsigned char)*s, c->err);
	if (!strstr(c->err, needle))
		fail_msg("error '%s' does not mention '%s'", c->err, needle);
}

int unit_cli_parse_words(struct unit_cli *c, const char *line)
{
	char *argv[16] = { "tlat" };
	int argc = 1;

	unit_cli_reset(c);
	assert_true(strlen(line) < sizeof(c->words));
	strcpy(c->words, line);
	for (char *w = strtok(c->words, " "); w; w = strtok(NULL, " ")) {
		assert_true(argc < 15);
		argv[argc++] = w;
	}
	return cli_parse(&c->p, argc, argv, c->err);
}

void unit_cli_parse_ok(struct unit_cli *c, const char *line)
{
	if (unit_cli_parse_words(c, line))
		fail_msg("'%s': %s", line, c->err);
}

/* whether a check names a field: not one left out of an initialiser */
static bool named(struct unit_field f)
{
	return f.size || f.cpus;
}

static long long value_of(const struct tlat_params *p, struct unit_field f)
{
	const char *at = (const char *)p + f.offset;

	if (f.cpus)
		return unit_cpu_mask((const struct tlat_cpuset *)at);
	switch (f.size) {
	case sizeof(bool):
		return *(const bool *)at;
	case sizeof(int):
		return *(const int *)at;
	case sizeof(long long):
		return *(const long long *)at;
	}
	fail_msg("a field of %zu bytes", f.size);
	return 0;
}

static void expect_field(struct unit_cli *c, const struct unit_check *k, const char *after)
{
	if (value_of(&c->p, k->field) != k->value)
		fail_msg("after '%s': %#llx in a field at %zu, not %#llx", after,
			 value_of(&c->p, k->field), k->field.offset, k->value);
}

void unit_cli_test_lines(void **state)
{
	struct unit_cli *c = *state;
	const struct unit_lines_case *lc = c->c;
	const char *const *l;

	for (l = lc->lines; *l; l++) {
		const char *to = strstr(*l, " => ");
		char args[128];
		int ret;

		assert_non_null(to);
		snprintf(args, sizeof(args), "%.*s", (int)(to - *l), *l);
		to += strlen(" => ");
		if (!strncmp(to, "error ", strlen("error "))) {
			ret = unit_cli_parse_words(c, args);
			unit_cli_expect_error(c, ret, to + strlen("error "));
			continue;
		}
		unit_cli_parse_ok(c, args);
		if (value_of(&c->p, lc->field) != strtoll(to, NULL, 0))
			fail_msg("'%s': %lld, not %s", args, value_of(&c->p, lc->field), to);
		for (size_t i = 0; i < UNIT_ARRAY_SIZE(lc->also) && named(lc->also[i].field); i++)
			expect_field(c, &lc->also[i], *l);
	}
	if (named(lc->left.field))
		expect_field(c, &lc->left, l[-1]);
}
