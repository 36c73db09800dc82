#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# json-same.py - whether two JSON documents hold the same values at the given
# keys (top-level keys, or /json/pointers): tlat report --json of a recording
# against the document of the run that recorded it.
# Usage: json-same.py A B KEY...; prints every difference, exit 1 on any.
import json
import sys

import tooljson

def at(doc, key):
    if not key.startswith("/"):
        return doc.get(key, "<absent>")
    for part in key.strip("/").split("/"):
        if isinstance(doc, list):
            doc = doc[int(part)] if int(part) < len(doc) else "<absent>"
        elif isinstance(doc, dict):
            doc = doc.get(part, "<absent>")
        else:
            return "<absent>"
    return doc


def main():
    a_path, b_path, *keys = tooljson.args(3, "json-same.py A B KEY...")
    a, b = tooljson.load(a_path), tooljson.load(b_path)
    bad = 0
    for key in keys:
        va, vb = at(a, key), at(b, key)
        if va != vb:
            print(f"{key}: {json.dumps(va)[:300]} != {json.dumps(vb)[:300]}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
