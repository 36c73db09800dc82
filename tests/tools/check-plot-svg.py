#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# check-plot-svg.py SVG HIST_OUT
#
# Checks an SVG drawn by "tlat hist --plot" against the text histogram the
# same run printed (HIST_OUT): the SVG parses as XML, and it holds one curve
# (a gnuplot plot group with a title and at least one path) per column of the
# histogram, in the same order, whose key gives that column's max: and over:
# values. Diagnostics go to stdout as "# " lines; the exit status is the verdict.

import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
CTX = {"IRQ": "IRQ", "Thr": "thread", "Usr": "user"}


def hist_columns(path):
    """[(cpu, ctx, max, over)] from the text histogram's header and rows"""
    rows = {}
    header = None
    with open(path) as f:
        for line in f:
            words = line.split()
            if words and words[0] == "Index" and header is None:
                header = words[1:]
            elif words and words[0] in ("over:", "max:") and words[0] not in rows:
                rows[words[0]] = words[1:]
    if header is None or "over:" not in rows or "max:" not in rows:
        sys.exit("# no Index, over: or max: row in " + path)
    cols = []
    for i, name in enumerate(header):
        ctx, cpu = name.split("-")
        cols.append((int(cpu), CTX[ctx], rows["max:"][i], rows["over:"][i]))
    return cols


def svg_curves(path):
    """[(title, number of paths)] of gnuplot's plot groups, in order"""
    root = ET.parse(path).getroot()
    curves = []
    for g in root.iter(SVG + "g"):
        if not g.get("id", "").startswith("gnuplot_plot_"):
            continue
        title = g.find(SVG + "title")
        curves.append((title.text if title is not None else "",
                       len(list(g.iter(SVG + "path")))))
    return curves


def main():
    svg, hist_out = sys.argv[1], sys.argv[2]
    try:
        curves = svg_curves(svg)
    except ET.ParseError as e:
        print(f"# {svg} is not well-formed XML: {e}")
        return 1
    cols = hist_columns(hist_out)
    ok = len(curves) == len(cols)
    print(f"# {len(curves)} curves in the SVG, {len(cols)} columns in the histogram")
    for (title, paths), (cpu, ctx, mx, over) in zip(curves, cols):
        m = re.fullmatch(r"CPU (\d+) (\w+): max (\d+) (us|ns), over: (\d+)", title or "")
        good = (m is not None and paths >= 1 and int(m.group(1)) == cpu and
                m.group(2) == ctx and m.group(3) == mx and m.group(5) == over)
        print(f"# {'ok' if good else 'BAD'}: '{title}' ({paths} paths), "
              f"column CPU {cpu} {ctx} max {mx} over {over}")
        ok = ok and good
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
