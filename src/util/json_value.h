/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_value.h - the few json-c idioms tlat's documents repeat: a value or null.
 */
#ifndef TLAT_UTIL_JSON_VALUE_H
#define TLAT_UTIL_JSON_VALUE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <json.h>

/**
 * json_add - set an object's key to a value, which the object then owns
 * @obj: the object; NULL (it could not be allocated) drops @val
 * @key: the key
 * @val: the value; NULL is JSON null
 *
 * A document built out of memory is NULL, and none of its builders needs to
 * check on the way.
 */
static inline void json_add(struct json_object *obj, const char *key, struct json_object *val)
{
	if (obj)
		json_object_object_add(obj, key, val);
	else
		json_object_put(val);
}

/**
 * json_u64 - an unsigned 64-bit JSON number
 * @v: the number
 *
 * Returns it, or NULL out of memory.
 */
static inline struct json_object *json_u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

/**
 * json_u64_or_null - a number, or null for 0
 * @v: the number: 0 means "off" or "not set" for many options
 *
 * Returns the number, or NULL (JSON null).
 */
static inline struct json_object *json_u64_or_null(uint64_t v)
{
	return v ? json_object_new_uint64(v) : NULL;
}

/**
 * json_string_or_null - a string, or null for none
 * @s: the string; NULL or "" gives null
 *
 * Returns the string (copied), or NULL (JSON null).
 */
static inline struct json_object *json_string_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

/**
 * json_time - a wall-clock time as a string
 * @t: the time; (time_t)-1 is unknown
 * @format: strftime's
 * @utc: in UTC, else local time
 *
 * Returns NULL (JSON null) if it is unknown or cannot be formatted.
 */
struct json_object *json_time(time_t t, const char *format, bool utc);

#endif
