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
# Usage: compare-crosscheck.py DIR [p99|p99_9 [THRESHOLD_US THRESHOLD_PCT]]
#        compare-crosscheck.py --runs DIR: each run's thread p99 and p99.9 per
#        CPU, in us, as tlat hist computed them
#        compare-crosscheck.py --all FILE.json[.gz]...: each document's
#        all-CPU thread p50, p99 and max, as tlat computed them during the
#        run and recomputed here from its CPUs' buckets merged (the figures
#        bench/vm-kernels.sh publishes from tlat compare)
import glob
import gzip
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


PPM = {"p99": 990000, "p99_9": 999000}


def cells(path, key):
    doc = json.load(open(path))
    out = {}
    for cpu in doc["cpus"]:
        for ctx in ("irq", "thread"):
            st = cpu[ctx]
            if not st["count"]:
                continue
            own = st["percentiles"][key]
            mine = pctl(st["loglinear"], st["count"], st["max"], PPM[key])
            if own != mine:
                print(f"{path}: CPU {cpu['cpu']} {ctx}: {key} {own} in the document, "
                      f"{mine} from its buckets")
            out[(cpu["cpu"], ctx)] = own
    return out


def runs(d):
    files = glob.glob(os.path.join(d, "b*.json"))
    files.sort(key=lambda f: (int(os.path.basename(f)[1:].split("-")[0]), f))
    print("  run                    thread p99 / p99.9 per CPU (us)")
    for f in files:
        doc = json.load(open(f))
        cols = [f"{c['thread']['percentiles']['p99'] / 1000:7.1f} /{c['thread']['percentiles']['p99_9'] / 1000:7.1f}"
                for c in doc["cpus"]]
        print(f"  {os.path.basename(f):22s} " + "   ".join(cols))


def all_cpus(path):
    doc = json.load(gzip.open(path) if path.endswith(".gz") else open(path))
    merged = {}
    n = mx = 0
    for cpu in doc["cpus"]:
        st = cpu["thread"]
        n += st["count"]
        mx = max(mx, st["max"])
        for lo, c in st["loglinear"]:
            merged[lo] = merged.get(lo, 0) + c
    buckets = sorted(merged.items())
    own = doc["all"]["thread"]
    mine = [pctl(buckets, n, mx, ppm) for ppm in (500000, 990000)]
    same = (own["count"] == n and own["max"] == mx and
            [own["percentiles"]["p50"], own["percentiles"]["p99"]] == mine)
    print(f"{path}: thread, all CPUs: p50 {own['percentiles']['p50'] / 1000:.1f} us, "
          f"p99 {own['percentiles']['p99'] / 1000:.0f} us, max {own['max'] / 1e6:.0f} ms "
          f"in the document; from its buckets p50 {mine[0] / 1000:.1f} us, "
          f"p99 {mine[1] / 1000:.0f} us, max {mx / 1e6:.0f} ms: "
          f"{'the same' if same else 'DIFFERENT'}")
    return same


def main():
    if sys.argv[1] == "--all":
        sys.exit(0 if all([all_cpus(f) for f in sys.argv[2:]]) else 1)
    if sys.argv[1] == "--runs":
        runs(sys.argv[2])
        return
    d = sys.argv[1]
    key = sys.argv[2] if len(sys.argv) > 2 else "p99"
    thr_us = float(sys.argv[3]) if len(sys.argv) > 3 else 30
    thr_pct = float(sys.argv[4]) if len(sys.argv) > 4 else 20
    aa = aa_over = checked = 0
    hog = {}
    # as compare-calibration.sh pairs them with K = 1: NEW A1 or a hog run,
    # BASE the A2 of the block, or of the ((b - 1) mod number)-th A block
    a2s = sorted(glob.glob(os.path.join(d, "b*-a2.json")),
                 key=lambda f: int(os.path.basename(f)[1:].split("-")[0]))
    pairs = []
    for a2 in a2s:
        a1 = a2[:-len("-a2.json")] + "-a1.json"
        if os.path.exists(a1):
            pairs.append(("aa", a2, a1))
    for h in glob.glob(os.path.join(d, "b*-h*.json")) + glob.glob(os.path.join(d, "b*-fh*.json")):
        name = os.path.basename(h)
        blk = int(name[1:].split("-")[0])
        pairs.append(("hog " + name.split("-")[1][:-5], a2s[(blk - 1) % len(a2s)], h))
    for kind, b, f in pairs:
        base = cells(b, key)
        checked += 1
        if True:
            new = cells(f, key)
            over = any(new[k] - base[k] > max(thr_us * 1000, thr_pct / 100 * base[k])
                       for k in base if k in new)
            if kind == "aa":
                aa += 1
                aa_over += over
            else:
                n, o = hog.get(kind, (0, 0))
                hog[kind] = (n + 1, o + over)
    print(f"  {key} of every CPU context: the document's equals its buckets' "
          f"(else a line above), {checked} pairs")
    print(f"  A/A pairs {aa}, a {key} rise past {thr_us:g} us and {thr_pct:g}%: {aa_over}")
    for kind in sorted(hog):
        n, o = hog[kind]
        print(f"  {kind}: pairs {n}, a {key} rise past both thresholds: {o}")


if __name__ == "__main__":
    main()
