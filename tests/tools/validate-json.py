#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# validate-json.py - validate JSON documents against a JSON Schema with the
# jsonschema package (Debian's python3-jsonschema), the schema's own draft.
# Usage: validate-json.py SCHEMA FILE...; prints every error, exit 1 on any.
import sys

import jsonschema

import tooljson


def main():
    schema_path, *paths = tooljson.args(2, "validate-json.py SCHEMA FILE...")
    schema = tooljson.load(schema_path)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    bad = 0
    for path in paths:
        try:
            doc = tooljson.load(path)
        except (OSError, ValueError) as e:
            print(f"{path}: not a JSON document: {e}")
            bad += 1
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors:
            where = "/".join(str(p) for p in e.path)
            print(f"{path}: /{where}: {e.message[:300]}")
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
