/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit_json.h - the JSON documents of a report, and what a document must
 * hold, by JSON pointer: values read with a one-line failure that names the
 * pointer, and lists of expectations checked in turn.
 */
#ifndef TLAT_UNIT_JSON_H
#define TLAT_UNIT_JSON_H

#include <stdbool.h>
#include <json.h>

#include "unit_report.h"

/* what a JSON pointer of a document must hold */
struct unit_want {
	const char *ptr;
	enum { W_NUM, W_SNUM, W_STR, W_TRUE, W_FALSE, W_NULL, W_ABSENT } kind;
	long long n;
	const char *s;
};

#define IS_NUM(ptr, n)		{ ptr, W_NUM, n, NULL }
#define IS_SNUM(ptr, n)		{ ptr, W_SNUM, n, NULL }
#define IS_STR(ptr, s)		{ ptr, W_STR, 0, s }
#define IS_TRUE(ptr)		{ ptr, W_TRUE, 0, NULL }
#define IS_FALSE(ptr)		{ ptr, W_FALSE, 0, NULL }
#define IS_NULL(ptr)		{ ptr, W_NULL, 0, NULL }
#define IS_ABSENT(ptr)		{ ptr, W_ABSENT, 0, NULL }

/* unit_json_expect() of the wants given */
#define UNIT_EXPECT_DOC(doc, ...) \
	unit_json_expect(doc, (const struct unit_want[]){ __VA_ARGS__ }, \
			 sizeof((const struct unit_want[]){ __VA_ARGS__ }) / \
			 sizeof(struct unit_want))

/**
 * unit_json_document - a report's document, written as the run writes it, and parsed back
 * @r: the report; r->text is set to the document as written
 * @rttests: the rt-tests shape, else tlat's
 * @name: with TLAT_JSON_DUMP_DIR set, the document is written there as name.json too
 *
 * Return: the document parsed back, for json_object_put().
 */
struct json_object *unit_json_document(struct unit_report *r, bool rttests, const char *name);

/**
 * unit_json_expect - fail the test unless the document holds what each want says
 * @doc: the document
 * @wants: the wants, checked in turn
 * @n: how many
 */
void unit_json_expect(struct json_object *doc, const struct unit_want *wants, size_t n);

/**
 * unit_json_at - the value at a JSON pointer, which must exist
 * @doc: the document
 * @ptr: the pointer
 *
 * Return: the value; NULL for a JSON null.
 */
struct json_object *unit_json_at(struct json_object *doc, const char *ptr);

/**
 * unit_json_num - the integer at a JSON pointer, which must be one
 * @doc: the document
 * @ptr: the pointer
 *
 * Return: the integer, unsigned.
 */
u64 unit_json_num(struct json_object *doc, const char *ptr);

/**
 * unit_json_keys - fail the test unless an object's keys are these, in this order
 * @doc: the document
 * @ptr: the object's pointer
 * @want: the keys, joined by spaces
 */
void unit_json_keys(struct json_object *doc, const char *ptr, const char *want);

#endif
