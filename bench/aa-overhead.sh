#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aa-overhead.sh - what the auto-analysis costs on the tracepoint source.
# With a threshold, tlat also traces every IRQ, softirq, NMI and sched_switch
# on all CPUs and decodes them. Compared, side by side and alternating, on
# the same period and CPUs (all):
#   anchor: tlat top --source tracepoints -p PERIOD -d 12 -q  (no analysis)
#   AA:     the same with -T 1000000, a threshold nothing reaches, so that
#           the analysis runs the whole time and nothing stops
# Two figures per run, per nominal activation, between t = 1 s and 11 s:
# tlat's own on-CPU time (its threads and its collector), and the whole
# system's busy time (/proc/uptime), which also holds the kernel's cost of
# writing the extra events in interrupts and switches.
# LOAD=hackbench runs rt-tests' hackbench (pipes, SCHED_OTHER) throughout,
# the load an RT CI puts next to its measurement: tens of thousands of
# switches a second for the analysis to trace and decode. The machine is
# then always busy, so only tlat's own time says what the analysis costs.
#
# Usage: [LOAD=hackbench] bench/aa-overhead.sh [path/to/tlat]
#        (as root; results on stdout)
set -eu
cd "$(dirname "$0")/.."
LOAD=${LOAD:-}

. bench/lib.sh

case "$LOAD" in
"") ;;
hackbench)
	command -v hackbench > /dev/null || { echo "LOAD=hackbench: no hackbench (rt-tests)" >&2; exit 1; }
	bash -c 'while :; do hackbench -p -g 4 -l 20000 > /dev/null 2>&1; done' &
	load_pid=$!
	trap 'kill $load_pid; pkill -x hackbench' EXIT
	sleep 1
	;;
*)
	echo "LOAD=$LOAD: unknown (hackbench)" >&2
	exit 1
	;;
esac

machine_line
echo "# window ${WINDOW} s per measurement, $REPS repetitions, alternating; ns per activation"
echo "# load: ${LOAD:-none}, $(switches_per_s) context switches/s"
printf "%-8s %-6s %10s %10s %7s   %10s %10s %7s\n" period rep "tlat" "tlat+AA" "ratio" \
	"system" "system+AA" "ratio"
for period in 1000 100; do
	s_tl=0 s_aa=0 s_sys=0 s_sysaa=0
	for rep in $(seq 1 "$REPS"); do
		read -r tl _ sys _ < <(cost_per_activation $period \
			"$TLAT" top --source tracepoints -p $period -d $DURATION -q)
		read -r aa _ sysaa _ < <(cost_per_activation $period \
			"$TLAT" top --source tracepoints -p $period -d $DURATION -q -T 1000000)
		s_tl=$((s_tl + tl)) s_aa=$((s_aa + aa)) s_sys=$((s_sys + sys))
		s_sysaa=$((s_sysaa + sysaa))
		printf "%-8s %-6s %7s ns %7s ns %7s   %7s ns %7s ns %7s\n" "${period}us" "$rep" \
			"$tl" "$aa" "$(ratio $aa $tl)" "$sys" "$sysaa" "$(ratio $sysaa $sys)"
	done
	printf "%-8s %-6s %7s ns %7s ns %7s   %7s ns %7s ns %7s\n" "${period}us" mean \
		$((s_tl / REPS)) $((s_aa / REPS)) "$(ratio $s_aa $s_tl)" $((s_sys / REPS)) \
		$((s_sysaa / REPS)) "$(ratio $s_sysaa $s_sys)"
done
