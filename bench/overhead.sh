#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# overhead.sh - CPU time per activation of tlat (tracepoint source: all its
# threads and its collector, with each collector: trace and kernel) against
# cyclictest on the same period and CPUs, run side by side, alternating, in
# one invocation. Then a 60 s run at 100 us on all CPUs must miss no events.
#
# Two figures per run, per nominal activation (CPUs x window / period, the
# same for both tools), between t = 1 s and DURATION-1 s, so that start-up
# and tear-down are left out:
# - own: the on-CPU time of every task of the tool (schedstat's
#   sum_exec_runtime), checked against utime + stime (the same counter,
#   scaled by the kernel: consistency, not an independent method);
# - busy: the whole machine's time out of idle (/proc/uptime), which also
#   holds what the tool makes every other task pay (the events it enables
#   system-wide), cross-checked by the sum of every task's on-CPU time.
# Ratios are tlat / cyclictest, of the medians of REPS alternating runs.
# cyclictest holds /dev/cpu_dma_latency at 0 by default, so tlat is run with
# --dma-latency 0 too: in a VM, idle exits otherwise dominate a wakeup's cost.
#
# Usage: bench/overhead.sh [path/to/tlat]   (as root; results on stdout)
set -eu
cd "$(dirname "$0")/.."

. bench/lib.sh

# the tools, in the order each repetition runs them; the first is the anchor
TOOLS=(cyclictest tlat-trace tlat-kernel)
tool_cmd() {
	case $1 in
	cyclictest) echo "cyclictest -m -p95 -a -t -d0 -i $2 -D $DURATION -q" ;;
	tlat-trace) echo "$TLAT top --source tracepoints --collector trace --dma-latency 0 -p $2 -d $DURATION -q" ;;
	tlat-kernel) echo "$TLAT top --source tracepoints --collector kernel --dma-latency 0 -p $2 -d $DURATION -q" ;;
	esac
}

row() {
	printf "%-7s %-6s %-11s %8s %8s %6s  %8s %8s %6s\n" "$@"
}

machine_line
echo "# cyclictest: $(cyclictest --help 2>&1 | head -1)"
echo "# window ${WINDOW} s per measurement, $REPS repetitions, alternating; ns per activation"
for t in "${TOOLS[@]}"; do
	echo "# $t: $(tool_cmd "$t" PERIOD | sed "s|$TLAT|tlat|")"
done
echo "# own: the tool's tasks (schedstat), tick: the same by utime + stime;"
echo "# busy: the machine out of idle (/proc/uptime), tasks: every task's schedstat;"
echo "# ratios: against cyclictest, of the medians"
row period rep tool own tick ratio busy tasks ratio
for period in 1000 100; do
	declare -A fig=()
	for rep in $(seq 1 "$REPS"); do
		for t in "${TOOLS[@]}"; do
			# shellcheck disable=SC2046
			read -r own tick busy tasks < <(cost_per_activation $period $(tool_cmd "$t" $period))
			row "${period}us" "$rep" "$t" "$own" "$tick" "" "$busy" "$tasks" ""
			fig[$t]+="$own $tick $busy $tasks;"
		done
	done
	for t in "${TOOLS[@]}"; do
		for c in 1 2 3 4; do
			med[$c]=$(median $(echo "${fig[$t]}" | tr ';' '\n' | awk -v c=$c 'NF { print $c }'))
		done
		[ "$t" = "${TOOLS[0]}" ] && anchor=("${med[@]}")
		row "${period}us" median "$t" "${med[1]}" "${med[2]}" "$(ratio "${med[1]}" "${anchor[0]}")" \
			"${med[3]}" "${med[4]}" "$(ratio "${med[3]}" "${anchor[2]}")"
	done
	unset fig
done

echo
echo "# tlat top -p 100 -d 60 -q -D on all CPUs, each collector: missed events, dropped activations"
missed=0
for c in trace kernel; do
	echo "# --collector $c"
	out=$("$TLAT" top --source tracepoints --collector $c -p 100 -d 60 -q -D 2>&1 |
		grep -v '^tlat: \(source\|using\|tracefs\)')
	echo "$out" | sed 's/^/    /'
	echo "$out" | grep -q 'events missed' && missed=1
done
if [ $missed = 1 ]; then
	echo "RESULT: events were missed"
	exit 1
fi
echo "RESULT: no events missed"
