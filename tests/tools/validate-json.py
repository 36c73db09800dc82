#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# validate-json.py - validate JSON documents against a JSON Schema with the
# jsonschema package (Debian's python3-jsonschema), the schema's own draft.
# Usage: validate-json.py SCHEMA FILE...; prints every error, exit 1 on any.
import json
import sys

import jsonschema


def main():
    if len(sys.argv) < 3:
        print("usage: validate-json.py SCHEMA FILE...", file=sys.stderr)
        return 1
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    bad = 0
    for path in sys.argv[2:]:
        try:
            with open(path) as f:
                doc = json.load(f)
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
