#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aa-overhead.sh - what the auto-analysis costs on the tracepoint source.
# With a threshold, tlat also traces every IRQ, softirq, NMI and sched_switch
# on all CPUs. The trace collector decodes them all the time; the kernel
# collector (BPF) leaves them in the instance's buffer, in overwrite mode,
# and decodes them only at a hit. Compared, side by side and alternating,
# on the same period and CPUs (all), tlat top --source tracepoints -p PERIOD
# -d 12 -q and:
#   trace:      --collector trace              (the anchor: no analysis)
#   trace+AA:   --collector trace -T 1000000   (a threshold nothing reaches,
#               so that the analysis runs the whole time and nothing stops)
#   kernel:     --collector kernel             (BPF, no analysis)
#   kernel+AA:  --collector kernel -T 1000000  (the events unread, no hit)
# Per nominal activation, between t = 1 s and 11 s: tlat's own on-CPU time
# (schedstat) and the whole system's busy time (/proc/uptime), which also
# holds the kernel's cost of writing the extra events in interrupts and
# switches; and, as the second method, tlat's utime + stime by the tick and
# every task's on-CPU time (schedstat of all tasks, a lower bound).
# LOAD=hackbench runs rt-tests' hackbench (pipes, SCHED_OTHER) throughout,
# the load an RT CI puts next to its measurement: tens of thousands of
# switches a second for the analysis to trace and decode. The machine is
# then always busy, so only tlat's own time says what the analysis costs.
#
# Usage: [LOAD=hackbench] [DURATION=12] [REPS=3] bench/aa-overhead.sh [path/to/tlat]
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
echo "# tlat: schedstat of its tasks; tick: its utime + stime; system: busy time"
echo "# (/proc/uptime); tasks: every task's schedstat (a lower bound of system)"
echo "# mean rows: each figure, then its ratio to trace's (the anchor); kernel+AA also to kernel's"
VARIANTS=(trace trace+AA kernel kernel+AA)
declare -A ARGS=(
	[trace]="--collector trace" [trace+AA]="--collector trace -T 1000000"
	[kernel]="--collector kernel" [kernel+AA]="--collector kernel -T 1000000"
)
printf "%-8s %-6s %-10s %10s %10s %10s %10s\n" period rep collector tlat tick system tasks
for period in 1000 100; do
	declare -A sum=()
	for rep in $(seq 1 "$REPS"); do
		for v in "${VARIANTS[@]}"; do
			# shellcheck disable=SC2086
			read -r tl tk sys tasks < <(cost_per_activation $period \
				"$TLAT" top --source tracepoints -p $period -d $DURATION -q ${ARGS[$v]})
			printf "%-8s %-6s %-10s %7s ns %7s ns %7s ns %7s ns\n" "${period}us" "$rep" \
				"$v" "$tl" "$tk" "$sys" "$tasks"
			sum[$v.tl]=$((${sum[$v.tl]:-0} + tl)) sum[$v.tk]=$((${sum[$v.tk]:-0} + tk))
			sum[$v.sys]=$((${sum[$v.sys]:-0} + sys))
			sum[$v.tasks]=$((${sum[$v.tasks]:-0} + tasks))
		done
	done
	# the means, and each one's ratio to the anchor's (kernel+AA: also to kernel's)
	for v in "${VARIANTS[@]}"; do
		line=$(printf "%-8s %-6s %-10s" "${period}us" mean "$v")
		for f in tl tk sys tasks; do
			line+=$(printf " %7s ns %5s" $((sum[$v.$f] / REPS)) \
				"$(ratio "${sum[$v.$f]}" "${sum[trace.$f]}")")
		done
		if [ "$v" = kernel+AA ]; then
			line+=" | to kernel:"
			for f in tl tk sys tasks; do
				line+=" $(ratio "${sum[$v.$f]}" "${sum[kernel.$f]}")"
			done
		fi
		echo "$line"
	done
	unset sum
done
