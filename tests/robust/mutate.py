#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
tests/robust/mutate.py - tlat report of damaged recordings: each of N
mutations of real recordings (bytes flipped, zeroed or truncated, in the
headers and in the CPU data) must end in time with exit 0, 1 or 2, never a
signal, and an exit 1 with exactly one line on stderr.

Usage: tests/robust/mutate.py [-n N] [-s SEED] [-t SECONDS] [--tlat PATH]
                              [--keep DIR] RECORDING.dat[.xz]...
Prints TAP; exits 1 if any mutation fails, 0 otherwise.
"""
import argparse
import lzma
import os
import random
import re
import subprocess
import sys
import tempfile
import time


def load(path):
    if path.endswith(".xz"):
        with lzma.open(path) as f:
            return f.read()
    with open(path, "rb") as f:
        return f.read()


def mutate(data, rng):
    """one damage of a copy of data, and a description of it"""
    buf = bytearray(data)
    n = len(buf)
    # the headers (formats, options, CPU offsets) are in the first tens of
    # KiB: half the damage goes there, where the parsing is
    head = min(n, 256 * 1024)
    where = lambda: rng.randrange(head) if rng.random() < 0.5 else rng.randrange(n)
    kind = rng.choice(["flip", "flip", "zero", "ones", "truncate", "int"])
    if kind == "flip":
        k = rng.randint(1, 16)
        offs = [where() for _ in range(k)]
        for o in offs:
            buf[o] ^= 1 << rng.randrange(8)
        return bytes(buf), "flip %d bit(s) at %s" % (k, ",".join(map(str, offs[:4])))
    if kind in ("zero", "ones"):
        o = where()
        length = rng.choice([1, 4, 8, 64, 512, 4096])
        buf[o:o + length] = (b"\0" if kind == "zero" else b"\xff") * len(buf[o:o + length])
        return bytes(buf), "%s %d bytes at %d" % (kind, length, o)
    if kind == "int":
        # a size or offset made huge or negative
        o = where() & ~3
        val = rng.choice([0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x10000000])
        buf[o:o + 4] = val.to_bytes(4, "little")
        return bytes(buf), "int 0x%x at %d" % (val, o)
    o = where()
    return bytes(buf[:o]), "truncate at %d" % o


def sanitizer_report(lines):
    """None if no sanitizer reported; "library" if the report's first frame
    is in a shared library; else that frame"""
    if not any("ERROR: AddressSanitizer" in l or "ERROR: LeakSanitizer" in l or
               "runtime error:" in l for l in lines):
        return None
    # the first frame that is not the sanitizer's allocator
    for l in lines:
        m = re.search(r"#[0-9]+ 0x[0-9a-f]+ (in (\S+) )?", l)
        if not m or re.fullmatch(r"(__interceptor_\w+|malloc|calloc|realloc|strdup|free)",
                                 m.group(2) or ""):
            continue
        return "library" if re.search(r"/lib[^ ]*/lib(trace|json)[^/ ]*\.so", l) else l.strip()
    return "a report with no frame"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=25, help="mutations per recording")
    ap.add_argument("-s", type=int, default=None, help="seed")
    ap.add_argument("-t", type=float, default=20.0, help="seconds a run may take")
    ap.add_argument("--tlat", default="./tlat")
    ap.add_argument("--keep", help="keep failing files here")
    ap.add_argument("recordings", nargs="+")
    a = ap.parse_args()
    seed = a.s if a.s is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    print("# seed %d, %d mutations per recording" % (seed, a.n))
    tlat = os.path.realpath(a.tlat)
    work = tempfile.mkdtemp(prefix="tlat-mutate.")
    bad = total = 0
    counts = {}
    t0 = time.time()
    try:
        for rpath in a.recordings:
            data = load(rpath)
            name = os.path.basename(rpath)
            for i in range(a.n):
                mdata, what = mutate(data, rng)
                f = os.path.join(work, "m.dat")
                with open(f, "wb") as out:
                    out.write(mdata)
                total += 1
                start = time.time()
                try:
                    p = subprocess.run([tlat, "report", f], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, timeout=a.t)
                    rc, err = p.returncode, p.stderr.decode(errors="replace")
                except subprocess.TimeoutExpired:
                    rc, err = "timeout", ""
                took = time.time() - start
                counts[rc] = counts.get(rc, 0) + 1
                lines = err.splitlines()
                why = None
                san = sanitizer_report(lines)
                if san == "library":
                    # a build with sanitizers: they report a crash inside
                    # libtracecmd or libtraceevent (which the plain build's
                    # bounded child turns into one line): not tlat's code
                    counts["library"] = counts.get("library", 0) + 1
                    print("ok %d - %s: %s: # a sanitizer's report in a library" % (total, name, what))
                    continue
                if san:
                    why = "a sanitizer's report in tlat's code: " + san
                elif rc == "timeout":
                    why = "ran over %.0f s" % a.t
                elif rc < 0 or rc > 2:
                    why = "exit %d" % rc
                elif rc == 1 and len(lines) != 1:
                    why = "exit 1 with %d lines on stderr" % len(lines)
                elif rc != 1 and lines:
                    why = "exit %d with stderr" % rc
                if why:
                    bad += 1
                    print("not ok %d - %s: %s: %s (%.1f s)" % (total, name, what, why, took))
                    for l in lines[:12]:
                        print("# > " + l)
                    if a.keep:
                        os.makedirs(a.keep, exist_ok=True)
                        kp = os.path.join(a.keep, "%s.%d.dat" % (name, total))
                        with open(kp, "wb") as out:
                            out.write(mdata)
                        print("# kept as " + kp)
                else:
                    print("ok %d - %s: %s: exit %s%s" % (total, name, what, rc,
                                                        (": " + lines[0]) if lines else ""))
    finally:
        for fn in os.listdir(work):
            os.unlink(os.path.join(work, fn))
        os.rmdir(work)
    print("1..%d" % total)
    print("# %d mutations, %d failed, exits %s, %.0f s" %
          (total, bad, " ".join("%s:%d" % (k, v) for k, v in sorted(counts.items(), key=str)),
           time.time() - t0))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
