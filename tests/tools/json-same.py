#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# json-same.py - whether two JSON documents hold the same values at the given
# keys (top-level keys, or /json/pointers): tlat report --json of a recording
# against the document of the run that recorded it.
# Usage: json-same.py A B KEY...; prints every difference, exit 1 on any.
import json
import sys


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
    if len(sys.argv) < 4:
        print("usage: json-same.py A B KEY...", file=sys.stderr)
        return 1
    with open(sys.argv[1]) as f:
        a = json.load(f)
    with open(sys.argv[2]) as f:
        b = json.load(f)
    bad = 0
    for key in sys.argv[3:]:
        va, vb = at(a, key), at(b, key)
        if va != vb:
            print(f"{key}: {json.dumps(va)[:300]} != {json.dumps(vb)[:300]}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
