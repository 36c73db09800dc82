#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# report-rate.sh - how fast tlat report analyses a recording, against
# trace-cmd report of the same file, side by side and alternating in one
# invocation: events a second of CPU time, on one core (both read a
# trace.dat in one thread).
#
# The recording: tlat record of the tracepoint source at 100 us on all CPUs
# for RECORD_S seconds. Its events are counted twice: by tlat report's
# JSON ("processed") and by the lines trace-cmd report prints, one a record.
# Each report's CPU time is its rusage (bash's time: user + sys), crossed
# with its wall time (an idle machine, one thread: the two agree).
#
# Usage: bench/report-rate.sh [path/to/tlat]   (as root; results on stdout)
set -eu
cd "$(dirname "$0")/.."

. bench/lib.sh

RECORD_S=${RECORD_S:-10}
W=$(mktemp -d /tmp/tlat-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT

"$TLAT" record -o "$W/rec.dat" --source tracepoints -p 100 -d "$RECORD_S" -q > /dev/null
events=$("$TLAT" report "$W/rec.dat" --json - | python3 -c 'import json, sys
print(json.load(sys.stdin)["events"]["processed"])')
# trace-cmd prints one line a record, after a header of "cpus=N" and the
# version line
tc_events=$(trace-cmd report "$W/rec.dat" 2> /dev/null | grep -vc '^\(cpus=\|version = \|CPU [0-9]* is empty\)')

machine_line
echo "# recording: tlat record --source tracepoints -p 100 -d $RECORD_S -q, $(stat -c %s "$W/rec.dat") bytes"
echo "# events: $events by tlat report's JSON, $tc_events lines of trace-cmd report"
echo "# tlat: tlat report FILE; trace-cmd: trace-cmd report FILE; output to /dev/null"
printf "%-10s %-4s %10s %10s %14s %14s\n" tool rep "cpu s" "wall s" "events/cpu s" "events/wall s"
TIMEFORMAT='%U %S %R'
for rep in $(seq 1 "$REPS"); do
	for tool in tlat trace-cmd; do
		case $tool in
		tlat) cmd=("$TLAT" report "$W/rec.dat") ;;
		trace-cmd) cmd=(trace-cmd report "$W/rec.dat") ;;
		esac
		read -r u s r < <({ time "${cmd[@]}" > /dev/null 2>&1; } 2>&1)
		awk -v t=$tool -v rep=$rep -v u=$u -v s=$s -v r=$r -v e=$events 'BEGIN {
			printf "%-10s %-4s %10.3f %10.3f %14.0f %14.0f\n", t, rep, u + s, r,
				e / (u + s), e / r }'
	done
done
