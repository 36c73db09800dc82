#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# report-rate.sh - how fast tlat report analyses a recording: this tree's
# tlat against BASE's (main by default, built from git into a temporary
# directory) and against trace-cmd report, on the same recordings, side by
# side and alternating in one invocation: events a second of CPU time, on
# one core (all three read a trace.dat in one thread).
#
# The recordings: tlat record of the tracepoint source at 100 us on all
# CPUs, one for each length in RECORD_S (seconds), made twice: by this
# tree's tlat and by BASE's (a recording holds the formats its tlat record
# wrote: every event of the kernel before 2026-11-26, its own systems'
# since). Four reports of each length:
#   base       BASE's tlat report of BASE's recording (before)
#   tlat       this tree's tlat report of this tree's recording (after)
#   tlat-old   this tree's tlat report of BASE's recording (the same file
#              as base: an older recording, read by this tree)
#   trace-cmd  trace-cmd report of this tree's recording
# Each recording's events are counted apart from the timings: the lines
# trace-cmd report prints, one a record, and the "processed" of each tlat's
# JSON. The two recordings of a length differ in events (two runs), so the
# ratios are of rates (events per CPU second), not of times.
#
# Each report's CPU time is read by two independent methods (bench/lib.sh's
# cpu_of): its rusage (user + sys, from wait4, the children it reaped
# included) and its cgroup's (usage_usec of cpu.stat of a cgroup v2 made
# for the run, which the command enters before its exec: every task of it,
# whoever reaps them). tlat report reads the file in a sandboxed child; both
# count it. The scheduler's sum_exec_runtime of the command's own task
# (/proc/PID/schedstat, read after it exited and before it is reaped) and
# the tick's utime + stime are printed too: for trace-cmd, one thread, they
# are its time again; for tlat, the parent's alone. The wall time
# (CLOCK_MONOTONIC around the command) is a third check: on a machine with
# nothing else running, a one-thread command's wall time is its CPU time,
# and the ratios by wall time must match those by CPU time; on a busy one
# they do not, and the run says so.
#
# Two figures come out: events per CPU second of the whole command (its
# fixed cost included: libtracecmd reads the recording's event formats and
# kallsyms when it opens a file), and the rate of the analysis alone, from
# the two lengths: (events of the long one - of the short one) / (CPU of
# the long - of the short), medians.
#
# Usage: bench/report-rate.sh [path/to/tlat]   (as root, under the machine's
#   lock; results on stdout). RECORD_S="10 60", REPS=3, BASE=main by default.
set -eu
cd "$(dirname "$0")/.."

. bench/lib.sh

RECORD_S=${RECORD_S:-10 60}
BASE=${BASE:-main}
W=$(mktemp -d /tmp/tlat-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT

base_rev=$(git rev-parse --short "$BASE")
mkdir "$W/base"
git archive "$BASE" | tar -x -C "$W/base"
make -C "$W/base" -j"$NCPU" tlat > "$W/base-build.log" 2>&1 ||
	{ cat "$W/base-build.log" >&2; echo "cannot build $BASE's tlat" >&2; exit 1; }
BASE_TLAT=$W/base/tlat

processed() {
	"$1" report "$2" --json - | python3 -c 'import json, sys
print(json.load(sys.stdin)["events"]["processed"])'
}

TOOLS="base tlat tlat-old trace-cmd"
# rec_of TOOL: whose recording it reports
rec_of() {
	case $1 in
	tlat|trace-cmd) echo tlat ;;
	*) echo base ;;
	esac
}

machine_line
# the binary as the caller gave it: lib.sh made $TLAT absolute, which would
# write the caller's directories into the results
echo "# this tree: $(git describe --always --dirty), ${1:-./tlat}; base: $BASE ($base_rev), built from git"
declare -A events
for s in $RECORD_S; do
	for who in base tlat; do
		f=$W/rec-$who-$s.dat
		case $who in
		base) rec=$BASE_TLAT ;;
		tlat) rec=$TLAT ;;
		esac
		"$rec" record -o "$f" --source tracepoints -p 100 -d "$s" -q > /dev/null
		# trace-cmd prints one line a record, after a header of "cpus=N" and
		# the version line
		events[$who,$s]=$(trace-cmd report "$f" 2> /dev/null |
			grep -vc '^\(cpus=\|version = \|CPU [0-9]* is empty\)')
		echo "# recording ${s}s by $who: $who's tlat record --source tracepoints -p 100 -d $s -q," \
			"$(stat -c %s "$f") bytes, $(trace-cmd dump --events "$f" 2> /dev/null |
			grep -c '^name: ') event formats besides ftrace's;" \
			"events: ${events[$who,$s]} lines of trace-cmd report, $(processed "$TLAT" "$f")" \
			"processed by this tree's tlat report's JSON, $(processed "$BASE_TLAT" "$f") by base's"
	done
done
echo "# base: base's tlat report of base's recording; tlat: this tree's of its recording;"
echo "# tlat-old: this tree's of base's recording; trace-cmd: trace-cmd report of this tree's;"
echo "# output to /dev/null"
echo "# cpu: rusage user + sys; cg: the run's cgroup's usage_usec; sched: sum_exec_runtime"
echo "# of the command's task; tick: its utime + stime; events / s of cpu and of cg"
printf "%-10s %-4s %-4s %9s %9s %9s %9s %9s %13s %13s\n" tool rec rep "cpu s" "cg s" "sched s" \
	"tick s" "wall s" "events/cpu s" "ev/cg s"
for rep in $(seq 1 "$REPS"); do
	for s in $RECORD_S; do
		for tool in $TOOLS; do
			f=$W/rec-$(rec_of $tool)-$s.dat
			case $tool in
			base) cmd=("$BASE_TLAT" report "$f") ;;
			tlat|tlat-old) cmd=("$TLAT" report "$f") ;;
			trace-cmd) cmd=(trace-cmd report "$f") ;;
			esac
			read -r cpu cg sched tick wall < <(cpu_of "${cmd[@]}")
			awk -v t=$tool -v s="${s}s" -v rep=$rep -v c=$cpu -v g=$cg -v sc=$sched \
				-v tk=$tick -v w=$wall -v e="${events[$(rec_of $tool),$s]}" 'BEGIN {
				printf "%-10s %-4s %-4s %9.3f %9.3f %9.3f %9.3f %9.3f %13.0f %13.0f\n",
					t, s, rep, c / 1e9, g / 1e9, sc / 1e9, tk / 1e9, w / 1e9,
					e / (c / 1e9), e / (g / 1e9) }'
		done
	done
done | tee "$W/runs"

# rate_ratio A B MEDIANS: (events per second of A) / (of B), at length $s,
# with the times of the array MEDIANS (med_cpu or med_wall)
rate_ratio() {
	local -n med=$3

	awk -v ea="${events[$(rec_of "$1"),$s]}" -v eb="${events[$(rec_of "$2"),$s]}" \
		-v ta="${med[$1,$s]}" -v tb="${med[$2,$s]}" \
		'BEGIN { printf "%.2f", (ea / ta) / (eb / tb) }'
}

echo
echo "# medians of $REPS; ratios of events per CPU second: tlat / base, tlat / trace-cmd,"
echo "# tlat-old / base (one file, two readers); then the same by the cgroup's CPU time,"
echo "# and by wall time, a clock apart from the scheduler's accounting"
printf "%-10s %-4s %9s %9s %13s %13s %13s\n" tool rec "cpu s" "cg s" "events/cpu s" "ev/cg s" \
	"ev/wall s"
declare -A med_cpu med_cg med_wall
for s in $RECORD_S; do
	for tool in $TOOLS; do
		cpu=$(median $(awk -v t=$tool -v s="${s}s" '$1 == t && $2 == s { printf "%.0f\n", $4 * 1e6 }' "$W/runs"))
		cg=$(median $(awk -v t=$tool -v s="${s}s" '$1 == t && $2 == s { printf "%.0f\n", $5 * 1e6 }' "$W/runs"))
		wall=$(median $(awk -v t=$tool -v s="${s}s" '$1 == t && $2 == s { printf "%.0f\n", $8 * 1e6 }' "$W/runs"))
		med_cpu[$tool,$s]=$cpu
		med_cg[$tool,$s]=$cg
		med_wall[$tool,$s]=$wall
		awk -v t=$tool -v s="${s}s" -v c=$cpu -v g=$cg -v w=$wall \
			-v e="${events[$(rec_of $tool),$s]}" 'BEGIN {
			printf "%-10s %-4s %9.3f %9.3f %13.0f %13.0f %13.0f\n", t, s, c / 1e6, g / 1e6,
				e / (c / 1e6), e / (g / 1e6), e / (w / 1e6) }'
	done
	echo "# ${s}s: tlat / base $(rate_ratio tlat base med_cpu)x," \
		"tlat / trace-cmd $(rate_ratio tlat trace-cmd med_cpu)x," \
		"tlat-old / base $(rate_ratio tlat-old base med_cpu)x;" \
		"by the cgroup's $(rate_ratio tlat base med_cg)x, $(rate_ratio tlat trace-cmd med_cg)x," \
		"$(rate_ratio tlat-old base med_cg)x;" \
		"by wall time $(rate_ratio tlat base med_wall)x, $(rate_ratio tlat trace-cmd med_wall)x," \
		"$(rate_ratio tlat-old base med_wall)x"
done
read -r short long < <(echo $RECORD_S)
if [ -n "${long:-}" ]; then
	echo "# the analysis alone, from ${short}s to ${long}s: events / CPU s (rusage; cgroup)"
	for tool in $TOOLS; do
		for m in med_cpu med_cg; do
			c0_of=$m[$tool,$short]
			c1_of=$m[$tool,$long]
			awk -v t=$tool -v m=${m#med_} -v e0="${events[$(rec_of $tool),$short]}" \
				-v e1="${events[$(rec_of $tool),$long]}" \
				-v c0="${!c0_of}" -v c1="${!c1_of}" 'BEGIN {
				printf "%-10s %-4s %13.0f   (fixed cost %.3f s)\n", t, m,
					(e1 - e0) / ((c1 - c0) / 1e6),
					c0 / 1e6 - e0 / ((e1 - e0) / ((c1 - c0) / 1e6)) }'
		done
	done
fi
