#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# overhead.sh - CPU time per activation of tlat (tracepoint source: all its
# threads and its collector) against cyclictest on the same period and CPUs,
# run side by side, alternating, in one invocation. Then a 60 s run at 100 us
# on all CPUs must miss no events.
#
# CPU time is the sum_exec_runtime of every task of the process
# (/proc/PID/task/*/schedstat), read at 1 s and at DURATION-1 s, so start-up
# and tear-down are left out. Activations are the nominal number in that
# window (CPUs x window / period): both tools are charged the same way.
# cyclictest holds /dev/cpu_dma_latency at 0 by default, so tlat is run with
# --dma-latency 0 too: in a VM, idle exits otherwise dominate a wakeup's cost.
#
# Usage: bench/overhead.sh [path/to/tlat]   (as root; results on stdout)
set -eu
cd "$(dirname "$0")/.."

. bench/lib.sh

machine_line
echo "# cyclictest: $(cyclictest --help 2>&1 | head -1)"
echo "# window ${WINDOW} s per measurement, $REPS repetitions, alternating"
printf "%-8s %-10s %12s %12s %8s\n" period rep "cyclictest" "tlat" "ratio"
for period in 1000 100; do
	sum_ct=0
	sum_tl=0
	for rep in $(seq 1 "$REPS"); do
		ct=$(cost_per_activation $period \
			cyclictest -m -p95 -a -t -d0 -i $period -D $DURATION -q)
		tl=$(cost_per_activation $period \
			"$TLAT" top --source tracepoints --dma-latency 0 -p $period -d $DURATION -q)
		sum_ct=$((sum_ct + ct))
		sum_tl=$((sum_tl + tl))
		printf "%-8s %-10s %9s ns %9s ns %8s\n" "${period}us" "$rep" "$ct" "$tl" \
			"$(awk -v a=$tl -v b=$ct 'BEGIN { printf "%.2f", a / b }')"
	done
	printf "%-8s %-10s %9s ns %9s ns %8s\n" "${period}us" "mean" "$((sum_ct / REPS))" \
		"$((sum_tl / REPS))" "$(awk -v a=$sum_tl -v b=$sum_ct 'BEGIN { printf "%.2f", a / b }')"
done

echo
echo "# tlat top -p 100 -d 60 -q on all CPUs: missed events"
out=$("$TLAT" top --source tracepoints -p 100 -d 60 -q 2>&1)
echo "$out" | sed 's/^/    /'
if echo "$out" | grep -q 'events missed'; then
	echo "RESULT: events were missed"
	exit 1
fi
echo "RESULT: no events missed"
