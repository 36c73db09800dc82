// SPDX-License-Identifier: GPL-2.0
/*
 * unit_json.c - what a JSON document must hold, by JSON pointer
 * (unit_json.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/json_doc.h"
#include "unit_json.h"

/* the live tests validate these documents against the schemas (tests/live/json.sh) */
static void dump(const char *name, const char *text)
{
	const char *dir = getenv("TLAT_JSON_DUMP_DIR");
	char path[4096];
	FILE *out;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	out = fopen(path, "w");
	assert_non_null(out);
	fprintf(out, "%s\n", text);
	fclose(out);
}

struct json_object *unit_json_document(struct unit_report *r, bool rttests, const char *name)
{
	struct json_object *doc = rttests ? json_rttests_document(&r->report)
					  : json_tlat_document(&r->report);

	assert_non_null(doc);
	free(r->text);
	r->text = strdup(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							JSON_C_TO_STRING_SPACED |
							JSON_C_TO_STRING_NOSLASHESCAPE));
	assert_non_null(r->text);
	json_object_put(doc);
	doc = json_tokener_parse(r->text);
	if (!doc)
		fail_msg("not JSON:\n%s", r->text);
	dump(name, r->text);
	return doc;
}

struct json_object *unit_json_at(struct json_object *doc, const char *ptr)
{
	struct json_object *obj;

	if (json_pointer_get(doc, ptr, &obj))
		fail_msg("no %s in\n%s", ptr,
			 json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY));
	return obj;
}

/* the value at ptr, which must be of type */
static struct json_object *typed(struct json_object *doc, const char *ptr, enum json_type type)
{
	struct json_object *obj = unit_json_at(doc, ptr);

	if (!json_object_is_type(obj, type))
		fail_msg("%s is not %s", ptr, type == json_type_int ? "an integer" :
			 type == json_type_string ? "a string" : "a boolean");
	return obj;
}

u64 unit_json_num(struct json_object *doc, const char *ptr)
{
	return json_object_get_uint64(typed(doc, ptr, json_type_int));
}

static void expect_one(struct json_object *doc, const struct unit_want *w)
{
	struct json_object *obj;
	u64 n;

	switch (w->kind) {
	case W_NUM:
		n = unit_json_num(doc, w->ptr);
		if (n != (u64)w->n)
			fail_msg("%s: %llu, not %llu", w->ptr, (unsigned long long)n,
				 (unsigned long long)w->n);
		break;
	case W_SNUM:
		obj = typed(doc, w->ptr, json_type_int);
		if (json_object_get_int64(obj) != w->n)
			fail_msg("%s: %lld, not %lld", w->ptr,
				 (long long)json_object_get_int64(obj), w->n);
		break;
	case W_STR:
		obj = typed(doc, w->ptr, json_type_string);
		if (strcmp(json_object_get_string(obj), w->s))
			fail_msg("%s: '%s', not '%s'", w->ptr, json_object_get_string(obj), w->s);
		break;
	case W_TRUE:
	case W_FALSE:
		obj = typed(doc, w->ptr, json_type_boolean);
		if (json_object_get_boolean(obj) != (w->kind == W_TRUE))
			fail_msg("%s is not %s", w->ptr, w->kind == W_TRUE ? "true" : "false");
		break;
	case W_NULL:
		obj = unit_json_at(doc, w->ptr);
		if (obj)
			fail_msg("%s is not null: %s", w->ptr, json_object_to_json_string(obj));
		break;
	case W_ABSENT:
		if (!json_pointer_get(doc, w->ptr, &obj))
			fail_msg("%s should not exist", w->ptr);
		break;
	}
}

void unit_json_expect(struct json_object *doc, const struct unit_want *wants, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expect_one(doc, &wants[i]);
}

void unit_json_keys(struct json_object *doc, const char *ptr, const char *want)
{
	char got[1024] = "";

	json_object_object_foreach(unit_json_at(doc, ptr), key, val) {
		(void)val;
		if (*got)
			strcat(got, " ");
		strcat(got, key);
	}
	assert_string_equal(got, want);
}
