#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
kernel-doc.py - every function a header of src/ declares has a kernel-doc
comment (/** name - ... */) just before it, as libtracefs's headers do.

Headers named *_local.h, *_private.h or *_state.h are a folder's own and
are left out. Prints each undocumented function as FILE:LINE: NAME and exits
1 if there is any.
"""
import pathlib
import re
import sys

PRIVATE = re.compile(r'_(local|private|state)\.h$')
# a declaration or definition at file scope: type words, then name( at line start
PROTO = re.compile(r'^(?:static\s+inline\s+|extern\s+)?[A-Za-z_][\w\s\*]*?[\s\*]'
                   r'([A-Za-z_]\w*)\s*\(')
SKIP = re.compile(r'^(#|typedef\b|struct\s+\w+\s*\{|enum\b|union\b|\s)')


def undocumented(path):
    lines = path.read_text().splitlines()
    missing = []
    depth = 0
    for i, line in enumerate(lines):
        if depth == 0 and not SKIP.match(line):
            m = PROTO.match(line)
            # function pointers in a struct are at depth > 0; macros start with #
            if m and '(*' not in line:
                name = m.group(1)
                if not documented(lines, i, name):
                    missing.append((i + 1, name))
        depth += line.count('{') - line.count('}')
    return missing


def documented(lines, i, name):
    """the comment that ends just above line i opens with /** and names the function"""
    j = i - 1
    while j >= 0 and lines[j].strip() == '':
        j -= 1
    if j < 0 or not lines[j].strip().endswith('*/'):
        return False
    while j >= 0 and '/*' not in lines[j]:
        j -= 1
    if j < 0 or not lines[j].lstrip().startswith('/**'):
        return False
    head = lines[j].lstrip()[3:].strip() or (lines[j + 1].strip().lstrip('* ') if j + 1 < len(lines) else '')
    return re.match(r'%s(\(\))?\s+-\s+\S' % re.escape(name), head) is not None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else 'src')
    bad = 0
    for path in sorted(root.rglob('*.h')):
        if PRIVATE.search(path.name):
            continue
        for line, name in undocumented(path):
            print('%s:%d: %s has no kernel-doc comment' % (path, line, name))
            bad += 1
    print('%d undocumented function(s)' % bad, file=sys.stderr)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
