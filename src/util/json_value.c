// SPDX-License-Identifier: GPL-2.0
/*
 * json_value.c - see json_value.h.
 */
#include "util/json_value.h"

struct json_object *json_time(time_t t, const char *format, bool utc)
{
	char buf[64];
	struct tm tm;

	if (t == (time_t)-1 || !(utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) ||
	    !strftime(buf, sizeof(buf), format, &tm))
		return NULL;
	return json_object_new_string(buf);
}
