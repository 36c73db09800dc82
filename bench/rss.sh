#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rss.sh - tlat's memory against run length: the resident set of tlat top
# at 10 s and at LONG_S (600 s) into a run, at 100 us on all CPUs, with each
# collector, both runs at once. Constant means within 5%.
#
# RSS is read twice: the kernel's counter (VmRSS, /proc/PID/status) and a
# walk of the page tables (Rss, /proc/PID/smaps_rollup).
#
# Usage: bench/rss.sh [path/to/tlat]   (as root; results on stdout)
set -eu
cd "$(dirname "$0")/.."

. bench/lib.sh

LONG_S=${LONG_S:-600}
POINTS="10 60 300 $LONG_S"

rss_kb() {
	echo "$(awk '/^VmRSS:/ { print $2 }' /proc/$1/status)" \
		"$(awk '/^Rss:/ { print $2 }' /proc/$1/smaps_rollup)"
}

machine_line
echo "# tlat top --source tracepoints --collector C -p 100 -d $((LONG_S + 5)) -q, both at once"
declare -A pid
for c in trace kernel; do
	"$TLAT" top --source tracepoints --collector $c -p 100 -d $((LONG_S + 5)) -q \
		> /dev/null 2>&1 &
	pid[$c]=$!
done
printf "%-8s %8s %12s %12s %12s %12s\n" collector "t (s)" "VmRSS kB" "Rss kB" \
	"vs 10 s" "vs 10 s"
declare -A first
t0=$(date +%s)
for p in $POINTS; do
	sleep $((t0 + p - $(date +%s)))
	for c in trace kernel; do
		read -r vm rss < <(rss_kb "${pid[$c]}")
		[ "$p" = 10 ] && first[$c]="$vm $rss"
		read -r vm0 rss0 <<< "${first[$c]}"
		printf "%-8s %8s %12s %12s %12s %12s\n" $c $p $vm $rss "$(ratio $vm $vm0)" \
			"$(ratio $rss $rss0)"
	done
done
wait
