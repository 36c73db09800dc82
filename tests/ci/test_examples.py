#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The CI examples in ci/ parse, validate, and do what they say.

Each YAML file parses; the LAVA test definition and job pass LAVA's own
schemas (Debian's lava-common; a broken copy must fail them); the GitLab job
and the GitHub workflow have their runner, artifacts and JUnit report. Then
their commands run, in a scratch directory, with stand-ins on PATH for what
needs a runner: tlat hist writes a recorded tlat/1.1 document (no tracing),
curl and gh fetch a baseline or fail, lava-test-case logs its arguments.
tlat compare is the real one: an A/A-like pair must pass (exit 0, JUnit
written), a regressed pair must fail with exit status 2, and no baseline
must pass without comparing.

usage: tests/ci/test_examples.py [--tlat ./tlat]
Runs with Debian's python3 (lava-common's modules live in its dist-packages).
"""
import argparse
import copy
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml
from lava_common.schemas import validate as lava_validate_job
from lava_common.schemas.test.testdef import validate as lava_validate_testdef

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(TOP, "tests/golden/expected")
# tlat compare's verdicts on these recordings: timerlat-6.1 -> timerlat-6.12
# no change, module-6.1 -> timerlat-6.12 a regression (all CPUs' irq p99)
PASS_BASE, FAIL_BASE, NEW = "timerlat-6.1", "module-6.1", "timerlat-6.12"

SHIMS = {
    "tlat": """#!/bin/sh
# hist: the recorded document as its --json, and its exit status
if [ "$1" = hist ]; then
	while [ $# -gt 0 ]; do [ "$1" = --json ] && cp "$FIX_NEW" "$2"; shift; done
	echo "(tlat hist stand-in)"
	exit 0
fi
exec "$TLAT_REAL" "$@"
""",
    "sudo": '#!/bin/sh\nexec "$@"\n',
    # curl -o FILE ... URL: the baseline if there is one, else a 404
    "curl": """#!/bin/sh
echo "curl $*" >> "$SHIM_LOG"
[ -n "${FIX_BASE:-}" ] || exit 22
while [ $# -gt 0 ]; do [ "$1" = -o ] && cp "$FIX_BASE" "$2"; shift; done
""",
    # gh run list -> a run id; gh run download ID --name N --dir D -> D/new.json
    "gh": """#!/bin/sh
echo "gh $*" >> "$SHIM_LOG"
[ -n "${FIX_BASE:-}" ] || { [ "$2" = list ] && exit 0; exit 1; }
[ "$2" = list ] && { echo 4242; exit 0; }
while [ $# -gt 0 ]; do
	[ "$1" = --dir ] && mkdir -p "$2" && cp "$FIX_BASE" "$2/new.json"; shift
done
""",
    "lava-test-case": '#!/bin/sh\necho "$*" >> "$LAVA_LOG"\n',
}

failures = 0


def check(cond, what):
    global failures
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures += 1


def load(path):
    with open(os.path.join(TOP, path)) as f:
        return yaml.safe_load(f)


def fixture(tmp, name):
    """A recorded tlat hist --json document, without the golden file's
    trailing "exit N" line."""
    out = os.path.join(tmp, name + ".json")
    with open(os.path.join(GOLDEN, name + ".json-hist")) as f:
        text = re.sub(r"\nexit \d+\n?$", "\n", f.read())
    with open(out, "w") as f:
        f.write(text)
    return out


def rejects(validator, doc):
    try:
        validator(doc)
    except Exception:  # voluptuous.Invalid and its kin
        return True
    return False


def check_lava():
    testdef = load("ci/lava/tlat.yaml")
    job = load("ci/lava/job-qemu.yaml")
    lava_validate_testdef(testdef)
    check(True, "ci/lava/tlat.yaml passes lava-common's test definition schema")
    lava_validate_job(job, strict=True)
    check(True, "ci/lava/job-qemu.yaml passes lava-common's job schema")
    bad = copy.deepcopy(testdef)
    bad["metadata"]["format"] = "Lava-Test Test Definition 2.0"
    check(rejects(lava_validate_testdef, bad), "a broken test definition is refused")
    bad = copy.deepcopy(job)
    bad["actions"][2]["test"]["definitions"][0]["from"] = "svn"
    check(rejects(lambda d: lava_validate_job(d, strict=True), bad),
          "a broken job is refused")
    defs = [a["test"] for a in job["actions"] if "test" in a][0]["definitions"]
    check(defs[0]["path"] == "ci/lava/tlat.yaml", "the job runs ci/lava/tlat.yaml")
    check(set(defs[0]["parameters"]) <= set(testdef["params"]),
          "the job's parameters are the definition's")
    return testdef


def run_script(lines, cwd, env, shell=("bash", "-eo", "pipefail")):
    script = "\n".join(lines) + "\n"
    p = subprocess.run(list(shell) + ["-c", script], cwd=cwd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def run_cases(ci, tmp, env, run):
    """A job's commands, by run(DIR, ENV) -> (exit status, output), with no
    baseline, a baseline fetched from the last run (FIX_BASE: the curl and gh
    stand-ins), and one kept in the project (TLAT_BASELINE) that regressed."""
    cases = (("no baseline", None, False, 0), ("artifact baseline", PASS_BASE, False, 0),
             ("kept baseline, regressed", FAIL_BASE, True, 2))
    for what, base, kept, want in cases:
        d = os.path.join(tmp, ci + "-" + what.replace(" ", "-").replace(",", ""))
        os.makedirs(d)
        e = dict(env)
        if base and kept:
            os.makedirs(os.path.join(d, "ci"))
            shutil.copy(fixture(tmp, base), os.path.join(d, env["TLAT_BASELINE"]))
        elif base:
            e["FIX_BASE"] = fixture(tmp, base)
        rc, out = run(d, e)
        check(rc == want, "%s, %s: exit status %d (want %d)" % (ci, what, rc, want))
        new = os.path.join(d, "tlat-out/new.json")
        check(os.path.exists(new) and os.path.getsize(new) > 0,
              "%s, %s: tlat-out/new.json kept" % (ci, what))
        check(os.path.exists(os.path.join(d, "tlat-out/compare.xml")) == (base is not None),
              "%s, %s: JUnit %s" % (ci, what, "written" if base else "not written"))
        if rc != want:
            print(out)


def check_lava_run(testdef, tmp, env):
    """tlat.yaml's run steps, as LAVA's shell runs them: its params as
    shell variables, from the repository's top."""
    for base, want in ((None, 0), (PASS_BASE, 0), (FAIL_BASE, 2)):
        d = os.path.join(tmp, "lava-%s" % base)
        os.makedirs(d)
        os.symlink(os.path.join(TOP, "ci"), os.path.join(d, "ci"))
        e = dict(env, LAVA_LOG=os.path.join(d, "lava.log"))
        params = dict(testdef["params"], DURATION="1s",
                      BASELINE=fixture(tmp, base) if base else "")
        lines = ["%s=%s" % (k, shlex_quote(str(v))) for k, v in params.items()]
        rc, out = run_script(lines + testdef["run"]["steps"], d, e, shell=("sh", "-e"))
        log = open(e["LAVA_LOG"]).read() if os.path.exists(e["LAVA_LOG"]) else ""
        what = "LAVA steps, baseline %s" % (base or "none")
        check(rc == 0, what + ": the steps end well (exit status %d)" % rc)
        check("tlat-hist --result pass" in log, what + ": tlat-hist pass")
        check(re.search(r"^cpu0-thread-max-latency --result pass --measurement [0-9.]+ --units us$",
                        log, re.M) is not None, what + ": cpu0-thread-max-latency in us")
        if base is None:
            check("tlat-compare" not in log, what + ": nothing compared")
            continue
        verdict = "pass" if want == 0 else "fail"
        check("tlat-compare --result %s" % verdict in log, what + ": tlat-compare " + verdict)
        check(("compare-all-irq --result %s" % verdict) in log,
              what + ": compare-all-irq " + verdict)
        check(("exit status %d" % want in out) if want else "exit status" not in out,
              what + ": tlat-lava.sh's exit status %d" % want)
        check(os.path.exists(os.path.join(d, "output/compare.xml")), what + ": JUnit written")
    if failures:
        print(out)


def shlex_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def check_gitlab(tmp, env):
    ci = load("ci/examples/gitlab-ci.yml")
    job = ci["tlat"]
    check("rt" in job["tags"], "GitLab: the job runs on the rt runner")
    check(job["artifacts"]["when"] == "always" and "tlat-out/" in job["artifacts"]["paths"],
          "GitLab: tlat-out/ kept, even when the job fails")
    check(job["artifacts"]["reports"]["junit"] == "tlat-out/compare.xml",
          "GitLab: the JUnit report is published")
    genv = {**env, **{k: str(v) for k, v in ci["variables"].items()},
            "TLAT_DURATION": "1s", "CI_JOB_TOKEN": "token",
            "CI_API_V4_URL": "https://gitlab.invalid/api/v4", "CI_PROJECT_ID": "7",
            "CI_DEFAULT_BRANCH": "main", "CI_JOB_NAME": "tlat"}
    run_cases("GitLab", tmp, genv, lambda d, e: run_script(job["script"], d, e))
    log = open(env["SHIM_LOG"]).read()
    check("jobs/artifacts/main/raw/tlat-out/new.json?job=tlat" in log,
          "GitLab: the baseline is the default branch's last tlat-out/new.json")


def gh_expr(expr, ctx):
    """The few ${{ }} expressions the workflow uses; any other fails."""
    expr = expr.strip()
    m = re.fullmatch(r"steps\.(\w+)\.outputs\.(\w+) != ''", expr)
    if m:
        return ctx["outputs"].get(m.group(1), {}).get(m.group(2), "") != ""
    m = re.fullmatch(r"steps\.(\w+)\.outputs\.(\w+)", expr)
    if m:
        return ctx["outputs"].get(m.group(1), {}).get(m.group(2), "")
    if expr in ctx["values"]:
        return ctx["values"][expr]
    raise ValueError("unknown expression " + expr)


def subst(s, ctx):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(gh_expr(m.group(1), ctx)), str(s))


def check_github(tmp, env):
    wf = load("ci/examples/github-workflow.yml")
    on = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare on as true
    check("pull_request" in on and "push" in on, "GitHub: runs on pushes and pull requests")
    job = wf["jobs"]["tlat"]
    check("self-hosted" in job["runs-on"] and "rt" in job["runs-on"],
          "GitHub: the job runs on the self-hosted rt runner")
    uses = {s.get("uses", "").split("@")[0]: s for s in job["steps"]}
    up = uses.get("actions/upload-artifact")
    check(up is not None and up["if"] == "always()" and up["with"]["path"] == "tlat-out/",
          "GitHub: tlat-out/ uploaded, even when the job fails")
    ju = uses.get("mikepenz/action-junit-report")
    check(ju is not None and ju["with"]["report_paths"] == "tlat-out/compare.xml",
          "GitHub: the JUnit report is published")
    shell = wf["defaults"]["run"]["shell"]
    check(shell == "bash", "GitHub: steps run in bash -eo pipefail")
    genv = {**env, **{k: str(v) for k, v in wf["env"].items()}, "TLAT_DURATION": "1s"}

    def run(d, e):
        ctx = {"outputs": {}, "values": {
            "github.token": "token", "github.workflow": "tlat",
            "github.event.repository.default_branch": "main"}}
        rc, out = 0, ""
        for step in job["steps"]:
            if "run" not in step:
                continue
            if "if" in step and not gh_expr(step["if"], ctx):
                continue
            out_file = os.path.join(d, "github_output")
            open(out_file, "w").close()
            se = dict(e, GITHUB_OUTPUT=out_file,
                      **{k: subst(v, ctx) for k, v in step.get("env", {}).items()})
            rc, out = run_script([subst(step["run"], ctx)], d, se)
            if "id" in step:
                ctx["outputs"][step["id"]] = dict(
                    line.split("=", 1) for line in open(out_file).read().splitlines())
            if rc:
                break
        return rc, out

    run_cases("GitHub", tmp, genv, run)
    log = open(env["SHIM_LOG"]).read()
    check("gh run list --workflow tlat --branch main --status success" in log,
          "GitHub: the baseline is the default branch's last successful run's")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tlat", default=os.path.join(TOP, "tlat"))
    args = ap.parse_args()
    tlat = os.path.abspath(args.tlat)
    if not os.access(tlat, os.X_OK):
        print("test_examples.py: no tlat at %s (make tlat)" % tlat, file=sys.stderr)
        return 1
    for root, _, files in os.walk(os.path.join(TOP, "ci")):
        for f in sorted(files):
            if f.endswith((".yml", ".yaml")):
                rel = os.path.relpath(os.path.join(root, f), TOP)
                check(load(rel) is not None, rel + " parses")
    testdef = check_lava()
    with tempfile.TemporaryDirectory(prefix="tlat-ci-") as tmp:
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        for name, text in SHIMS.items():
            with open(os.path.join(bindir, name), "w") as f:
                f.write(text)
            os.chmod(os.path.join(bindir, name), 0o755)
        env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"], TLAT_REAL=tlat,
                   FIX_NEW=fixture(tmp, NEW), SHIM_LOG=os.path.join(tmp, "shims.log"))
        env.pop("FIX_BASE", None)
        check_lava_run(testdef, tmp, env)
        check_gitlab(tmp, env)
        check_github(tmp, env)
    print("# ci examples: %s" % ("%d failed" % failures if failures else "all passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
