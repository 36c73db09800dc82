#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# collector-scaling.sh - tlat's own user-space CPU time per second as a
# function of CPUs x rate, for each collector (trace and kernel) of the
# tracepoint source: the collector, which reads what the kernel hands over
# (tlat's main thread), apart from the measuring threads, whose cost is the
# measurement itself and grows with the rate whatever collects.
#
# Per run, between t = 1 s and DURATION-1 s:
# - collector: the main thread's on-CPU ns per second (schedstat), beside its
#   utime + stime (/proc/PID/task/PID/stat): the kernel scales those to the
#   same sum_exec_runtime, so they are a consistency check, not an
#   independent method;
# - threads: every other thread of tlat, the same way;
# - events/s: what the collector handled (the JSON's events.processed over
#   the whole run, per second: trace events, or activations' samples).
# Medians of REPS runs, the collectors alternating. The claim checked: the
# kernel collector's cost does not grow with the rate, where the trace
# collector's does.
#
# Usage: bench/collector-scaling.sh [path/to/tlat]   (as root; on stdout)
#   PERIODS="1000 500 200 100 50" CPUSETS="0 0-1" DURATION=12 REPS=3
set -eu
cd "$(dirname "$0")/.."

. bench/lib.sh

PERIODS=${PERIODS:-1000 500 200 100 50}
CPUSETS=${CPUSETS:-0 0-$((NCPU - 1))}
COLLECTORS=(trace kernel)

# thread_ns PID TID: on-CPU ns of one thread (schedstat)
thread_ns() {
	awk '{ printf "%.0f\n", $1 }' /proc/$1/task/$2/schedstat 2>/dev/null || echo 0
}

# thread_tick_ns PID TID: the same by the tick (utime + stime)
thread_tick_ns() {
	sed 's/.*) //' /proc/$1/task/$2/stat 2>/dev/null | awk -v hz="$(getconf CLK_TCK)" \
		'{ printf "%.0f\n", ($12 + $13) * 1e9 / hz }'
}

# measure COLLECTOR CPUS PERIOD: "collector tick threads threads_tick ev/s",
# ns per second of the window (threads: all tlat's tasks but the main one)
measure() {
	local json pid c0 c1 k0 k1 a0 a1 t0 t1 ev
	json=$(mktemp)
	"$TLAT" top --source tracepoints --collector "$1" -c "$2" -p "$3" -d "$DURATION" -q \
		--json "$json" > /dev/null 2>&1 &
	pid=$!
	sleep 1
	read -r c0 k0 a0 t0 < <(echo "$(thread_ns $pid $pid) $(thread_tick_ns $pid $pid)" \
		"$(task_ns $pid) $(task_tick_ns $pid)")
	sleep "$WINDOW"
	read -r c1 k1 a1 t1 < <(echo "$(thread_ns $pid $pid) $(thread_tick_ns $pid $pid)" \
		"$(task_ns $pid) $(task_tick_ns $pid)")
	wait $pid
	ev=$(jq .events.processed "$json")
	rm -f "$json"
	awk -v c=$((c1 - c0)) -v k=$((k1 - k0)) -v a=$((a1 - a0)) -v t=$((t1 - t0)) \
		-v w="$WINDOW" -v ev="${ev:-0}" -v d="$DURATION" 'BEGIN {
			printf "%.0f %.0f %.0f %.0f %.0f\n", c / w, k / w, (a - c) / w,
				(t - k) / w, ev / d }'
}

row() {
	printf "%-5s %-7s %-7s %-6s %10s %10s %10s %10s %10s\n" "$@"
}

machine_line
echo "# window ${WINDOW} s per run, $REPS repetitions, collectors alternating"
echo "# tlat top --source tracepoints --collector C -c CPUS -p PERIOD -d $DURATION -q --json F"
echo "# collector: tlat's main thread, ns of CPU per s (schedstat); tick: the same by"
echo "# utime + stime; threads: the measuring threads, likewise; ev/s: events processed"
row cpus period coll rep collector tick threads tick ev/s
for cpus in $CPUSETS; do
	for period in $PERIODS; do
		declare -A fig=()
		for rep in $(seq 1 "$REPS"); do
			for c in "${COLLECTORS[@]}"; do
				read -r col tick thr thrtick ev < <(measure "$c" "$cpus" "$period")
				row "$cpus" "${period}us" "$c" "$rep" "$col" "$tick" "$thr" "$thrtick" "$ev"
				fig[$c]+="$col $tick $thr $thrtick $ev;"
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
