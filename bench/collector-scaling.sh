#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# collector-scaling.sh - tlat's own user-space CPU time per second as a
# function of CPUs x rate, for each collector (trace and kernel) of the
# tracepoint source: the collector, which reads what the kernel hands over
# (tlat's main thread), apart from the measuring threads, whose cost is the
# measurement itself and grows with the rate whatever collects.
#
# Per run, between t = 1 s and DURATION-1 s:
# - collector: the main thread's on-CPU ns per second (schedstat, the
#   scheduler's sum_exec_runtime), beside perf's task-clock of the same
#   thread over the same window (perf stat --per-thread -t): perf's own
#   event time accounting, an independent method (utime + stime is not one:
#   the kernel scales it to sum_exec_runtime);
# - threads: every other thread of tlat, the same two ways;
# - events/s: what the collector handled (the JSON's events.processed over
#   the whole run, per second: trace events, or activations' samples).
# Medians of REPS runs, the collectors alternating. The claim checked: the
# kernel collector's cost does not grow with the rate, where the trace
# collector's does.
#
# Usage: bench/collector-scaling.sh [path/to/tlat]   (as root; on stdout)
#   PERIODS="1000 500 200 100" CPUSETS="0 0-1" DURATION=12 REPS=3
set -eu
cd "$(dirname "$0")/.."

. bench/lib.sh

command -v perf > /dev/null || { echo "collector-scaling.sh: needs perf (Debian: linux-perf)" >&2; exit 1; }

PERIODS=${PERIODS:-1000 500 200 100}
CPUSETS=${CPUSETS:-0 0-$((NCPU - 1))}
COLLECTORS=(trace kernel)

# thread_ns PID TID: on-CPU ns of one thread (schedstat)
thread_ns() {
	awk '{ printf "%.0f\n", $1 }' /proc/$1/task/$2/schedstat 2>/dev/null || echo 0
}

# perf_ns FILE PID: from perf stat -x, --per-thread output, "main others":
# the task-clock ns of thread PID and of all the other threads listed
perf_ns() {
	awk -F, -v pid="$2" '$4 == "task-clock" {
		n = split($1, a, "-"); v = ($2 ~ /^[0-9.]+$/) ? $2 * 1e6 : 0
		if (a[n] == pid) m += v; else o += v
	} END { printf "%.0f %.0f\n", m, o }' "$1"
}

# measure COLLECTOR CPUS PERIOD: "collector perf threads perf ev/s",
# ns per second of the window (threads: all tlat's tasks but the main one)
measure() {
	local json pf pid tids c0 c1 a0 a1 pc pt ev
	json=$(mktemp)
	pf=$(mktemp)
	"$TLAT" top --source tracepoints --collector "$1" -c "$2" -p "$3" -d "$DURATION" -q \
		--json "$json" > /dev/null 2>&1 &
	pid=$!
	sleep 1
	tids=$(ls /proc/$pid/task | paste -sd, -)
	c0=$(thread_ns $pid $pid)
	a0=$(task_ns $pid)
	perf stat --per-thread -e task-clock -x, -o "$pf" -t "$tids" -- sleep "$WINDOW"
	c1=$(thread_ns $pid $pid)
	a1=$(task_ns $pid)
	read -r pc pt < <(perf_ns "$pf" $pid)
	wait $pid
	ev=$(jq .events.processed "$json")
	rm -f "$json" "$pf"
	awk -v c=$((c1 - c0)) -v a=$((a1 - a0)) -v pc="$pc" -v pt="$pt" \
		-v w="$WINDOW" -v ev="${ev:-0}" -v d="$DURATION" 'BEGIN {
			printf "%.0f %.0f %.0f %.0f %.0f\n", c / w, pc / w, (a - c) / w,
				pt / w, ev / d }'
}

row() {
	printf "%-5s %-7s %-7s %-6s %10s %10s %10s %10s %10s\n" "$@"
}

machine_line
echo "# window ${WINDOW} s per run, $REPS repetitions, collectors alternating"
echo "# tlat top --source tracepoints --collector C -c CPUS -p PERIOD -d $DURATION -q --json F"
echo "# collector: tlat's main thread, ns of CPU per s (schedstat); perf: the same by"
echo "# perf's task-clock; threads: the measuring threads, likewise; ev/s: events processed"
row cpus period coll rep collector perf threads perf ev/s
for cpus in $CPUSETS; do
	for period in $PERIODS; do
		declare -A fig=()
		for rep in $(seq 1 "$REPS"); do
			for c in "${COLLECTORS[@]}"; do
				read -r col pcol thr pthr ev < <(measure "$c" "$cpus" "$period")
				row "$cpus" "${period}us" "$c" "$rep" "$col" "$pcol" "$thr" "$pthr" "$ev"
				fig[$c]+="$col $pcol $thr $pthr $ev;"
			done
		done
		for c in "${COLLECTORS[@]}"; do
			for i in 1 2 3 4 5; do
				med[$i]=$(median $(echo "${fig[$c]}" | tr ';' '\n' |
					awk -v i=$i 'NF { print $i }'))
			done
			row "$cpus" "${period}us" "$c" median "${med[1]}" "${med[2]}" "${med[3]}" \
				"${med[4]}" "${med[5]}"
		done
		unset fig
	done
done
