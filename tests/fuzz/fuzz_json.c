// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_json.c - libFuzzer harness: what tlat reads back of a recording's
 * markers, which a damaged or forged file controls: tlat record's line
 * (dat_meta_parse()), the description of its run in chunked lines
 * (dat_run_line()), and that description as JSON, checked
 * (json_run_check()) and read by every document that embeds it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "cmd/cli.h"
#include "output/json_doc.h"
#include "output/report.h"
#include "tracedat/dat_meta.h"

static void fuzz_documents(const char *text)
{
	struct tlat_report_origin origin = { .uname = "Linux host 6.12 x86_64", .nr_cpus = 4 };
	struct tlat_report r = { .origin = &origin };
	struct tlat_params params;
	struct json_object *objs[4];

	origin.run = json_tokener_parse(text);
	if (!origin.run || json_run_check(origin.run) ||
	    cli_params_init(&params, TLAT_MODE_TOP, 4))
		goto out;
	r.params = &params;
	objs[0] = json_run_cmdline(&r);
	objs[1] = json_run_argv(&r);
	objs[2] = json_run_options(&r);
	objs[3] = json_run_system(&r);
	for (int i = 0; i < 4; i++) {
		json_object_to_json_string(objs[i]);
		json_object_put(objs[i]);
	}
	cli_params_free(&params);
out:
	json_object_put(origin.run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dat_run run = { .json = NULL };
	struct dat_meta meta;
	char *text = malloc(size + 1);
	const char *line, *nl;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	/* each line as a marker's text, not NUL-terminated, as in a record */
	for (line = (const char *)data; line < (const char *)data + size; line = nl + 1) {
		nl = memchr(line, '\n', (const char *)data + size - line);
		if (!nl)
			nl = (const char *)data + size;
		dat_meta_parse(line, nl - line, &meta);
		dat_run_line(&run, line, nl - line);
	}
	if (dat_run_complete(&run) && run.json)
		fuzz_documents(run.json);
	dat_run_free(&run);
	/* and the whole input as the description itself */
	fuzz_documents(text);
	free(text);
	return 0;
}
