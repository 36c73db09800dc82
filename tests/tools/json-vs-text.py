#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# json-vs-text.py - check a --json document against the text output of the
# same run: every number the text shows must be the document's, converted
# the way the text converts it (ns truncated to the display unit).
# Usage: json-vs-text.py top|hist|aa|rt-tests-top|rt-tests-hist JSON TEXT
# Prints what it compared; exit 1 and the first difference on a mismatch.
import re
import sys

import tooljson

CTX = ["irq", "thread", "user"]
HIST_COL = {"IRQ": "irq", "Thr": "thread", "Usr": "user"}


class Mismatch(Exception):
    pass


def same(what, got, want):
    if got != want:
        raise Mismatch(f"{what}: document {got!r}, text {want!r}")


def shown(ns, div):
    return None if ns is None else ns // div


def text_value(v):
    return None if v == "-" else int(v)


def top(doc, text):
    div = 1 if doc["options"]["nano"] else 1000
    cpus = {c["cpu"]: c for c in doc["cpus"]}
    ctxs = doc["contexts"]
    rows = 0
    for line in text.splitlines():
        m = re.match(r"^\s*(\d+) #(\d+)\s*\|(.*)$", line)
        if m:
            cpu, count, rest = int(m[1]), int(m[2]), m[3]
            c = cpus[cpu]
            same(f"cpu {cpu} COUNT", c["irq"]["count"], count)
            for ctx, cols in zip(ctxs, rest.split("|")):
                _, mn, avg, mx = [text_value(v) for v in cols.split()]
                st = c[ctx]
                same(f"cpu {cpu} {ctx} min", shown(st["min"], div), mn)
                same(f"cpu {cpu} {ctx} avg", shown(st["avg"], div), avg)
                same(f"cpu {cpu} {ctx} max", shown(st["max"], div), mx)
            rows += 1
            continue
        m = re.match(r"^ALL #(\d+)\s+e(\d+) \|(.*)$", line)
        if m:
            count = sum(c["irq"]["count"] for c in doc["cpus"])
            same("ALL count", count // 10 ** int(m[2]), int(m[1]))
            for ctx, cols in zip(ctxs, m[3].split("|")):
                mn, avg, mx = [text_value(v) for v in cols.split()]
                st = doc["all"][ctx]
                same(f"ALL {ctx} min", shown(st["min"], div), mn)
                same(f"ALL {ctx} avg", shown(st["avg"], div), avg)
                same(f"ALL {ctx} max", shown(st["max"], div), mx)
    # the text hides CPUs that produced nothing; the document lists them with 0
    with_data = [c for c in doc["cpus"] if c["irq"]["count"] or c["thread"]["count"]]
    same("CPU rows", rows, len(with_data))
    return f"{rows} CPU rows and ALL"


def parse_hist(text):
    """columns [(ctx, cpu)], bucket rows {index: [counts]}, and the labelled rows"""
    cols, buckets, labelled, all_ctx, all_rows = None, {}, {}, None, {}
    for line in text.splitlines():
        f = line.split()
        if not f or line.startswith("#"):
            continue
        if f[0] == "Index":
            cols = [(HIST_COL[c[:3]], int(c[4:])) for c in f[1:]]
        elif f[0] == "ALL:":
            all_ctx = [HIST_COL[c] for c in f[1:]]
        elif f[0].endswith(":") and all_ctx:
            all_rows[f[0][:-1]] = [text_value(v) for v in f[1:]]
        elif f[0].endswith(":"):
            labelled[f[0][:-1]] = [text_value(v) for v in f[1:]]
        elif f[0].isdigit():
            buckets[int(f[0])] = [int(v) for v in f[1:]]
    return cols, buckets, labelled, all_ctx, all_rows


def hist(doc, text):
    div = 1 if doc["options"]["nano"] else 1000
    cpus = {c["cpu"]: c for c in doc["cpus"]}
    cols, buckets, labelled, all_ctx, all_rows = parse_hist(text)
    for i, (ctx, cpu) in enumerate(cols):
        st = cpus[cpu][ctx]
        want = {b: counts[i] for b, counts in buckets.items() if counts[i]}
        got = {b: n for b, n in st["histogram"]["buckets"]}
        same(f"cpu {cpu} {ctx} buckets", got, want)
        same(f"cpu {cpu} {ctx} over", st["histogram"]["over"], labelled["over"][i])
        same(f"cpu {cpu} {ctx} count", st["count"], labelled["count"][i])
        for row in ("min", "avg", "max"):
            same(f"cpu {cpu} {ctx} {row}", shown(st[row], div), labelled[row][i])
    for i, ctx in enumerate(all_ctx):
        st = doc["all"][ctx]
        same(f"ALL {ctx} count", st["count"], all_rows["count"][i])
        for row in ("min", "avg", "max"):
            same(f"ALL {ctx} {row}", shown(st[row], div), all_rows[row][i])
    return f"{len(cols)} columns, {len(buckets)} bucket rows, summary and ALL"


def us(ns):
    return f"{ns / 1000:.2f}"


def aa(doc, text):
    blocks = re.split(r"^## CPU (\d+) hit stop tracing, analyzing it ##\n", text, flags=re.M)
    results = {r["cpu"]: r for r in doc["auto_analysis"]["cpus"]}
    same("analysed CPUs", sorted(results), sorted(int(c) for c in blocks[1::2]))
    for cpu, block in zip(blocks[1::2], blocks[2::2]):
        r = results[int(cpu)]
        total = re.search(r"^ +(Thread|IRQ) latency: +([0-9.]+) us \(100%\)$", block, re.M)
        same(f"cpu {cpu} stop", r["stop"], total[1].lower())
        same(f"cpu {cpu} latency", us(r["latency_ns"]), total[2])
        m = re.search(r"^  IRQ handler delay: .* ([0-9.]+) us \(", block, re.M)
        same(f"cpu {cpu} IRQ handler delay", us(r["irq_handler_delay_ns"]), m[1])
        m = re.search(r"^  IRQ latency: +([0-9.]+) us$", block, re.M)
        same(f"cpu {cpu} IRQ latency", us(r["irq_latency_ns"]), m[1])
        m = re.search(r"^ +(\S+):(-?\d+)\s", block.split("Blocking thread", 1)[1].split("\n", 1)[1])
        bt = r["blocking_thread"]
        pid = -1 if bt["pid"] is None else bt["pid"]
        same(f"cpu {cpu} blocking thread", (bt["comm"], pid), (m[1], int(m[2])))
        if r["stop"] == "thread":
            m = re.search(r"^  Blocking thread: +([0-9.]+) us", block, re.M)
            same(f"cpu {cpu} blocking time", us(bt["ns"]), m[1])
            m = re.search(r"^  Timerlat IRQ duration: +([0-9.]+) us", block, re.M)
            same(f"cpu {cpu} timer IRQ", us(r["timer_irq_ns"] or 0), m[1])
            # --aa-extras only
            m = re.search(r"^  Not in the lines with a share: +(-?[0-9.]+) us", block, re.M)
            if m:
                same(f"cpu {cpu} unexplained", f"{r['unexplained_ns'] / 1000:.2f}", m[1])
            for cls, title in (("irq", "IRQ"), ("softirq", "Softirq"), ("thread", "Thread")):
                m = re.search(rf"^  {title} interference +([0-9.]+) us \(", block, re.M)
                part = r["interference"][cls]
                same(f"cpu {cpu} {cls} interference",
                     us(part["ns"]) if part["ns"] else None, m and m[1])
                if not m:
                    continue
                # rtla's lines: one per occurrence, up to the next class or the dashes
                rest = block[m.end():].split("\n", 1)[1]
                occ = []
                for line in rest.splitlines():
                    o = re.match(r"^  +(\S+):(-?\d+) +([0-9.]+) us$", line)
                    if not o:
                        break
                    occ.append((o[1], int(o[2]), o[3]))
                want = [(x["name"], x["id"], us(x["ns"])) for x in part["occurrences"]]
                same(f"cpu {cpu} {cls} occurrences", occ[:len(want)], want)
        # --stack-format truncate: the text stops at the first frame without a symbol
        syms = []
        for frame in r["stack"]:
            if frame["symbol"] is None:
                break
            syms.append(frame["symbol"])
        same(f"cpu {cpu} stack", syms, re.findall(r"^ {16}-> (\S+)$", block, re.M))
    m = re.search(r"^Max timerlat IRQ latency from idle: ([0-9.]+) us in cpu (\d+)$", text, re.M)
    idle = doc["auto_analysis"]["max_idle_exit"]
    same("max idle exit", idle and (us(idle["latency_ns"]), idle["cpu"]), m and (m[1], int(m[2])))
    # --dump-tasks: "    [%.3d] %24s:%d" lines, as rtla prints them, and a
    # kworker's " kworker:WORK:FUNCTION" (WORK "<...>" without a symbol,
    # FUNCTION its address without one)
    def kworker(k):
        if k is None:
            return None
        return (k["work"]["symbol"] or "<...>", k["function"]["symbol"] or k["function"]["address"])
    tasks = doc["auto_analysis"].get("tasks")
    text_tasks = [(int(c), comm, int(pid), (work, func) if func else None)
                  for c, comm, pid, work, func in
                  re.findall(r"^    \[(\d{3})\] +(.*?):(-?\d+)(?: kworker:(.*):(\S+))?$",
                             text, re.M)]
    same("dump tasks", None if tasks is None else
         [(t["cpu"], t["comm"], t["pid"], kworker(t["kworker"])) for t in tasks],
         text_tasks if "Printing CPU tasks:" in text else None)
    return f"{len(results)} analysed CPU(s)"


def rttests(doc, text, mode):
    """thread i is the i-th CPU the text shows; its values are the Thr ones"""
    if mode == "hist":
        cols, buckets, labelled, _, _ = parse_hist(text)
        thr = [(cpu, i) for i, (ctx, cpu) in enumerate(cols) if ctx == "thread"]
        rows = {cpu: {k: labelled[k][i] for k in ("count", "min", "avg", "max")}
                for cpu, i in thr}
        hists = {cpu: {str(b): c[i] for b, c in buckets.items() if c[i]} for cpu, i in thr}
    else:
        rows, hists = {}, None
        for line in text.splitlines():
            m = re.match(r"^\s*(\d+) #(\d+)\s*\|(.*)$", line)
            if m:
                _, mn, avg, mx = [text_value(v) for v in m[3].split("|")[1].split()]
                rows[int(m[1])] = {"count": None, "min": mn, "avg": avg, "max": mx}
    same("num_threads", doc["num_threads"], len(rows))
    for i, cpu in enumerate(sorted(rows)):
        t, want = doc["thread"][str(i)], rows[cpu]
        same(f"thread {i} cpu", t["cpu"], cpu)
        same(f"thread {i} min", t["min"], want["min"])
        same(f"thread {i} max", t["max"], want["max"])
        if want["count"] is not None:
            same(f"thread {i} cycles", t["cycles"], want["count"])
        # the text truncates the mean, cyclictest's avg rounds it to 0.01
        if not 0 <= t["avg"] - want["avg"] < 1.005:
            raise Mismatch(f"thread {i} avg: document {t['avg']}, text {want['avg']}")
        if hists is not None:
            same(f"thread {i} histogram", t["histogram"], hists[cpu])
    return f"{len(rows)} threads"


def main():
    mode, doc_path, text_path = sys.argv[1:4]
    doc = tooljson.load(doc_path)
    with open(text_path) as f:
        text = f.read()
    checks = {"top": top, "hist": hist, "aa": aa,
              "rt-tests-top": lambda d, t: rttests(d, t, "top"),
              "rt-tests-hist": lambda d, t: rttests(d, t, "hist")}
    try:
        print(f"# compared {checks[mode](doc, text)}")
    except (Mismatch, KeyError, TypeError, IndexError, ValueError) as e:
        print(f"# {mode}: {e!r}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
