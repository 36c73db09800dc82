/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_doc.h - the run's results as one JSON document (--json), built with
 * json-c: tlat's own versioned schema (docs/tlat-json.schema.json), or the
 * shape of rt-tests' cyclictest --json that CI harnesses already parse
 * (docs/tlat-rt-tests.schema.json).
 */
#ifndef TLAT_OUTPUT_JSON_DOC_H
#define TLAT_OUTPUT_JSON_DOC_H

#include <json.h>

#include "output/report.h"

#define TLAT_JSON_SCHEMA_VERSION	"tlat/1.1"

/**
 * json_tlat_document - tlat's document of a finished report
 *
 * Returns NULL when out of memory; free it with json_object_put().
 */
struct json_object *json_tlat_document(const struct tlat_report *r);
/**
 * json_rttests_document - a finished report in the shape of cyclictest --json
 * @r: the report
 *
 * Returns NULL when out of memory; free it with json_object_put().
 */
struct json_object *json_rttests_document(const struct tlat_report *r);
/**
 * json_tlat_aa - tlat's document's "auto_analysis"
 * @aa: the report's analysis
 *
 * Returns NULL when out of memory; free it with json_object_put().
 */
struct json_object *json_tlat_aa(const struct tlat_report_aa *aa);

/**
 * json_run_description - what the documents say of a run: argv, options,
 * system and its wall-clock start (seconds)
 *
 * tlat record keeps it in the recording, and tlat report's documents take it
 * as theirs. Returns NULL when out of memory; free with json_object_put().
 */
struct json_object *json_run_description(const struct tlat_params *p,
					 const struct tlat_sysinfo *sys, time_t start_time);
/**
 * json_run_check - whether tlat record's description of a run, read back
 * from a recording, has the types the documents expect
 * @run: the parsed description
 *
 * Returns 0, or -EINVAL if it is not an object, or argv is not an array of
 * strings, options or system not objects, start_time not an integer.
 */
int json_run_check(struct json_object *run);
/**
 * json_run_argv - the document's "argv": the recorded run's in tlat report
 * @r: the report
 *
 * Returns it; NULL stands for JSON null.
 */
struct json_object *json_run_argv(const struct tlat_report *r);

/**
 * json_run_options - the document's "options": the recorded run's in tlat report
 * @r: the report
 *
 * Returns it; NULL stands for JSON null.
 */
struct json_object *json_run_options(const struct tlat_report *r);

/**
 * json_run_system - the document's "system": the recorded run's in tlat report
 * @r: the report
 *
 * Returns it; NULL out of memory.
 */
struct json_object *json_run_system(const struct tlat_report *r);

/**
 * json_run_cmdline - the command line joined: the recorded run's in tlat report
 * @r: the report
 *
 * Returns a JSON string; NULL stands for JSON null.
 */
struct json_object *json_run_cmdline(const struct tlat_report *r);

#endif
