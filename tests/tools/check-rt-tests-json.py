#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# check-rt-tests-json.py - read a --json-format rt-tests document the way the
# CI harnesses read cyclictest's (peers.md sections 1.5 and 2.13), and print
# what they would report, so that a test compares it with tlat's text:
#  - Linaro's automated/lib/parse_rt_tests_results.py: int(num_threads);
#    thread[str(i)] (or its "receiver") for i in range(num_threads), its
#    min, avg and max printed as "t<i>-<key>-latency pass <value> us";
#    num_irqs/irq if present; int(return_code) for "<test> pass|fail";
#  - readers of the cyclictest schema (e.g. serde structs that deny unknown
#    fields): the literal keys "cmdline:" and "rt_test_version:", sysinfo's
#    uname fields and realtime, resolution_in_ns, each thread's cycles, min,
#    max, avg, cpu, node and optional histogram of string keys.
# Usage: check-rt-tests-json.py FILE [TESTNAME]; exit 1 if a field is missing.
import sys

import tooljson

HEADER = ["file_version", "cmdline:", "rt_test_version:", "start_time", "end_time",
          "return_code", "sysinfo", "num_threads", "resolution_in_ns", "thread"]
SYSINFO = ["sysname", "nodename", "release", "version", "machine", "realtime"]
THREAD = {"histogram", "cycles", "min", "max", "avg", "cpu", "node"}


def check(doc):
    assert list(doc) == HEADER, f"top-level keys {list(doc)}"
    assert doc["file_version"] == 1
    assert isinstance(doc["cmdline:"], str) and isinstance(doc["rt_test_version:"], str)
    assert list(doc["sysinfo"]) == SYSINFO, f"sysinfo keys {list(doc['sysinfo'])}"
    assert doc["sysinfo"]["realtime"] in (0, 1)
    assert doc["resolution_in_ns"] in (0, 1)
    assert sorted(doc["thread"], key=int) == [str(i) for i in range(int(doc["num_threads"]))]
    for t in doc["thread"].values():
        assert set(t) <= THREAD and THREAD - {"histogram"} <= set(t), f"thread keys {list(t)}"
        for k in ("cycles", "min", "max", "cpu", "node"):
            assert isinstance(t[k], int), f"{k} is not an int"
        assert isinstance(t["avg"], (int, float))
        for k, v in t.get("histogram", {}).items():
            assert str(int(k)) == k and isinstance(v, int) and v > 0, f"bucket {k}: {v}"


def linaro(doc, testname):
    # automated/lib/parse_rt_tests_results.py, parse_json()
    lines = []
    if "num_threads" in doc:
        for thread_id in range(int(doc["num_threads"])):
            tid = str(thread_id)
            data = doc["thread"][tid].get("receiver", doc["thread"][tid])
            for key in ["min", "avg", "max"]:
                lines.append("t{}-{}-latency pass {} us".format(tid, key, data[key]))
    if "num_irqs" in doc:
        for irq_id in range(int(doc["num_irqs"])):
            data = doc["irq"][str(irq_id)]
            for key in ["min", "avg", "max"]:
                lines.append("i{}-{}-latency pass {} us".format(irq_id, key, data[key]))
    lines.append("{} {}".format(testname, "pass" if int(doc["return_code"]) == 0 else "fail"))
    return lines


def main():
    doc = tooljson.load(sys.argv[1])
    try:
        check(doc)
    except (AssertionError, KeyError, ValueError, TypeError) as e:
        print(f"{sys.argv[1]}: not what rt-tests readers expect: {e!r}")
        return 1
    print("\n".join(linaro(doc, sys.argv[2] if len(sys.argv) > 2 else "tlat")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
