#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
layers.py - every #include "folder/..." in src/ points at the including
file's own folder or one below it in src/LAYERS.

A folder of src/ missing from src/LAYERS, or an include of a folder that is
not in it, is an error too, so that a new folder takes its place in the
order before it is used. Includes of headers outside src/'s folders (the
module's uapi header, generated BPF skeletons, system headers) are not
layers and are left alone. Prints each offending line as FILE:LINE: TEXT and
why, and exits 1 if there is any.
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]*"')


def load_order(src):
    names = [line.strip() for line in (src / 'LAYERS').read_text().splitlines()
             if line.strip() and not line.lstrip().startswith('#')]
    # the list is top to bottom: rank 0 is the lowest layer
    return {name: rank for rank, name in enumerate(reversed(names))}


def check(src):
    rank = load_order(src)
    errors = []
    for folder in sorted(p for p in src.iterdir() if p.is_dir()):
        if folder.name not in rank:
            errors.append(f'{folder}: a folder that src/LAYERS does not place')
    for path in sorted(src.rglob('*.[ch]')):
        own = path.relative_to(src).parts[0]
        if own not in rank:
            continue
        for no, line in enumerate(path.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if not m or m.group(1) == '..':
                continue
            target = m.group(1)
            if target not in rank:
                errors.append(f'{path}:{no}: {line.strip()}: '
                              f'"{target}" is not a layer of src/LAYERS')
            elif rank[target] > rank[own]:
                errors.append(f'{path}:{no}: {line.strip()}: '
                              f'{own}/ is below {target}/ in src/LAYERS')
    return errors


def main():
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else 'src')
    errors = check(src)
    for e in errors:
        print(e)
    if errors:
        print(f'layers.py: {len(errors)} includes against the order of {src}/LAYERS')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
