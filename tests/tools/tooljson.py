# SPDX-License-Identifier: GPL-2.0
# tooljson.py - what the JSON checkers of tests/tools share: their command
# line, and a document read from a file.
import json
import sys


def args(least, usage):
    """sys.argv's operands, or the usage on stderr and exit 1 with fewer than least"""
    if len(sys.argv) - 1 < least:
        print(f"usage: {usage}", file=sys.stderr)
        sys.exit(1)
    return sys.argv[1:]


def load(path):
    """the JSON document in the file at path"""
    with open(path) as f:
        return json.load(f)
