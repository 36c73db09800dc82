/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_json.h - the run's results as one JSON document (--json), built
 * with json-c: tlat's own versioned schema (docs/tlat-json.schema.json), or
 * the shape of rt-tests' cyclictest --json that CI harnesses already parse
 * (docs/tlat-rt-tests.schema.json). The destination is opened before the
 * run measures anything, so that a path that cannot be written fails early.
 */
#ifndef TLAT_RENDER_JSON_H
#define TLAT_RENDER_JSON_H

#include <json.h>

#include "render.h"

#define TLAT_JSON_SCHEMA_VERSION	"tlat/1"

/* the documents of a finished report; NULL when out of memory. Free with json_object_put() */
struct json_object *render_json_tlat(const struct tlat_report *r);
struct json_object *render_json_rttests(const struct tlat_report *r);

/* shared by the two documents */
struct json_object *render_json_string(const char *s);	/* "" gives null */
struct json_object *render_json_cmdline(const struct tlat_params *p);	/* the argv joined */
struct json_object *render_json_time(time_t t, const char *format, bool utc);
/* uname's sysname, nodename, release, version and machine, added to obj */
void render_json_uname(struct json_object *obj, const struct tlat_sysinfo *sys);

struct json_output;

/* NULL in *out, and 0, without --json; else 0 or -errno, and why in err */
int json_output_open(struct json_output **out, const struct tlat_params *params, char *err);
/* whether the document goes to stdout, which then carries nothing else */
bool json_output_stdout(const struct tlat_params *params);
int json_output_write(struct json_output *out, const struct tlat_report *r, char *err);
/* a file it created and never wrote (the run failed) is removed */
void json_output_close(struct json_output *out);

#endif
