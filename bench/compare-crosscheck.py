#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# compare-crosscheck.py - an independent check of bench/compare-calibration.sh:
# for every pair in DIR (A1 vs A2, A1 vs H of each block), the chosen
# percentile of each CPU context as tlat hist itself computed it
# (percentiles.p99_9 of the document, from src/stats/aggregate.c, not
# tlat compare's code), recomputed here from the loglinear buckets as a
# check of those, and how many pairs have a cell whose rise passes both
# practical thresholds: an upper bound of tlat compare's regressions, which
# also need the interval and KS to agree.
# Usage: compare-crosscheck.py DIR [THRESHOLD_US THRESHOLD_PCT]
import glob
import json
import os
import sys


def lowest(i):
    if i < 256:
        return i
    shift = i // 128 - 1
    return (i - shift * 128) << shift


def index(ns):
    if ns < 256:
        return ns
    shift = ns.bit_length() - 1 - 7
    return shift * 128 + (ns >> shift)


def width(i):
    return 1 if i < 256 else 1 << (i // 128 - 1)


def pctl(buckets, n, mx, ppm):
    """nearest rank over [lowest, count] rows: the bucket's middle, the max exact"""
    rank = max(1, -(-n * ppm // 1000000))
    if rank >= n:
        return mx
    seen = 0
    for lo, c in buckets:
        seen += c
        if seen >= rank:
            i = index(lo)
            return min(lowest(i) + (width(i) - 1) // 2, mx)
    return mx


def cells(path):
    doc = json.load(open(path))
    out = {}
    for cpu in doc["cpus"]:
        for ctx in ("irq", "thread"):
            st = cpu[ctx]
            if not st["count"]:
                continue
            own = st["percentiles"]["p99_9"]
            mine = pctl(st["loglinear"], st["count"], st["max"], 999000)
            if own != mine:
                print(f"{path}: CPU {cpu['cpu']} {ctx}: p99.9 {own} in the document, "
                      f"{mine} from its buckets")
            out[(cpu["cpu"], ctx)] = own
    return out


def main():
    d = sys.argv[1]
    thr_us = float(sys.argv[2]) if len(sys.argv) > 2 else 30
    thr_pct = float(sys.argv[3]) if len(sys.argv) > 3 else 20
    aa = aa_over = 0
    hog = {}
    for a1 in sorted(glob.glob(os.path.join(d, "b*-a1.json"))):
        b = a1[:-len("-a1.json")]
        base = cells(a1)
        others = [("aa", b + "-a2.json")] + [
            ("hog " + h[len(b) + 2:-5], h) for h in glob.glob(b + "-h*.json")]
        for kind, f in others:
            if not os.path.exists(f):
                continue
            new = cells(f)
            over = any(new[k] - base[k] > max(thr_us * 1000, thr_pct / 100 * base[k])
                       for k in base if k in new)
            if kind == "aa":
                aa += 1
                aa_over += over
            else:
                n, o = hog.get(kind, (0, 0))
                hog[kind] = (n + 1, o + over)
    print(f"  A/A pairs {aa}, a p99.9 rise past {thr_us:g} us and {thr_pct:g}%: {aa_over}")
    for kind in sorted(hog, key=lambda k: [int(x) for x in k.split()[1].split("x")]):
        n, o = hog[kind]
        print(f"  {kind}: pairs {n}, a p99.9 rise past both thresholds: {o}")


if __name__ == "__main__":
    main()
